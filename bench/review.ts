/**
 * Benchmark: `jscr review --format json` on a large generated change (500+ files, 50,000+ changed
 * lines) in a temporary git repository. Prints wall time, CPU time and peak RSS. Run: npx tsx
 * bench/review.ts (after `npm run build`). Target on this project's machine: under 10 s and under 500 MB.
 *
 * `--compare [--runs N]` reviews the same change N times (default 3) with data flow on and N times with
 * it off (JSCR_FLOW=off: no lowering, no flow step), alternating, and prints the minimum and median of
 * each and their ratio (issue 14: flow on at most 1.5 times flow off).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, '..', 'bin', 'jscr');
const FILES = Number(process.env.BENCH_FILES ?? 520);
const LINES_PER_FILE = Number(process.env.BENCH_LINES ?? 100);
const argv = process.argv.slice(2);
const compare = argv.includes('--compare');
const runsAt = argv.indexOf('--runs');
const RUNS = runsAt >= 0 ? Number(argv[runsAt + 1]) : 3;
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error('--runs takes a whole number of runs, at least 1');

const root = mkdtempSync(join(tmpdir(), 'jscr-bench-review-'));
const git = (...args: string[]): string =>
  execFileSync('git', args, { cwd: root, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' } });

/** A plausible source file in one of several languages, with the occasional risky line. */
function source(i: number, version: number): { path: string; text: string } {
  const kind = i % 4;
  const lines: string[] = [];
  for (let n = 0; n < LINES_PER_FILE; n++) {
    const risky = version === 1 && n % 37 === 0;
    switch (kind) {
      case 0:
        lines.push(risky ? `    subprocess.run(cmd_${n}, shell=True)` : `    value_${n} = compute(${n}, ${version})`);
        break;
      case 1:
        lines.push(risky ? `  el.innerHTML = req.query.v${n};` : `  const v${n} = compute(${n}, ${version});`);
        break;
      case 2:
        lines.push(risky ? `        stmt.executeQuery("SELECT * FROM t WHERE id = " + id${n});` : `        int v${n} = compute(${n}, ${version});`);
        break;
      default:
        lines.push(risky ? `    $r = $db->query("SELECT * FROM t WHERE id = $id${n}");` : `    $v${n} = compute(${n}, ${version});`);
    }
  }
  switch (kind) {
    case 0:
      return { path: `pkg${i % 10}/mod_${i}.py`, text: `import subprocess\n\ndef handler_${i}(cmd):\n${lines.join('\n')}\n` };
    case 1:
      return { path: `web${i % 10}/mod_${i}.js`, text: `export function handler${i}(req, el) {\n${lines.join('\n')}\n}\n` };
    case 2:
      return { path: `src/main/java/p${i % 10}/Mod${i}.java`, text: `package p;\nclass Mod${i} {\n    void handle(java.sql.Statement stmt) throws Exception {\n${lines.join('\n')}\n    }\n}\n` };
    default:
      return { path: `app${i % 10}/Mod${i}.php`, text: `<?php\nfunction handler${i}($db) {\n${lines.join('\n')}\n}\n` };
  }
}

function writeAll(version: number): void {
  for (let i = 0; i < FILES; i++) {
    const { path, text } = source(i, version);
    mkdirSync(join(root, dirname(path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

interface Run {
  wallS: number;
  cpuS: number;
  rssMb: number;
  exitCode: number | null;
  complete: boolean;
  findings: number;
}

/** One review of HEAD~1..HEAD, with data flow on or off; CPU and RSS are the reviewing process's own. */
function review(flow: boolean): Run {
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, ['--require', join(here, 'maxrss.cjs'), bin, 'review', '--range', 'HEAD~1..HEAD', '--format', 'json'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
    env: { ...process.env, JSCR_FLOW: flow ? 'on' : 'off' },
  });
  const wallS = Number(process.hrtime.bigint() - start) / 1e9;
  const rssKb = Number(/JSCR_BENCH_MAXRSS_KB=(\d+)/.exec(run.stderr)?.[1] ?? NaN);
  const cpuUs = Number(/JSCR_BENCH_CPU_US=(\d+)/.exec(run.stderr)?.[1] ?? NaN);
  const report = JSON.parse(run.stdout) as { findings: unknown[]; complete: boolean };
  return { wallS, cpuS: cpuUs / 1e6, rssMb: rssKb / 1024, exitCode: run.status, complete: report.complete, findings: report.findings.length };
}

function describe(r: Run | undefined): string {
  return r === undefined ? '-' : `${r.wallS.toFixed(2)} s wall, ${r.cpuS.toFixed(2)} s CPU, ${r.rssMb.toFixed(0)} MB`;
}

function summary(values: number[]): { min: number; median: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? (sorted[mid] ?? NaN) : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
  return { min: sorted[0] ?? NaN, median };
}

try {
  git('init', '-q');
  writeAll(0);
  git('add', '-A');
  git('commit', '-qm', 'base');
  writeAll(1);
  git('add', '-A');
  git('commit', '-qm', 'change');
  const stat = git('diff', '--shortstat', 'HEAD~1..HEAD').trim();
  console.log(`change: ${FILES} files, ${stat}`);
  if (!compare) {
    const one = review(true);
    console.log(`exit code: ${one.exitCode}, complete: ${one.complete}, findings: ${one.findings}`);
    console.log(`wall time: ${one.wallS.toFixed(2)} s (target < 10 s), CPU time: ${one.cpuS.toFixed(2)} s`);
    console.log(`peak RSS: ${one.rssMb.toFixed(0)} MB (target < 500 MB)`);
  } else {
    const on: Run[] = [];
    const off: Run[] = [];
    for (let i = 0; i < RUNS; i++) {
      off.push(review(false));
      on.push(review(true));
      console.log(`run ${i + 1}: flow off ${describe(off[i])}; flow on ${describe(on[i])}`);
    }
    const line = (name: string, pick: (r: Run) => number) => {
      const [a, b] = [summary(on.map(pick)), summary(off.map(pick))];
      return `${name.padEnd(10)} on min ${a.min.toFixed(2)} median ${a.median.toFixed(2)} | off min ${b.min.toFixed(2)} median ${b.median.toFixed(2)} | ratio min ${(a.min / b.min).toFixed(2)} median ${(a.median / b.median).toFixed(2)}`;
    };
    console.log(line('wall s', (r) => r.wallS));
    console.log(line('CPU s', (r) => r.cpuS));
    console.log(line('RSS MB', (r) => r.rssMb));
    console.log(`findings: flow on ${on[0]?.findings}, flow off ${off[0]?.findings}`);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
