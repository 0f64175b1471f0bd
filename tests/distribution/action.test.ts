/**
 * The GitHub Action's steps run locally (tools/action-local.sh) on a fresh repository: the Action is
 * installed from its own copy and lockfile, reviews the pull request's merge-base range or the push's
 * before..after, writes annotations, the step summary and SARIF, and on a fork's pull request keeps
 * to annotations and the summary and says so.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKOUT } from '../helpers/binary.js';
import { makeRepo, type TestRepo } from '../helpers/repo.js';

let temp: string;
let repo: TestRepo;
let action: string;
let runs = 0;

interface ActionRun {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  work: string;
}

/** One local run of the Action's steps; the first one installs the Action copy, later ones reuse it. */
function runAction(args: string[], target: TestRepo = repo): ActionRun {
  const work = join(temp, `run-${++runs}`);
  mkdirSync(work);
  const env: NodeJS.ProcessEnv = { ...process.env, JSCR_ACTION_WORK: work };
  delete env.GITHUB_STEP_SUMMARY; // this test may itself run in GitHub Actions
  if (action) env.JSCR_ACTION_PATH = action;
  const run = spawnSync('bash', [join(CHECKOUT, 'tools', 'action-local.sh'), ...args, target.root], { env, encoding: 'utf8', timeout: 240_000 });
  if (!action) action = join(work, 'action');
  const outputs = Object.fromEntries(
    readFileSync(join(work, 'output.txt'), 'utf8')
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  return { code: run.status, stdout: run.stdout, stderr: run.stderr, outputs, summary: readFileSync(join(work, 'summary.md'), 'utf8'), work };
}

beforeAll(() => {
  temp = realpathSync(mkdtempSync(join(tmpdir(), 'jscr-action-')));
  action = '';
  repo = makeRepo({ 'svc/report.py': 'def report(name):\n    return name\n', 'README.md': 'app\n' });
  repo.git('checkout', '-q', '-b', 'feature');
  repo.commit({ 'svc/report.py': 'import os, sys\n\ndef report(name):\n    os.system("report " + sys.argv[1])\n    return name\n' }, 'shell out');
  repo.git('checkout', '-q', 'main');
  repo.commit({ 'README.md': 'app, documented\n' }, 'docs');
}, 60_000);

afterAll(() => {
  repo.cleanup();
  rmSync(temp, { recursive: true, force: true });
});

describe('the Action, run locally', () => {
  it('on a pull request: reviews from the merge base, annotates, summarises and uploads SARIF', () => {
    const run = runAction(['--event', 'pull_request', '--base', 'main', '--head', 'feature']);
    expect(run.code, run.stderr).toBe(1);
    // jscr ran from the Action's own installed copy, not from this checkout or the repository.
    expect(existsSync(join(action, 'node_modules')) && existsSync(join(action, 'dist', 'jscr.mjs'))).toBe(true);
    expect(run.stdout).toMatch(/^::error file=svc\/report\.py,line=4,.*python-os-system-non-literal/m);
    expect(run.stdout).toContain('on range origin/main...HEAD (1 file)'); // only the branch's change, not main's docs commit
    expect(run.summary).toContain('## jscr review');
    expect(run.summary).toContain('svc/report.py:4');
    expect(run.outputs).toMatchObject({ 'exit-code': '1', 'upload-sarif': 'true' });
    const sarif = JSON.parse(readFileSync(run.outputs['sarif-file'] ?? '', 'utf8')) as { runs: { results: { ruleId: string }[] }[] };
    expect(sarif.runs[0]?.results.map((r) => r.ruleId)).toContain('jscr/python-os-system-non-literal');
    expect(run.stdout).toContain('would upload');
  }, 300_000); // the first run installs the Action copy (npm ci)

  it('on a pull request from a fork: annotations and the summary only, and it says why', () => {
    const run = runAction(['--event', 'pull_request', '--base', 'main', '--head', 'feature', '--fork']);
    expect(run.code).toBe(1);
    expect(run.outputs['upload-sarif']).toBe('false');
    expect(run.stdout).toMatch(/^::error file=svc\/report\.py,line=4,/m);
    expect(run.stdout).toMatch(/^::notice title=jscr::This pull request comes from a fork, so its token is read-only/m);
    expect(run.summary).toMatch(/## jscr review[\s\S]*comes from a fork.*not uploaded/);
  });

  it('on a push: reviews before..after, and a clean push passes', () => {
    const run = runAction(['--event', 'push', '--base', 'main~1', '--head', 'main', '--input', 'format=json']);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(readFileSync(run.outputs['report-file'] ?? '', 'utf8')) as { change: { range: string; files: { path: string }[] }; findings: unknown[] };
    expect(report.change.files.map((f) => f.path)).toEqual(['README.md']);
    expect(report.findings).toEqual([]);
  });

  it("on a new repository's first push: reviews its one commit against the empty tree", () => {
    const first = makeRepo({ 'app.py': 'import os, sys\n\ndef run(name):\n    os.system("run " + sys.argv[1])\n' });
    try {
      const run = runAction(['--event', 'push', '--new-branch'], first);
      // A root commit has no parent: a range from its parent would be exit 2, never the review.
      expect(run.code, run.stderr).toBe(1);
      expect(run.stdout).toMatch(/^::error file=app\.py,line=4,.*python-os-system-non-literal/m);
      expect(run.outputs['exit-code']).toBe('1');
    } finally {
      first.cleanup();
    }
  });

  it('takes inputs as data: a range that looks like shell code is only a bad range (exit 2)', () => {
    const marker = join(temp, 'pwned');
    const run = runAction(['--input', `range=$(touch ${marker})..HEAD`, '--input', 'fail-on=low']);
    expect(run.code).toBe(2);
    expect(run.outputs['exit-code']).toBe('2');
    expect(existsSync(marker)).toBe(false);
  });

  it('never splices inputs or event fields into its shell steps', () => {
    const lines = readFileSync(join(CHECKOUT, 'action.yml'), 'utf8').split('\n');
    const runLines = lines.filter((line) => /^\s+run:/.test(line));
    expect(runLines.length).toBeGreaterThan(0);
    expect(runLines.filter((line) => line.includes('${{'))).toEqual([]);
  });
});
