/**
 * Reading the reviewed revision's files never shortens one: objects are read whole or reported as too
 * large with their size and first bytes, however many large objects come before them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSourceReader, type SourceReader } from '../../src/git/sources.js';
import { openBoundary } from '../../src/policy/paths.js';
import { makeRepo, type TestRepo } from '../helpers/repo.js';

const MiB = 1024 * 1024;
const big = (seed: string, bytes: number): string => `${seed}\n`.repeat(Math.ceil(bytes / (seed.length + 1)));
const FILES: Record<string, string> = {
  'a-big.txt': big('first large object', 20 * MiB),
  'b-big.txt': big('second large object', 20 * MiB),
  'c-small.py': 'import os\nos.system("rm -rf " + y)\n',
  'd-big.txt': big('third large object', 12 * MiB),
};

let r: TestRepo;
const readers: Record<'revision' | 'index' | 'worktree', SourceReader> = {} as never;
beforeAll(async () => {
  r = makeRepo(FILES);
  const boundary = await openBoundary(r.root, { followSymlinks: false });
  const common = { root: r.root, boundary, maxFileBytes: 2 * MiB, followSymlinks: false };
  readers.revision = createSourceReader({ ...common, source: { kind: 'revision', rev: r.git('rev-parse', 'HEAD').trim() } });
  readers.index = createSourceReader({ ...common, source: { kind: 'index' } });
  readers.worktree = createSourceReader({ ...common, source: { kind: 'worktree' } });
}, 60_000);
afterAll(() => r.cleanup());

describe.each(['revision', 'index', 'worktree'] as const)('reading from the %s', (source) => {
  it('reads every file whole when the limit allows, across batches of more than 32 MiB', async () => {
    const reads = await readers[source].readBytes(Object.keys(FILES), () => 64 * MiB);
    for (const [path, text] of Object.entries(FILES)) {
      const read = reads.get(path);
      expect(read?.ok, path).toBe(true);
      if (read?.ok === true) expect(read.bytes.equals(Buffer.from(text)), path).toBe(true);
    }
  });

  it('gives a file over its limit as too_large with its size and first 8,000 bytes, never shorter text', async () => {
    const reads = await readers[source].readBytes(Object.keys(FILES), (path) => (path.endsWith('.py') ? 64 * MiB : MiB));
    const first = reads.get('a-big.txt');
    expect(first).toMatchObject({ ok: false, reason: 'too_large', size: Buffer.byteLength(FILES['a-big.txt'] as string) });
    if (first?.ok === false && first.reason === 'too_large') expect(first.head.equals(Buffer.from(FILES['a-big.txt'] as string).subarray(0, 8000))).toBe(true);
    expect(reads.get('c-small.py')).toMatchObject({ ok: true });
    // readMany, which the context and the prover use, refuses rather than cuts too.
    const text = await readers[source].readMany(['b-big.txt', 'c-small.py']);
    expect(text.get('b-big.txt')).toMatchObject({ ok: false, reason: 'too_large' });
    expect(text.get('c-small.py')).toEqual({ ok: true, path: 'c-small.py', text: FILES['c-small.py'] });
  });
});

describe('an object read again (the review reads the same blobs in several steps)', () => {
  it('answers each read by that read\'s own limit, whatever an earlier read of the same object allowed', async () => {
    const boundary = await openBoundary(r.root, { followSymlinks: false });
    const reader = createSourceReader({ root: r.root, boundary, maxFileBytes: 2 * MiB, followSymlinks: false, source: { kind: 'revision', rev: r.git('rev-parse', 'HEAD').trim() } });
    const d = Buffer.from(FILES['d-big.txt'] as string);
    const limited = async (limit: number) => (await reader.readBytes(['d-big.txt', 'c-small.py'], () => limit)).get('d-big.txt');
    expect(await limited(MiB)).toMatchObject({ ok: false, reason: 'too_large', size: d.length });
    const whole = await limited(64 * MiB);
    expect(whole?.ok === true && whole.bytes.equals(d)).toBe(true);
    // Read whole once, it is still too large for a smaller limit, with the same size and first bytes.
    const again = await limited(MiB);
    expect(again).toMatchObject({ ok: false, reason: 'too_large', size: d.length });
    expect(again?.ok === false && again.reason === 'too_large' && again.head.equals(d.subarray(0, 8000))).toBe(true);
    expect((await reader.readMany(['c-small.py', 'c-small.py'])).get('c-small.py')).toEqual({ ok: true, path: 'c-small.py', text: FILES['c-small.py'] });
  });
});
