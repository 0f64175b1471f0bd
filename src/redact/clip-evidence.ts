/**
 * Evidence is quoted, never dumped: whatever part of jscr made a finding (a rule, a scanner, the model,
 * the prover), the evidence a report shows is at most a few lines, each cut to a window. Applied in
 * the one pass every report goes through (maskReport), after fingerprints were made, so a finding's
 * identity does not change with the display limits.
 */

/** Longest evidence line shown; longer lines end in an ellipsis. */
export const MAX_EVIDENCE_LINE_CHARS = 400;
/** Most evidence lines shown. */
export const MAX_EVIDENCE_LINES = 20;

export function clipEvidence(evidence: string): string {
  if (evidence.length <= MAX_EVIDENCE_LINE_CHARS && !evidence.includes('\n')) return evidence;
  const lines = evidence.split('\n');
  const shown = lines.slice(0, MAX_EVIDENCE_LINES).map((line) => (line.length > MAX_EVIDENCE_LINE_CHARS ? `${line.slice(0, MAX_EVIDENCE_LINE_CHARS)}…` : line));
  if (lines.length > MAX_EVIDENCE_LINES) shown.push(`… (${lines.length - MAX_EVIDENCE_LINES} more lines)`);
  return shown.join('\n');
}
