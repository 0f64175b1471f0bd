/**
 * Where the reviewed revision's files are read from. A range or a commit is read from git's objects
 * (the working tree may hold something else); staged from the index; the working tree through path
 * admission. Every reader refuses symlinks unless `repository.follow_symlinks` allows them, and then
 * only to targets inside the root; binary and oversized files come back as refusals with a reason.
 */
import { posix } from 'node:path';
import { runGit } from '../policy/git.js';
import { BINARY_SNIFF_BYTES, decodeText, isBinaryContent, type RepoBoundary } from '../policy/paths.js';
import { hasNonUtf8Bytes, pathKeyFromBytes, splitNulRecords, unsafePathReason } from '../repo-path.js';

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

/**
 * A file's bytes as the reviewed revision holds them, whole or not at all: a file over the limit
 * comes back as `too_large` with its size and its first bytes (enough for git's binary rule), never
 * as a shorter buffer.
 */
export type BytesRead =
  | { ok: true; path: string; bytes: Buffer }
  | { ok: false; path: string; reason: 'too_large'; detail: string; size: number; head: Buffer }
  | { ok: false; path: string; reason: Exclude<SourceRefusal, 'too_large' | 'binary'>; detail: string };

export interface SourceReader {
  /** Read these repository-relative paths as the reviewed revision holds them. */
  readMany(paths: readonly string[]): Promise<Map<string, SourceRead>>;
  /** The bytes of these paths, each read whole when it is at most `maxBytesFor(path)` bytes. */
  readBytes(paths: readonly string[], maxBytesFor: (path: string) => number): Promise<Map<string, BytesRead>>;
  /** Every file path of the reviewed revision, sorted. */
  listFiles(): Promise<string[]>;
  /** Paths (sorted) whose content contains `needle` literally, among files matching the pathspecs. */
  grepFiles(needle: string, pathspecs: readonly string[]): Promise<string[]>;
  /** One search for several literal needles: by needle, the paths (sorted) that contain it. */
  grepEach(needles: readonly string[], pathspecs: readonly string[]): Promise<Map<string, string[]>>;
}

/** A path git grep printed, without the `REV:` it puts before paths when searching a revision. */
function grepPath(where: readonly string[], printed: Buffer): string {
  const prefix = where.length === 1 && where[0] !== '--cached' ? Buffer.from(`${where[0]}:`) : null;
  return pathKeyFromBytes(prefix !== null && printed.subarray(0, prefix.length).equals(prefix) ? printed.subarray(prefix.length) : printed);
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
  return splitNulRecords(found)
    .map((p) => grepPath(where, p))
    .sort();
}

/** `git grep -o`: every needle's matches, one `path NUL match LF` record each, by needle. */
async function grepEachAt(root: string, where: string[], needles: readonly string[], pathspecs: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (needles.length === 0) return out;
  let found: Buffer;
  try {
    found = (await runGit(root, ['grep', '-o', '-z', '-F', '-I', ...needles.flatMap((n) => ['-e', n]), ...where, '--', ...pathspecs], {}, [0, 1])).stdout;
  } catch {
    return out; // a failed search finds nothing
  }
  let at = 0;
  while (at < found.length) {
    const nul = found.indexOf(0, at);
    if (nul < 0) break;
    const end = found.indexOf(0x0a, nul);
    const path = grepPath(where, found.subarray(at, nul));
    const match = found.subarray(nul + 1, end < 0 ? found.length : end).toString('utf8');
    at = end < 0 ? found.length : end + 1;
    const paths = out.get(match) ?? [];
    if (!paths.includes(path)) paths.push(path);
    out.set(match, paths);
  }
  for (const paths of out.values()) paths.sort();
  return out;
}

/** Output ceiling of listings (ls-tree, ls-files): far above any real tree, and a cut is an error. */
const LISTING_MAX_BYTES = 1024 * 1024 * 1024;

/**
 * Run git and return its output. Output cut at the ceiling is an error, never taken for the whole,
 * except where the caller asks only for the first bytes (`firstBytesOnly`).
 */
async function git(root: string, args: string[], options: { input?: string; maxOutputBytes?: number; firstBytesOnly?: boolean } = {}): Promise<Buffer> {
  const result = await runGit(root, args, {
    maxOutputBytes: options.maxOutputBytes ?? LISTING_MAX_BYTES,
    acceptCut: options.firstBytesOnly === true,
    ...(options.input === undefined ? {} : { input: options.input }),
  });
  return result.stdout;
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
 * Source text from bytes: null for binary content (git's rule: a NUL in the first 8,000 bytes). Bytes
 * that are not UTF-8 (a Latin-1 or Windows-1252 file) are read as Latin-1, so every byte stands for one
 * character and the rules still see the code; such files are reviewed rather than skipped.
 */
export function decodeSource(bytes: Buffer): string | null {
  const text = decodeText(bytes);
  if (text !== null || isBinaryContent(bytes)) return text;
  return bytes.toString('latin1');
}

/** Text of a whole read, or why there is none; shared by every reader's `readMany`. */
function toSourceRead(read: BytesRead): SourceRead {
  if (!read.ok) return { ok: false, path: read.path, reason: read.reason, detail: read.detail };
  const text = decodeSource(read.bytes);
  return text === null ? { ok: false, path: read.path, reason: 'binary', detail: 'binary content' } : { ok: true, path: read.path, text };
}

async function readManyAsText(reader: SourceReader, paths: readonly string[], maxBytes: number): Promise<Map<string, SourceRead>> {
  const out = new Map<string, SourceRead>();
  for (const [path, read] of await reader.readBytes(paths, () => maxBytes)) out.set(path, toSourceRead(read));
  return out;
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
  /**
   * Objects already read whole, by id: the review reads the same blobs in several steps (coverage,
   * profile, prover, redaction, suppressions), and an object's content never changes.
   */
  private readonly wholeObjects = new Map<string, Buffer>();
  /** The memory those objects hold: each `cat-file` output they are slices of, counted once. */
  private readonly keptOutputs = new WeakSet<ArrayBufferLike>();
  private keptBytes = 0;

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

  grepEach(needles: readonly string[], pathspecs: readonly string[]): Promise<Map<string, string[]>> {
    return grepEachAt(this.root, this.rev === null ? ['--cached'] : [this.rev], needles, pathspecs);
  }

  async listFiles(): Promise<string[]> {
    const entries = await this.load();
    return [...entries.entries()]
      .filter(([, e]) => e.mode !== '160000')
      .map(([p]) => p)
      .sort();
  }

  readMany(paths: readonly string[]): Promise<Map<string, SourceRead>> {
    return readManyAsText(this, paths, this.maxBytes);
  }

  async readBytes(paths: readonly string[], maxBytesFor: (path: string) => number): Promise<Map<string, BytesRead>> {
    const entries = await this.load();
    const out = new Map<string, BytesRead>();
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
    if (wanted.size === 0) return out;
    // Each object is read whole up to the largest limit any of its paths allows.
    const limits = new Map<string, number>();
    for (const [path, oid] of wanted) limits.set(oid, Math.max(limits.get(oid) ?? 0, maxBytesFor(path)));
    const blobs = await this.catFiles(limits);
    for (const [path, oid] of wanted) {
      const blob = blobs.get(oid);
      const limit = maxBytesFor(path);
      if (blob === undefined) out.set(path, { ok: false, path, reason: 'unreadable', detail: 'git could not read the object in full' });
      else if (blob.size > limit) out.set(path, { ok: false, path, reason: 'too_large', detail: `${blob.size} bytes, larger than ${limit}`, size: blob.size, head: blob.head });
      else if (blob.bytes === null) out.set(path, { ok: false, path, reason: 'unreadable', detail: 'git could not read the object in full' });
      else out.set(path, { ok: true, path, bytes: blob.bytes });
    }
    return out;
  }

  private async symlinkText(oid: string): Promise<string | null> {
    const blob = (await this.catFiles(new Map([[oid, 4096]]))).get(oid);
    return blob?.bytes ? blob.bytes.toString('utf8') : null;
  }

  /**
   * The objects' sizes first (`--batch-check`), then their contents: those within their limit through
   * `--batch` in groups of bounded output, a larger one only its first bytes. Every content is checked
   * against its announced size, so output cut anywhere is "could not read", never a shorter file.
   */
  private async catFiles(limits: Map<string, number>): Promise<Map<string, ObjectRead>> {
    const out = new Map<string, ObjectRead>();
    for (const oid of limits.keys()) {
      const bytes = this.wholeObjects.get(oid);
      if (bytes !== undefined) out.set(oid, { size: bytes.length, bytes, head: bytes.subarray(0, BINARY_SNIFF_BYTES) });
    }
    const oids = [...limits.keys()].filter((oid) => !out.has(oid));
    if (oids.length === 0) return out;
    const sizes = new Map<string, number>();
    const check = await git(this.root, ['cat-file', '--batch-check'], { input: oids.map((o) => `${o}\n`).join('') });
    for (const line of check.toString('utf8').split('\n')) {
      const [oid, type, sizeText] = line.split(' ');
      if (oid && type === 'blob' && sizeText !== undefined && /^\d+$/.test(sizeText)) sizes.set(oid, Number(sizeText));
    }
    const whole: string[] = [];
    for (const oid of oids) {
      const size = sizes.get(oid);
      if (size === undefined) continue;
      if (size <= (limits.get(oid) ?? 0)) whole.push(oid);
      else out.set(oid, { size, bytes: null, head: await this.objectHead(oid, size) });
    }
    let group: string[] = [];
    let groupBytes = 0;
    const flush = async (): Promise<void> => {
      if (group.length === 0) return;
      for (const [oid, bytes] of await this.batch(group, sizes, groupBytes)) {
        out.set(oid, { size: bytes.length, bytes, head: bytes.subarray(0, BINARY_SNIFF_BYTES) });
        this.keepWhole(oid, bytes);
      }
      group = [];
      groupBytes = 0;
    };
    for (const oid of whole) {
      const size = sizes.get(oid) ?? 0;
      if (groupBytes > 0 && groupBytes + size > BATCH_OUTPUT_BYTES) await flush();
      group.push(oid);
      groupBytes += size;
    }
    await flush();
    return out;
  }

  /** Keep a whole object for later reads while the memory kept stays under KEPT_OBJECT_BYTES. */
  private keepWhole(oid: string, bytes: Buffer): void {
    const output = bytes.buffer;
    const cost = this.keptOutputs.has(output) ? 0 : output.byteLength;
    if (this.keptBytes + cost > KEPT_OBJECT_BYTES) return;
    this.keptOutputs.add(output);
    this.keptBytes += cost;
    this.wholeObjects.set(oid, bytes);
  }

  /** One `git cat-file --batch` for these objects; an object whose content is not all there is left out. */
  private async batch(oids: string[], sizes: Map<string, number>, contentBytes: number): Promise<Map<string, Buffer>> {
    const out = new Map<string, Buffer>();
    // Headers are at most ~100 bytes each; the ceiling is set from the sizes, so nothing is cut.
    const bytes = await git(this.root, ['cat-file', '--batch'], { input: oids.map((o) => `${o}\n`).join(''), maxOutputBytes: contentBytes + oids.length * 160 + 1024 });
    let pos = 0;
    while (pos < bytes.length) {
      const eol = bytes.indexOf(0x0a, pos);
      if (eol < 0) break;
      const [oid, type, sizeText] = bytes.subarray(pos, eol).toString('utf8').split(' ');
      pos = eol + 1;
      if (!oid || type === 'missing' || sizeText === undefined) continue;
      const size = Number(sizeText);
      // The content must be all there, followed by git's newline, and match the size asked about.
      if (pos + size + 1 > bytes.length || size !== sizes.get(oid)) break;
      out.set(oid, bytes.subarray(pos, pos + size));
      pos += size + 1;
    }
    return out;
  }

  /** The first bytes of a large object, for git's binary rule; the rest is never kept. */
  private async objectHead(oid: string, size: number): Promise<Buffer> {
    const head = (await git(this.root, ['cat-file', 'blob', oid], { maxOutputBytes: BINARY_SNIFF_BYTES, firstBytesOnly: true })).subarray(0, BINARY_SNIFF_BYTES);
    // A head shorter than the object's start means git stopped early: no verdict from it.
    return head.length >= Math.min(size, BINARY_SNIFF_BYTES) ? head : Buffer.alloc(0);
  }
}

/** An object's size, its content when read whole (else null), and its first bytes. */
interface ObjectRead {
  size: number;
  bytes: Buffer | null;
  head: Buffer;
}

/**
 * Objects read whole are kept for the next step that reads them, in at most this many bytes of git's
 * output per reader: the changed files of an ordinary change (read first) fit, and the rest of a
 * large repository cannot make a review hold much more than before.
 */
const KEPT_OBJECT_BYTES = 32 * 1024 * 1024;

/** Output of one `cat-file --batch` call is kept under this many content bytes (larger objects go alone). */
const BATCH_OUTPUT_BYTES = 32 * 1024 * 1024;

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

  grepEach(needles: readonly string[], pathspecs: readonly string[]): Promise<Map<string, string[]>> {
    return grepEachAt(this.root, [], needles, pathspecs);
  }

  listFiles(): Promise<string[]> {
    this.files ??= git(this.root, ['ls-files', '-z']).then((b) => splitNulRecords(b).map(pathKeyFromBytes).sort());
    return this.files;
  }

  readMany(paths: readonly string[]): Promise<Map<string, SourceRead>> {
    return readManyAsText(this, paths, this.maxBytes);
  }

  async readBytes(paths: readonly string[], maxBytesFor: (path: string) => number): Promise<Map<string, BytesRead>> {
    const out = new Map<string, BytesRead>();
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
      const read = await this.boundary.readFile(path, { maxBytes: maxBytesFor(path) });
      if (read.ok) out.set(path, { ok: true, path, bytes: read.bytes });
      else if (read.reason === 'too_large') out.set(path, { ok: false, path, reason: 'too_large', detail: read.detail, size: read.size, head: read.head });
      else out.set(path, { ok: false, path, reason: read.reason, detail: read.detail });
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
