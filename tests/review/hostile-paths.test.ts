/**
 * Paths from git are data (issue 10, item 1). A tree built with `git mktree` whose entries are named
 * `..`, `.GIT`, hold a backslash, or lead through a symbolic link never gets a file written outside
 * the scanners' work copy: such files are listed as not reviewed and the review is incomplete (exit 3),
 * while the plain files next to them are still reviewed and scanned.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJscr } from '../helpers/cli.js';
import { testNeedingAll } from '../helpers/programs.js';
import { makeRepo, type TestRepo } from '../helpers/repo.js';
import { fakeProgram } from '../scanners/harness.js';

const CODE = 'import os\n\ndef run(y):\n    os.system("rm -rf " + y)\n';

let repo: TestRepo;
let sandbox: string;
const itWithScanners = testNeedingAll(['bandit', 'shellcheck'], 'the hostile-path test with the real scanners');

/** `git mktree` from `mode type oid name` lines; returns the tree id. */
function mktree(entries: string[]): string {
  return execFileSync('git', ['mktree'], { cwd: repo.root, input: entries.map((e) => `${e}\n`).join('') }).toString().trim();
}

beforeAll(() => {
  repo = makeRepo({ '.jscr.toml': '[scanners]\nenabled = ["bandit", "shellcheck"]\n', 'keep.txt': 'base\n' });
  const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: repo.root, input: CODE }).toString().trim();
  const shell = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: repo.root, input: 'rm -rf $1\n' }).toString().trim();
  const link = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: repo.root, input: '../../..' }).toString().trim();
  const leaf = mktree([`100644 blob ${blob}\tplanted.py`, `100644 blob ${shell}\tplanted.sh`]);
  // a/../../planted.py: a tree named `..` inside a tree named `..` inside `a`.
  const upTwice = mktree([`040000 tree ${mktree([`040000 tree ${leaf}\t..`])}\t..`]);
  const head = mktree([
    `100644 blob ${blob}\tok.py`,
    `040000 tree ${leaf}\t..`,
    `040000 tree ${upTwice}\ta`,
    `040000 tree ${leaf}\t.GIT`,
    `040000 tree ${leaf}\t.git `,
    `100644 blob ${blob}\tback\\slash.py`,
    `120000 blob ${link}\tlinked`,
    `100644 blob ${blob}\t.jscr.toml`,
    `100644 blob ${blob}\tkeep.txt`,
  ]);
  // The same name as a symbolic link and as a folder: a path through the link.
  const throughLink = mktree([`120000 blob ${link}\tlinked`, `040000 tree ${leaf}\tlinked`, `100644 blob ${blob}\tok.py`, `100644 blob ${blob}\tkeep.txt`]);
  const base = repo.git('rev-parse', 'HEAD').trim();
  const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid' };
  const hostile = execFileSync('git', ['commit-tree', head, '-p', base, '-m', 'hostile'], { cwd: repo.root, env }).toString().trim();
  const viaLink = execFileSync('git', ['commit-tree', throughLink, '-p', base, '-m', 'through a link'], { cwd: repo.root, env }).toString().trim();
  repo.git('update-ref', 'refs/heads/hostile', hostile);
  repo.git('update-ref', 'refs/heads/via-link', viaLink);
  sandbox = mkdtempSync(join(tmpdir(), 'jscr-sandbox-'));
});

afterAll(() => {
  repo.cleanup();
  rmSync(sandbox, { recursive: true, force: true });
});

/** A TMPDIR two levels below an empty sandbox, so any `..` write lands somewhere the test can see. */
function privateTmp(name: string): { outer: string; tmp: string } {
  const outer = join(sandbox, name);
  const tmp = join(outer, 'level', 'tmp');
  mkdirSync(tmp, { recursive: true });
  return { outer, tmp };
}

function listAll(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, prefix: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      out.push(`${prefix}${entry.name}`);
      if (entry.isDirectory()) walk(join(d, entry.name), `${prefix}${entry.name}/`);
    }
  };
  walk(dir, '');
  return out.sort();
}

interface Report {
  complete: boolean;
  skipped_files: { path: string; reason: string }[];
  findings: { path: string; rule: string }[];
  scanners: { name: string; status: string }[];
}

describe('a tree whose paths leave the root', () => {
  itWithScanners('writes nothing outside the work copy with the real bandit and shellcheck, and lists every such file as not reviewed', async () => {
    const { outer, tmp } = privateTmp('real');
    const result = await runJscr(['review', '--no-model', '--format', 'json', '--range', 'main..hostile'], repo.root, { TMPDIR: tmp });
    expect(result.stderr).not.toMatch(/internal error/);
    expect(result.code).toBe(3);
    // Nothing escaped, and the work copy itself is gone.
    expect(listAll(outer)).toEqual(['level', 'level/tmp']);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.complete).toBe(false);
    const unsafe = report.skipped_files.filter((f) => f.reason.startsWith('unsafe_path')).map((f) => f.path).sort();
    expect(unsafe).toEqual(['../planted.py', '../planted.sh', '.GIT/planted.py', '.GIT/planted.sh', '.git /planted.py', '.git /planted.sh', 'a/../../planted.py', 'a/../../planted.sh', 'back\\\\slash.py']);
    // The plain file beside them is reviewed and scanned.
    expect(report.findings.some((f) => f.path === 'ok.py' && f.rule === 'jscr/python-os-system-non-literal')).toBe(true);
    expect(report.scanners.find((s) => s.name === 'bandit')?.status).toBe('ran');
  }, 120_000);

  it('gives a scanner a work copy that holds only the plain files', async () => {
    const { outer, tmp } = privateTmp('fake');
    const log = join(sandbox, 'fake-bandit.log');
    const fake = await fakeProgram('bandit', `find . -print | sort > '${log}'\necho '{"results": [], "errors": []}'`);
    try {
      const result = await runJscr(['review', '--no-model', '--format', 'json', '--range', 'main..hostile'], repo.root, { TMPDIR: tmp, PATH: fake.env.PATH });
      expect(result.code).toBe(3);
      expect(readFileSync(log, 'utf8').split('\n').filter(Boolean)).toEqual(['.', './.jscr.toml', './keep.txt', './ok.py']);
      expect(listAll(outer)).toEqual(['level', 'level/tmp']);
    } finally {
      await fake.remove();
    }
  }, 120_000);

  it('does not read a file through a path whose folder is a symbolic link in the tree', async () => {
    const { outer, tmp } = privateTmp('link');
    const result = await runJscr(['review', '--no-model', '--format', 'json', '--range', 'main..via-link'], repo.root, { TMPDIR: tmp });
    expect(result.code).toBe(3);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.skipped_files.filter((f) => f.path.startsWith('linked/')).map((f) => f.reason)).toEqual([
      expect.stringMatching(/^unsafe_path: .*linked, a symbolic link/),
      expect.stringMatching(/^unsafe_path: .*linked, a symbolic link/),
    ]);
    expect(listAll(outer)).toEqual(['level', 'level/tmp']);
  }, 120_000);
});
