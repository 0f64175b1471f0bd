import { severityRank, type Finding, type Severity } from './finding.js';

/** The severities `--fail-on` and `review.fail_on` accept; `info` findings never fail a review. */
export const FAIL_ON_LEVELS = ['critical', 'high', 'medium', 'low'] as const satisfies readonly Severity[];
export type FailOn = (typeof FAIL_ON_LEVELS)[number];

/**
 * SPEC 2: the exit code of a review that ran. Incomplete (3) wins over findings (1), which wins over
 * clean (0). Exit 2 (could not run) never reaches here: it is a thrown typed error.
 */
export function exitCodeFor(report: { complete: boolean; findings: readonly Finding[] }, failOn: FailOn): 0 | 1 | 3 {
  if (!report.complete) return 3;
  const threshold = severityRank(failOn);
  const fails = report.findings.some((f) => f.severity !== 'info' && severityRank(f.severity) <= threshold);
  return fails ? 1 : 0;
}
