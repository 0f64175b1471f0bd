/**
 * Paths that come from git are data: bytes chosen by whoever wrote the tree. This module is the one
 * place that turns those bytes into jscr's path key and back, and that decides whether a path is a
 * plain relative path below the root, the only kind jscr ever joins to a folder.
 *
 * The key is a string that keeps every byte: valid UTF-8 reads as itself, a backslash is written `\\`
 * and a byte that is not part of valid UTF-8 is written `\xNN` (lower-case hex). That is injective, so
 * two paths that differ in one non-UTF-8 byte stay two files, and it is already the display form
 * (`caf\xe9.py`), so no renderer can turn such a byte into U+FFFD.
 */

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The path key of the bytes git printed for a path (from `-z` output or a C-quoted name). */
export function pathKeyFromBytes(bytes: Uint8Array): string {
  let text: string | null = null;
  try {
    text = STRICT_UTF8.decode(bytes);
  } catch {
    text = null;
  }
  if (text !== null) return text.replaceAll('\\', '\\\\');
  let out = '';
  let at = 0;
  while (at < bytes.length) {
    const length = utf8SequenceLength(bytes, at);
    if (length === 0) {
      out += `\\x${(bytes[at] ?? 0).toString(16).padStart(2, '0')}`;
      at += 1;
      continue;
    }
    const piece = STRICT_UTF8.decode(bytes.subarray(at, at + length));
    out += piece === '\\' ? '\\\\' : piece;
    at += length;
  }
  return out;
}

/** The exact bytes a path key stands for. */
export function pathKeyToBytes(key: string): Buffer {
  if (!key.includes('\\')) return Buffer.from(key, 'utf8');
  const parts: Buffer[] = [];
  let plain = '';
  for (let at = 0; at < key.length; at++) {
    const ch = key[at] as string;
    if (ch !== '\\') {
      plain += ch;
      continue;
    }
    parts.push(Buffer.from(plain, 'utf8'));
    plain = '';
    if (key[at + 1] === 'x' && /^[0-9a-f]{2}$/.test(key.slice(at + 2, at + 4))) {
      parts.push(Buffer.from([parseInt(key.slice(at + 2, at + 4), 16)]));
      at += 3;
    } else {
      parts.push(Buffer.from('\\'));
      if (key[at + 1] === '\\') at += 1;
    }
  }
  parts.push(Buffer.from(plain, 'utf8'));
  return Buffer.concat(parts);
}

/** True when the key names bytes that are not valid UTF-8 (it holds a `\xNN` escape). */
export function hasNonUtf8Bytes(key: string): boolean {
  return /(^|[^\\])(\\\\)*\\x[0-9a-f]{2}/.test(key);
}

/** The length of the valid UTF-8 sequence starting at `at`, or 0 when the byte there starts none. */
function utf8SequenceLength(bytes: Uint8Array, at: number): number {
  const lead = bytes[at] ?? 0;
  const length = lead < 0x80 ? 1 : lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
  if (length <= 1) return length;
  try {
    STRICT_UTF8.decode(bytes.subarray(at, at + length));
    return at + length <= bytes.length ? length : 0;
  } catch {
    return 0;
  }
}

/**
 * Code points that HFS+ ignores in names and that git itself refuses inside `.git` (zero-width
 * joiners, direction marks, the byte order mark), so `.g\u200cit` is still `.git`.
 */
const HFS_IGNORABLE = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;

/** True for a name that a file system may treat as the `.git` folder (any case, NTFS and HFS+ spellings). */
function isGitFolderName(segment: string): boolean {
  const folded = segment.replace(HFS_IGNORABLE, '').replace(/[. ]+$/, '').toLowerCase();
  return folded === '.git' || folded === 'git~1';
}

/**
 * Why a path key is not a plain relative path below the root, or null when it is one. Such a path is
 * never joined to a folder: the file is listed as not reviewed. `symlinks` are the paths the reviewed
 * tree holds as symbolic links; a path through one of them is refused too.
 */
export function unsafePathReason(key: string, symlinks?: ReadonlySet<string>): string | null {
  if (key.length === 0) return 'an empty path';
  const bytes = pathKeyToBytes(key);
  if (bytes.includes(0)) return 'the path contains a NUL byte';
  if (bytes.includes(0x5c)) return 'the path contains a backslash';
  if (key.startsWith('/')) return 'an absolute path';
  const segments = key.split('/');
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string;
    if (segment === '') return 'the path has an empty segment';
    if (segment === '.' || segment === '..') return `the path has a "${segment}" segment`;
    if (isGitFolderName(segment)) return 'the path goes through a .git folder';
    if (symlinks !== undefined && i < segments.length - 1 && symlinks.has(segments.slice(0, i + 1).join('/'))) {
      return `the path goes through ${segments.slice(0, i + 1).join('/')}, a symbolic link`;
    }
  }
  return null;
}

/** The NUL-terminated records of git's `-z` output, as bytes: names in them are neither quoted nor decoded. */
export function splitNulRecords(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  while (start < bytes.length) {
    let end = bytes.indexOf(0, start);
    if (end < 0) end = bytes.length;
    if (end > start) out.push(bytes.subarray(start, end));
    start = end + 1;
  }
  return out;
}
