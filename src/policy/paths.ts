/**
 * The repository boundary: the one gate every repository file read goes through. A path is admitted
 * only if it lies under the real root by whole path segments (`/repo-evil` is not under `/repo`), and
 * symbolic links are refused unless following them is configured, and even then the link's real
 * target must be under the root.
 */
import { constants } from 'node:fs';
import { lstat, open, realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { BoundaryError } from '../errors.js';

/** Why a path was not admitted. */
type AdmissionRefusal = 'outside_root' | 'symlink_refused' | 'symlink_outside_root' | 'not_found' | 'not_regular';

/**
 * The answer for one path. `abs` is what to open (the real path when links are followed); `rel` is the
 * path as named, relative to the root with `/` separators, which is what reports show.
 */
type Admission =
  | { ok: true; abs: string; rel: string }
  | { ok: false; reason: AdmissionRefusal; detail: string };

/**
 * A read through the boundary. `text` is null for binary content (git's rule, `isBinaryContent`) or
 * invalid UTF-8. A file over the limit is not read, except its first bytes (`head`), enough to tell
 * binary content from text.
 */
type ReadOutcome =
  | { ok: true; rel: string; bytes: Buffer; text: string | null }
  | { ok: false; rel: string; reason: AdmissionRefusal | 'unreadable'; detail: string }
  | { ok: false; rel: string; reason: 'too_large'; detail: string; size: number; head: Buffer };

/** A repository root that admits paths and reads files under it. */
export interface RepoBoundary {
  /** The root, canonicalised with realpath. */
  readonly root: string;
  readonly followSymlinks: boolean;
  /** Admit an existing regular file named repo-relative or absolute. */
  admit(path: string): Promise<Admission>;
  /** Admit, then read at most `maxBytes` (a larger file is `too_large`, not truncated). */
  readFile(path: string, opts: { maxBytes: number }): Promise<ReadOutcome>;
}

/**
 * Bytes inspected for a NUL when deciding whether content is binary: git's own rule
 * (xdiff-interface.c buffer_is_binary, FIRST_FEW_BYTES), so jscr and git never disagree at the edge.
 */
export const BINARY_SNIFF_BYTES = 8000;

/** Binary content by git's rule: a NUL byte among the first 8,000 bytes. */
export function isBinaryContent(bytes: Buffer): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/** Open the boundary at `root`; a missing or non-directory root is a BoundaryError. */
export async function openBoundary(root: string, opts: { followSymlinks: boolean }): Promise<RepoBoundary> {
  const givenRoot = resolve(root);
  let realRoot: string;
  try {
    realRoot = await realpath(givenRoot);
  } catch (error) {
    throw new BoundaryError(`repository root ${givenRoot} does not exist or cannot be resolved (${codeOf(error)})`);
  }
  if (!(await stat(realRoot)).isDirectory()) throw new BoundaryError(`repository root ${givenRoot} is not a directory`);
  return new Boundary(realRoot, givenRoot, opts.followSymlinks);
}

/** True when `path` is `root` or below it, by whole segments (commonpath, not string prefix). */
export function isWithin(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

interface Admitted {
  abs: string;
  rel: string;
  /** Identity of the admitted file, checked again on the opened descriptor to catch a swap after admission. */
  dev: number;
  ino: number;
}

class Boundary implements RepoBoundary {
  constructor(
    readonly root: string,
    /** The root as the caller spelled it, so absolute paths through a symlinked spelling of the root still work. */
    private readonly givenRoot: string,
    readonly followSymlinks: boolean,
  ) {}

  async admit(path: string): Promise<Admission> {
    const result = await this.admitWithIdentity(path);
    return result.ok ? { ok: true, abs: result.abs, rel: result.rel } : result;
  }

  async readFile(path: string, opts: { maxBytes: number }): Promise<ReadOutcome> {
    const admitted = await this.admitWithIdentity(path);
    if (!admitted.ok) return { ok: false, rel: displayName(this.root, path), reason: admitted.reason, detail: admitted.detail };
    const rel = admitted.rel;
    // O_NOFOLLOW refuses a last component that became a link; O_NONBLOCK keeps a swapped-in FIFO from hanging us.
    const flags = constants.O_RDONLY | constants.O_NONBLOCK | (this.followSymlinks ? 0 : constants.O_NOFOLLOW);
    let handle;
    try {
      handle = await open(admitted.abs, flags);
    } catch (error) {
      if (codeOf(error) === 'ELOOP') return { ok: false, rel, reason: 'symlink_refused', detail: `${rel} is a symbolic link` };
      if (codeOf(error) === 'ENOENT') return { ok: false, rel, reason: 'not_found', detail: `${rel} does not exist` };
      return { ok: false, rel, reason: 'unreadable', detail: `${rel}: cannot open (${codeOf(error)})` };
    }
    try {
      const info = await handle.stat();
      if (info.dev !== admitted.dev || info.ino !== admitted.ino) {
        return { ok: false, rel, reason: 'unreadable', detail: `${rel} changed while it was being read` };
      }
      if (!info.isFile()) return { ok: false, rel, reason: 'not_regular', detail: `${rel} is not a regular file` };
      // Read one byte past the limit so a file that grew after the stat is still caught.
      const buffer = Buffer.alloc(info.size > opts.maxBytes ? BINARY_SNIFF_BYTES : Math.min(info.size, opts.maxBytes) + 1);
      let filled = 0;
      for (;;) {
        const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
        if (filled === buffer.length) break;
      }
      if (info.size > opts.maxBytes || filled > opts.maxBytes) return tooLarge(rel, opts.maxBytes, Math.max(info.size, filled), buffer.subarray(0, Math.min(filled, BINARY_SNIFF_BYTES)));
      const bytes = buffer.subarray(0, filled);
      return { ok: true, rel, bytes, text: decodeText(bytes) };
    } catch (error) {
      return { ok: false, rel, reason: 'unreadable', detail: `${rel}: cannot read (${codeOf(error)})` };
    } finally {
      await handle.close();
    }
  }

  private async admitWithIdentity(path: string): Promise<({ ok: true } & Admitted) | { ok: false; reason: AdmissionRefusal; detail: string }> {
    if (path.includes('\0')) return { ok: false, reason: 'not_found', detail: 'the path contains a NUL byte' };
    const lexical = this.lexicalPath(path);
    if (lexical === null) return { ok: false, reason: 'outside_root', detail: `${path} is outside the repository root ${this.root}` };
    const rel = toPosix(relative(this.root, lexical));
    if (rel === '') return { ok: false, reason: 'not_regular', detail: 'the repository root is a directory, not a file' };

    if (this.followSymlinks) {
      let real: string;
      try {
        real = await realpath(lexical);
      } catch (error) {
        return { ok: false, reason: 'not_found', detail: `${rel} does not exist or cannot be resolved (${codeOf(error)})` };
      }
      // The lexical path is inside, so a real path outside means a link led out.
      if (!isWithin(this.root, real)) return { ok: false, reason: 'symlink_outside_root', detail: `${rel} resolves to ${real}, outside the repository root` };
      return this.regularFile(real, rel);
    }

    // Check every component, not only the last: `linked-dir/file` must be refused too.
    const segments = rel.split('/');
    let current = this.root;
    for (const segment of segments) {
      current = `${current}${sep}${segment}`;
      let info;
      try {
        info = await lstat(current);
      } catch (error) {
        return { ok: false, reason: 'not_found', detail: `${rel} does not exist (${codeOf(error)})` };
      }
      if (info.isSymbolicLink()) {
        const linkRel = toPosix(relative(this.root, current));
        return { ok: false, reason: 'symlink_refused', detail: `${linkRel} is a symbolic link and repository.follow_symlinks is false` };
      }
    }
    return this.regularFile(lexical, rel);
  }

  /** The absolute lexical path under the real root, or null when it lies outside. */
  private lexicalPath(path: string): string | null {
    if (!isAbsolute(path)) {
      const abs = resolve(this.root, path);
      return isWithin(this.root, abs) ? abs : null;
    }
    const abs = resolve(path);
    if (isWithin(this.root, abs)) return abs;
    if (isWithin(this.givenRoot, abs)) return resolve(this.root, relative(this.givenRoot, abs));
    return null;
  }

  private async regularFile(abs: string, rel: string): Promise<({ ok: true } & Admitted) | { ok: false; reason: AdmissionRefusal; detail: string }> {
    try {
      const info = await stat(abs);
      if (!info.isFile()) return { ok: false, reason: 'not_regular', detail: `${rel} is not a regular file` };
      return { ok: true, abs, rel, dev: info.dev, ino: info.ino };
    } catch (error) {
      return { ok: false, reason: 'not_found', detail: `${rel} does not exist (${codeOf(error)})` };
    }
  }
}

/** UTF-8 text, or null for binary content. */
export function decodeText(bytes: Buffer): string | null {
  if (isBinaryContent(bytes)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

function tooLarge(rel: string, maxBytes: number, size: number, head: Buffer): ReadOutcome {
  return { ok: false, rel, reason: 'too_large', detail: `${rel} is larger than ${maxBytes} bytes`, size, head };
}

function displayName(root: string, path: string): string {
  return isAbsolute(path) ? toPosix(isWithin(root, path) ? relative(root, path) : path) : toPosix(path);
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

function codeOf(error: unknown): string {
  if (error instanceof Error && 'code' in error && typeof error.code === 'string') return error.code;
  return error instanceof Error ? error.message : String(error);
}
