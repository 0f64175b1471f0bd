import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BoundaryError } from '../../src/errors.js';
import { isWithin, openBoundary, type RepoBoundary } from '../../src/policy/paths.js';

/**
 * Layout (inside a temp dir `base`):
 *   repo/src/app.py            an ordinary file
 *   repo/src/link-inside.py    -> app.py                 (a link whose target stays inside)
 *   repo/src/link-outside.txt  -> ../../secrets.txt      (a link to outside the root)
 *   repo/linked-src            -> src                    (a symlinked directory component)
 *   repo/escape-dir            -> ../repo-evil           (a directory link leading out)
 *   repo/image.bin             binary content
 *   repo/latin1.txt            invalid UTF-8
 *   repo-evil/payload.py       a sibling whose name extends the root's
 *   secrets.txt
 */
let base: string;
let repo: string;
let strict: RepoBoundary;
let following: RepoBoundary;

beforeAll(async () => {
  base = realpathSync(await mkdtemp(join(tmpdir(), 'jscr-paths-')));
  repo = join(base, 'repo');
  await mkdir(join(repo, 'src'), { recursive: true });
  await mkdir(join(base, 'repo-evil'));
  await writeFile(join(repo, 'src', 'app.py'), 'print("hello")\n');
  await writeFile(join(base, 'secrets.txt'), 'TOKEN=outside\n');
  await writeFile(join(base, 'repo-evil', 'payload.py'), 'evil = True\n');
  await symlink('app.py', join(repo, 'src', 'link-inside.py'));
  await symlink('../../secrets.txt', join(repo, 'src', 'link-outside.txt'));
  await symlink('src', join(repo, 'linked-src'));
  await symlink('../repo-evil', join(repo, 'escape-dir'));
  await writeFile(join(repo, 'image.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
  await writeFile(join(repo, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  strict = await openBoundary(repo, { followSymlinks: false });
  following = await openBoundary(repo, { followSymlinks: true });
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('containment by path segments', () => {
  it('knows /x/repo-evil is not under /x/repo', () => {
    expect(isWithin('/x/repo', '/x/repo-evil/a')).toBe(false);
    expect(isWithin('/x/repo', '/x/repo/a')).toBe(true);
    expect(isWithin('/x/repo', '/x/repo')).toBe(true);
    expect(isWithin('/x/repo', '/x/repo/..foo')).toBe(true);
    expect(isWithin('/x/repo', '/x')).toBe(false);
  });
});

describe('admission without following symlinks', () => {
  it('admits a repo-relative file', async () => {
    expect(await strict.admit('src/app.py')).toEqual({ ok: true, abs: join(repo, 'src', 'app.py'), rel: 'src/app.py' });
  });

  it('resolves .. that stays inside the root', async () => {
    expect(await strict.admit('src/../src/app.py')).toMatchObject({ ok: true, rel: 'src/app.py' });
  });

  it('refuses .. that climbs out of the root', async () => {
    expect(await strict.admit('../secrets.txt')).toMatchObject({ ok: false, reason: 'outside_root' });
    expect(await strict.admit('src/../../secrets.txt')).toMatchObject({ ok: false, reason: 'outside_root' });
  });

  it('admits an absolute path inside the root', async () => {
    expect(await strict.admit(join(repo, 'src', 'app.py'))).toMatchObject({ ok: true, rel: 'src/app.py' });
  });

  it('refuses an absolute path outside the root', async () => {
    expect(await strict.admit(join(base, 'secrets.txt'))).toMatchObject({ ok: false, reason: 'outside_root' });
    expect(await strict.admit('/etc/passwd')).toMatchObject({ ok: false, reason: 'outside_root' });
  });

  it('refuses a sibling directory whose name extends the root name', async () => {
    expect(await strict.admit(join(base, 'repo-evil', 'payload.py'))).toMatchObject({ ok: false, reason: 'outside_root' });
    expect(await strict.admit('../repo-evil/payload.py')).toMatchObject({ ok: false, reason: 'outside_root' });
  });

  it('refuses a symlink to outside the root', async () => {
    expect(await strict.admit('src/link-outside.txt')).toMatchObject({ ok: false, reason: 'symlink_refused' });
  });

  it('refuses a symlink inside the root', async () => {
    expect(await strict.admit('src/link-inside.py')).toMatchObject({ ok: false, reason: 'symlink_refused', detail: expect.stringContaining('src/link-inside.py') as unknown });
  });

  it('refuses a path through a symlinked directory component', async () => {
    const admission = await strict.admit('linked-src/app.py');
    expect(admission).toMatchObject({ ok: false, reason: 'symlink_refused' });
    expect(admission.ok ? '' : admission.detail).toContain('linked-src is a symbolic link');
  });

  it('reports missing files and directories', async () => {
    expect(await strict.admit('src/missing.py')).toMatchObject({ ok: false, reason: 'not_found' });
    expect(await strict.admit('src')).toMatchObject({ ok: false, reason: 'not_regular' });
    expect(await strict.admit('.')).toMatchObject({ ok: false, reason: 'not_regular' });
  });
});

describe('admission following symlinks', () => {
  it('admits a symlink whose target is inside the root', async () => {
    expect(await following.admit('src/link-inside.py')).toEqual({ ok: true, abs: join(repo, 'src', 'app.py'), rel: 'src/link-inside.py' });
  });

  it('admits a path through a symlinked directory inside the root', async () => {
    expect(await following.admit('linked-src/app.py')).toMatchObject({ ok: true, abs: join(repo, 'src', 'app.py') });
  });

  it('still refuses a symlink whose target is outside the root', async () => {
    expect(await following.admit('src/link-outside.txt')).toMatchObject({ ok: false, reason: 'symlink_outside_root' });
  });

  it('refuses a directory link into the look-alike sibling', async () => {
    expect(await following.admit('escape-dir/payload.py')).toMatchObject({ ok: false, reason: 'symlink_outside_root' });
  });
});

describe('reading through the boundary', () => {
  it('reads text', async () => {
    const outcome = await strict.readFile('src/app.py', { maxBytes: 1024 });
    expect(outcome).toMatchObject({ ok: true, rel: 'src/app.py', text: 'print("hello")\n' });
  });

  it('refuses a file above the size limit instead of truncating it', async () => {
    expect(await strict.readFile('src/app.py', { maxBytes: 5 })).toMatchObject({ ok: false, reason: 'too_large' });
    expect(await strict.readFile('src/app.py', { maxBytes: 15 })).toMatchObject({ ok: true });
  });

  it('marks binary content and invalid UTF-8 as text null', async () => {
    const binary = await strict.readFile('image.bin', { maxBytes: 1024 });
    expect(binary).toMatchObject({ ok: true, text: null });
    expect(binary.ok && binary.bytes.length).toBe(6);
    expect(await strict.readFile('latin1.txt', { maxBytes: 1024 })).toMatchObject({ ok: true, text: null });
  });

  it('refuses reads the admission refuses', async () => {
    expect(await strict.readFile('src/link-outside.txt', { maxBytes: 1024 })).toMatchObject({ ok: false, reason: 'symlink_refused' });
    expect(await strict.readFile('../secrets.txt', { maxBytes: 1024 })).toMatchObject({ ok: false, reason: 'outside_root' });
    expect(await following.readFile('src/link-outside.txt', { maxBytes: 1024 })).toMatchObject({ ok: false, reason: 'symlink_outside_root' });
  });

  it('reads through an inside symlink when following is on', async () => {
    expect(await following.readFile('src/link-inside.py', { maxBytes: 1024 })).toMatchObject({ ok: true, rel: 'src/link-inside.py', text: 'print("hello")\n' });
  });
});

describe('the root', () => {
  it('is canonicalised with realpath', async () => {
    const viaLink = join(base, 'repo-link');
    await symlink('repo', viaLink);
    const boundary = await openBoundary(viaLink, { followSymlinks: false });
    expect(boundary.root).toBe(repo);
    // An absolute path spelled through the linked root still names a file under the real root.
    expect(await boundary.admit(join(viaLink, 'src', 'app.py'))).toMatchObject({ ok: true, abs: join(repo, 'src', 'app.py') });
  });

  it('is a BoundaryError when missing', async () => {
    await expect(openBoundary(join(base, 'no-such-repo'), { followSymlinks: false })).rejects.toBeInstanceOf(BoundaryError);
  });
});
