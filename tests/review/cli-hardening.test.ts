/**
 * `jscr review` used as a new user and a CI job would: odd revisions, odd `.jscr.toml` entries, files
 * the review cannot read, unwritable outputs. Each case pins the exit code (SPEC 2), a one-line
 * message, and a report that never reads as clean when something was not checked.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeRepo, runJscr, type TestRepo } from '../helpers/repo.js';
import { fakeProgram } from '../scanners/harness.js';

const repos: TestRepo[] = [];
const dirs: string[] = [];
function repo(initial?: Record<string, string>): TestRepo {
  const r = makeRepo(initial);
  repos.push(r);
  return r;
}
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'jscr-hardening-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

interface Report {
  change: { kind: string; range: string };
  findings: { rule: string; path: string }[];
  steps: { name: string; status: string; detail: string }[];
  scanners: { name: string; status: string; detail: string }[];
  complete: boolean;
  incomplete_reasons: string[];
  exit_code: number;
  config_source: string | null;
  untracked_files?: string[];
}
const parse = (stdout: string): Report => JSON.parse(stdout) as Report;

/** One line on stderr, prefixed `jscr:`, with no stack trace and no "internal error". */
function expectOneLineError(stderr: string, pattern: RegExp): void {
  const lines = stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^jscr: /);
  expect(lines[0]).toMatch(pattern);
  expect(stderr).not.toMatch(/internal error|\n\s+at /);
}

const EVAL = 'eval(req.body.code)\n';

describe('revisions that are not commits', () => {
  it('a tree or a blob given as --commit is exit 2 naming what it is', async () => {
    const r = repo({ 'a.js': 'const a = 1;\n' });
    const tree = await runJscr(['review', '--commit', 'HEAD^{tree}'], { cwd: r.root });
    expect(tree.code).toBe(2);
    expectOneLineError(tree.stderr, /bad revision 'HEAD\^\{tree\}': a tree, not a commit/);
    const blob = await runJscr(['review', '--range', 'HEAD:a.js..HEAD'], { cwd: r.root });
    expect(blob.code).toBe(2);
    expectOneLineError(blob.stderr, /bad revision 'HEAD:a\.js'/);
  });

  it('a range with two ".." is exit 2 with one line, not a mangled object id', async () => {
    const r = repo({ 'a.js': 'const a = 1;\n' });
    r.commit({ 'b.js': 'const b = 2;\n' });
    r.commit({ 'c.js': 'const c = 3;\n' });
    const out = await runJscr(['review', '--range', 'HEAD~2..HEAD~1..HEAD'], { cwd: r.root });
    expect(out.code).toBe(2);
    expectOneLineError(out.stderr, /one revision expected, not a range/);
  });

  it('"A.." reviews A..HEAD, as git reads it', async () => {
    const r = repo({ 'a.js': 'const a = 1;\n' });
    r.commit({ 'b.js': EVAL });
    const out = await runJscr(['review', '--range', 'HEAD~1..', '--format', 'json', '--quiet'], { cwd: r.root });
    expect(out.code).toBe(1);
    expect(parse(out.stdout).findings.map((f) => f.path)).toEqual(['b.js']);
  });

  it('a root commit is labelled as one (no "sha^..sha" range git would refuse) and ignores the working tree config', async () => {
    const r = repo({ 'a.js': EVAL });
    const sha = r.git('rev-parse', 'HEAD').trim();
    // An uncommitted suppression must not silence the review of a commit that has no base.
    r.write({ '.jscr.toml': '[[suppress]]\nrule = "jscr/js-eval-dynamic"\nreason = "not for this commit"\n' });
    const out = await runJscr(['review', '--commit', sha, '--format', 'json'], { cwd: r.root });
    const report = parse(out.stdout);
    expect(report.change.range).not.toContain('^..');
    expect(report.change.range).toContain('root commit');
    expect(report.config_source).toBeNull();
    // the eval is reported (by data flow now, which answers to the pattern rule's id)
    expect(report.findings.map((f) => f.rule)).toContain('jscr/js-code-evaluation');
    expect(out.code).toBe(1);
  });
});

describe('the base revision .jscr.toml must be a UTF-8 regular file', () => {
  it('a symbolic link is exit 2, never its target text parsed as TOML', async () => {
    const r = repo({ 'a.js': 'const a = 1;\n' });
    r.commit({ '.jscr.toml': { symlink: '/etc/hostname' } });
    r.write({ 'a.js': EVAL });
    const out = await runJscr(['review'], { cwd: r.root });
    expect(out.code).toBe(2);
    expectOneLineError(out.stderr, /\.jscr\.toml at [0-9a-f]{12}: is a symbolic link/);
    expect(out.stdout).toBe('');
  });

  it('a directory is exit 2, not a silent fall back to the defaults', async () => {
    const r = repo({ 'a.js': 'const a = 1;\n', '.jscr.toml/notes.txt': 'a folder' });
    r.write({ 'a.js': EVAL });
    const out = await runJscr(['review'], { cwd: r.root });
    expect(out.code).toBe(2);
    expectOneLineError(out.stderr, /is a directory, not a file/);
  });

  it('invalid UTF-8 is exit 2 saying so, not a value of replacement characters', async () => {
    const r = repo({ 'a.js': 'const a = 1;\n' });
    r.commit({ '.jscr.toml': Buffer.from('[review]\nfail_on = "low"\n# caf\xe9\n', 'latin1') });
    r.write({ 'a.js': EVAL });
    const out = await runJscr(['review'], { cwd: r.root });
    expect(out.code).toBe(2);
    expectOneLineError(out.stderr, /not valid UTF-8/);
  });
});

describe('what the review did not look at is said, never reported as clean', () => {
  it('a changed text file over the size limit makes the review incomplete (exit 3), named in the report', async () => {
    const r = repo({ 'a.js': 'const a = 1;\n' });
    const big = `${'const padding = 1; // a generated file\n'.repeat(60_000)}${EVAL}`; // about 2.4 MB
    r.commit({ 'bundle.js': big });
    const json = await runJscr(['review', '--commit', 'HEAD', '--format', 'json'], { cwd: r.root });
    expect(json.code).toBe(3);
    const report = parse(json.stdout);
    expect(report.complete).toBe(false);
    expect(report.incomplete_reasons.join(' ')).toMatch(/bundle\.js \(too_large/);
    const text = await runJscr(['review', '--commit', 'HEAD'], { cwd: r.root });
    expect(text.code).toBe(3);
    expect(text.stdout).not.toContain('These checks, on this change, found nothing.');
    expect(text.stdout).toContain('Not reviewed: bundle.js (too_large');
  });

  it('a lock file over the size limit is listed as data, without making the review incomplete', async () => {
    const r = repo({ 'a.js': 'const a = 1;\n' });
    const lock = `{\n  "lockfileVersion": 3,\n  "packages": {\n${'    "node_modules/some-package": { "version": "1.0.0" },\n'.repeat(50_000)}    "": {}\n  }\n}\n`; // about 2.9 MB
    r.commit({ 'package-lock.json': lock });
    const json = await runJscr(['review', '--commit', 'HEAD', '--format', 'json'], { cwd: r.root });
    expect(json.code).toBe(0);
    const report = parse(json.stdout);
    expect(report.complete).toBe(true);
    expect((report as unknown as { skipped_files: unknown }).skipped_files).toEqual([
      { path: 'package-lock.json', class: 'data', kind: 'lock file', reason: 'lock file: nothing to review line by line' },
    ]);
  });

  it('a binary file is listed as data but does not make the review incomplete', async () => {
    const r = repo({ 'a.js': 'const a = 1;\n' });
    r.commit({ 'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2, 3]) });
    const out = await runJscr(['review', '--commit', 'HEAD'], { cwd: r.root });
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('These checks, on this change, found nothing.');
    expect(out.stdout).toContain('Data, nothing to review line by line: logo.png (image).');
    expect(out.stdout).not.toContain('Not reviewed');
  });

  it('untracked files in a working-tree review are named, since git diff HEAD leaves them out', async () => {
    const r = repo({ 'a.js': 'const a = 1;\n' });
    r.write({ 'new handler.js': EVAL });
    const text = await runJscr(['review'], { cwd: r.root });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/1 untracked file not part of the change and not reviewed: new handler\.js/);
    const json = await runJscr(['review', '--format', 'json'], { cwd: join(r.root) });
    expect(parse(json.stdout).untracked_files).toEqual(['new handler.js']);
    const markdown = await runJscr(['review', '--format', 'markdown'], { cwd: r.root });
    expect(markdown.stdout).toMatch(/untracked file not part of the change/);
  });

  it('findings hidden by a suppression are counted in the text report', async () => {
    const r = repo({ '.jscr.toml': '[[suppress]]\nrule = "jscr/js-eval-dynamic"\nreason = "reviewed by hand"\n', 'a.js': 'const a = 1;\n' });
    r.commit({ 'a.js': EVAL });
    const out = await runJscr(['review', '--commit', 'HEAD'], { cwd: r.root });
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('1 finding suppressed by [[suppress]] entries');
  });
});

describe('where the report goes', () => {
  it('--output into a missing folder is exit 2 with one line, and no file or temp file appears', async () => {
    const r = repo({ 'a.js': 'const a = 1;\n' });
    r.write({ 'a.js': EVAL });
    const dir = tempDir();
    const out = await runJscr(['review', '--format', 'json', '--output', join(dir, 'missing', 'report.json')], { cwd: r.root });
    expect(out.code).toBe(2);
    expectOneLineError(out.stderr, /--output .*: the folder .* does not exist/);
    expect(out.stdout).toBe('');
    expect(existsSync(join(dir, 'missing'))).toBe(false);
  });

  it('a review that cannot run writes its JSON error report to --output, so CI never reads a stale file', async () => {
    const r = repo({ 'a.js': 'const a = 1;\n' });
    const dir = tempDir();
    const target = join(dir, 'report.json');
    const first = await runJscr(['review', '--format', 'json', '--output', target], { cwd: r.root });
    expect(first.code).toBe(0);
    const failed = await runJscr(['review', '--commit', 'no-such-revision', '--format', 'json', '--output', target], { cwd: r.root });
    expect(failed.code).toBe(2);
    expect(failed.stdout).toBe('');
    const report = parse(readFileSync(target, 'utf8'));
    expect(report.exit_code).toBe(2);
    expect(report.complete).toBe(false);
    expect(report.incomplete_reasons[0]).toMatch(/no-such-revision/);
    expect(readdirSync(dir)).toEqual(['report.json']);
  });

  it('--output naming a folder is exit 2 with one line and leaves no temp file beside it', async () => {
    const r = repo({ 'a.js': 'const a = 1;\n' });
    const dir = tempDir();
    mkdirSync(join(dir, 'reports'));
    const out = await runJscr(['review', '--output', join(dir, 'reports')], { cwd: r.root });
    expect(out.code).toBe(2);
    expectOneLineError(out.stderr, /is a folder, not a file/);
    expect(readdirSync(dir)).toEqual(['reports']);
  });

  it('an unwritable GITHUB_STEP_SUMMARY is a one-line warning; the review keeps its own exit code', async () => {
    const r = repo({ 'a.js': 'const a = 1;\n' });
    r.write({ 'a.js': EVAL });
    const dir = tempDir();
    const out = await runJscr(['review', '--format', 'github'], { cwd: r.root, env: { GITHUB_STEP_SUMMARY: join(dir, 'gone', 'summary.md') } });
    expect(out.code).toBe(1);
    expect(out.stdout).toMatch(/^::error file=a\.js,line=1/m);
    expect(out.stderr.trim()).toMatch(/^jscr: warning: could not append the step summary to GITHUB_STEP_SUMMARY \(ENOENT\)$/);
  });
});

describe('the deadline is shared by the external scanners', () => {
  it('a scanner that uses up the deadline leaves the next one not run, with the deadline as the reason', async () => {
    const slow = await fakeProgram('bandit', 'sleep 5');
    const dir = slow.dir;
    const { writeFileSync, chmodSync } = await import('node:fs');
    writeFileSync(join(dir, 'shellcheck'), '#!/bin/sh\nsleep 5\n');
    chmodSync(join(dir, 'shellcheck'), 0o755);
    try {
      const r = repo({ '.jscr.toml': '[review]\ndeadline_s = 2\n[scanners]\nenabled = ["bandit", "shellcheck"]\n', 'a.py': 'x = 1\n' });
      r.commit({ 'a.py': 'x = 2\n', 'run.sh': '#!/bin/sh\necho "$1"\n' });
      const out = await runJscr(['review', '--commit', 'HEAD', '--format', 'json'], { cwd: r.root, env: slow.env });
      expect(out.code).toBe(3);
      const shellcheck = parse(out.stdout).scanners.find((s) => s.name === 'shellcheck');
      expect(shellcheck?.status).toBe('not_run');
      expect(shellcheck?.detail).toMatch(/review\.deadline_s/);
    } finally {
      await slow.remove();
    }
  });
});

describe('file contents git did not call binary', () => {
  it('reviews a Latin-1 source file instead of skipping it', async () => {
    const r = makeRepo({ 'calc.py': 'x = 1\n' });
    repos.push(r);
    r.commit({ 'legacy.py': Buffer.from('# caf\xe9 au lait\nimport os\nos.system("rm -rf " + path)\n', 'latin1') });
    const out = await runJscr(['review', '--range', 'HEAD~1..HEAD', '--format', 'json'], { cwd: r.root });
    const report = JSON.parse(out.stdout) as { complete: boolean; findings: { path: string; line: number }[] };
    expect(report.complete).toBe(true);
    expect(report.findings.some((f) => f.path === 'legacy.py' && f.line === 3)).toBe(true);
  });

  it('skips content with NUL bytes as binary, even when attributes make git diff it as text', async () => {
    const r = makeRepo({ '.gitattributes': 'blob.dat text\n' });
    repos.push(r);
    r.commit({ 'blob.dat': Buffer.from('header\n\0\0\0payload\n', 'latin1') });
    const out = await runJscr(['review', '--range', 'HEAD~1..HEAD', '--format', 'json'], { cwd: r.root });
    const report = JSON.parse(out.stdout) as { complete: boolean; skipped_files: { path: string; reason: string }[] };
    expect(out.code).toBe(0);
    expect(report.complete).toBe(true);
    expect(report.skipped_files.find((s) => s.path === 'blob.dat')?.reason).toMatch(/binary/);
  });
});

describe('flag errors', () => {
  it.each([
    [['gate', '--bogus'], /unknown option '--bogus'/],
    [['prove', '--max-depth', 'abc'], /--max-depth.*whole number/],
    [['review', '--format', 'yaml'], /--format/],
  ])('jscr %j is exit 2 with one line', async (args, reason) => {
    const r = makeRepo({ 'a.py': 'x = 1\n' });
    repos.push(r);
    const out = await runJscr(args, { cwd: r.root });
    expect(out.code).toBe(2);
    expect(out.stderr.trim().split('\n')).toHaveLength(1);
    expect(out.stderr).toMatch(/^jscr: /);
    expect(out.stderr).toMatch(reason);
  });

  it('jscr gate --help prints the help of the gate command', async () => {
    const out = await runJscr(['gate', '--help'], { cwd: '/' });
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/PreToolUse/);
  });
});
