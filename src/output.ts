/**
 * Where `--output` may write, and how. A regular file or a new path gets the whole report at once
 * (written beside it, then renamed over it); a device, a FIFO or a descriptor link such as
 * `/dev/stdout` is opened and written in place, because renaming over it would replace `/dev/null`
 * for every later process (CI containers run as root); a symbolic link to a regular file has its
 * target replaced and stays a link. Never written: a folder, a socket, a dangling link, anything in a
 * `.git` folder or the repository's git directory, and a file the reviewed repository tracks.
 */
import { randomBytes } from 'node:crypto';
import { constants, writeSync, type Stats } from 'node:fs';
import { lstat, open, readlink, realpath, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { UsageError } from './errors.js';
import { describeFileKind, errnoCode } from './io.js';

/** What the reviewed repository says about a path; null when the command has no repository. */
export interface RepositoryFacts {
  /** The real root of the work tree. */
  root: string;
  /** Real paths of its git directory and, for a linked worktree, the shared one. */
  gitDirs: readonly string[];
  /** True when the index lists this repository-relative, `/`-separated path. */
  isTracked(relativePath: string): Promise<boolean>;
}

/** How the report reaches the path. */
export type OutputPlan =
  /** Write a temporary file beside `path`, then rename it over `path` (the real path, never a link). */
  | { kind: 'replace'; path: string; mode: number | null }
  /** Open `path` for writing as it is and write: a device, a FIFO, another process's descriptor. */
  | { kind: 'in-place'; path: string }
  /** One of this process's own descriptors (`/dev/stdout`, `/dev/fd/3`): written as it is open. */
  | { kind: 'descriptor'; fd: number };

/** The streams behind descriptors 1 and 2, which Node owns and must write itself. */
export interface StandardStreams {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** Links under /proc name descriptors, what they reach is already open; these name our own. */
const OWN_DESCRIPTOR = new RegExp(`^/(?:proc/(?:self|thread-self|${process.pid})/fd|dev/fd)/(\\d+)$`);

/** Symbolic links followed at most, as the kernel does. */
const MAX_LINK_HOPS = 40;

/**
 * Decide how `--output` reaches `target` (absolute), or refuse with a one-line UsageError. `given` is
 * the path as the user wrote it, for the message. Called before the review and again just before the
 * write, so what was checked is what is written.
 */
export async function planOutput(target: string, given: string, repository: RepositoryFacts | null): Promise<OutputPlan> {
  const refuse = (why: string): never => {
    throw new UsageError(`--output ${given}: ${why}`);
  };
  if (inGitFolder(target)) refuse('is inside a .git folder; jscr never writes there');
  await refuseLinksInRepository(target, repository, refuse);
  const own = await lstat(target).catch((error: unknown) => errnoCode(error));
  if (typeof own === 'string') {
    if (own !== 'ENOENT') refuse(`cannot be written (${own})`);
    const folder = await stat(dirname(target)).catch(() => null);
    if (folder === null || !folder.isDirectory()) refuse(`the folder ${dirname(target)} does not exist`);
    const real = join(await realpath(dirname(target)), basename(target));
    await refuseRepositoryPath(real, repository, refuse);
    return { kind: 'replace', path: real, mode: null };
  }
  if (own.isSymbolicLink()) {
    const descriptor = await descriptorBehind(target);
    if (descriptor === 'other') return { kind: 'in-place', path: target };
    if (descriptor !== null) return { kind: 'descriptor', fd: descriptor };
  }
  const info = own.isSymbolicLink() ? await stat(target).catch(() => null) : own;
  if (info === null) return refuse('is a symbolic link to nothing');
  if (info.isFIFO() || info.isCharacterDevice() || info.isBlockDevice()) return { kind: 'in-place', path: target };
  if (info.isDirectory()) return refuse('is a folder, not a file');
  if (!info.isFile()) return refuse(`is ${describeFileKind(info)}, not a file jscr can write a report to`);
  const real = await realpath(target);
  await refuseRepositoryPath(real, repository, refuse);
  return { kind: 'replace', path: real, mode: modeOf(info) };
}

/** Write the report as planned. A failed replace leaves the old file and no temporary file. */
export async function writeOutput(plan: OutputPlan, text: string, standard: StandardStreams): Promise<void> {
  if (plan.kind === 'descriptor') {
    // a socket (how Node's parent passes pipes) cannot be opened again by path, only written
    if (plan.fd === 1 || plan.fd === 2) await writeStream(plan.fd === 1 ? standard.stdout : standard.stderr, text);
    else writeAllSync(plan.fd, Buffer.from(text));
    return;
  }
  if (plan.kind === 'in-place') {
    // no O_CREAT and no O_TRUNC: the thing exists and is not ours to replace; O_APPEND keeps a
    // descriptor that the shell opened with `>>` appended to
    const handle = await open(plan.path, constants.O_WRONLY | constants.O_APPEND | constants.O_NOCTTY);
    try {
      await handle.writeFile(text);
    } finally {
      await handle.close();
    }
    return;
  }
  const temp = join(dirname(plan.path), `.${basename(plan.path)}.jscr-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  try {
    // `wx`: a file or link planted at the temporary name is never followed or reused
    const handle = await open(temp, 'wx', 0o666);
    try {
      await handle.writeFile(text);
      if (plan.mode !== null) await handle.chmod(plan.mode);
    } finally {
      await handle.close();
    }
    await rename(temp, plan.path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/**
 * A symbolic link that lies inside the reviewed repository is the change's content (a pull request can
 * commit `report.json -> /home/runner/.bashrc`, or a folder link), so no component of the path may be
 * one; links elsewhere (`/dev/stdout`, a user's own folders) are the user's and stay allowed.
 */
async function refuseLinksInRepository(target: string, repository: RepositoryFacts | null, refuse: (why: string) => never): Promise<void> {
  if (repository === null) return;
  const parts = target.split(sep);
  for (let count = 2; count <= parts.length; count++) {
    const prefix = parts.slice(0, count).join(sep);
    const info = await lstat(prefix).catch(() => null);
    if (info === null) return;
    if (!info.isSymbolicLink()) continue;
    const where = join(await realpath(dirname(prefix)), basename(prefix));
    if (isInside(repository.root, where)) {
      refuse(`goes through ${relative(repository.root, where).split(sep).join('/')}, a symbolic link inside the repository; the reviewed change can place links there, so jscr does not write through them`);
    }
  }
}

/** A `.git` component, in any case, with the trailing dots and spaces Windows file systems drop. */
function inGitFolder(path: string): boolean {
  return path.split(/[\\/]/).some((part) => part.replace(/[. ]+$/, '').toLowerCase() === '.git');
}

async function refuseRepositoryPath(real: string, repository: RepositoryFacts | null, refuse: (why: string) => never): Promise<void> {
  if (inGitFolder(real)) refuse(`leads to ${real}, inside a .git folder; jscr never writes there`);
  if (repository === null) return;
  for (const gitDir of repository.gitDirs) {
    if (isInside(gitDir, real)) refuse(`leads to ${real}, inside the repository's git directory; jscr never writes there`);
  }
  if (!isInside(repository.root, real) || real === repository.root) return;
  const rel = relative(repository.root, real).split(sep).join('/');
  if (await repository.isTracked(rel)) refuse(`names ${rel}, a file the repository tracks; write the report to a new file`);
}

function isInside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * Where following the link ends up among descriptors: the number of one of ours, `other` for another
 * process's (`/proc/<pid>/fd/…`), null when it reaches an ordinary path.
 */
async function descriptorBehind(link: string): Promise<number | 'other' | null> {
  // the folder's real path first: `/dev/fd` is itself a link into /proc
  let current = join(await realpath(dirname(link)).catch(() => dirname(link)), basename(link));
  for (let hop = 0; hop < MAX_LINK_HOPS; hop++) {
    const own = OWN_DESCRIPTOR.exec(current);
    if (own) return Number(own[1]);
    if (current.startsWith('/proc/')) return 'other';
    const next = await readlink(current).catch(() => null);
    if (next === null) return null;
    current = resolve(dirname(current), next);
  }
  return null;
}

function writeStream(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(text, (error) => (error ? reject(error) : resolve()));
  });
}

function writeAllSync(fd: number, bytes: Buffer): void {
  let written = 0;
  while (written < bytes.length) written += writeSync(fd, bytes, written);
}

function modeOf(info: Stats): number {
  return info.mode & 0o7777;
}
