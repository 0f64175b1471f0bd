/** `--format json`: the SPEC 4 object with a fixed key order, byte-identical for the same report. */
import { escapeJsonText } from './escape.js';
import type { Finding, ReviewReport } from './finding.js';
import type { RenderOptions } from './options.js';

/** The SPEC 4 keys, in the order they are printed; any other (additive) key follows, sorted. */
const REPORT_KEYS = [
  'schema_version',
  'tool',
  'change',
  'findings',
  'rejected',
  'steps',
  'scanners',
  'limits_reached',
  'complete',
  'incomplete_reasons',
  'exit_code',
] as const;

/** Plain data with object keys sorted, so extras built in any order print the same way. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = canonical((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

/** A finding with the SPEC 4 key order; `extra` last and only when present. */
function findingToJson(f: Finding): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: f.id,
    rule: f.rule,
    source: f.source,
    severity: f.severity,
    confidence: f.confidence,
    path: f.path,
    line: f.line,
    end_line: f.end_line,
    title: f.title,
    message: f.message,
    evidence: f.evidence,
    cwe: f.cwe,
    fingerprint: f.fingerprint,
    fingerprint_v1: f.fingerprint_v1,
  };
  if (f.prover !== undefined) out.prover = canonical(f.prover);
  if (f.merged !== undefined && f.merged.length > 0) out.merged = f.merged.map((m) => ({ rule: m.rule, source: m.source, line: m.line, fingerprint: m.fingerprint }));
  // A data-flow finding's path, source first (docs/flow.md, "In the report").
  if (f.source === 'flow' && f.flow !== undefined) out.flow = f.flow.map((step) => ({ role: step.role ?? 'step', path: step.path, line: step.line, text: step.text ?? step.message }));
  if (f.extra !== undefined) out.extra = canonical(f.extra);
  return out;
}

/** The report as plain data in print order. */
function reportToJson(report: ReviewReport): Record<string, unknown> {
  const out: Record<string, unknown> = {
    schema_version: report.schema_version,
    tool: { name: report.tool.name, version: report.tool.version },
    change: {
      kind: report.change.kind,
      range: report.change.range,
      files: report.change.files.map((file) => ({ path: file.path, status: file.status, old_path: file.old_path })),
    },
    findings: report.findings.map(findingToJson),
    rejected: report.rejected.map((r) => ({ finding: findingToJson(r.finding), reason: r.reason })),
    steps: report.steps.map((s) => ({ name: s.name, status: s.status, detail: s.detail, ...(s.duration_ms === undefined ? {} : { duration_ms: s.duration_ms }) })),
    scanners: report.scanners.map((s) => ({ name: s.name, status: s.status, detail: s.detail, ...(s.not_analysed === undefined ? {} : { not_analysed: s.not_analysed.map((u) => ({ path: u.path, reason: u.reason })) }) })),
    limits_reached: [...report.limits_reached],
    complete: report.complete,
    incomplete_reasons: [...report.incomplete_reasons],
    exit_code: report.exit_code,
  };
  const known = new Set<string>(REPORT_KEYS);
  for (const key of Object.keys(report).sort()) {
    if (!known.has(key) && report[key] !== undefined) out[key] = canonical(report[key]);
  }
  return out;
}

/** The JSON report: 2-space indent, trailing newline, invisible and control characters as `\u` escapes. */
export function renderJson(report: ReviewReport, _opts: RenderOptions): string {
  return `${escapeJsonText(JSON.stringify(reportToJson(report), null, 2))}\n`;
}
