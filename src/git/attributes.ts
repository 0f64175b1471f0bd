/**
 * The `linguist-vendored` and `linguist-generated` marks of a revision's `.gitattributes` files, read by
 * jscr from git objects (never `git check-attr`, which reads the working tree and `.git/info`). They are
 * configuration of the base revision, like `.jscr.toml`: the change under review cannot add them.
 *
 * Matching follows gitattributes(5): a pattern without a slash matches a file name at any depth below
 * the attributes file's folder, one with a slash is anchored to that folder, a pattern ending in `/`
 * names a folder and so never applies to the files in it; deeper files win over shallower ones and
 * later lines over earlier ones.
 */
import { posix } from 'node:path';
import picomatch from 'picomatch';
import { unquoteCPath } from './diff.js';
import type { SourceReader } from './sources.js';

const LINGUIST_MARKS = ['linguist-vendored', 'linguist-generated'] as const;
type LinguistMark = (typeof LINGUIST_MARKS)[number];

/** Why a path carries a mark: the mark and the attributes file whose line set it. */
interface MarkSource {
  mark: LinguistMark;
  file: string;
}

interface AttributeLine {
  matches: (path: string) => boolean;
  /** true: set; false: unset (`-mark`, `mark=false`); null: made unspecified (`!mark`). */
  values: Map<LinguistMark, boolean | null>;
}

interface AttributesFile {
  path: string;
  lines: AttributeLine[];
}

export interface LinguistMarks {
  /** The first mark set on `path` (vendored before generated), or null. */
  markOf(path: string): MarkSource | null;
}

const NONE: LinguistMarks = { markOf: () => null };

const ATTRIBUTES_NAME = '.gitattributes';

/** The marks of every `.gitattributes` in the revision `reader` reads; none when there is no reader. */
export async function readLinguistMarks(reader: SourceReader | null): Promise<LinguistMarks> {
  if (reader === null) return NONE;
  const paths = (await reader.listFiles()).filter((p) => p === ATTRIBUTES_NAME || p.endsWith(`/${ATTRIBUTES_NAME}`));
  if (paths.length === 0) return NONE;
  const reads = await reader.readMany(paths);
  const files: AttributesFile[] = [];
  for (const path of paths) {
    const read = reads.get(path);
    // git itself does not follow a symlinked .gitattributes in the tree; an unreadable one marks nothing.
    if (read?.ok !== true || !read.text.includes('linguist-')) continue;
    files.push({ path, lines: parseAttributes(posix.dirname(path), read.text) });
  }
  // Shallower first, so a deeper file's lines are applied later and win.
  files.sort((a, b) => depth(a.path) - depth(b.path) || (a.path < b.path ? -1 : 1));
  return { markOf: (path) => markOf(files, path) };
}

function depth(path: string): number {
  return path.split('/').length;
}

function markOf(files: AttributesFile[], path: string): MarkSource | null {
  const state = new Map<LinguistMark, { on: boolean; file: string }>();
  for (const file of files) {
    for (const line of file.lines) {
      if (!line.matches(path)) continue;
      for (const [mark, value] of line.values) state.set(mark, { on: value === true, file: file.path });
    }
  }
  for (const mark of LINGUIST_MARKS) {
    const found = state.get(mark);
    if (found?.on) return { mark, file: found.file };
  }
  return null;
}

/** The lines of one attributes file in folder `dir` (`.` for the root) that touch a linguist mark. */
function parseAttributes(dir: string, text: string): AttributeLine[] {
  const lines: AttributeLine[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '').trim();
    if (line === '' || line.startsWith('#') || line.startsWith('[attr]')) continue;
    const parsed = splitPattern(line);
    if (parsed === null) continue;
    const values = new Map<LinguistMark, boolean | null>();
    for (const token of parsed.rest.split(/[ \t]+/)) {
      const name = token.replace(/^[-!]/, '').replace(/=.*$/, '');
      if (!(LINGUIST_MARKS as readonly string[]).includes(name)) continue;
      const mark = name as LinguistMark;
      if (token.startsWith('!')) values.set(mark, null);
      else if (token.startsWith('-')) values.set(mark, false);
      else {
        const value = token.includes('=') ? token.slice(token.indexOf('=') + 1) : 'true';
        values.set(mark, value === 'true' || value === '1');
      }
    }
    if (values.size === 0) continue;
    const matches = patternMatcher(dir, parsed.pattern);
    if (matches !== null) lines.push({ matches, values });
  }
  return lines;
}

/** The pattern (C-quoted or bare) and the attribute text after it. */
function splitPattern(line: string): { pattern: string; rest: string } | null {
  if (line.startsWith('"')) {
    try {
      const { value, end } = unquoteCPath(line);
      return { pattern: value, rest: line.slice(end).trim() };
    } catch {
      return null;
    }
  }
  const space = line.search(/[ \t]/);
  return space < 0 ? null : { pattern: line.slice(0, space), rest: line.slice(space + 1).trim() };
}

/**
 * picomatch set to git's wildmatch: braces (`*.{a,b}`) and extglobs (`@(x)`) are literal text to git, so
 * reading them as alternatives would mark files git (and GitHub's linguist) never marks.
 */
const WILDMATCH = { dot: true, nobrace: true, noextglob: true } as const;

/** A matcher of repository-relative file paths for one pattern of the file in `dir`; null when it can match no file. */
function patternMatcher(dir: string, pattern: string): ((path: string) => boolean) | null {
  // Negative patterns are forbidden in attributes files, and a folder pattern never reaches the files in it.
  if (pattern.startsWith('!') || pattern.endsWith('/') || pattern === '') return null;
  const prefix = dir === '.' ? '' : `${dir}/`;
  const below = (path: string): string | null => (path.startsWith(prefix) ? path.slice(prefix.length) : null);
  if (!pattern.includes('/')) {
    const name = picomatch(pattern, WILDMATCH);
    return (path) => below(path) !== null && name(posix.basename(path));
  }
  const anchored = picomatch(pattern.replace(/^\//, ''), WILDMATCH);
  return (path) => {
    const rest = below(path);
    return rest !== null && anchored(rest);
  };
}
