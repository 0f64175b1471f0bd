import { chmodSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { guardedApply, readRegularFileNoFollow, sha256 } from '../../src/guard/fsutil.js';
import { splitLines } from '../../src/guard/lines.js';
import { tempRepo } from './helpers.js';

describe('splitLines', () => {
  it('keeps line endings, counts only \\n, and keeps a last line without one', () => {
    expect(splitLines('a\r\nb\nc')).toEqual(['a\r\n', 'b\n', 'c']);
    expect(splitLines('a\n')).toEqual(['a\n']);
    expect(splitLines('')).toEqual([]);
    expect(splitLines('x\ry\n')).toEqual(['x\ry\n']);
  });
});

describe('readRegularFileNoFollow', () => {
  it('reads a regular file and refuses a symlink, a directory and a missing file with typed reasons', async () => {
    const root = tempRepo({ 'a.py': 'x = 1\n', 'dir/keep': '' });
    symlinkSync('a.py', join(root, 'link.py'));
    const read = await readRegularFileNoFollow(join(root, 'a.py'));
    expect(read.ok && read.bytes.toString()).toBe('x = 1\n');
    expect(await readRegularFileNoFollow(join(root, 'link.py'))).toMatchObject({ ok: false, reason: 'symlink' });
    expect(await readRegularFileNoFollow(join(root, 'dir'))).toMatchObject({ ok: false, reason: 'not_regular' });
    expect(await readRegularFileNoFollow(join(root, 'missing.py'))).toMatchObject({ ok: false, reason: 'gone' });
  });
});

describe('guardedApply', () => {
  it('writes the new bytes, keeps the mode and leaves no temporary file', async () => {
    const root = tempRepo({ 'run.sh': '#!/bin/sh\necho old\n' });
    const path = join(root, 'run.sh');
    chmodSync(path, 0o751);
    const outcome = await guardedApply(path, sha256(readFileSync(path)), Buffer.from('#!/bin/sh\necho new\n'));
    expect(outcome.ok).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('#!/bin/sh\necho new\n');
    expect(statSync(path).mode & 0o777).toBe(0o751);
    expect(readdirSync(root)).toEqual(['run.sh']);
  });

  it('refuses when the bytes changed or the file became a symlink, and leaves the file as it was', async () => {
    const root = tempRepo({ 'a.py': 'x = 1\n', 'b.py': 'y = 2\n' });
    const path = join(root, 'a.py');
    const planned = sha256(readFileSync(path));
    writeFileSync(path, 'x = 2\n');
    expect(await guardedApply(path, planned, Buffer.from('z = 3\n'))).toMatchObject({ ok: false, reason: 'changed' });
    expect(readFileSync(path, 'utf8')).toBe('x = 2\n');
    const link = join(root, 'link.py');
    symlinkSync('b.py', link);
    expect(await guardedApply(link, sha256(readFileSync(link)), Buffer.from('evil\n'))).toMatchObject({ ok: false, reason: 'symlink' });
    expect(readFileSync(join(root, 'b.py'), 'utf8')).toBe('y = 2\n');
    expect(readdirSync(root).sort()).toEqual(['a.py', 'b.py', 'link.py']);
  });
});
