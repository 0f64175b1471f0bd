/**
 * The scanners' private copy of the changed files. Built so that no name from the reviewed tree can
 * place a byte outside it: every path is checked to be a plain relative path, the folder is a fresh
 * mkdtemp, each directory is created one segment at a time (never through a link), each file with an
 * exclusive create that does not follow links, and the real folder of each file is checked to lie
 * inside the copy. The copy is removed on every exit path, an interrupt included.
 */
import { constants } from 'node:fs';
import { lstat, mkdir, mkdtemp, open, realpath, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { BoundaryError } from '../errors.js';
import { removeOnExit } from '../policy/cleanup.js';
import { isWithin } from '../policy/paths.js';
import { unsafePathReason } from '../repo-path.js';
import { temporaryDirectory } from '../policy/environment.js';

export interface WorkCopy {
  /** The copy's root; file `p` of the change is at `join(dir, p)` (the path key itself is the name). */
  dir: string;
  remove(): Promise<void>;
}

/** Write `files` into a fresh private folder. A path that is not plain is a BoundaryError, never written. */
export async function createWorkCopy(files: readonly { path: string; text: string }[]): Promise<WorkCopy> {
  const dir = await realpath(await mkdtemp(join(temporaryDirectory(), 'jscr-scan-')));
  const forget = removeOnExit(dir);
  const copy: WorkCopy = {
    dir,
    remove: async () => {
      await rm(dir, { recursive: true, force: true });
      forget();
    },
  };
  try {
    for (const file of files) await writeInside(dir, file.path, file.text);
  } catch (error) {
    await copy.remove();
    throw error;
  }
  return copy;
}

async function writeInside(dir: string, path: string, text: string): Promise<void> {
  const unsafe = unsafePathReason(path);
  if (unsafe !== null) throw new BoundaryError(`refusing to copy ${JSON.stringify(path)} for the scanners: ${unsafe}`);
  const segments = path.split('/');
  let folder = dir;
  for (const segment of segments.slice(0, -1)) {
    folder = join(folder, segment);
    try {
      await mkdir(folder);
    } catch (error) {
      if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) throw error;
    }
    if (!(await lstat(folder)).isDirectory()) throw new BoundaryError(`refusing to copy ${JSON.stringify(path)} for the scanners: ${folder} is not a folder`);
  }
  if (!isWithin(dir, await realpath(folder))) throw new BoundaryError(`refusing to copy ${JSON.stringify(path)} for the scanners: it leaves the work copy`);
  const handle = await open(join(folder, segments[segments.length - 1] as string), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
}
