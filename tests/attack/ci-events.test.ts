/**
 * The Action's review step (action/review.sh) picks the change from the event. A pull request must be
 * reviewed as its own commits whatever the workflow checked out: under `pull_request_target`
 * actions/checkout leaves the *base* branch in the workspace, so `origin/<base>...HEAD` is empty and
 * every hostile pull request passed as a clean review (exit 0).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKOUT } from '../helpers/binary.js';
import { reposRemovedAfterEach, type TestRepo } from '../helpers/repo.js';

const GIT_ENV: NodeJS.ProcessEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: tmpdir() };

const HOSTILE = 'import os\nfrom flask import request\n\ndef run():\n    os.system(request.args["c"])\n';

interface StepRun {
  exitCode: string | undefined;
  /** Every output the step wrote (name=value lines of GITHUB_OUTPUT). */
  outputs: Map<string, string>;
  stderr: string;
}

/** A clone of `origin` as actions/checkout leaves it, on `checkedOut`, and review.sh run on it with `event`. */
function runReviewStep(origin: TestRepo, checkedOut: string, eventName: string, event: object): StepRun {
  const work = join(origin.root, '..', `${origin.root.split('/').pop() ?? 'repo'}-runner`);
  const workspace = join(work, 'workspace');
  mkdirSync(work, { recursive: true });
  execFileSync('git', ['clone', '-q', '--no-local', origin.root, workspace], { env: GIT_ENV });
  execFileSync('git', ['checkout', '-q', checkedOut], { cwd: workspace, env: GIT_ENV });
  writeFileSync(join(work, 'event.json'), JSON.stringify(event));
  writeFileSync(join(work, 'output.txt'), '');
  const env: NodeJS.ProcessEnv = {
    ...GIT_ENV,
    GITHUB_ACTION_PATH: CHECKOUT,
    GITHUB_WORKSPACE: workspace,
    GITHUB_EVENT_NAME: eventName,
    GITHUB_EVENT_PATH: join(work, 'event.json'),
    GITHUB_REPOSITORY: 'acme/app',
    GITHUB_OUTPUT: join(work, 'output.txt'),
    GITHUB_STEP_SUMMARY: join(work, 'summary.md'),
    RUNNER_TEMP: join(work, 'temp'),
    INPUT_FORMAT: 'json',
    INPUT_SARIF: 'false',
  };
  let stderr = '';
  try {
    execFileSync('bash', [join(CHECKOUT, 'action', 'review.sh')], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
  } catch (error) {
    stderr = String((error as { stderr?: string }).stderr ?? error);
  }
  const outputs = readFileSync(join(work, 'output.txt'), 'utf8');
  const written = new Map(outputs.split('\n').filter((line) => line.includes('=')).map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as [string, string]));
  return { exitCode: /^exit-code=(\d+)$/m.exec(outputs)?.[1], outputs: written, stderr };
}

describe('the Action reviews the change the event names, not whatever was checked out', () => {
  const repo = reposRemovedAfterEach();

  it('pull_request_target: the workspace holds the base branch, the pull request is still reviewed (exit 1)', () => {
    const origin = repo({ 'app.py': 'def run():\n    return 1\n' });
    origin.git('checkout', '-q', '-b', 'feature');
    const head = origin.commit({ 'app.py': HOSTILE }, 'hostile');
    origin.git('checkout', '-q', 'main');
    const event = { pull_request: { number: 7, base: { ref: 'main' }, head: { sha: head, repo: { full_name: 'stranger/app' } } }, repository: { full_name: 'acme/app' } };
    const run = runReviewStep(origin, 'main', 'pull_request_target', event);
    expect(run.exitCode, run.stderr).toBe('1');
    // The SARIF upload is filed against the pull request's head, not the base commit the workflow runs on.
    expect(run.outputs.get('sarif-sha')).toBe(head);
    expect(run.outputs.get('sarif-ref')).toBe('refs/pull/7/head');
  }, 180_000);

  it('pull_request: HEAD holds the head commit, the upload keeps the workflow commit (no ref or sha named)', () => {
    const origin = repo({ 'app.py': 'def run():\n    return 1\n' });
    origin.git('checkout', '-q', '-b', 'feature');
    const head = origin.commit({ 'app.py': HOSTILE }, 'hostile');
    const event = { pull_request: { number: 8, base: { ref: 'main' }, head: { sha: head, repo: { full_name: 'acme/app' } } }, repository: { full_name: 'acme/app' } };
    const run = runReviewStep(origin, 'feature', 'pull_request', event);
    expect(run.exitCode, run.stderr).toBe('1');
    expect(run.outputs.has('sarif-sha')).toBe(false);
    expect(run.outputs.has('sarif-ref')).toBe(false);
  }, 180_000);

  it('pull_request_target without a head commit in the event: could not run (exit 2), never an empty review', () => {
    const origin = repo({ 'app.py': 'def run():\n    return 1\n' });
    const event = { pull_request: { number: 7, base: { ref: 'main' }, head: { repo: { full_name: 'stranger/app' } } }, repository: { full_name: 'acme/app' } };
    const run = runReviewStep(origin, 'main', 'pull_request_target', event);
    expect(run.exitCode, run.stderr).toBe('2');
  }, 180_000);
  it("push of a new branch: every commit the branch adds is reviewed, not only its last one (exit 1)", () => {
    const origin = repo({ 'app.py': 'def run():\n    return 1\n' });
    origin.git('checkout', '-q', '-b', 'feature');
    // The hostile commit first, then a harmless one on top (and a .jscr.toml that would silence it).
    origin.commit({ 'app.py': HOSTILE, '.jscr.toml': '[review]\nfail_on = "critical"\nexclude = ["app.py"]\n' }, 'hostile');
    const after = origin.commit({ 'README.md': 'docs\n' }, 'docs');
    const event = { ref: 'refs/heads/feature', before: '0'.repeat(40), after, created: true, repository: { full_name: 'acme/app', default_branch: 'main' } };
    const run = runReviewStep(origin, 'feature', 'push', event);
    expect(run.exitCode, run.stderr).toBe('1');
  }, 180_000);
});
