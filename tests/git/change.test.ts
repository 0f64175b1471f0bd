/** Reading a change: every kind of ChangeSpec, the failures, and file contents at a revision. */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, symlink, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GitError } from '../../src/errors.js';
import { GIT_MISSING, INDEX, newFileText, readBlob, readChange, readFileAtRevision, resolveRepository } from '../../src/git/change.js';
import { addedLines, parseUnifiedDiff } from '../../src/git/diff.js';
import { makeRepo, type TestRepo } from './repo.js';

const pathsOf = (diffText: string): [string, string][] => parseUnifiedDiff(diffText).map((f) => [f.path, f.status]);

let repo: TestRepo;
let first: string;
let second: string;
let featureTip: string;

beforeAll(async () => {
  // main: first -> second ; feature branches from first and adds feature.py
  repo = await makeRepo();
  await repo.write('app.py', 'a = 1\n');
  first = await repo.commit('first');
  await repo.write('main_only.py', 'm = 1\n');
  second = await repo.commit('second');
  await repo.git('branch', 'feature', first);
  await repo.git('checkout', '-q', 'feature');
  await repo.write('feature.py', 'f = 1\n');
  featureTip = await repo.commit('feature');
  await repo.git('checkout', '-q', 'main');
});

afterAll(() => repo.remove());

describe('readChange', () => {
  it('diffs A..B from A to B', async () => {
    const change = await readChange(repo.root, { kind: 'range', range: 'main..feature' });
    expect(change).toMatchObject({ kind: 'range', range: 'main..feature', baseRev: second, headRev: featureTip });
    // Two dots compare the trees: main's own file shows as deleted.
    expect(pathsOf(change.diffText).sort()).toEqual([
      ['feature.py', 'added'],
      ['main_only.py', 'deleted'],
    ]);
  });

  it('diffs A...B from the merge base to B', async () => {
    const change = await readChange(repo.root, { kind: 'range', range: 'main...feature' });
    expect(change).toMatchObject({ kind: 'merge-base-range', baseRev: first, headRev: featureTip });
    expect(pathsOf(change.diffText)).toEqual([['feature.py', 'added']]);
  });

  it('diffs a commit against its parent, and a root commit against the empty tree', async () => {
    const commit = await readChange(repo.root, { kind: 'commit', sha: second });
    expect(commit).toMatchObject({ kind: 'commit', baseRev: first, headRev: second });
    expect(pathsOf(commit.diffText)).toEqual([['main_only.py', 'added']]);
    const root = await readChange(repo.root, { kind: 'commit', sha: first });
    expect(root).toMatchObject({ baseRev: null, headRev: first });
    expect(pathsOf(root.diffText)).toEqual([['app.py', 'added']]);
  });

  it('reads staged changes and the working tree separately, without untracked files', async () => {
    const r = await makeRepo();
    try {
      await r.write('tracked.py', 'x = 1\n');
      const head = await r.commit('one');
      await r.write('tracked.py', 'x = 2\n');
      await r.git('add', 'tracked.py');
      await r.write('tracked.py', 'x = 3\n');
      await r.write('untracked.py', 'eval(input())\n');

      const staged = await readChange(r.root, { kind: 'staged' });
      expect(staged).toMatchObject({ kind: 'staged', baseRev: head, headRev: null });
      expect([...addedLines(parseUnifiedDiff(staged.diffText)[0]!).values()]).toEqual(['x = 2']);

      const work = await readChange(r.root, { kind: 'working-tree' });
      expect(work).toMatchObject({ kind: 'working-tree', baseRev: head, headRev: null });
      expect(pathsOf(work.diffText)).toEqual([['tracked.py', 'modified']]);
      expect([...addedLines(parseUnifiedDiff(work.diffText)[0]!).values()]).toEqual(['x = 3']);

      expect(await newFileText(r.root, staged, 'tracked.py')).toBe('x = 2\n');
      // The working tree's file is read through path admission by the engine, not here.
      expect(await newFileText(r.root, work, 'tracked.py')).toBeNull();
    } finally {
      await r.remove();
    }
  });

  it('works in a repository with no commits yet', async () => {
    const r = await makeRepo();
    try {
      await r.write('new.py', 'n = 1\n');
      await r.git('add', 'new.py');
      const work = await readChange(r.root, { kind: 'working-tree' });
      expect(work.baseRev).toBeNull();
      expect(pathsOf(work.diffText)).toEqual([['new.py', 'added']]);
      const staged = await readChange(r.root, { kind: 'staged' });
      expect(pathsOf(staged.diffText)).toEqual([['new.py', 'added']]);
    } finally {
      await r.remove();
    }
  });

  it('returns an empty diff for an empty change', async () => {
    const change = await readChange(repo.root, { kind: 'working-tree' });
    expect(change.diffText).toBe('');
    expect(parseUnifiedDiff(change.diffText)).toEqual([]);
  });

  it('keeps its output format whatever the user configured', async () => {
    const r = await makeRepo();
    const marker = join(r.root, '..', `ext-diff-ran-${Date.now()}`);
    try {
      await r.write('a.py', 'one\n');
      const base = await r.commit('one');
      await r.write('a.py', 'two\n');
      await r.write('ext.sh', `#!/bin/sh\ntouch '${marker}'\n`);
      await chmod(join(r.root, 'ext.sh'), 0o755);
      for (const [key, value] of [
        ['diff.noprefix', 'true'],
        ['diff.mnemonicPrefix', 'true'],
        ['color.ui', 'always'],
        ['color.diff', 'always'],
        ['diff.external', join(r.root, 'ext.sh')],
        ['diff.submodule', 'log'],
        ['core.quotePath', 'false'],
      ] as const) {
        await r.git('config', key, value);
      }
      await r.write('ünï.py', 'x\n');
      await r.commit('two');
      const change = await readChange(r.root, { kind: 'range', range: `${base}..HEAD` });
      expect(change.diffText).not.toContain('\u001b[');
      expect(change.diffText).toContain('--- a/a.py');
      expect(change.diffText).toContain('"b/\\303\\274n\\303\\257.py"');
      expect(pathsOf(change.diffText).sort()).toEqual([
        ['a.py', 'modified'],
        ['ext.sh', 'added'],
        ['ünï.py', 'added'],
      ]);
      expect(existsSync(marker)).toBe(false);
    } finally {
      await rm(marker, { force: true });
      await r.remove();
    }
  });
});

describe('readChange failures', () => {
  it('names a bad revision in one line', async () => {
    const attempt = readChange(repo.root, { kind: 'range', range: 'nope..HEAD' });
    await expect(attempt).rejects.toBeInstanceOf(GitError);
    await expect(attempt).rejects.toThrow(/^bad revision 'nope'[^\n]*$/);
    await expect(readChange(repo.root, { kind: 'commit', sha: 'deadbeef' })).rejects.toThrow("bad revision 'deadbeef'");
  });

  it('refuses a revision that would read as an option', async () => {
    await expect(readChange(repo.root, { kind: 'range', range: '--output=/tmp/x..HEAD' })).rejects.toThrow(/^bad revision '--output=\/tmp\/x'/);
  });

  it('refuses a range without dots', async () => {
    await expect(readChange(repo.root, { kind: 'range', range: 'main' })).rejects.toThrow('must be A..B or A...B');
  });

  it('says when two histories share no merge base', async () => {
    await repo.git('checkout', '-q', '--orphan', 'unrelated');
    await repo.write('other.txt', 'o\n');
    await repo.commit('unrelated root');
    await repo.git('checkout', '-q', '-f', 'main');
    await expect(readChange(repo.root, { kind: 'range', range: 'main...unrelated' })).rejects.toThrow(
      "no merge base between 'main' and 'unrelated'",
    );
  });
});

describe('resolveRepository', () => {
  const savedPath = process.env.PATH;
  afterEach(() => {
    process.env.PATH = savedPath;
  });

  it('returns the real top level from a subdirectory reached through a symlink', async () => {
    const r = await makeRepo();
    const linkDir = await mkdtemp(join(tmpdir(), 'jscr-link-'));
    try {
      await r.write('pkg/mod.py', 'x\n');
      const link = join(linkDir, 'repo-link');
      await symlink(r.root, link);
      const { realpath } = await import('node:fs/promises');
      expect(await resolveRepository(join(link, 'pkg'))).toBe(await realpath(r.root));
    } finally {
      await rm(linkDir, { recursive: true, force: true });
      await r.remove();
    }
  });

  it('says plainly when a directory is not a repository', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'jscr-plain-'));
    try {
      await expect(resolveRepository(dir)).rejects.toThrow(GitError);
      await expect(resolveRepository(dir)).rejects.toMatchObject({ account: `not a git repository: ${dir}`, gitSaid: expect.stringMatching(/^fatal: not a git repository/) as string });
      await expect(resolveRepository(join(dir, 'missing'))).rejects.toThrow(/does not exist/);
      await writeFile(join(dir, 'file'), 'x');
      await expect(resolveRepository(join(dir, 'file'))).rejects.toThrow(/is not a directory/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('says git is missing when it is not on PATH', async () => {
    process.env.PATH = '/nonexistent-jscr-path';
    await expect(resolveRepository(repo.root)).rejects.toThrow(new GitError(GIT_MISSING));
    await expect(readChange(repo.root, { kind: 'working-tree' })).rejects.toThrow(GIT_MISSING);
  });
});

describe('reading files at a revision', () => {
  it('reads text and bytes, and null when the path is absent or not a file', async () => {
    expect(await readFileAtRevision(repo.root, first, 'app.py')).toBe('a = 1\n');
    expect(await readFileAtRevision(repo.root, first, 'main_only.py')).toBeNull();
    expect(await readFileAtRevision(repo.root, second, 'main_only.py')).toBe('m = 1\n');
    expect(await readBlob(repo.root, 'feature', 'feature.py')).toEqual(Buffer.from('f = 1\n'));
    expect(await readFileAtRevision(repo.root, 'HEAD', 'no/such/dir')).toBeNull();
    expect(await readFileAtRevision(repo.root, INDEX, 'app.py')).toBe('a = 1\n');
  });

  it('fails on a bad revision instead of answering absent', async () => {
    await expect(readFileAtRevision(repo.root, 'nope', 'app.py')).rejects.toThrow("bad revision 'nope'");
  });

  it('reads the new side of a range from its head commit', async () => {
    const change = await readChange(repo.root, { kind: 'range', range: 'main...feature' });
    expect(await newFileText(repo.root, change, 'feature.py')).toBe('f = 1\n');
    expect(await newFileText(repo.root, change, 'gone.py')).toBeNull();
  });
});
