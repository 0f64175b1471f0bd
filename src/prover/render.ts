/**
 * The prover's outputs: the JSON report of `jscr prove` (snake_case, SPEC 5), one sentence per finding
 * for the text format, SARIF through the review's renderer, and the conversion of a prover finding to
 * the review's Finding (`source: "prover"`) for the review engine.
 */
import { escapeJsonText, escapeOneLine } from '../report/escape.js';
import type { Finding, ProverDetail } from '../report/finding.js';
import { makeFinding } from '../report/fingerprint.js';
import { renderSarif } from '../report/sarif.js';
import { builtinCheckMeta } from '../rules/checks.js';
import { VERSION } from '../version.js';
import { degradationText, incompleteDegradationLines } from './degradation.js';
import { traceLines } from '../report/trace.js';
import { missingInWords, traceFlow, traceOf } from './trace.js';
import type { Coverage, ProveResult, ProverFinding } from './types.js';

/** The web frameworks the recognisers know, in words, for a run that recognised none. */
/** What each recogniser's entries are, in a user's words; a test requires a name for every recogniser of the registry. */
export const FRAMEWORK_NAMES: Readonly<Record<string, string>> = {
  stapler: 'Jenkins/Stapler',
  jetty: 'Jetty servlets and JAX-RS',
  registration: 'servlets registered in code',
  spring: 'Spring MVC',
  symfony: 'Symfony',
  laravel: 'Laravel',
  livewire: 'Livewire',
  remix: 'Remix',
  'react-router': 'React Router',
  trpc: 'tRPC',
  nextjs: 'Next.js',
  express: 'Express and Koa',
  nestjs: 'NestJS',
  fastify: 'Fastify',
  tornado: 'Tornado',
  django: 'Django',
  flask: 'Flask',
  fastapi: 'FastAPI',
  mcp: 'MCP servers',
};
const names = Object.values(FRAMEWORK_NAMES);
const SUPPORTED_FRAMEWORKS = `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;

/**
 * Why a run proved nothing although it had something to prove: protected operations were found but no
 * entry point of a supported framework was recognised, so "no finding" would mean nothing (SPEC 2:
 * exit 3). Null when the run did prove what it found.
 */
export function notProvenReason(result: ProveResult): string | null {
  const unproved = result.coverage.uncheckedByReason.framework_unrecognised ?? 0;
  if (result.coverage.entryPoints > 0 || unproved === 0) return null;
  return `not proven: ${unproved} protected operation${unproved === 1 ? '' : 's'} found, but no entry point of a supported web framework was recognised (jscr knows ${SUPPORTED_FRAMEWORKS}), so none could be checked`;
}

/** Which run produced the result. */
export interface ProveRunInfo {
  mode: 'change' | 'repository';
  /** `base..head` for a change, the head revision otherwise. */
  range: string;
  exitCode: 0 | 1 | 3;
  /** Why the run proved nothing although it had something to prove (`notProvenReason`), or null. */
  notProven: string | null;
}

function coverageJson(c: Coverage): Record<string, unknown> {
  return {
    files_by_language: c.filesByLanguage,
    frameworks_recognised: c.frameworksRecognised,
    entry_points: c.entryPoints,
    reached: c.reached,
    unreached: c.unreached,
    operations_checked: c.operationsChecked,
    operations_discharged: c.operationsDischarged,
    unchecked_by_reason: c.uncheckedByReason,
  };
}

/** The entry, hops, operation and checks of a finding: the same fields in `prove`'s and the review's JSON. */
function proverDetail(f: ProverFinding): ProverDetail {
  return {
    entry: f.entry,
    hops: f.hops.map((h) => ({ function: h.function, path: h.path, call_line: h.callLine, ...(h.relation !== undefined ? { relation: h.relation } : {}) })),
    operation: f.operation,
    label: f.label,
    missing: f.missing,
    checks_seen: f.weakerChecks,
    trace: traceOf(f),
    ...(f.dominance ? { dominance: { judged_by: f.dominance.judgedBy, reason: f.dominance.judgedBy === 'order' ? f.dominance.reason : null } } : {}),
  };
}

/** A prover finding in the JSON shape of `jscr prove --format json`. */
function findingJson(f: ProverFinding): Record<string, unknown> {
  const detail = proverDetail(f);
  return {
    id: f.id,
    rule: f.rule,
    label: f.label,
    path: f.path,
    line: f.line,
    function: f.function,
    entry: detail.entry,
    hops: detail.hops,
    operation: detail.operation,
    missing: f.missing,
    weaker_checks: f.weakerChecks,
    trace: detail.trace,
    dominance: detail.dominance ?? null,
    removed_checks: f.removedChecks ?? [],
    unbound_resource: f.unboundResource ?? null,
    severity: f.severity,
    confidence: f.confidence,
    cwe: f.cwe,
    evidence: f.evidence,
  };
}

/** The whole JSON report. */
export function proveJson(result: ProveResult, run: ProveRunInfo): string {
  const report = {
    schema_version: 1,
    tool: { name: 'jscr', version: VERSION },
    mode: run.mode,
    range: run.range,
    findings: result.findings.map(findingJson),
    coverage: coverageJson(result.coverage),
    degradations: result.degradations.map(degradationText),
    // Entries the configuration declares public are listed with the reason, never silently dropped.
    public_entries_skipped: (result.declared?.publicSkipped ?? []).map((s) => ({ path: s.path, function: s.function, line: s.line, framework: s.framework, declared: s.declared, reason: s.reason })),
    notes: result.declared?.stale ?? [],
    not_proven: run.notProven,
    exit_code: run.exitCode,
  };
  return `${escapeJsonText(JSON.stringify(report, null, 2))}\n`;
}

/** What would settle a finding, said once for every finding. */
const DISCHARGE_IN_WORDS = 'such a check before the operation, on every path from the entry, would settle it.';

/** What the path shows besides the missing check, in plain words. */
const LABEL_WORDS: Record<ProverFinding['label'], string> = {
  unguarded_path: '',
  authn_only: ' The path only checks that the caller is logged in.',
  sibling_norm: ' Other entries of the same class do make this check.',
  resource_unbound: '',
};

/** One sentence: entry, hops, operation, the missing check. */
export function findingSentence(f: ProverFinding): string {
  // A hop with a relation is no call on the way (an inherited handler's sibling): its sentence says what it is.
  const calls = f.hops.filter((h) => h.relation === undefined);
  const via = calls.length > 1 ? ` through ${calls.slice(1).map((h) => `${h.function} (${h.path}:${h.callLine})`).join(', then ')}` : '';
  const where = calls.length > 0 ? `, which calls it at ${calls[calls.length - 1]?.path ?? f.path}:${calls[calls.length - 1]?.callLine ?? f.line}` : '';
  const removed = (f.removedChecks ?? []).length > 0 ? ` The change removed ${(f.removedChecks ?? []).map((r) => `\`${r.text}\` (${r.path}, where line ${r.line} now is)`).join(' and ')}, a check on this path before it.` : '';
  const weaker = f.weakerChecks.length > 0 ? ` The only checks on the path are ${f.weakerChecks.join('; ')}, which do not cover it.` : '';
  const operation = f.operation.call.endsWith('(...)') ? `is itself a ${f.operation.kind.replace(/_/g, ' ')} operation (${f.operation.id})` : `reaches ${f.operation.kind.replace(/_/g, ' ')} (${f.operation.id}: ${f.operation.call}) at ${f.path}:${f.line}`;
  const missing = f.unboundResource ? `${missingInWords(f.missing)} bound to \`${f.unboundResource.variable}\`` : missingInWords(f.missing);
  const unbound = f.unboundResource ? ` ${f.unboundResource.sentence}` : '';
  const byOrder = f.dominance?.judgedBy === 'order' ? ` Whether a check comes before it was judged by statement order: ${f.dominance.reason}.` : '';
  return `The ${f.entry.framework} entry ${f.entry.function} (${f.entry.path}:${f.entry.line}; ${f.entry.evidence})${via}${where} ${operation} with no ${missing} before it: ${DISCHARGE_IN_WORDS}${LABEL_WORDS[f.label]}${unbound}${removed}${weaker}${byOrder}`;
}

/**
 * Why "found nothing" may mean nothing was checked: entry points were recognised but none reached an
 * operation the prover knows (an application whose writes go through a client no row names looks
 * like this), so the reader does not take the silence for a proof.
 */
function nothingChecked(result: ProveResult, run: ProveRunInfo): string {
  const c = result.coverage;
  if (c.operationsChecked > 0 || c.entryPoints === 0) return '';
  if (run.mode === 'change') return ': the change reaches no operation the prover knows, so none was checked';
  return `: none of the ${c.entryPoints} entry points reaches an operation the prover knows, so none was checked (writes through a database client or wrapper no row names are not seen)`;
}

/** The text report. */
export function proveText(result: ProveResult, run: ProveRunInfo): string {
  const lines: string[] = [];
  const scope = run.mode === 'change' ? `the change ${run.range}` : `the repository at ${run.range}`;
  if (run.notProven !== null) {
    lines.push(`jscr prove: ${scope}: ${run.notProven}.`);
  } else if (result.findings.length === 0) {
    lines.push(`jscr prove: these access-control checks, on ${scope}, found nothing${nothingChecked(result, run)}.`);
  } else {
    lines.push(`jscr prove: ${result.findings.length} unguarded operation${result.findings.length === 1 ? '' : 's'} in ${scope}.`);
    result.findings.forEach((f, i) => {
      lines.push('');
      lines.push(`${i + 1}. [${f.severity}] ${f.path}:${f.line} ${findingSentence(f)}`);
      for (const line of traceLines(traceOf(f))) lines.push(`   ${line}`);
    });
  }
  const c = result.coverage;
  const frameworks = Object.entries(c.frameworksRecognised).map(([k, v]) => `${k} ${v}`).join(', ') || 'none';
  const unchecked = Object.entries(c.uncheckedByReason).map(([k, v]) => `${k} ${v}`).join(', ') || 'none';
  lines.push('');
  lines.push(`Coverage: ${c.entryPoints} entry points (${frameworks}); ${c.operationsChecked} operations checked, ${c.operationsDischarged} discharged, ${c.unreached} unreached; unchecked: ${unchecked}.`);
  const skipped = result.declared?.publicSkipped ?? [];
  if (skipped.length > 0) {
    lines.push(`Public on purpose ([prover] public), not proved as entry points (${skipped.length}):`);
    for (const s of skipped) lines.push(`  ${s.framework} ${s.function} (${s.path}:${s.line}): ${s.reason}`);
  }
  for (const note of result.declared?.stale ?? []) lines.push(`Note: ${note}.`);
  if (result.degradations.length > 0) {
    lines.push(`Degradations (${result.degradations.length}):`);
    for (const d of result.degradations.slice(0, 20)) lines.push(`  ${degradationText(d)}`);
    if (result.degradations.length > 20) lines.push(`  ... and ${result.degradations.length - 20} more`);
  }
  // paths, names and evidence are the repository's: each line escaped as a whole
  return `${lines.map(escapeOneLine).join('\n')}\n`;
}

/** A prover finding as the review's Finding (`source: "prover"`). */
export function toReviewFinding(f: ProverFinding): Finding {
  return makeFinding({
    rule: f.rule,
    source: 'prover',
    severity: f.severity,
    confidence: f.confidence,
    path: f.path,
    line: f.line,
    end_line: f.line,
    title: `${f.operation.kind.replace(/_/g, ' ')} reachable from a ${f.entry.framework} entry without ${missingInWords(f.missing)}`,
    message: findingSentence(f),
    evidence: f.evidence,
    cwe: f.cwe,
    extra: { prover_id: f.id },
    prover: proverDetail(f),
    flow: traceFlow(f),
  });
}

/** SARIF 2.1.0 through the review's renderer. */
export function proveSarif(result: ProveResult, run: ProveRunInfo): string {
  const incomplete = run.exitCode === 3;
  return renderSarif(
    {
      schema_version: 1,
      tool: { name: 'jscr', version: VERSION },
      change: { kind: run.mode === 'change' ? 'range' : 'commit', range: run.range, files: [] },
      findings: result.findings.map(toReviewFinding),
      rejected: [],
      steps: [],
      scanners: [],
      limits_reached: [],
      complete: !incomplete,
      incomplete_reasons: incomplete ? [...incompleteDegradationLines(result.degradations), ...(run.notProven === null ? [] : [run.notProven])] : [],
      exit_code: run.exitCode,
    },
    {
      color: false,
      rules: builtinCheckMeta(),
    },
  );
}
