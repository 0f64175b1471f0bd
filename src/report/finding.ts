/**
 * The finding and report shapes of SPEC 4. Field names are the JSON names (snake_case) so the report
 * is the data, not a translation of it.
 */

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Lower is more severe; used for sorting and for `--fail-on`. */
export function severityRank(severity: Severity): number {
  return SEVERITIES.indexOf(severity);
}

/** Where a finding came from: `rule`, `scanner:<name>`, `prover`, `injection` or `model`. */
type FindingSource = 'rule' | 'flow' | 'prover' | 'injection' | 'model' | `scanner:${string}`;

export interface Finding {
  /** Short stable id for this run's report: the first 12 hex digits of the fingerprint. */
  id: string;
  /** Rule id, e.g. `jscr/sql-string-concat`, `bandit/B602`, `jscr/prompt-injection-attempt`. */
  rule: string;
  source: FindingSource;
  severity: Severity;
  /** 0..1; deterministic rules use their declared confidence. */
  confidence: number;
  /** Repository-relative path with forward slashes. */
  path: string;
  /** 1-based line in the new file. */
  line: number;
  end_line: number;
  title: string;
  message: string;
  /** The quoted source lines the finding rests on (already redacted of secrets). */
  evidence: string;
  /** `CWE-78` style, or null when the rule names none. */
  cwe: string | null;
  /**
   * Version 2 (src/report/fingerprint.ts): rule + path + enclosing function + normalised evidence +
   * occurrence index; stable across runs and line moves, different for each copy of one line.
   */
  fingerprint: string;
  /** Version 1: rule + path + normalised evidence, shared by every copy; still matched by suppressions. */
  fingerprint_v1: string;
  /** Where the finding sits, for its version 2 fingerprint (not printed; absent: first at file level). */
  occurrence?: Occurrence;
  /** Extra, source-specific detail (e.g. the model's original line before anchoring). */
  extra?: Record<string, unknown>;
  /** The findings folded into this one (same fingerprint, or another source at the same line and CWE). */
  merged?: MergedFinding[];
  /** The path the finding rests on, source first (the prover's witness; later data flow); SARIF `codeFlows`. */
  flow?: FlowStep[];
  /** Prover findings only: the entry point, the calls to the operation and the checks seen on the way. */
  prover?: ProverDetail;
}

/** What a prover finding rests on, in the JSON report as `prover` (the same fields `jscr prove` prints). */
export interface ProverDetail {
  entry: { path: string; function: string; line: number; framework: string; evidence: string };
  hops: { function: string; path: string; call_line: number; relation?: string }[];
  operation: { id: string; kind: string; line: number; call: string };
  /** `unguarded_path`, `authn_only`, `sibling_norm` or `resource_unbound`. */
  label: string;
  /** The check kinds that would discharge the operation, joined by `|`. */
  missing: string;
  /** Checks seen on the path that do not cover the operation (a login only, a boolean nothing acts on...). */
  checks_seen: string[];
  /** The path in order, one component per step (src/prover/trace.ts): what a reader follows to check the finding. */
  trace: TraceStep[];
  /** How "the check comes before the operation" was judged: `control_flow` (the function's graph) or `order` (no graph could be built: `reason`). */
  dominance?: { judged_by: 'control_flow' | 'order'; reason: string | null };
}

/** One component of a prover finding's trace. */
export interface TraceStep {
  /** `entry`, `call` (a hop), `removed_check` (a check the change took away on the path), `operation`, `checks_seen` (checks on the path that do not cover it), `would_discharge`. */
  step: 'entry' | 'call' | 'removed_check' | 'operation' | 'checks_seen' | 'would_discharge';
  path: string | null;
  line: number | null;
  text: string;
}

/** A finding the report folded into another, named so a reader can tell which. */
export interface MergedFinding {
  rule: string;
  source: string;
  line: number;
  fingerprint: string;
}

/** A finding's place: the enclosing function's qualified name ('' outside any) and which copy it is. */
export interface Occurrence {
  scope: string;
  /** 0 for the first occurrence of the finding's code in its scope, 1 for the next copy, and so on. */
  index: number;
}

/** One location on a finding's path. */
export interface FlowStep {
  path: string;
  /** 1-based line. */
  line: number;
  /** What happens here, in words. */
  message: string;
  /** Data-flow findings: where outside data enters, a step it goes through, or where it is used. */
  role?: 'source' | 'step' | 'sink';
  /** Data-flow findings: the expression or variable at this place, as written (shortened). */
  text?: string;
}

export type StepStatus = 'ran' | 'skipped' | 'not_run' | 'failed';

export interface StepRecord {
  name: string;
  status: StepStatus;
  detail: string;
  /** Wall-clock milliseconds the step took (absent in reports made before a step ran). */
  duration_ms?: number;
}

/** A scanner's status: a step's, or `partial` when it ran but could not analyse some of its files. */
export type ScannerStatus = StepStatus | 'partial';

export interface ScannerRecord {
  name: string;
  status: ScannerStatus;
  detail: string;
  /** With `partial`: the files it could not analyse (not reviewed by this scanner), with its reason. */
  not_analysed?: { path: string; reason: string }[];
}

export type FileStatus = 'added' | 'deleted' | 'modified' | 'renamed' | 'copied' | 'binary' | 'mode-only';

export interface ChangeSummary {
  kind: 'range' | 'merge-base-range' | 'staged' | 'commit' | 'working-tree';
  range: string;
  files: { path: string; status: FileStatus; old_path: string | null }[];
}

export interface RejectedFinding {
  finding: Finding;
  reason: string;
}

/** What the ordering step (`orderFindings`) left out of `findings`, so the report can say so. */
export interface OmittedFindings {
  /** Findings folded into another with the same fingerprint, or merged across sources. */
  duplicates: number;
  /** Findings under `review.min_confidence`. */
  below_min_confidence: number;
  /** Findings cut by `review.max_findings`. */
  truncated: number;
}

/** The JSON report of SPEC 4 (plus a few additive keys such as `unused_suppressions`). */
export interface ReviewReport {
  schema_version: 1;
  tool: { name: 'jscr'; version: string };
  change: ChangeSummary;
  findings: Finding[];
  rejected: RejectedFinding[];
  steps: StepRecord[];
  scanners: ScannerRecord[];
  limits_reached: string[];
  complete: boolean;
  incomplete_reasons: string[];
  exit_code: 0 | 1 | 2 | 3;
  /** Optional, additive: what ordering left out (filled by the engine from `orderFindings`). */
  omitted?: OmittedFindings;
  [extra: string]: unknown;
}
