/**
 * Benchmark: `jscr review --format json` on a large generated change (500+ files, 50,000+ changed
 * lines) in a temporary git repository. Prints wall time and peak RSS. Run: npx tsx bench/review.ts
 * (after `npm run build`). Target on this project's machine: under 10 s and under 500 MB.
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

try {
  git('init', '-q');
  writeAll(0);
  git('add', '-A');
  git('commit', '-qm', 'base');
  writeAll(1);
  git('add', '-A');
  git('commit', '-qm', 'change');
  const stat = git('diff', '--shortstat', 'HEAD~1..HEAD').trim();
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, ['--require', join(here, 'maxrss.cjs'), bin, 'review', '--range', 'HEAD~1..HEAD', '--format', 'json'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
  });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const rssKb = Number(/JSCR_BENCH_MAXRSS_KB=(\d+)/.exec(run.stderr)?.[1] ?? NaN);
  const report = JSON.parse(run.stdout) as { findings: unknown[]; complete: boolean; steps: { name: string; status: string }[] };
  console.log(`change: ${FILES} files, ${stat}`);
  console.log(`exit code: ${run.status}, complete: ${report.complete}, findings: ${report.findings.length}`);
  console.log(`wall time: ${seconds.toFixed(2)} s (target < 10 s)`);
  console.log(`peak RSS: ${(rssKb / 1024).toFixed(0)} MB (target < 500 MB)`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
