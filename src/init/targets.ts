/**
 * Where `jscr init` may write, and the writing itself. A target must lie inside the repository's
 * work tree, or be the repository's own hooks directory; nothing under `.git` but that directory, and
 * no symbolic link on the way (a link could lead the write out of the repository). Files are written
 * beside the target and renamed into place, so a reader never sees half a file.
 */
import { constants } from 'node:fs';
import { chmod, lstat, mkdir, open, realpath, rename, rm } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { isWithin } from '../policy/paths.js';

/** Existing files bigger than this are not read (a settings file or hook is a few KiB). */
const MAX_EXISTING_BYTES = 1024 * 1024;

/** Where writes are allowed: the work tree (minus `.git`) and the hooks directory git named. */
export interface WriteArea {
  /** The work tree's top level, real path. */
  root: string;
  /** The hooks directory git uses (core.hooksPath honoured), or null when no hook is to be written. */
  hooksDir: string | null;
  /** The repository's own (common) git directory, real path: its `hooks` is the one place under a git directory init may write. */
  gitDir: string | null;
}

/** What is at a target now. */
export type TargetState =
  | { kind: 'absent' }
  | { kind: 'file'; text: string }
  | { kind: 'refused'; why: string };

function hasGitDirSegment(root: string, abs: string): boolean {
  // case-insensitive file systems treat `.GIT` as `.git`
  return relative(root, abs).split(sep).some((segment) => segment.toLowerCase() === '.git');
}

/** The directory a write to `abs` is checked from, or why `abs` is not a place init may write. */
function baseFor(area: WriteArea, abs: string): { base: string } | { why: string } {
  const dir = dirname(abs);
  if (area.hooksDir !== null && dir === area.hooksDir) {
    // a linked worktree's hooks live in the main repository's git directory, outside this work tree
    if (area.gitDir !== null && dir === join(area.gitDir, 'hooks')) return { base: isWithin(area.root, dir) ? area.root : area.gitDir };
    if (!isWithin(area.root, dir)) return { why: `is outside the repository (core.hooksPath names ${dir})` };
    if (hasGitDirSegment(area.root, dir)) return { why: 'is inside .git but not its hooks directory (core.hooksPath)' };
    return { base: area.root };
  }
  if (!isWithin(area.root, abs)) return { why: 'is outside the repository' };
  if (hasGitDirSegment(area.root, abs)) return { why: 'is inside .git' };
  return { base: area.root };
}

/** Why `abs` may not be written, or null when it may. Checks the path, then every existing part of it on disk. */
async function refusalFor(area: WriteArea, abs: string): Promise<string | null> {
  const place = baseFor(area, abs);
  if ('why' in place) return place.why;
  const { base } = place;
  if ((await realpath(base).catch(() => null)) !== base) return 'is under a directory that is a symbolic link';
  // every part that exists must be a real directory (the last a regular file), never a link
  const parts = relative(base, abs).split(sep);
  let current = base;
  for (const [index, part] of parts.entries()) {
    current = join(current, part);
    const info = await lstat(current).catch(() => null);
    if (info === null) break;
    const last = index === parts.length - 1;
    if (info.isSymbolicLink()) return last ? 'is a symbolic link' : `goes through ${relative(area.root, current)}, which is a symbolic link`;
    if (!last && !info.isDirectory()) return `goes through ${relative(area.root, current)}, which is not a directory`;
    if (last && !info.isFile()) return 'exists and is not a regular file';
  }
  return null;
}

/** Read what is at a target: nothing, a file's text, or why it cannot be used. */
export async function readTarget(area: WriteArea, abs: string): Promise<TargetState> {
  const refusal = await refusalFor(area, abs);
  if (refusal !== null) return { kind: 'refused', why: refusal };
  let handle;
  try {
    handle = await open(abs, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'absent' };
    return { kind: 'refused', why: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { kind: 'refused', why: 'exists and is not a regular file' };
    if (info.size > MAX_EXISTING_BYTES) return { kind: 'refused', why: `exists and is larger than ${MAX_EXISTING_BYTES} bytes` };
    return { kind: 'file', text: (await handle.readFile()).toString('utf8') };
  } finally {
    await handle.close();
  }
}

/**
 * Write `text` to `abs` (creating missing directories), checking the target again first so nothing
 * changed between showing and writing leads the write elsewhere. `mode` 0o755 for hooks.
 */
export async function writeTarget(area: WriteArea, abs: string, text: string, mode: number): Promise<void> {
  const before = await refusalFor(area, abs);
  if (before !== null) throw new Error(before);
  await mkdir(dirname(abs), { recursive: true });
  // the directories just made are ours; check once more that none of them was a link
  const after = await refusalFor(area, abs);
  if (after !== null) throw new Error(after);
  const temp = join(dirname(abs), `.${abs.split(sep).pop() ?? 'file'}.jscr-${process.pid}.tmp`);
  try {
    const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
    try {
      await handle.writeFile(text);
    } finally {
      await handle.close();
    }
    await chmod(temp, mode);
    await rename(temp, abs);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
