/**
 * The pool's figures from its records: recall on the fixes' locations, how many found locations are gone
 * at the fix, false alarms per 100 ordinary pushes, and seconds per proved change.
 */
import type { Pool, PoolLocation, RunRole } from './pool-file.js';

/** One place a finding passes through: the operation, the entry, or a hop between them. */
export interface RecordedSite {
  path: string;
  function: string;
  line: number;
}

/** A finding as the records keep it: where it runs, never the quoted source. */
export interface RecordedFinding {
  path: string;
  line: number;
  function: string;
  label: string;
  missing: string;
  cwe: string;
  operation: { id: string; kind: string; line: number };
  entry: RecordedSite;
  hops: RecordedSite[];
}

export type RunStatus = 'complete' | 'incomplete' | 'not_proven' | 'error' | 'instrument_failure';

/** One line of records.jsonl. */
export interface RunRecord {
  key: string;
  id: string;
  role: RunRole;
  repo: string;
  base: string;
  head: string;
  status: RunStatus;
  /** Why the run is an error or an instrument failure. */
  reason: string | null;
  seconds: number;
  files_read: number;
  bytes_read: number;
  /** What the prover covered: tells a miss with no operation from one with an operation discharged or never reached. */
  coverage?: { entry_points: number; operations_checked: number; operations_discharged: number; unreached: number };
  findings: RecordedFinding[];
}

/** With no function named, a finding this many lines from the expected line is on it. */
export const LINE_WINDOW = 5;

export interface ChangeScore {
  id: string;
  kind: 'fix' | 'ordinary';
  framework: string | null;
  advisory: string | null;
  locations: number;
  found: number;
  gone_at_fix: number;
  /** Found locations the fix left open (`open_after_fix`): not in gone-at-fix's count; `kept_open` of them are still found at the fix, as they should be. */
  open_after_fix: number;
  kept_open: number;
  findings_vulnerable: number;
  findings_fix: number;
  /** Ordinary pushes: every finding is a false alarm. */
  false_alarms: number;
  statuses: RunStatus[];
  seconds: number[];
}

export interface PoolSummary {
  fixes: number;
  locations: number;
  found: number;
  /** found / locations, or null with no location. */
  recall: number | null;
  gone_at_fix: number;
  /** gone_at_fix / (found - open_after_fix), or null when nothing was found. */
  gone_at_fix_share: number | null;
  /** Found locations their fix left open (a later fix closed them), and how many of them stay found at that fix. */
  open_after_fix: number;
  kept_open: number;
  ordinary_pushes: number;
  false_alarms: number;
  pushes_with_false_alarms: number;
  false_alarms_per_100_pushes: number | null;
  runs: number;
  median_seconds: number | null;
  max_seconds: number | null;
  /** Runs that were incomplete or not proven: their figures count, but say less. */
  runs_incomplete: number;
  changes: ChangeScore[];
}

/** The records of a pool's runs read nothing, failed, or anchored findings where they read nothing: no figure stands on them. */
export function unusableRecords(records: readonly RunRecord[]): RunRecord[] {
  return records.filter((r) => r.files_read === 0 || r.status === 'error' || r.status === 'instrument_failure');
}

export function summarisePool(pool: Pool, records: ReadonlyMap<string, RunRecord>, keysOf: (changeId: string) => string[]): PoolSummary {
  const changes: ChangeScore[] = [];
  for (const change of pool.changes) {
    const runs = keysOf(change.id).map((k) => records.get(k)).filter((r): r is RunRecord => r !== undefined);
    const vulnerable = runs.find((r) => r.role === 'vulnerable');
    const fix = runs.find((r) => r.role === 'fix');
    const locations = change.kind === 'fix' ? change.locations : [];
    const found = locations.filter((l) => vulnerable?.findings.some((f) => findingIsOn(f, l)) === true);
    const stillOpen = (l: PoolLocation): boolean => fix !== undefined && fix.findings.some((f) => findingIsOn(f, l));
    const gone = found.filter((l) => l.open_after_fix === undefined && fix !== undefined && !stillOpen(l));
    const leftOpen = found.filter((l) => l.open_after_fix !== undefined);
    changes.push({
      id: change.id,
      kind: change.kind,
      framework: metadataText(change, 'framework'),
      advisory: metadataText(change, 'advisory'),
      locations: locations.length,
      found: found.length,
      gone_at_fix: gone.length,
      open_after_fix: leftOpen.length,
      kept_open: leftOpen.filter(stillOpen).length,
      findings_vulnerable: vulnerable?.findings.length ?? 0,
      findings_fix: fix?.findings.length ?? 0,
      false_alarms: change.kind === 'ordinary' ? runs.reduce((n, r) => n + r.findings.length, 0) : 0,
      statuses: runs.map((r) => r.status),
      seconds: runs.map((r) => r.seconds),
    });
  }
  const fixes = changes.filter((c) => c.kind === 'fix');
  const ordinary = changes.filter((c) => c.kind === 'ordinary');
  const locations = sum(fixes.map((c) => c.locations));
  const found = sum(fixes.map((c) => c.found));
  const goneAtFix = sum(fixes.map((c) => c.gone_at_fix));
  const openAfterFix = sum(fixes.map((c) => c.open_after_fix));
  const falseAlarms = sum(ordinary.map((c) => c.false_alarms));
  const seconds = changes.flatMap((c) => c.seconds).sort((a, b) => a - b);
  return {
    fixes: fixes.length,
    locations,
    found,
    recall: share(found, locations),
    gone_at_fix: goneAtFix,
    gone_at_fix_share: share(goneAtFix, found - openAfterFix),
    open_after_fix: openAfterFix,
    kept_open: sum(fixes.map((c) => c.kept_open)),
    ordinary_pushes: ordinary.length,
    false_alarms: falseAlarms,
    pushes_with_false_alarms: ordinary.filter((c) => c.false_alarms > 0).length,
    false_alarms_per_100_pushes: ordinary.length === 0 ? null : round((100 * falseAlarms) / ordinary.length),
    runs: seconds.length,
    median_seconds: seconds.length === 0 ? null : round(median(seconds)),
    max_seconds: seconds.length === 0 ? null : round(seconds[seconds.length - 1]!),
    runs_incomplete: changes.flatMap((c) => c.statuses).filter((s) => s === 'incomplete' || s === 'not_proven').length,
    changes,
  };
}

/**
 * A finding is on a location when it runs through the location's file there: through the named function
 * (operation, entry or hop), or, with no function named, within a few lines of the expected line.
 */
export function findingIsOn(finding: RecordedFinding, location: PoolLocation): boolean {
  const sites: RecordedSite[] = [
    { path: finding.path, function: finding.function, line: finding.line },
    { path: finding.path, function: finding.function, line: finding.operation.line },
    finding.entry,
    ...finding.hops,
  ];
  return sites.some((site) => {
    if (site.path !== location.file) return false;
    if (location.function !== undefined) return sameFunction(site.function, location.function);
    return location.line !== undefined && Math.abs(site.line - location.line) <= LINE_WINDOW;
  });
}

/** `doFoo` names `Hook.doFoo`; `Hook::doFoo` names `org.acme.Hook.doFoo`: the expected parts end the qualified name. */
function sameFunction(qualified: string, expected: string): boolean {
  const parts = (name: string): string[] => name.replace(/@\d+$/, '').split(/::|->|[.#\\/]/).filter((p) => p !== '');
  const have = parts(qualified);
  const want = parts(expected);
  if (want.length === 0 || want.length > have.length) return false;
  return want.every((p, i) => have[have.length - want.length + i] === p);
}

function metadataText(change: object, name: string): string | null {
  const value = (change as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : null;
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function share(part: number, whole: number): number | null {
  return whole === 0 ? null : round(part / whole);
}

function median(sorted: number[]): number {
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
