/**
 * Benchmark of the review's prover on a one-file change of a real repository, with and without the
 * scoped file selection (`prover.scope`), and with the prover off. Prints, for each mode, the median of
 * five runs: the prover step's own time (from the report's step log, so start-up and the other steps
 * are not in it), the review's CPU time (its own process, without git's), the CPU the prover adds over
 * a review without it, the review's wall time and peak RSS, and what the step read. On a shared,
 * loaded machine wall times stretch; the CPU figures do not. Target: the scoped prover step at most 2 s
 * on a TypeScript monorepo of about 2,000 files.
 *
 * Run (after `node tools/build.mjs`): npx tsx bench/prove-change.ts --repo PATH [--commit SHA] [--runs 5]
 * Without --commit, the last non-merge commit that changed exactly one .ts file (and no other source) is used.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, '..', 'bin', 'jscr');

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
}

const repo = argument('repo');
if (repo === undefined) {
  process.stderr.write('usage: npx tsx bench/prove-change.ts --repo PATH [--commit SHA] [--runs N]\n');
  process.exit(2);
}
const runs = Number(argument('runs') ?? 5);
const git = (...args: string[]): string => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

/** The last non-merge commit whose only source change is one .ts file. */
function oneTsFileCommit(): string {
  const log = git('log', '--no-merges', '--format=%x00%H', '--name-only', '-n', '400');
  for (const record of log.split('\0').slice(1)) {
    const [sha = '', ...names] = record.split('\n').filter((l) => l.trim() !== '');
    const sources = names.filter((n) => /\.(ts|tsx|js|jsx|mjs|cjs|php|java|py)$/.test(n));
    if (sources.length === 1 && /\.tsx?$/.test(sources[0] ?? '')) return sha;
  }
  throw new Error('no commit in the last 400 changes a single .ts file');
}

const commit = argument('commit') ?? oneTsFileCommit();

interface Run {
  wallMs: number;
  cpuMs: number;
  stepMs: number;
  maxRssKb: number;
  detail: string;
}

const work = mkdtempSync(join(tmpdir(), 'jscr-bench-prove-change-'));

type Mode = 'scoped' | 'whole' | 'off';

function reviewOnce(mode: Mode): Run {
  const config = join(work, `${mode}.toml`);
  writeFileSync(config, mode === 'off' ? '[prover]\nenabled = false\n' : `[prover]\nscope = ${String(mode === 'scoped')}\n`);
  const started = process.hrtime.bigint();
  const child = spawnSync(process.execPath, ['--require', join(here, 'maxrss.cjs'), bin, 'review', '--repo', repo ?? '', '--commit', commit, '--no-model', '--format', 'json', '--config', config], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (child.status !== 0 && child.status !== 1 && child.status !== 3) throw new Error(`review exited ${String(child.status)}: ${child.stderr.split('\n')[0] ?? ''}`);
  const report = JSON.parse(child.stdout) as { steps: { name: string; duration_ms: number; detail: string }[] };
  const step = report.steps.find((s) => s.name === 'prover');
  const rss = /JSCR_BENCH_MAXRSS_KB=(\d+)/.exec(child.stderr)?.[1];
  const cpu = /JSCR_BENCH_CPU_US=(\d+)/.exec(child.stderr)?.[1];
  return { wallMs, cpuMs: Number(cpu ?? Number.NaN) / 1000, stepMs: step?.duration_ms ?? Number.NaN, maxRssKb: Number(rss ?? Number.NaN), detail: step?.detail ?? '(no prover step)' };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const files = git('ls-tree', '-r', '--name-only', commit).split('\n').filter((l) => l !== '').length;
const changed = git('show', '--format=', '--name-only', commit).trim().split('\n');
process.stdout.write(`repository ${repo} at ${commit.slice(0, 12)}: ${files.toLocaleString('en-US')} tracked files; changed: ${changed.join(', ')}\n`);
const medians = new Map<Mode, { step: number; cpu: number; wall: number; rss: number; detail: string }>();
for (const mode of ['off', 'scoped', 'whole'] as const) {
  const results: Run[] = [];
  for (let i = 0; i < runs; i++) results.push(reviewOnce(mode));
  medians.set(mode, {
    step: median(results.map((r) => r.stepMs)),
    cpu: median(results.map((r) => r.cpuMs)),
    wall: median(results.map((r) => r.wallMs)),
    rss: median(results.map((r) => r.maxRssKb)),
    detail: results[0]?.detail ?? '',
  });
}
const off = medians.get('off');
const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
for (const mode of ['scoped', 'whole'] as const) {
  const m = medians.get(mode);
  if (!m || !off) continue;
  process.stdout.write(
    `${mode.padEnd(7)} prover step ${seconds(m.step)}  review CPU ${seconds(m.cpu)} (prover adds ${seconds(m.cpu - off.cpu)})  review wall ${seconds(m.wall)}  peak RSS ${Math.round(m.rss / 1024)} MB  (median of ${runs})\n        ${m.detail}\n`,
  );
}
if (off) process.stdout.write(`off     review CPU ${seconds(off.cpu)}  review wall ${seconds(off.wall)}  peak RSS ${Math.round(off.rss / 1024)} MB\n`);
rmSync(work, { recursive: true, force: true });
