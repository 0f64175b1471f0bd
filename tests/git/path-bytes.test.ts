/**
 * Paths are bytes end to end (issue 10, item 4 and the minor on U+FFFD): the path key keeps every
 * byte, two names that differ only in a byte that is not UTF-8 stay two files, every format shows the
 * byte as `\xNN`, and SARIF percent-encodes the bytes themselves. Plus the rule that decides which
 * names are plain relative paths.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { hasNonUtf8Bytes, pathKeyFromBytes, pathKeyToBytes, unsafePathReason } from '../../src/repo-path.js';
import { pathToUri } from '../../src/report/sarif.js';
import { unquoteCPath } from '../../src/git/diff.js';
import { runJscr } from '../helpers/cli.js';
import { makeRepo, type TestRepo } from '../helpers/repo.js';

describe('the path key', () => {
  it('is the text itself for UTF-8 names, with a backslash doubled', () => {
    expect(pathKeyFromBytes(Buffer.from('café/naïve.py'))).toBe('café/naïve.py');
    expect(pathKeyFromBytes(Buffer.from('back\\slash.py'))).toBe('back\\\\slash.py');
  });

  it('writes a byte that is not UTF-8 as \\xNN, so two such names stay apart', () => {
    const e9 = pathKeyFromBytes(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x2e, 0x70, 0x79]));
    const e8 = pathKeyFromBytes(Buffer.from([0x63, 0x61, 0x66, 0xe8, 0x2e, 0x70, 0x79]));
    expect(e9).toBe('caf\\xe9.py');
    expect(e8).toBe('caf\\xe8.py');
    expect(hasNonUtf8Bytes(e9)).toBe(true);
    expect(hasNonUtf8Bytes('back\\\\xe9.py')).toBe(false);
    // A truncated sequence, an overlong form and a surrogate are bytes, not characters.
    expect(pathKeyFromBytes(Buffer.from([0xc3, 0x41, 0xc0, 0xaf, 0xed, 0xa0, 0x80]))).toBe('\\xc3A\\xc0\\xaf\\xed\\xa0\\x80');
  });

  it('round-trips every byte string, and no two byte strings share a key', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 24 }), fc.uint8Array({ maxLength: 24 }), (a, b) => {
        const ka = pathKeyFromBytes(a);
        expect(pathKeyToBytes(ka).equals(Buffer.from(a))).toBe(true);
        if (!Buffer.from(a).equals(Buffer.from(b))) expect(pathKeyFromBytes(b)).not.toBe(ka);
      }),
      { numRuns: 2000 },
    );
  });

  it('comes out of a C-quoted name with its octal bytes as bytes', () => {
    expect(unquoteCPath('"caf\\351.py"').value).toBe('caf\\xe9.py');
    expect(unquoteCPath('"caf\\303\\251.py"').value).toBe('café.py');
  });

  it('is percent-encoded from its bytes in a SARIF URI', () => {
    expect(pathToUri('caf\\xe9.py')).toBe('caf%E9.py');
    expect(pathToUri('café.py')).toBe('caf%C3%A9.py');
    expect(pathToUri('back\\\\slash.py')).toBe('back%5Cslash.py');
  });
});

describe('plain relative paths', () => {
  it.each([
    ['src/app.py'],
    ['caf\\xe9.py'],
    ['.github/workflows/ci.yml'],
    ['a/.gitignore'],
    ['...py'],
  ])('admits %s', (path) => {
    expect(unsafePathReason(path)).toBeNull();
  });

  it.each([
    ['', /empty/],
    ['/etc/passwd', /absolute/],
    ['../x.py', /".." segment/],
    ['a/../../x.py', /".." segment/],
    ['./x.py', /"\." segment/],
    ['a//b.py', /empty segment/],
    ['a/', /empty segment/],
    ['back\\\\slash.py', /backslash/],
    ['..\\\\x.py', /backslash/],
    ['nul\\x00.py', /NUL/],
    ['.git/config', /\.git/],
    ['.GIT/hooks/x', /\.git/],
    ['a/.Git/x', /\.git/],
    ['.git./x', /\.git/],
    ['.git /x', /\.git/],
    ['.g\u200cit/x', /\.git/],
    ['GIT~1/x', /\.git/],
  ])('refuses %j', (path, reason) => {
    expect(unsafePathReason(path)).toMatch(reason);
  });

  it('refuses a path through a symbolic link of the tree', () => {
    expect(unsafePathReason('linked/x.py', new Set(['linked']))).toMatch(/linked, a symbolic link/);
    expect(unsafePathReason('linked', new Set(['linked']))).toBeNull();
  });
});

describe('a change with names that are not UTF-8', () => {
  let repo: TestRepo;
  const name = (byte: number): Buffer => Buffer.concat([Buffer.from('caf'), Buffer.from([byte]), Buffer.from('.py')]);

  beforeAll(() => {
    repo = makeRepo({ 'README.md': 'base\n' });
    const hash = (text: string): string => execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: repo.root, input: text }).toString().trim();
    const bad = hash('import os\n\ndef run(y):\n    os.system("rm -rf " + y)\n');
    const benign = hash('x = 1\n');
    const readme = hash('base\n');
    // Both names decode to "caf\uFFFD.py"; the dangerous one sorts first, so a merge keeps the benign one.
    const input = Buffer.concat([
      Buffer.from(`100644 blob ${readme}\tREADME.md\n`),
      Buffer.from(`100644 blob ${bad}\t`), name(0xe8), Buffer.from('\n'),
      Buffer.from(`100644 blob ${benign}\t`), name(0xe9), Buffer.from('\n'),
    ]);
    const tree = execFileSync('git', ['mktree'], { cwd: repo.root, input }).toString().trim();
    const env = { ...process.env, GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid' };
    const commit = execFileSync('git', ['commit-tree', tree, '-p', 'HEAD', '-m', 'bytes'], { cwd: repo.root, env }).toString().trim();
    repo.git('update-ref', 'refs/heads/bytes', commit);
  });
  afterAll(() => repo.cleanup());

  it('reviews both files and reports the finding on the right one (json)', async () => {
    const result = await runJscr(['review', '--no-model', '--format', 'json', '--range', 'main..bytes'], repo.root);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { change: { files: { path: string }[] }; findings: { path: string }[] };
    expect(report.change.files.map((f) => f.path).sort()).toEqual(['caf\\xe8.py', 'caf\\xe9.py']);
    expect(report.findings.map((f) => f.path)).toEqual(['caf\\xe8.py']);
    expect(result.stdout).not.toContain('\uFFFD');
  }, 60_000);

  it.each(['text', 'markdown', 'github'])('shows the byte escaped in --format %s', async (format) => {
    const result = await runJscr(['review', '--no-model', '--format', format, '--range', 'main..bytes'], repo.root);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/caf\\+xe8\.py/);
    expect(result.stdout).not.toContain('\uFFFD');
  }, 60_000);

  it('percent-encodes the byte in --format sarif', async () => {
    const result = await runJscr(['review', '--no-model', '--format', 'sarif', '--range', 'main..bytes'], repo.root);
    expect(result.stdout).toContain('"uri": "caf%E8.py"');
  }, 60_000);

  it('reads them from the index with --staged too', async () => {
    repo.git('read-tree', 'bytes');
    try {
      const result = await runJscr(['review', '--no-model', '--format', 'json', '--staged'], repo.root);
      expect(result.code).toBe(1);
      expect((JSON.parse(result.stdout) as { findings: { path: string }[] }).findings.map((f) => f.path)).toEqual(['caf\\xe8.py']);
    } finally {
      repo.git('read-tree', 'main');
    }
  }, 60_000);
});
