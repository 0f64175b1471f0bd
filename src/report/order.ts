/**
 * Seed step 11, "order and report": dedupe, drop under `review.min_confidence`, sort, truncate at
 * `review.max_findings`. Pure and deterministic: the same findings in any input order give the same output.
 */
import { severityRank, type Finding, type MergedFinding } from './finding.js';

export interface OrderOptions {
  /** Findings with confidence below this are dropped (`review.min_confidence`). */
  minConfidence: number;
  /** At most this many findings are kept, the most severe first (`review.max_findings`). */
  maxFindings: number;
}

export interface OrderResult {
  /** The findings to report, in report order. */
  findings: Finding[];
  /** How many findings were under `minConfidence`. */
  droppedLowConfidence: number;
  /** How many findings were cut by `maxFindings`. */
  truncated: number;
  /** How many findings were folded into another (same fingerprint, or another source at the same place). */
  duplicates: number;
}

/** Another source that reported the same problem, recorded on the kept finding as `extra.also_reported_by`. */
interface AlsoReportedBy {
  source: string;
  rule: string;
  fingerprint: string;
}

/** Plain code-unit comparison: locale-independent, so the order is the same on every machine. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A deterministic finding reproduces on every run; a model's may not. Between equals, keep the former. */
function modelLast(finding: Finding): number {
  return finding.source === 'model' ? 1 : 0;
}

/** jscr's own finding (its rule, prover, model) describes the problem in jscr's terms; keep it over a scanner's. */
function scannerLast(finding: Finding): number {
  return finding.source.startsWith('scanner:') ? 1 : 0;
}

/**
 * Which of two reports of one problem to keep: most severe, then a deterministic source over the model,
 * then most confident, then a fixed tie-break.
 */
function preference(a: Finding, b: Finding): number {
  return (
    severityRank(a.severity) - severityRank(b.severity) ||
    modelLast(a) - modelLast(b) ||
    b.confidence - a.confidence ||
    compareText(a.source, b.source) ||
    compareText(a.rule, b.rule) ||
    a.line - b.line ||
    compareText(a.fingerprint, b.fingerprint) ||
    compareText(a.id, b.id)
  );
}

/** Report order: severity (critical first), path, line, rule id; then fields that make the order total. */
function compareFindings(a: Finding, b: Finding): number {
  return (
    severityRank(a.severity) - severityRank(b.severity) ||
    compareText(a.path, b.path) ||
    a.line - b.line ||
    compareText(a.rule, b.rule) ||
    a.end_line - b.end_line ||
    compareText(a.fingerprint, b.fingerprint) ||
    compareText(a.source, b.source) ||
    b.confidence - a.confidence ||
    compareText(a.id, b.id)
  );
}

function existingAlsoReportedBy(finding: Finding): AlsoReportedBy[] {
  const value = finding.extra?.also_reported_by;
  if (!Array.isArray(value)) return [];
  return value.filter(
    (v): v is AlsoReportedBy =>
      typeof v === 'object' && v !== null && typeof (v as AlsoReportedBy).source === 'string' && typeof (v as AlsoReportedBy).rule === 'string' && typeof (v as AlsoReportedBy).fingerprint === 'string',
  );
}

/** What the kept finding absorbed, its own earlier merges included: sorted, without repeats. */
function mergedInto(kept: Finding, others: readonly Finding[]): MergedFinding[] {
  const all = [...(kept.merged ?? []), ...others.flatMap((o) => [{ rule: o.rule, source: o.source, line: o.line, fingerprint: o.fingerprint }, ...(o.merged ?? [])])];
  const seen = new Set<string>();
  return all
    .filter((m) => {
      const key = `${m.source}\0${m.rule}\0${m.line}\0${m.fingerprint}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => a.line - b.line || compareText(a.source, b.source) || compareText(a.rule, b.rule) || compareText(a.fingerprint, b.fingerprint));
}

/**
 * The kept finding, with every finding it absorbed in `merged` and the other sources among them
 * (sorted, without repeats) in `extra.also_reported_by`.
 */
function absorb(kept: Finding, others: readonly Finding[]): Finding {
  if (others.length > 0) kept = { ...kept, merged: mergedInto(kept, others) };
  const entries = [...existingAlsoReportedBy(kept)];
  for (const other of others) {
    if (other.source !== kept.source) entries.push({ source: other.source, rule: other.rule, fingerprint: other.fingerprint });
    entries.push(...existingAlsoReportedBy(other));
  }
  const seen = new Set<string>();
  const unique = entries
    .filter((e) => e.source !== kept.source || e.rule !== kept.rule)
    .filter((e) => {
      const key = `${e.source}\0${e.rule}\0${e.fingerprint}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => compareText(a.source, b.source) || compareText(a.rule, b.rule) || compareText(a.fingerprint, b.fingerprint));
  if (unique.length === 0) return kept;
  return { ...kept, extra: { ...kept.extra, also_reported_by: unique } };
}

function groupBy(findings: readonly Finding[], key: (f: Finding) => string): Finding[][] {
  const groups = new Map<string, Finding[]>();
  for (const finding of findings) {
    const k = key(finding);
    const group = groups.get(k);
    if (group) group.push(finding);
    else groups.set(k, [finding]);
  }
  return [...groups.values()];
}

/** Same fingerprint (rule + path + evidence) is the same finding: keep the preferred one. */
function dedupeByFingerprint(findings: readonly Finding[]): Finding[] {
  return groupBy(findings, (f) => f.fingerprint).map((group) => {
    const [kept, ...others] = [...group].sort(preference);
    // a group is never empty: groupBy only creates groups with a member
    return absorb(kept as Finding, others);
  });
}

/**
 * Different sources reporting the same weakness (CWE) at the same place are one problem told twice,
 * typically a rule and the model. Findings of the kept finding's own source stay separate: two rules of
 * one source are two findings. Findings without a CWE are never merged this way.
 */
function mergeAcrossSources(findings: readonly Finding[]): Finding[] {
  const out: Finding[] = [];
  for (const group of groupBy(findings, (f) => (f.cwe === null ? `\0${f.fingerprint}` : `${f.path}\0${f.line}\0${f.cwe.trim().toUpperCase()}`))) {
    // jscr's own finding is kept over an external scanner's, which is named as agreeing with it; but a
    // model's finding, which the reviewed text can steer, is never kept over a more severe deterministic
    // one (it would lower the severity, and so the exit code, of a problem a rule or scanner proved)
    const sorted = [...group].sort((a, b) => scannerLast(a) - scannerLast(b) || preference(a, b));
    const mostSevereProved = Math.min(...group.filter((f) => f.source !== 'model').map((f) => severityRank(f.severity)));
    const outranked = (f: Finding): boolean => f.source === 'model' && severityRank(f.severity) > mostSevereProved;
    sorted.sort((a, b) => Number(outranked(a)) - Number(outranked(b)));
    const winner = sorted[0] as Finding; // groups are never empty
    const sameSource = sorted.filter((f) => f !== winner && f.source === winner.source);
    const otherSources = sorted.filter((f) => f.source !== winner.source);
    out.push(absorb(winner, otherSources), ...sameSource);
  }
  return out;
}

/**
 * Order findings for the report. Low-confidence findings are dropped before deduplication, so a
 * confident finding is never absorbed by a duplicate that is then dropped for low confidence.
 */
export function orderFindings(findings: readonly Finding[], opts: OrderOptions): OrderResult {
  const confident = findings.filter((f) => !(f.confidence < opts.minConfidence));
  const droppedLowConfidence = findings.length - confident.length;
  const merged = mergeAcrossSources(dedupeByFingerprint(confident));
  const duplicates = confident.length - merged.length;
  const sorted = merged.sort(compareFindings);
  const limit = Math.max(0, Math.floor(opts.maxFindings));
  return { findings: truncate(sorted, limit), droppedLowConfidence, truncated: sorted.length - Math.min(limit, sorted.length), duplicates };
}

/**
 * The first `limit` findings in report order, except that a model finding never takes the place of a
 * deterministic one (the reviewed text can steer the model into many severe findings, and the report
 * must still show what the rules, scanners and the prover proved), bar the most severe finding of all.
 */
function truncate(sorted: readonly Finding[], limit: number): Finding[] {
  if (sorted.length <= limit) return [...sorted];
  // The first finding is the most severe and decides the exit code: it stays, whatever its source.
  const mostSevereIsModel = limit > 0 && sorted[0]?.source === 'model';
  const deterministic = sorted.filter((f) => f.source !== 'model').slice(0, mostSevereIsModel ? limit - 1 : limit);
  const models = sorted.filter((f) => f.source === 'model').slice(0, limit - deterministic.length);
  const kept = new Set([...deterministic, ...models]);
  return sorted.filter((f) => kept.has(f));
}
