/**
 * File access for the guard and the fix command's writes: hashes of bytes, a read that refuses
 * symlinks and anything but a regular file, and a guarded apply that never leaves a partial file.
 */
import { createHash, randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** sha256 of bytes, lowercase hex. */
export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Why a file could not be read as the plain file it was: each is one way the disk disagrees. */
type ReadFailure = 'gone' | 'symlink' | 'not_regular' | 'unreadable';

/** The outcome of `readRegularFileNoFollow`. */
export type ReadOutcome =
  | { ok: true; bytes: Buffer; mode: number }
  | { ok: false; reason: ReadFailure; detail: string };

/**
 * Read a regular file without following a symlink in its last component (O_NOFOLLOW). The type is
 * checked on the opened descriptor, so a file swapped between check and read cannot slip through.
 */
export async function readRegularFileNoFollow(path: string): Promise<ReadOutcome> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    return openFailure(error);
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return { ok: false, reason: 'not_regular', detail: 'it is not a regular file' };
    const bytes = await handle.readFile();
    return { ok: true, bytes, mode: stat.mode & 0o7777 };
  } catch (error) {
    return { ok: false, reason: 'unreadable', detail: `it could not be read (${errorCode(error)})` };
  } finally {
    await handle.close();
  }
}

function errorCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
}

function openFailure(error: unknown): { ok: false; reason: ReadFailure; detail: string } {
  const code = errorCode(error);
  if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, reason: 'gone', detail: 'it no longer exists' };
  // Linux answers O_NOFOLLOW on a symlink with ELOOP; some systems use EMLINK or EFTYPE.
  if (code === 'ELOOP' || code === 'EMLINK' || code === 'EFTYPE') return { ok: false, reason: 'symlink', detail: 'it is now a symbolic link' };
  if (code === 'EISDIR') return { ok: false, reason: 'not_regular', detail: 'it is not a regular file' };
  return { ok: false, reason: 'unreadable', detail: `it could not be opened (${code})` };
}

/** The outcome of a guarded write. */
export type ApplyOutcome =
  | { ok: true; previousSha256: string; newSha256: string }
  | { ok: false; reason: 'changed' | ReadFailure | 'write_failed'; detail: string };

/**
 * Replace a file's bytes only if they still hash to `expectedSha256`: write a temporary file in the
 * same directory, fsync it, keep the old file's mode, and rename it over the target (atomic on one
 * file system), then fsync the directory. On any failure the target keeps its old bytes and the
 * temporary file is removed.
 */
export async function guardedApply(path: string, expectedSha256: string, newBytes: Uint8Array): Promise<ApplyOutcome> {
  const current = await readRegularFileNoFollow(path);
  if (!current.ok) return { ok: false, reason: current.reason, detail: current.detail };
  const previousSha256 = sha256(current.bytes);
  if (previousSha256 !== expectedSha256) return { ok: false, reason: 'changed', detail: 'its bytes changed since they were read' };

  const temporary = join(dirname(path), `.${basename(path)}.jscr-${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await fs.open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    try {
      await handle.writeFile(newBytes);
      await handle.chmod(current.mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // Re-check right before the rename: the window left is the rename itself.
    const again = await readRegularFileNoFollow(path);
    if (!again.ok || sha256(again.bytes) !== expectedSha256) {
      await fs.rm(temporary, { force: true });
      return again.ok ? { ok: false, reason: 'changed', detail: 'its bytes changed while the new version was written' } : { ok: false, reason: again.reason, detail: again.detail };
    }
    await fs.rename(temporary, path);
  } catch (error) {
    await fs.rm(temporary, { force: true }).catch(() => undefined);
    return { ok: false, reason: 'write_failed', detail: `the new version could not be written (${errorCode(error)})` };
  }
  await syncDirectory(dirname(path));
  return { ok: true, previousSha256, newSha256: sha256(newBytes) };
}

async function syncDirectory(directory: string): Promise<void> {
  try {
    const handle = await fs.open(directory, constants.O_RDONLY);
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some file systems refuse fsync on a directory; the rename has already happened.
  }
}
