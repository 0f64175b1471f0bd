/**
 * Benchmark: `jscr review --format json` on changes built to make detection slow or hungry, each a
 * single file of about 2 MB on one line, with `review.deadline_s = 5` in the base configuration.
 * Prints, per case, wall time, peak RSS, the exit code and the steps that did not finish. The review
 * must end within about 1-2 s after the deadline with valid JSON, whatever the case.
 * Run: npx tsx bench/hostile.ts (after `npm run build`). BENCH_DEADLINE_S changes the deadline.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeRepo } from '../tests/helpers/repo.js';

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, '..', 'bin', 'jscr');
const DEADLINE_S = Number(process.env.BENCH_DEADLINE_S ?? 5);
/** Under the 2 MiB file limit, so each file is read and reviewed rather than skipped. */
const SIZE = 2_000_000;

function fill(unit: string): string {
  return unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE);
}

/** An ordinary bundle: statements, calls, strings and object literals, no newline. */
function minified(): string {
  const parts: string[] = [];
  for (let i = 0; parts.join('').length < SIZE && i < 100_000; i++) {
    parts.push(`function f${i}(a,b){var c=a[${i}]||{k:"v${i}",n:${i}};return b.map(function(x){return x+c.n}).join(",")}`);
  }
  return parts.join(';').slice(0, SIZE);
}

const CASES: { name: string; path: string; text: string }[] = [
  { name: '2 MB line of password=Xy9', path: 'app/settings.py', text: `${fill('password=Xy9')}\n` },
  { name: '2 MB of -----BEGIN PRIVATE KEY-----A', path: 'app/keys.py', text: `${fill('-----BEGIN PRIVATE KEY-----A')}\n` },
  { name: '2 MB minified-looking line', path: 'web/bundle.js', text: `${minified()}\n` },
  { name: '2 MB line of exec( (regex near-misses)', path: 'app/run.php', text: `<?php ${fill('exec(')}\n` },
];

for (const testCase of CASES) {
  const repo = makeRepo({ '.jscr.toml': `[review]\ndeadline_s = ${DEADLINE_S}\n`, 'README.md': 'base\n' });
  try {
    repo.commit({ [testCase.path]: testCase.text }, 'hostile change');
    const start = process.hrtime.bigint();
    const run = spawnSync(process.execPath, ['--require', join(here, 'maxrss.cjs'), bin, 'review', '--range', 'HEAD~1..HEAD', '--format', 'json', '--no-model'], {
      cwd: repo.root,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const rssKb = Number(/JSCR_BENCH_MAXRSS_KB=(\d+)/.exec(run.stderr)?.[1] ?? NaN);
    let summary: string;
    try {
      const report = JSON.parse(run.stdout) as { complete: boolean; findings: unknown[]; steps: { name: string; status: string }[] };
      const notRan = report.steps.filter((s) => s.status === 'failed' || s.status === 'not_run').map((s) => `${s.name}:${s.status}`);
      summary = `complete ${report.complete}, ${report.findings.length} finding(s)${notRan.length ? `, unfinished: ${notRan.join(' ')}` : ''}`;
    } catch {
      summary = `NOT valid JSON (stderr: ${run.stderr.split('\n')[0] ?? ''})`;
    }
    console.log(`${testCase.name}: ${seconds.toFixed(2)} s (deadline ${DEADLINE_S} s), peak RSS ${(rssKb / 1024).toFixed(0)} MB, exit ${run.status}; ${summary}`);
  } finally {
    repo.cleanup();
  }
}
