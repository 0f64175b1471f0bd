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

/** Version 2: version 1's parts plus where the occurrence is (enclosing function, index within it). */
export function fingerprintV2(rule: string, path: string, evidence: string, occurrence: Occurrence): string {
  return createHash('sha256').update(`v2\0${rule}\0${path}\0${occurrence.scope}\0${normaliseEvidence(evidence)}\0${occurrence.index}`).digest('hex');
}

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
