/**
 * A finding's identity (docs/adr/0020-per-occurrence-fingerprints.md). Version 2, the `fingerprint`
 * field: rule + path + the enclosing function's qualified name + normalised evidence + which occurrence
 * of that code the finding is within the function (or the file, outside any function). It survives the
 * code moving to another line and edits elsewhere, and tells two copies of one line apart. Version 1,
 * `fingerprint_v1` (rule + path + normalised evidence), is kept so suppressions and code-scanning alerts
 * written before version 2 still find their finding.
 */
import { createHash } from 'node:crypto';
import type { Finding, Occurrence } from './finding.js';

/** Evidence normalised for fingerprinting: whitespace runs folded, blank lines dropped, trimmed. */
export function normaliseEvidence(evidence: string): string {
  return evidence
    .split(/\r?\n/)
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line.length > 0)
    .join('\n');
}

/** Version 1: rule + path + normalised evidence. Every copy of one line shares it. */
export function fingerprintV1(rule: string, path: string, evidence: string): string {
  return createHash('sha256').update(`${rule}\0${path}\0${normaliseEvidence(evidence)}`).digest('hex');
}

/**
 * Version 2, 64 hex digits in two halves: the occurrence (version 1's parts plus the enclosing function
 * and the copy's index in it), then the code alone (the first half of version 1). The id is the start
 * of the first half, so each copy has its own; the second half lets a suppression still find its code
 * when the only copy of it moved to another function (src/review/fingerprint-index.ts).
 */
export function fingerprintV2(rule: string, path: string, evidence: string, occurrence: Occurrence): string {
  const place = createHash('sha256').update(`v2\0${rule}\0${path}\0${occurrence.scope}\0${normaliseEvidence(evidence)}\0${occurrence.index}`).digest('hex');
  return `${place.slice(0, V2_HALF)}${fingerprintV1(rule, path, evidence).slice(0, V2_HALF)}`;
}

/** Hex digits in each half of a version 2 fingerprint. */
export const V2_HALF = 32;

/** Before its place in the file is known a finding counts as the first occurrence at file level. */
const FIRST_IN_FILE: Occurrence = { scope: '', index: 0 };

/** Both fingerprints of a finding as rule `rule` would have it (the finding's own rule, or an old id of it). */
export function fingerprintsAs(finding: Pick<Finding, 'path' | 'evidence' | 'occurrence'>, rule: string): { v1: string; v2: string } {
  return { v1: fingerprintV1(rule, finding.path, finding.evidence), v2: fingerprintV2(rule, finding.path, finding.evidence, finding.occurrence ?? FIRST_IN_FILE) };
}

/** Complete a finding: fill in both fingerprints and the id from rule, path, evidence and occurrence. */
export function makeFinding(fields: Omit<Finding, 'id' | 'fingerprint' | 'fingerprint_v1'>): Finding {
  const { v1, v2 } = fingerprintsAs(fields, fields.rule);
  return { id: v2.slice(0, 12), ...fields, fingerprint: v2, fingerprint_v1: v1 };
}

/** The finding placed at `occurrence`: its version 2 fingerprint and id follow. */
export function atOccurrence(finding: Finding, occurrence: Occurrence): Finding {
  const { id: _id, fingerprint: _fingerprint, fingerprint_v1: _v1, ...fields } = finding;
  return makeFinding({ ...fields, occurrence });
}
