/**
 * The scored runner (`jscr prove --pool POOL.json --out DIR`): proves every change of a pool as a user's
 * `jscr prove --base` would, one run at a time, appends one record per run to DIR/records.jsonl (a second
 * start skips what is recorded, and retries what failed), then writes DIR/summary.json and prints the
 * figures. A run that read no file proved nothing, so a summary standing on one is refused.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, realpathSync, renameSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { InputError, JscrError, oneLine, UsageError } from '../errors.js';
import type { ExitCode } from '../io.js';
import { resolveRepository } from '../git/change.js';
import { escapeOneLine } from '../report/escape.js';
import { plannedRuns, readPool, type PlannedRun } from './pool-file.js';
import { summarisePool, unusableRecords, type PoolSummary, type RecordedFinding, type RunRecord, type RunStatus } from './pool-score.js';
import { proveRange } from './prove-range.js';
import type { ProverFinding } from './types.js';

export interface RunPoolInput {
  poolPath: string;
  outDir: string;
  /** Where relative `repo` paths of the pool resolve (default: the pool file's folder). */
  reposDir?: string;
  maxDepth?: number;
  format: 'text' | 'json';
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export const RECORDS_FILE = 'records.jsonl';
export const SUMMARY_FILE = 'summary.json';

export async function runPool(input: RunPoolInput): Promise<ExitCode> {
  const pool = readPool(input.poolPath);
  const reposDir = input.reposDir ?? dirname(input.poolPath);
  const roots = new Map<string, string>();
  for (const change of pool.changes) {
    if (roots.has(change.repo)) continue;
    const dir = isAbsolute(change.repo) ? change.repo : resolve(reposDir, change.repo);
    if (!existsSync(dir)) throw new InputError(`the pool's repository ${change.repo} (change ${change.id}) is not at ${dir}`);
    roots.set(change.repo, await resolveRepository(dir));
  }
  const outDir = prepareOutDir(input.outDir, [...roots.values()]);
  const recordsPath = join(outDir, RECORDS_FILE);
  const records = loadRecords(recordsPath);

  const runs = plannedRuns(pool);
  const todo = runs.filter((run) => {
    const done = records.get(run.key);
    return done === undefined || done.status === 'error';
  });
  input.stderr.write(`jscr prove: pool of ${pool.changes.length} changes, ${runs.length} runs, ${runs.length - todo.length} already recorded\n`);
  for (const [index, run] of todo.entries()) {
    const record = await proveRun(run, roots.get(run.change.repo)!, input.maxDepth);
    appendFileSync(recordsPath, `${JSON.stringify(record)}\n`);
    records.set(record.key, record);
    const said = record.reason === null ? `${record.findings.length} finding(s)` : escapeOneLine(record.reason);
    input.stderr.write(`jscr prove: [${index + 1}/${todo.length}] ${escapeOneLine(run.key.split('/').slice(0, 2).join(' '))}: ${record.status}, ${said}, ${record.seconds} s\n`);
  }

  const current = runs.map((r) => records.get(r.key)).filter((r): r is RunRecord => r !== undefined);
  const unusable = unusableRecords(current);
  if (unusable.length > 0) {
    const first = unusable[0]!;
    input.stderr.write(`jscr prove: refused: ${unusable.length} run(s) read no file or failed, so they proved nothing (first: ${escapeOneLine(`${first.id} ${first.role}: ${first.reason ?? 'no file read'}`)}); see ${recordsPath}\n`);
    return 2;
  }
  const keysOf = keysByChange(runs);
  const summary = summarisePool(pool, records, (id) => keysOf.get(id) ?? []);
  writeWhole(join(outDir, SUMMARY_FILE), `${JSON.stringify(summary, null, 2)}\n`);
  input.stdout.write(input.format === 'json' ? `${JSON.stringify(summary, null, 2)}\n` : summaryText(summary));
  if (summary.runs_incomplete > 0) {
    input.stderr.write(`jscr prove: incomplete: ${summary.runs_incomplete} run(s) were incomplete or not proven; their figures count but say less\n`);
    return 3;
  }
  return 0;
}

async function proveRun(run: PlannedRun, root: string, maxDepth: number | undefined): Promise<RunRecord> {
  const started = performance.now();
  const seconds = (): number => Math.round((performance.now() - started) / 10) / 100;
  const base = { key: run.key, id: run.change.id, role: run.role, repo: run.change.repo, base: run.base };
  try {
    const outcome = await proveRange({ root, base: run.base, head: run.head, ...(maxDepth === undefined ? {} : { maxDepth }) });
    const findings = outcome.result.findings.map(recordedFinding);
    const elapsed = seconds();
    // A finding anchored in a file the run never read is the instrument's fault, not the prover's verdict.
    const stale = findings.flatMap((f) => [f.path, f.entry.path, ...f.hops.map((h) => h.path)]).find((p) => !outcome.filesRead.has(p));
    const status: RunStatus = stale !== undefined ? 'instrument_failure' : outcome.notProven !== null ? 'not_proven' : outcome.incomplete ? 'incomplete' : 'complete';
    return {
      ...base,
      head: outcome.head,
      status,
      reason: stale !== undefined ? `stale_anchor: a finding names ${stale}, which the run did not read` : (outcome.notProven ?? outcome.incompleteReason),
      seconds: elapsed,
      files_read: outcome.filesRead.size,
      bytes_read: [...outcome.filesRead.values()].reduce((a, b) => a + b, 0),
      coverage: {
        entry_points: outcome.result.coverage.entryPoints,
        operations_checked: outcome.result.coverage.operationsChecked,
        operations_discharged: outcome.result.coverage.operationsDischarged,
        unreached: outcome.result.coverage.unreached,
      },
      findings: stale === undefined ? findings : [],
    };
  } catch (error) {
    const reason = error instanceof JscrError ? oneLine(error.message) : `error:${error instanceof Error ? error.constructor.name : typeof error}: ${oneLine(String(error instanceof Error ? error.message : error))}`;
    return { ...base, head: run.head, status: 'error', reason, seconds: seconds(), files_read: 0, bytes_read: 0, findings: [] };
  }
}

function recordedFinding(f: ProverFinding): RecordedFinding {
  return {
    path: f.path,
    line: f.line,
    function: f.function,
    label: f.label,
    missing: f.missing,
    cwe: f.cwe,
    operation: { id: f.operation.id, kind: f.operation.kind, line: f.operation.line },
    entry: { path: f.entry.path, function: f.entry.function, line: f.entry.line },
    hops: f.hops.map((h) => ({ path: h.path, function: h.function, line: h.callLine })),
  };
}

function keysByChange(runs: readonly PlannedRun[]): Map<string, string[]> {
  const keys = new Map<string, string[]>();
  for (const run of runs) keys.set(run.change.id, [...(keys.get(run.change.id) ?? []), run.key]);
  return keys;
}

/** The output folder, made when missing; never inside a pool repository (nothing is written into what is proved). */
function prepareOutDir(outDir: string, repositoryRoots: readonly string[]): string {
  if (existsSync(outDir) && !statSync(outDir).isDirectory()) throw new UsageError(`--out ${outDir} exists and is not a folder`);
  const real = realpathOfPossiblyMissing(outDir);
  for (const root of repositoryRoots) {
    const inside = relative(realpathSync(root), real);
    if (inside === '' || (!inside.startsWith('..') && !isAbsolute(inside))) throw new UsageError(`--out ${outDir} is inside the pool repository ${root}; the runner writes nothing into what it proves`);
  }
  mkdirSync(outDir, { recursive: true });
  return outDir;
}

function realpathOfPossiblyMissing(path: string): string {
  const missing: string[] = [];
  let at = resolve(path);
  while (!existsSync(at)) {
    const parent = dirname(at);
    if (parent === at) break;
    missing.unshift(relative(parent, at));
    at = parent;
  }
  return join(realpathSync(at), ...missing);
}

/**
 * The records so far, the last one per key winning. A last line cut short (the runner was killed while
 * writing it) is dropped and its run done again; any other line that is no record stops the run.
 */
function loadRecords(path: string): Map<string, RunRecord> {
  const records = new Map<string, RunRecord>();
  if (!existsSync(path)) return records;
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n');
  for (const [index, line] of lines.entries()) {
    if (line === '') continue;
    const record = parseRecord(line);
    if (record === null) {
      if (index === lines.length - 1) {
        truncateSync(path, Buffer.byteLength(lines.slice(0, index).join('\n')) + (index > 0 ? 1 : 0));
        break;
      }
      throw new InputError(`${path} line ${index + 1} is not a run record; remove it or choose another --out`);
    }
    records.set(record.key, record);
  }
  return records;
}

function parseRecord(line: string): RunRecord | null {
  try {
    const value = JSON.parse(line) as Partial<RunRecord> | null;
    if (value === null || typeof value !== 'object' || typeof value.key !== 'string' || typeof value.status !== 'string' || !Array.isArray(value.findings) || typeof value.files_read !== 'number') return null;
    return value as RunRecord;
  } catch {
    return null;
  }
}

/** Written beside and renamed: a summary is never seen half-written. */
function writeWhole(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { flag: 'wx' });
  renameSync(temporary, path);
}

function summaryText(s: PoolSummary): string {
  const percent = (v: number | null): string => (v === null ? 'n/a' : `${Math.round(v * 1000) / 10}%`);
  const lines = [
    `pool: ${s.fixes} fixes with ${s.locations} locations, ${s.ordinary_pushes} ordinary pushes, ${s.runs} runs`,
    `recall on locations: ${percent(s.recall)} (${s.found} of ${s.locations})`,
    `gone at fix: ${percent(s.gone_at_fix_share)} (${s.gone_at_fix} of ${s.found - s.open_after_fix} found${s.open_after_fix > 0 ? `; ${s.open_after_fix} more found that their fix left open, ${s.kept_open} of them kept` : ''})`,
    `false alarms per 100 ordinary pushes: ${s.false_alarms_per_100_pushes ?? 'n/a'} (${s.false_alarms} on ${s.pushes_with_false_alarms} pushes)`,
    `seconds per run: median ${s.median_seconds ?? 'n/a'}, max ${s.max_seconds ?? 'n/a'}`,
    '',
  ];
  for (const c of s.changes) {
    if (c.kind === 'fix') lines.push(`${c.id}: found ${c.found}/${c.locations}, gone at fix ${c.gone_at_fix}/${c.found - c.open_after_fix}${c.open_after_fix > 0 ? ` (${c.kept_open}/${c.open_after_fix} left open by the fix kept)` : ''}, findings ${c.findings_vulnerable} vulnerable / ${c.findings_fix} fix (${c.statuses.join(', ')}; ${c.seconds.join(' s, ')} s)`);
    else lines.push(`${c.id}: ${c.false_alarms} false alarm(s) (${c.statuses.join(', ')}; ${c.seconds.join(' s')} s)`);
  }
  return `${lines.map((l) => escapeOneLine(l)).join('\n')}\n`;
}
