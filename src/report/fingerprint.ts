import { createHash } from 'node:crypto';
import type { Finding } from './finding.js';

/** Evidence normalised for fingerprinting: whitespace runs folded, blank lines dropped, trimmed. */
export function normaliseEvidence(evidence: string): string {
  return evidence
    .split(/\r?\n/)
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line.length > 0)
    .join('\n');
}

/**
 * A finding's identity: rule + path + normalised evidence. It survives the code moving to another line,
 * which is what suppressions and `--finding` rely on.
 */
export function fingerprint(rule: string, path: string, evidence: string): string {
  return createHash('sha256').update(`${rule}\0${path}\0${normaliseEvidence(evidence)}`).digest('hex');
}

/** Complete a finding: fill in fingerprint and id from rule, path and evidence. */
export function makeFinding(fields: Omit<Finding, 'id' | 'fingerprint'>): Finding {
  const fp = fingerprint(fields.rule, fields.path, fields.evidence);
  return { id: fp.slice(0, 12), ...fields, fingerprint: fp };
}
