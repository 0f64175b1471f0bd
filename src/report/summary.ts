/** Small facts about a report that several renderers print the same way. */
import { SEVERITIES, type ChangeSummary, type MergedFinding, type OmittedFindings, type ReviewReport, type ScannerRecord, type Severity, type StepRecord } from './finding.js';

/** SPEC 4 and seed step "What a clean result means": the only words a clean report may use. */
export const CLEAN_SENTENCE = 'These checks, on this change, found nothing.';

/** Number of findings per severity, in severity order (every severity present, zero included). */
export function countBySeverity(report: Pick<ReviewReport, 'findings'>): Record<Severity, number> {
  const counts: Record<Severity, number> = { critical: 0, high: 0, medium: 0, low: 0, info: 0 };
  for (const finding of report.findings) counts[finding.severity] += 1;
  return counts;
}

/** `2 high, 1 low`: only the severities that occur, most severe first; `none` when empty. */
export function severityBreakdown(report: Pick<ReviewReport, 'findings'>): string {
  const counts = countBySeverity(report);
  const parts = SEVERITIES.filter((s) => counts[s] > 0).map((s) => `${counts[s]} ${s}`);
  return parts.length > 0 ? parts.join(', ') : 'none';
}

/** A human name for what was reviewed, built only from the report's own change fields. */
export function changeLabel(change: ChangeSummary): string {
  switch (change.kind) {
    case 'range':
    case 'merge-base-range':
      return `range ${change.range}`;
    case 'commit':
      return `commit ${change.range}`;
    case 'staged':
      return 'staged changes';
    case 'working-tree':
      return 'working tree against HEAD';
  }
}

/** `1 file`, `3 files`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** Steps and scanners that were meant to run and did not: the reasons a review can be incomplete. */
export function stepsThatDidNotRun(report: Pick<ReviewReport, 'steps' | 'scanners'>): { kind: 'step' | 'scanner'; record: StepRecord | ScannerRecord }[] {
  const out: { kind: 'step' | 'scanner'; record: StepRecord | ScannerRecord }[] = [];
  for (const record of report.steps) if (record.status === 'not_run' || record.status === 'failed') out.push({ kind: 'step', record });
  // a partial scanner did not review the files it could not analyse: as much a gap as one that did not run
  for (const record of report.scanners) if (record.status === 'not_run' || record.status === 'failed' || record.status === 'partial') out.push({ kind: 'scanner', record });
  return out;
}

/** Findings the ordering step left out, when the engine recorded them; null when nothing was left out. */
export function omittedCounts(report: ReviewReport): OmittedFindings | null {
  const omitted = report.omitted;
  if (omitted === undefined) return null;
  if (omitted.duplicates === 0 && omitted.below_min_confidence === 0 && omitted.truncated === 0) return null;
  return omitted;
}

/** `bandit/B602 (scanner:bandit, line 5)`: one merged finding, named. */
export function mergedName(m: MergedFinding): string {
  return `${m.rule} (${m.source}, line ${m.line})`;
}

/**
 * "N duplicates merged", saying which: each merged finding and the finding it was folded into, at most
 * a handful named (the JSON report has every one in `merged`).
 */
export function duplicatesNote(report: Pick<ReviewReport, 'findings'>, count: number): string {
  const named = report.findings.flatMap((kept) => (kept.merged ?? []).map((m) => `${mergedName(m)} into ${kept.rule} at ${kept.path}:${kept.line}`));
  const head = `${plural(count, 'duplicate')} merged`;
  return named.length === 0 ? `${head}.` : `${head}: ${namedList(named)}.`;
}

/** What the suppression step asks the user to do (re-pin a shared version 1 fingerprint), one line each. */
export function suppressionNotes(report: ReviewReport): string[] {
  return arrayOf(report.suppression_notes, (item): item is string => typeof item === 'string').map((note) => `Suppression: ${note}`);
}

/** At most this many paths are named in one coverage note; the JSON report lists them all. */
const NAMED_PATHS = 10;

function namedList(items: string[]): string {
  const shown = items.slice(0, NAMED_PATHS).join(', ');
  return items.length > NAMED_PATHS ? `${shown} and ${items.length - NAMED_PATHS} more` : shown;
}

function arrayOf<T>(value: unknown, isItem: (item: unknown) => item is T): T[] {
  return Array.isArray(value) ? value.filter(isItem) : [];
}

const isSkipped = (item: unknown): item is { path: string; reason: string; class?: unknown; kind?: unknown } =>
  typeof item === 'object' && item !== null && typeof (item as { path?: unknown }).path === 'string' && typeof (item as { reason?: unknown }).reason === 'string';

/**
 * What the review did not look at, as plain sentences (renderers escape them): changed files it could
 * not read, findings hidden by suppressions and untracked files outside the change. Without these a
 * report with no findings would read as if everything had been checked.
 */
export function coverageNotes(report: ReviewReport): string[] {
  const notes: string[] = [];
  const skipped = arrayOf(report.skipped_files, isSkipped).filter((s) => s.reason !== 'deleted' && s.class !== 'no_content');
  // The class (src/review/coverage.ts) says which list a file belongs to; an entry without one is "not reviewed".
  const ofClass = (cls: string): typeof skipped => skipped.filter((s) => (s.class ?? 'not_reviewed') === cls);
  const notReviewed = ofClass('not_reviewed');
  if (notReviewed.length > 0) notes.push(`Not reviewed: ${namedList(notReviewed.map((s) => `${s.path} (${s.reason})`))}.`);
  const excluded = ofClass('excluded');
  if (excluded.length > 0) notes.push(`Excluded by the base configuration: ${namedList(excluded.map((s) => `${s.path} (${s.reason.replace(/^excluded: /, '')})`))}.`);
  const data = ofClass('data');
  if (data.length > 0) notes.push(`Data, nothing to review line by line: ${namedList(data.map((s) => `${s.path} (${typeof s.kind === 'string' ? s.kind : 'data'})`))}.`);
  const suppressed = arrayOf(report.suppressed, (item): item is object => typeof item === 'object' && item !== null).length;
  if (suppressed > 0) notes.push(`${plural(suppressed, 'finding')} suppressed by [[suppress]] entries of the configuration (see --format json).`);
  const untracked = arrayOf(report.untracked_files, (item): item is string => typeof item === 'string');
  if (untracked.length > 0) {
    notes.push(`${plural(untracked.length, 'untracked file')} not part of the change and not reviewed: ${namedList(untracked)} (git add them to include them).`);
  }
  return notes;
}
