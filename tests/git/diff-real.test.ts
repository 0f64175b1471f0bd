/**
 * The diff parser on real git output: a repository whose files have awkward names and every kind of
 * change, diffed through readChange and parsed.
 */
import { chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readChange } from '../../src/git/change.js';
import { addedLines, changedLineNumbers, parseUnifiedDiff, type DiffFile } from '../../src/git/diff.js';
import { makeRepo, type TestRepo } from './repo.js';

const numbered = (n: number, prefix = 'line'): string => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}\n`).join('');

let repo: TestRepo;
let base: string;
let files: DiffFile[];

function file(path: string): DiffFile {
  const found = files.find((f) => f.path === path);
  if (!found) throw new Error(`no diff entry for ${JSON.stringify(path)}; have ${JSON.stringify(files.map((f) => f.path))}`);
  return found;
}

beforeAll(async () => {
  repo = await makeRepo();
  await repo.write('src/app.py', numbered(10));
  await repo.write('my notes.txt', 'alpha\nbeta\n');
  await repo.write('moved unchanged.txt', numbered(20, 'keep'));
  await repo.write('moved edited.txt', numbered(20, 'edit'));
  await repo.write('doomed.txt', 'going away\n');
  await repo.write('script.sh', 'echo hi\n');
  await repo.write('windows.txt', 'one\r\ntwo\r\nthree\r\n');
  await repo.write('tail.txt', 'first\nsecond');
  await repo.write('logo.bin', Buffer.from([0, 1, 2, 3, 255, 0, 10]));
  base = await repo.commit('base');

  await repo.write('src/app.py', numbered(10).replace('line 5\n', 'os.system(cmd)\n'));
  await repo.write('my notes.txt', 'alpha\nbeta\ngamma\n');
  await repo.write('tab\there.txt', 'tabbed\n');
  await repo.write('café/naïve.py', 'print("bonjour")\n');
  await repo.write('say "hi".txt', 'quoted\n');
  await repo.write('back\\slash.txt', 'slash\n');
  await repo.write('a b/c d.txt', 'spaced dirs\n');
  await repo.write('empty.txt', '');
  await repo.git('mv', 'moved unchanged.txt', 'renamed same.txt');
  await repo.git('mv', 'moved edited.txt', 'renamed edited.txt');
  await repo.write('renamed edited.txt', numbered(20, 'edit').replace('edit 10\n', 'changed 10\n'));
  await repo.git('rm', '-q', 'doomed.txt');
  await chmod(join(repo.root, 'script.sh'), 0o755);
  await repo.write('windows.txt', 'one\r\nTWO\r\nthree\r\n');
  await repo.write('tail.txt', 'first\nsecond\nthird');
  await repo.write('logo.bin', Buffer.from([0, 1, 2, 3, 254, 0, 10]));
  await repo.commit('head');
  // A gitlink with no .gitmodules is enough for git to print a submodule entry.
  await repo.git('update-index', '--add', '--cacheinfo', `160000,${base},vendor/lib`);
  await repo.git('commit', '-q', '-m', 'submodule');

  const change = await readChange(repo.root, { kind: 'range', range: `${base}..HEAD` });
  files = parseUnifiedDiff(change.diffText);
});

afterAll(() => repo.remove());

describe('parseUnifiedDiff on real git output', () => {
  it('numbers a modified line in the new file', () => {
    const app = file('src/app.py');
    expect(app.status).toBe('modified');
    expect(addedLines(app)).toEqual(new Map([[5, 'os.system(cmd)']]));
    expect(changedLineNumbers(app)).toEqual(new Set([5]));
    const deleted = app.hunks.flatMap((h) => h.lines).filter((l) => l.kind === 'del');
    expect(deleted).toEqual([{ kind: 'del', text: 'line 5', oldLine: 5, newLine: null, noNewlineAtEnd: false }]);
  });

  it('reads unquoted paths with spaces (git appends a tab to them)', () => {
    expect(file('my notes.txt').status).toBe('modified');
    expect(addedLines(file('my notes.txt'))).toEqual(new Map([[3, 'gamma']]));
    expect(file('a b/c d.txt').status).toBe('added');
  });

  it('decodes C-quoted paths: tab, double quote, backslash, non-ASCII UTF-8', () => {
    expect(file('tab\there.txt').status).toBe('added');
    expect(file('say "hi".txt').status).toBe('added');
    // A backslash is escaped in the path key (src/repo-path.ts), so it cannot forge a `\xNN` byte.
    expect(file('back\\\\slash.txt').status).toBe('added');
    const french = file('café/naïve.py');
    expect(french.status).toBe('added');
    expect(addedLines(french).get(1)).toBe('print("bonjour")');
  });

  it('reports an empty new file as added with no hunks', () => {
    expect(file('empty.txt')).toMatchObject({ status: 'added', hunks: [], oldPath: null, newMode: '100644' });
  });

  it('reports renames with and without edits, with similarity', () => {
    const same = file('renamed same.txt');
    expect(same).toMatchObject({ status: 'renamed', oldPath: 'moved unchanged.txt', similarity: 100, hunks: [] });
    const edited = file('renamed edited.txt');
    expect(edited.status).toBe('renamed');
    expect(edited.oldPath).toBe('moved edited.txt');
    expect(edited.similarity).toBeGreaterThan(50);
    expect(edited.similarity).toBeLessThan(100);
    expect(addedLines(edited)).toEqual(new Map([[10, 'changed 10']]));
  });

  it('reports a deletion under its old path', () => {
    const doomed = file('doomed.txt');
    expect(doomed.status).toBe('deleted');
    expect(doomed.oldMode).toBe('100644');
    expect(addedLines(doomed).size).toBe(0);
  });

  it('reports a mode-only change', () => {
    expect(file('script.sh')).toMatchObject({ status: 'mode-only', oldMode: '100644', newMode: '100755', hunks: [] });
  });

  it('keeps the CR of CRLF lines', () => {
    expect(addedLines(file('windows.txt'))).toEqual(new Map([[2, 'TWO\r']]));
  });

  it('marks the lines git flags with "No newline at end of file"', () => {
    const lines = file('tail.txt').hunks.flatMap((h) => h.lines);
    expect(lines.find((l) => l.kind === 'del' && l.text === 'second')?.noNewlineAtEnd).toBe(true);
    expect(lines.find((l) => l.kind === 'add' && l.text === 'third')).toMatchObject({ newLine: 3, noNewlineAtEnd: true });
    expect(lines.find((l) => l.kind === 'add' && l.text === 'second')).toMatchObject({ newLine: 2, noNewlineAtEnd: false });
  });

  it('reports a binary change as binary with no lines', () => {
    expect(file('logo.bin')).toMatchObject({ status: 'binary', hunks: [] });
  });

  it('marks a submodule entry', () => {
    const sub = file('vendor/lib');
    expect(sub).toMatchObject({ status: 'added', isSubmodule: true, newMode: '160000' });
    expect(file('src/app.py').isSubmodule).toBe(false);
  });

  it('lists each changed file exactly once', () => {
    const paths = files.map((f) => f.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect([...paths].sort()).toEqual(
      [
        'a b/c d.txt', 'back\\\\slash.txt', 'café/naïve.py', 'doomed.txt', 'empty.txt', 'logo.bin', 'my notes.txt',
        'renamed edited.txt', 'renamed same.txt', 'say "hi".txt', 'script.sh', 'src/app.py', 'tab\there.txt',
        'tail.txt', 'vendor/lib', 'windows.txt',
      ].sort(),
    );
  });
});

describe('parseUnifiedDiff on git output readChange does not produce', () => {
  it('reads copies (git diff -C --find-copies-harder)', async () => {
    const r = await makeRepo();
    try {
      await r.write('original name.py', numbered(30));
      const first = await r.commit('one');
      await r.write('copy of "original".py', numbered(30).replace('line 3\n', 'line three\n'));
      await r.commit('two');
      const text = await r.git('diff', '-C', '--find-copies-harder', first, 'HEAD');
      const [copy] = parseUnifiedDiff(text);
      expect(copy).toMatchObject({ status: 'copied', path: 'copy of "original".py', oldPath: 'original name.py' });
      expect(addedLines(copy as DiffFile)).toEqual(new Map([[3, 'line three']]));
    } finally {
      await r.remove();
    }
  });

  it('reads GIT binary patch sections as binary and keeps parsing the next file', async () => {
    const r = await makeRepo();
    try {
      await r.write('blob.dat', Buffer.from([0, 0, 1]));
      await r.write('z.txt', 'a\n');
      const first = await r.commit('one');
      await r.write('blob.dat', Buffer.from([0, 0, 2, 3, 4]));
      await r.write('z.txt', 'a\nb\n');
      await r.commit('two');
      const text = await r.git('diff', '--binary', first, 'HEAD');
      expect(text).toContain('GIT binary patch');
      const parsed = parseUnifiedDiff(text);
      expect(parsed.map((f) => [f.path, f.status])).toEqual([
        ['blob.dat', 'binary'],
        ['z.txt', 'modified'],
      ]);
      expect(addedLines(parsed[1] as DiffFile)).toEqual(new Map([[2, 'b']]));
    } finally {
      await r.remove();
    }
  });

  it('parses a diff of 100,000 changed lines', async () => {
    const r = await makeRepo();
    try {
      await r.write('big.txt', numbered(50_000, 'old'));
      await r.commit('one');
      await r.write('big.txt', numbered(50_000, 'new'));
      const change = await readChange(r.root, { kind: 'working-tree' });
      const [big] = parseUnifiedDiff(change.diffText);
      expect(big?.hunks).toHaveLength(1);
      const added = addedLines(big as DiffFile);
      expect(added.size).toBe(50_000);
      expect(added.get(49_999)).toBe('new 49999');
    } finally {
      await r.remove();
    }
  });
});

describe('parseUnifiedDiff edge input', () => {
  it('returns no files for empty text', () => {
    expect(parseUnifiedDiff('')).toEqual([]);
  });

  it('splits a diff --git line whose unquoted path contains " b/"', () => {
    const text = 'diff --git a/x b/y b/x b/y\nnew file mode 100644\nindex 0000000..e69de29\n';
    expect(parseUnifiedDiff(text)).toMatchObject([{ path: 'x b/y', status: 'added' }]);
  });
});
