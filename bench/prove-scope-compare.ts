/**
 * The scoped prover must report what the whole-repository prover reports on a change. For each
 * repository given and each of its last N non-merge commits, this runs `jscr review --no-model` with
 * `prover.scope` on and off (one run at a time) and prints any finding one run has and the other has
 * not, with both prover steps' times and details. Exit 1 when a difference was found.
 *
 * Run (after `node tools/build.mjs`): npx tsx bench/prove-scope-compare.ts [--commits 20] REPO...
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, '..', 'bin', 'jscr');
const args = process.argv.slice(2);
const commitsAt = args.indexOf('--commits');
const count = commitsAt === -1 ? 20 : Number(args[commitsAt + 1]);
const repos = args.filter((a, i) => a !== '--commits' && i !== commitsAt + 1);

interface Finding {
  rule: string;
  path: string;
  line: number;
  id?: string;
  message?: string;
}

interface Outcome {
  findings: Set<string>;
  stepMs: number;
  detail: string;
  exit: number | null;
}

const work = mkdtempSync(join(tmpdir(), 'jscr-scope-compare-'));
const configs = { true: join(work, 'on.toml'), false: join(work, 'off.toml') };
writeFileSync(configs.true, '[prover]\nscope = true\n');
writeFileSync(configs.false, '[prover]\nscope = false\n');

function review(repo: string, commit: string, scope: boolean): Outcome {
  const child = spawnSync(process.execPath, [bin, 'review', '--repo', repo, '--commit', commit, '--no-model', '--format', 'json', '--config', configs[scope ? 'true' : 'false']], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  let report: { findings: Finding[]; steps: { name: string; duration_ms: number; detail: string }[] };
  try {
    report = JSON.parse(child.stdout) as typeof report;
  } catch {
    return { findings: new Set(), stepMs: Number.NaN, detail: `no report: ${child.stderr.split('\n')[0] ?? ''}`, exit: child.status };
  }
  const step = report.steps.find((s) => s.name === 'prover');
  return {
    findings: new Set(report.findings.map((f) => `${f.rule} ${f.path}:${f.line} ${f.id ?? ''}`)),
    stepMs: step?.duration_ms ?? Number.NaN,
    detail: step?.detail ?? '',
    exit: child.status,
  };
}

let differences = 0;
for (const repo of repos) {
  const commits = execFileSync('git', ['-C', repo, 'log', '--no-merges', '--format=%H', '-n', String(count)], { encoding: 'utf8' }).trim().split('\n');
  for (const commit of commits) {
    const scoped = review(repo, commit, true);
    const whole = review(repo, commit, false);
    const onlyScoped = [...scoped.findings].filter((f) => !whole.findings.has(f));
    const onlyWhole = [...whole.findings].filter((f) => !scoped.findings.has(f));
    const same = onlyScoped.length === 0 && onlyWhole.length === 0;
    if (!same) differences++;
    process.stdout.write(
      `${same ? 'same' : 'DIFF'} ${repo.split('/').pop() ?? repo} ${commit.slice(0, 10)} findings ${scoped.findings.size}/${whole.findings.size} exit ${String(scoped.exit)}/${String(whole.exit)} prover ${(scoped.stepMs / 1000).toFixed(2)} s / ${(whole.stepMs / 1000).toFixed(2)} s | ${scoped.detail}\n`,
    );
    for (const f of onlyScoped) process.stdout.write(`  only scoped: ${f}\n`);
    for (const f of onlyWhole) process.stdout.write(`  only whole:  ${f}\n`);
  }
}
rmSync(work, { recursive: true, force: true });
process.stdout.write(`${differences} commit(s) with a difference\n`);
process.exitCode = differences > 0 ? 1 : 0;
