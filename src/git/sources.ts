/**
 * Where the reviewed revision's files are read from. A range or a commit is read from git's objects
 * (the working tree may hold something else); staged from the index; the working tree through path
 * admission. Every reader refuses symlinks unless `repository.follow_symlinks` allows them, and then
 * only to targets inside the root; binary and oversized files come back as refusals with a reason.
 */
import { posix } from 'node:path';
import { runGit } from '../policy/git.js';
import { decodeText, type RepoBoundary } from '../policy/paths.js';
import { hasNonUtf8Bytes, pathKeyFromBytes, splitNulRecords, unsafePathReason } from '../policy/repo-path.js';

export type SourceRead =
  | { ok: true; path: string; text: string }
  | { ok: false; path: string; reason: SourceRefusal; detail: string };

export type SourceRefusal =
  | 'not_found'
  | 'outside_root'
  | 'symlink_refused'
  | 'symlink_outside_root'
  | 'not_regular'
  | 'too_large'
  | 'binary'
  | 'unreadable'
  /** Not a plain relative path below the root (`..`, `.git`, a backslash, through a symlink): never read. */
  | 'unsafe_path';

export interface SourceReader {
  /** Read these repository-relative paths as the reviewed revision holds them. */
  readMany(paths: readonly string[]): Promise<Map<string, SourceRead>>;
  /** Every file path of the reviewed revision, sorted. */
  listFiles(): Promise<string[]>;
  /** Paths (sorted) whose content contains `needle` literally, among files matching the pathspecs. */
  grepFiles(needle: string, pathspecs: readonly string[]): Promise<string[]>;
}

/** `git grep -l -F` over a revision, the index (`--cached`) or the working tree's tracked files. */
async function grepAt(root: string, where: string[], needle: string, pathspecs: readonly string[]): Promise<string[]> {
  let found: Buffer;
  try {
    // git grep exits 1 when nothing matched.
    found = (await runGit(root, ['grep', '-l', '-z', '-F', '-I', '-e', needle, ...where, '--', ...pathspecs], {}, [0, 1])).stdout;
  } catch {
    return []; // a failed search is reported as "no importers found"
  }
  const prefix = where.length === 1 && where[0] !== '--cached' ? Buffer.from(`${where[0]}:`) : null;
  return splitNulRecords(found)
    .map((p) => pathKeyFromBytes(prefix !== null && p.subarray(0, prefix.length).equals(prefix) ? p.subarray(prefix.length) : p))
    .sort();
}

async function git(root: string, args: string[], input?: string): Promise<Buffer> {
  return (await runGit(root, args, input === undefined ? {} : { input })).stdout;
}

/** `<fields> TAB <path>` records of `ls-files -s -z` / `ls-tree -z`: the fields' text and the path key. */
function splitEntries(bytes: Buffer): { fields: string[]; path: string }[] {
  return splitNulRecords(bytes).map((record) => {
    const tab = record.indexOf(0x09);
    return { fields: record.subarray(0, tab).toString('latin1').split(' '), path: pathKeyFromBytes(record.subarray(tab + 1)) };
  });
}

interface TreeEntry {
  mode: string;
  oid: string;
}

/**
 * Source text from bytes: null for binary content (a NUL in the first 8 KiB). Bytes that are not UTF-8
 * (a Latin-1 or Windows-1252 file) are read as Latin-1, so every byte stands for one character and the
 * rules still see the code; such files are reviewed rather than skipped.
 */
export function decodeSource(bytes: Buffer): string | null {
  const text = decodeText(bytes);
  if (text !== null || bytes.subarray(0, 8192).includes(0)) return text;
  return bytes.toString('latin1');
}

/** Resolve a symlink's stored target against its own directory; null when it leaves the root. */
function symlinkTarget(path: string, target: string): string | null {
  if (target.startsWith('/')) return null;
  const joined = posix.normalize(posix.join(posix.dirname(path), target));
  if (joined === '..' || joined.startsWith('../')) return null;
  return joined;
}

/** Reads a tree-ish (a commit, or the index when `rev` is null) through `git cat-file --batch`. */
class GitObjectReader implements SourceReader {
  private entries: Promise<Map<string, TreeEntry>> | null = null;
  /** Paths the tree holds as symbolic links: no path through one of them is read. */
  private readonly symlinks = new Set<string>();

  constructor(
    private readonly root: string,
    private readonly rev: string | null,
    private readonly maxBytes: number,
    private readonly followSymlinks: boolean,
  ) {}

  private load(): Promise<Map<string, TreeEntry>> {
    this.entries ??= (async () => {
      const map = new Map<string, TreeEntry>();
      if (this.rev === null) {
        // <mode> SP <object> SP <stage> TAB <path>
        for (const { fields: [mode, oid], path } of splitEntries(await git(this.root, ['ls-files', '-s', '-z']))) {
          if (mode && oid) map.set(path, { mode, oid });
        }
      } else {
        // <mode> SP <type> SP <object> TAB <path>
        for (const { fields: [mode, , oid], path } of splitEntries(await git(this.root, ['ls-tree', '-r', '-z', '--full-tree', this.rev]))) {
          if (mode && oid) map.set(path, { mode, oid });
        }
      }
      for (const [path, entry] of map) if (entry.mode === '120000') this.symlinks.add(path);
      return map;
    })();
    return this.entries;
  }

  grepFiles(needle: string, pathspecs: readonly string[]): Promise<string[]> {
    return grepAt(this.root, this.rev === null ? ['--cached'] : [this.rev], needle, pathspecs);
  }

  async listFiles(): Promise<string[]> {
    const entries = await this.load();
    return [...entries.entries()]
      .filter(([, e]) => e.mode !== '160000')
      .map(([p]) => p)
      .sort();
  }

  async readMany(paths: readonly string[]): Promise<Map<string, SourceRead>> {
    const entries = await this.load();
    const out = new Map<string, SourceRead>();
    const wanted = new Map<string, string>(); // path -> oid to fetch
    for (const path of paths) {
      const unsafe = unsafePathReason(path, this.symlinks);
      if (unsafe !== null) {
        out.set(path, { ok: false, path, reason: 'unsafe_path', detail: unsafe });
        continue;
      }
      let entry = entries.get(path);
      if (!entry) {
        out.set(path, { ok: false, path, reason: 'not_found', detail: 'not in the reviewed revision' });
        continue;
      }
      if (entry.mode === '160000') {
        out.set(path, { ok: false, path, reason: 'not_regular', detail: 'a submodule, not a file' });
        continue;
      }
      if (entry.mode === '120000') {
        if (!this.followSymlinks) {
          out.set(path, { ok: false, path, reason: 'symlink_refused', detail: 'a symlink; repository.follow_symlinks is false' });
          continue;
        }
        const target = await this.symlinkText(entry.oid);
        const inside = target === null ? null : symlinkTarget(path, target);
        const targetEntry = inside === null ? undefined : entries.get(inside);
        if (inside === null) {
          out.set(path, { ok: false, path, reason: 'symlink_outside_root', detail: 'a symlink whose target is outside the repository' });
          continue;
        }
        if (!targetEntry || targetEntry.mode === '120000' || targetEntry.mode === '160000') {
          out.set(path, { ok: false, path, reason: 'not_regular', detail: `a symlink to ${inside}, which is not a regular file` });
          continue;
        }
        entry = targetEntry;
      }
      wanted.set(path, entry.oid);
    }
    if (wanted.size > 0) {
      const blobs = await this.catFiles([...new Set(wanted.values())]);
      for (const [path, oid] of wanted) {
        const blob = blobs.get(oid);
        if (blob === undefined) out.set(path, { ok: false, path, reason: 'unreadable', detail: 'git could not read the object' });
        else if (blob === 'too_large') out.set(path, { ok: false, path, reason: 'too_large', detail: `larger than ${this.maxBytes} bytes` });
        else {
          const text = decodeSource(blob);
          out.set(path, text === null ? { ok: false, path, reason: 'binary', detail: 'binary content' } : { ok: true, path, text });
        }
      }
    }
    return out;
  }

  private async symlinkText(oid: string): Promise<string | null> {
    const blob = (await this.catFiles([oid])).get(oid);
    return blob === undefined || blob === 'too_large' ? null : blob.toString('utf8');
  }

  /** One `git cat-file --batch` for many objects; objects over the size limit are not kept. */
  private async catFiles(oids: string[]): Promise<Map<string, Buffer | 'too_large'>> {
    const out = new Map<string, Buffer | 'too_large'>();
    const bytes = await git(this.root, ['cat-file', '--batch'], oids.map((o) => `${o}\n`).join(''));
    let pos = 0;
    while (pos < bytes.length) {
      const eol = bytes.indexOf(0x0a, pos);
      if (eol < 0) break;
      const header = bytes.subarray(pos, eol).toString('utf8');
      const [oid, type, sizeText] = header.split(' ');
      pos = eol + 1;
      if (!oid || type === 'missing' || sizeText === undefined) continue;
      const size = Number(sizeText);
      out.set(oid, size > this.maxBytes ? 'too_large' : bytes.subarray(pos, pos + size));
      pos += size + 1; // contents, then a newline
    }
    return out;
  }
}

/** Reads the working tree through the repository boundary (path admission, no symlink escapes). */
class WorkingTreeReader implements SourceReader {
  private files: Promise<string[]> | null = null;

  constructor(
    private readonly root: string,
    private readonly boundary: RepoBoundary,
    private readonly maxBytes: number,
  ) {}

  grepFiles(needle: string, pathspecs: readonly string[]): Promise<string[]> {
    return grepAt(this.root, [], needle, pathspecs);
  }

  listFiles(): Promise<string[]> {
    this.files ??= git(this.root, ['ls-files', '-z']).then((b) => splitNulRecords(b).map(pathKeyFromBytes).sort());
    return this.files;
  }

  async readMany(paths: readonly string[]): Promise<Map<string, SourceRead>> {
    const out = new Map<string, SourceRead>();
    for (const path of paths) {
      const unsafe = unsafePathReason(path);
      if (unsafe !== null) {
        out.set(path, { ok: false, path, reason: 'unsafe_path', detail: unsafe });
        continue;
      }
      // The file system is reached through string paths, which cannot carry bytes that are not UTF-8.
      if (hasNonUtf8Bytes(path)) {
        out.set(path, { ok: false, path, reason: 'unreadable', detail: 'a name that is not UTF-8 cannot be read from the working tree (review the commit with --commit or --staged)' });
        continue;
      }
      const read = await this.boundary.readFile(path, { maxBytes: this.maxBytes });
      if (!read.ok) {
        out.set(path, { ok: false, path, reason: read.reason, detail: read.detail });
        continue;
      }
      const text = read.text ?? decodeSource(read.bytes);
      out.set(path, text === null ? { ok: false, path, reason: 'binary', detail: 'binary content' } : { ok: true, path, text });
    }
    return out;
  }
}

export interface ReaderOptions {
  root: string;
  boundary: RepoBoundary;
  /** A commit for ranges and single commits; 'index' for staged; 'worktree' for the working tree. */
  source: { kind: 'revision'; rev: string } | { kind: 'index' } | { kind: 'worktree' };
  maxFileBytes: number;
  followSymlinks: boolean;
}

export function createSourceReader(options: ReaderOptions): SourceReader {
  switch (options.source.kind) {
    case 'revision':
      return new GitObjectReader(options.root, options.source.rev, options.maxFileBytes, options.followSymlinks);
    case 'index':
      return new GitObjectReader(options.root, null, options.maxFileBytes, options.followSymlinks);
    case 'worktree':
      return new WorkingTreeReader(options.root, options.boundary, options.maxFileBytes);
  }
}
