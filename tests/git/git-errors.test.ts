/**
 * Git failing, through the CLI: exit 2, jscr's own line, and git's own message on the line under it
 * whenever git said why, never an internal error and never a review that went on as if nothing
 * happened. The broken repositories are made with git's plumbing: objects written with
 * `hash-object --literally`, trees naming objects that are not there (`mktree --missing`).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GitError } from '../../src/errors.js';
import { maskError } from '../../src/redact/mask.js';
import { runJscr, type CliRun } from '../helpers/cli.js';
import { makeRepo, type TestRepo } from '../helpers/repo.js';
import { fakes } from '../redact/fakes.js';

const made: { cleanup(): void }[] = [];
afterEach(() => {
  for (const thing of made.splice(0)) thing.cleanup();
});

function repo(files: Record<string, string>): TestRepo {
  const r = makeRepo(files);
  made.push(r);
  return r;
}

function plainFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'jscr-not-a-repo-'));
  made.push({ cleanup: () => rmSync(dir, { recursive: true, force: true }) });
  return dir;
}

/** `text` as a regular expression matching exactly itself. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Exit 2 and exactly these stderr lines: jscr's, then git's when a second pattern is given. */
function expectGitFailure(run: CliRun, lines: RegExp[]): void {
  expect(run.code, run.stderr).toBe(2);
  const printed = run.stderr.split('\n').filter((l) => l.length > 0);
  expect(printed, run.stderr).toHaveLength(lines.length);
  lines.forEach((pattern, i) => expect(printed[i]).toMatch(pattern));
  expect(run.stderr).not.toMatch(/internal error|please report|\n\s+at /);
}

/** A git plumbing command in the repository with `input` on its stdin; its output, trimmed. */
function plumbing(r: TestRepo, args: string[], input = ''): string {
  const author = { GIT_AUTHOR_NAME: 'jscr test', GIT_AUTHOR_EMAIL: 'test@example.invalid', GIT_COMMITTER_NAME: 'jscr test', GIT_COMMITTER_EMAIL: 'test@example.invalid' };
  return execFileSync('git', args, { cwd: r.root, input, encoding: 'utf8', env: { ...process.env, ...author } }).trim();
}

/** An object written as it is, without git checking it is a well-formed object of its type. */
function writeLiterally(r: TestRepo, type: string, content: string): string {
  return plumbing(r, ['hash-object', '-t', type, '--literally', '-w', '--stdin'], content);
}

describe('not a repository', () => {
  it.each([
    ['review', ['review', '--no-model']],
    ['prove', ['prove']],
    ['init', ['init']],
    ['fix', ['fix']],
  ])('%s: exit 2, jscr names the folder and git says why', async (_name, args) => {
    const dir = plainFolder();
    const run = await runJscr(args, dir);
    expectGitFailure(run, [new RegExp(`^jscr: not a git repository: ${literal(dir)}$`), /^git: fatal: not a git repository/]);
  }, 60_000);
});

describe('a bad revision', () => {
  it('that git explains (a reflog shorter than asked) shows git’s reason, for review and prove', async () => {
    const r = repo({ 'a.py': 'x = 1\n' });
    for (const args of [['review', '--no-model', '--commit', 'HEAD@{99}'], ['prove', '--head', 'HEAD@{99}']]) {
      expectGitFailure(await runJscr(args, r.root), [/^jscr: bad revision 'HEAD@\{99\}': not a commit in this repository$/, /^git: fatal: log for 'HEAD' only has \d+ entries/]);
    }
  }, 60_000);

  it('that names nothing is jscr’s line alone: git has nothing to add', async () => {
    const r = repo({ 'a.py': 'x = 1\n' });
    expectGitFailure(await runJscr(['review', '--no-model', '--commit', 'no-such-branch'], r.root), [/^jscr: bad revision 'no-such-branch': not a commit in this repository$/]);
  }, 60_000);

  it('masks a secret shape in both lines when git echoes the name', async () => {
    const r = repo({ 'a.py': 'x = 1\n' });
    r.git('branch', fakes.githubClassic);
    const run = await runJscr(['review', '--no-model', '--commit', `${fakes.githubClassic}@{5}`], r.root);
    expectGitFailure(run, [/^jscr: bad revision /, /^git: fatal: log for '.*' only has \d+ entr/]);
    expect(run.stderr).not.toContain(fakes.githubClassic);
  }, 60_000);
});

describe('a damaged repository', () => {
  it('a commit object that does not parse: git’s own words under jscr’s line', async () => {
    const r = repo({ 'a.py': 'x = 1\n' });
    const bogus = writeLiterally(r, 'commit', 'this is not a commit\n');
    // update-ref refuses a ref to an object that is not a valid commit; the ref file is written as a clone could hold it.
    r.write({ '.git/refs/heads/bogus': `${bogus}\n` });
    expectGitFailure(await runJscr(['review', '--no-model', '--commit', 'bogus'], r.root), [/^jscr: bad revision 'bogus': not a commit in this repository$/, new RegExp(`^git: error: bogus commit object ${bogus}`)]);
  }, 60_000);

  it('a commit whose tree is not in the repository: git diff fails with git’s reason', async () => {
    const r = repo({ 'a.py': 'x = 1\n' });
    const missingTree = '1234567890123456789012345678901234567890';
    const commit = writeLiterally(r, 'commit', `tree ${missingTree}\nauthor a <a@example.invalid> 0 +0000\ncommitter a <a@example.invalid> 0 +0000\n\nno tree\n`);
    expectGitFailure(await runJscr(['review', '--no-model', '--commit', commit], r.root), [/^jscr: git diff failed$/, new RegExp(`^git: fatal: unable to read tree ${missingTree}`)]);
  }, 60_000);

  it("an index git cannot read: exit 2 for --staged and the working tree, and git names the repository's index", async () => {
    const r = repo({ 'a.py': 'x = 1\n' });
    r.write({ '.git/index': 'not an index' });
    for (const args of [['review', '--no-model', '--staged'], ['review', '--no-model']]) {
      const run = await runJscr(args, r.root);
      expectGitFailure(run, [/^jscr: git diff failed$/, new RegExp(`^git: fatal: ${literal(r.root)}/\\.git/index: `)]);
      expect(run.stderr).not.toContain('jscr-index-');
    }
  }, 60_000);

  it('a base .jscr.toml whose blob is missing is exit 2, never a review with the default configuration', async () => {
    const r = repo({ 'a.py': 'x = 1\n' });
    const missingBlob = '1111111111111111111111111111111111111111';
    const code = plumbing(r, ['hash-object', '-w', '--stdin'], 'import os\nos.system(input())\n');
    const tree = (entries: string): string => plumbing(r, ['mktree', '--missing'], entries);
    const baseTree = tree(`100644 blob ${missingBlob}\t.jscr.toml\n`);
    const headTree = tree(`100644 blob ${missingBlob}\t.jscr.toml\n100644 blob ${code}\tapp.py\n`);
    const base = plumbing(r, ['commit-tree', '-m', 'base', baseTree]);
    const head = plumbing(r, ['commit-tree', '-m', 'head', '-p', base, headTree]);
    const range = `${base}..${head}`;
    const account = new RegExp(`^jscr: cannot read \\.jscr\\.toml at ${base.slice(0, 12)}: its object ${missingBlob} is not in this repository`);
    expectGitFailure(await runJscr(['review', '--no-model', '--range', range], r.root), [account, new RegExp(`^git: ${missingBlob} missing$`)]);
    expectGitFailure(await runJscr(['prove', '--base', base, '--head', head], r.root), [account, new RegExp(`^git: ${missingBlob} missing$`)]);
    const json = await runJscr(['review', '--no-model', '--format', 'json', '--range', range], r.root);
    expect(json.code).toBe(2);
    const report = JSON.parse(json.stdout) as { findings: unknown[]; complete: boolean; exit_code: number; incomplete_reasons: string[] };
    expect(report).toMatchObject({ findings: [], complete: false, exit_code: 2 });
    expect(report.incomplete_reasons).toEqual([expect.stringMatching(new RegExp(`is not in this repository .*: ${missingBlob} missing$`))]);
  }, 60_000);
});

describe('GitError', () => {
  it('keeps jscr’s line and git’s message apart, and masks both', () => {
    const error = new GitError(`bad revision '${fakes.githubClassic}'`, `fatal: log for '${fakes.githubClassic}' only has 1 entries`);
    expect(error.message).toBe(`${error.account}: ${error.gitSaid ?? ''}`);
    const masked = maskError(error);
    expect(masked).toBeInstanceOf(GitError);
    const { account, gitSaid, message, exitCode } = masked as GitError;
    expect(exitCode).toBe(2);
    for (const text of [account, gitSaid ?? '', message]) expect(text).not.toContain(fakes.githubClassic);
    expect(gitSaid).toMatch(/^fatal: log for '.+' only has 1 entries$/);
  });
});
