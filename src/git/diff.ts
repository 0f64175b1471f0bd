/**
 * Parsing git's unified diff output into files, hunks and numbered lines.
 *
 * parse-diff reads the hunk bodies; what it does not understand about git's extended headers is read
 * here: C-quoted paths (tabs, quotes, non-ASCII bytes as octal escapes), unquoted paths with spaces
 * (git appends a tab to such names on the ---/+++ lines), renames and copies with their similarity,
 * mode changes, binary files, empty files with no hunks, submodule entries, and the
 * `\ No newline at end of file` marker. The whole parse is one pass over the lines.
 */
import parseDiff from 'parse-diff';
import type { FileStatus } from '../report/finding.js';
import { pathKeyFromBytes } from '../repo-path.js';

/** One line of a hunk. */
interface DiffLine {
  kind: 'add' | 'del' | 'context';
  /** The line without its `+`/`-`/space prefix. A CR before the LF is kept, so CRLF files stay visible. */
  text: string;
  /** 1-based line number in the old file; null for added lines. */
  oldLine: number | null;
  /** 1-based line number in the new file; null for deleted lines. */
  newLine: number | null;
  /** True when git marked this line `\ No newline at end of file`. */
  noNewlineAtEnd: boolean;
}

/** One `@@ -a,b +c,d @@` hunk. */
interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  /** The `@@ ... @@ context` line as git printed it. */
  header: string;
  lines: DiffLine[];
}

/** One file of a diff. */
export interface DiffFile {
  /** Repository-relative new path, or the old path for a deletion, as a path key (every byte kept). */
  path: string;
  /** The source path of a rename or copy; null otherwise. */
  oldPath: string | null;
  /**
   * `binary` when git printed "Binary files ... differ" (git's verdict, which attributes and config
   * can steer; jscr decides from the content, see src/review/coverage.ts).
   */
  status: FileStatus;
  /** For a `binary` file, the status git's binary line stands in for (added, deleted, ...); else null. */
  statusBehindBinary: FileStatus | null;
  /** A gitlink (mode 160000): its "lines" are `Subproject commit <sha>` and not code. */
  isSubmodule: boolean;
  oldMode: string | null;
  newMode: string | null;
  hunks: Hunk[];
  /** Rename or copy similarity in percent, when git printed one. */
  similarity: number | null;
}

const SUBMODULE_MODE = '160000';

const C_ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/**
 * Decode one git C-quoted string (`"caf\303\251/a\tb"`) starting at `start` (the opening quote).
 * Returns the path key (src/repo-path.ts) and the index just past the closing quote. Octal
 * escapes are raw bytes: they are collected as bytes, so a name that is not UTF-8 keeps every byte.
 */
export function unquoteCPath(text: string, start = 0): { value: string; end: number } {
  if (text[start] !== '"') throw new Error(`not a quoted path: ${text}`);
  const bytes: number[] = [];
  let i = start + 1;
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch === '"') return { value: pathKeyFromBytes(Buffer.from(bytes)), end: i + 1 };
    if (ch === '\\') {
      const next = text[i + 1] ?? '';
      if (/[0-7]/.test(next)) {
        const octal = /^[0-7]{1,3}/.exec(text.slice(i + 1, i + 4))?.[0] ?? '0';
        bytes.push(parseInt(octal, 8) & 0xff);
        i += 1 + octal.length;
        continue;
      }
      const escaped = C_ESCAPES[next];
      if (escaped === undefined) throw new Error(`unknown escape \\${next} in quoted path: ${text}`);
      bytes.push(escaped);
      i += 2;
      continue;
    }
    for (const b of Buffer.from(ch, 'utf8')) bytes.push(b);
    i += 1;
  }
  throw new Error(`unterminated quoted path: ${text}`);
}

/** A path as git prints it after `rename from`, `---` and the like: C-quoted or bare. */
function readPathToken(raw: string): string {
  if (raw.startsWith('"')) return unquoteCPath(raw).value;
  // Git puts a tab after unquoted names that contain a space (for GNU patch); an unquoted name can
  // never itself contain a tab, because git would have quoted it.
  return raw.endsWith('\t') ? raw.slice(0, -1) : raw;
}

function stripPrefix(path: string, prefix: 'a/' | 'b/'): string {
  return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

/**
 * The two paths of a `diff --git a/X b/Y` line. Only trusted when nothing better follows (no ---/+++,
 * rename or copy lines), which is exactly when X and Y are the same path; unquoted names with spaces
 * are then split in the middle.
 */
function pathsFromGitHeader(rest: string): { oldPath: string; newPath: string } | null {
  if (rest.startsWith('"')) {
    const first = unquoteCPath(rest);
    const second = rest.slice(first.end).trimStart();
    const newRaw = second.startsWith('"') ? unquoteCPath(second).value : second;
    return { oldPath: stripPrefix(first.value, 'a/'), newPath: stripPrefix(newRaw, 'b/') };
  }
  const quotedSecond = rest.indexOf(' "b/');
  if (quotedSecond >= 0) {
    return { oldPath: stripPrefix(rest.slice(0, quotedSecond), 'a/'), newPath: unquoteCPath(rest, quotedSecond + 1).value.slice(2) };
  }
  // "a/P b/P": the same path twice, so the split point is the middle.
  if ((rest.length - 1) % 2 === 0) {
    const half = (rest.length - 1) / 2;
    const left = rest.slice(0, half);
    const right = rest.slice(half + 1);
    if (left.startsWith('a/') && right.startsWith('b/') && left.slice(2) === right.slice(2)) {
      return { oldPath: left.slice(2), newPath: right.slice(2) };
    }
  }
  const split = rest.indexOf(' b/');
  if (split < 0) return null;
  return { oldPath: stripPrefix(rest.slice(0, split), 'a/'), newPath: rest.slice(split + 3) };
}

interface FileHeader {
  gitOld: string | null;
  gitNew: string | null;
  minusPath: string | null | undefined; // undefined: no --- line; null: /dev/null
  plusPath: string | null | undefined;
  renameFrom: string | null;
  renameTo: string | null;
  copyFrom: string | null;
  copyTo: string | null;
  similarity: number | null;
  oldMode: string | null;
  newMode: string | null;
  created: boolean;
  deleted: boolean;
  binary: boolean;
  binaryOldPath: string | null | undefined;
  binaryNewPath: string | null | undefined;
}

function emptyHeader(gitLine: string): FileHeader {
  const paths = pathsFromGitHeader(gitLine.slice('diff --git '.length));
  return {
    gitOld: paths?.oldPath ?? null,
    gitNew: paths?.newPath ?? null,
    minusPath: undefined,
    plusPath: undefined,
    renameFrom: null,
    renameTo: null,
    copyFrom: null,
    copyTo: null,
    similarity: null,
    oldMode: null,
    newMode: null,
    created: false,
    deleted: false,
    binary: false,
    binaryOldPath: undefined,
    binaryNewPath: undefined,
  };
}

function sidePath(raw: string, prefix: 'a/' | 'b/'): string | null {
  if (raw === '/dev/null') return null;
  return stripPrefix(readPathToken(raw), prefix);
}

/** "Binary files a/x and b/y differ": split on " and " where both halves read as paths. */
function readBinaryLine(header: FileHeader, line: string): void {
  header.binary = true;
  const body = line.slice('Binary files '.length, line.length - ' differ'.length);
  if (body.startsWith('"')) {
    const first = unquoteCPath(body);
    header.binaryOldPath = stripPrefix(first.value, 'a/');
    header.binaryNewPath = sidePath(body.slice(first.end + ' and '.length), 'b/');
    return;
  }
  const options: number[] = [];
  for (let at = body.indexOf(' and '); at >= 0; at = body.indexOf(' and ', at + 1)) options.push(at);
  // Prefer the split whose halves name the same file (the common, non-rename case).
  const pick =
    options.find((at) => stripPrefix(body.slice(0, at), 'a/') === stripPrefix(body.slice(at + 5), 'b/')) ??
    options.find((at) => /^(a\/|\/dev\/null)/.test(body.slice(0, at)) && /^(b\/|\/dev\/null|")/.test(body.slice(at + 5)));
  if (pick === undefined) return;
  header.binaryOldPath = sidePath(body.slice(0, pick), 'a/');
  header.binaryNewPath = sidePath(body.slice(pick + 5), 'b/');
}

/** Apply one extended header line; returns false when the line is not a header line. */
function readHeaderLine(header: FileHeader, line: string): boolean {
  const match = /^(old mode|new mode|new file mode|deleted file mode|rename from|rename to|copy from|copy to|similarity index|dissimilarity index|index|---|\+\+\+) (.*)$/.exec(line);
  if (!match) {
    if (line.startsWith('Binary files ') && line.endsWith(' differ')) {
      readBinaryLine(header, line);
      return true;
    }
    return false;
  }
  const key = match[1] as string;
  const value = match[2] as string;
  switch (key) {
    case 'old mode':
      header.oldMode = value;
      break;
    case 'new mode':
      header.newMode = value;
      break;
    case 'new file mode':
      header.created = true;
      header.newMode = value;
      break;
    case 'deleted file mode':
      header.deleted = true;
      header.oldMode = value;
      break;
    case 'rename from':
      header.renameFrom = readPathToken(value);
      break;
    case 'rename to':
      header.renameTo = readPathToken(value);
      break;
    case 'copy from':
      header.copyFrom = readPathToken(value);
      break;
    case 'copy to':
      header.copyTo = readPathToken(value);
      break;
    case 'similarity index':
      header.similarity = parseInt(value, 10);
      break;
    case 'dissimilarity index':
      break;
    case 'index': {
      // "index <old>..<new> <mode>": the mode is present when it did not change.
      const mode = /^\S+\.\.\S+ (\d+)$/.exec(value)?.[1];
      if (mode !== undefined) {
        header.oldMode ??= mode;
        header.newMode ??= mode;
      }
      break;
    }
    case '---':
      header.minusPath = sidePath(value, 'a/');
      break;
    case '+++':
      header.plusPath = sidePath(value, 'b/');
      break;
  }
  return true;
}

/** Translate parse-diff's chunks of one file into our hunks, folding the no-newline markers in. */
function readHunks(body: string[]): Hunk[] {
  if (body.length === 0) return [];
  const hunks: Hunk[] = [];
  for (const parsed of parseDiff(body.join('\n'))) {
    for (const chunk of parsed.chunks) {
      const lines: DiffLine[] = [];
      for (const change of chunk.changes) {
        if (change.content.startsWith('\\')) {
          // parse-diff repeats the previous change for the marker line; we flag that line instead.
          const previous = lines[lines.length - 1];
          if (previous) previous.noNewlineAtEnd = true;
          continue;
        }
        const text = change.content.slice(1);
        if (change.type === 'add') lines.push({ kind: 'add', text, oldLine: null, newLine: change.ln, noNewlineAtEnd: false });
        else if (change.type === 'del') lines.push({ kind: 'del', text, oldLine: change.ln, newLine: null, noNewlineAtEnd: false });
        else lines.push({ kind: 'context', text, oldLine: change.ln1, newLine: change.ln2, noNewlineAtEnd: false });
      }
      hunks.push({
        oldStart: chunk.oldStart,
        oldLines: chunk.oldLines,
        newStart: chunk.newStart,
        newLines: chunk.newLines,
        header: chunk.content,
        lines,
      });
    }
  }
  return hunks;
}

function finishFile(header: FileHeader, body: string[]): DiffFile {
  const renamed = header.renameFrom !== null || header.renameTo !== null;
  const copied = header.copyFrom !== null || header.copyTo !== null;
  const oldSide =
    header.renameFrom ?? header.copyFrom ?? (header.minusPath !== undefined ? header.minusPath : undefined) ?? header.binaryOldPath ?? header.gitOld;
  const newSide =
    header.renameTo ?? header.copyTo ?? (header.plusPath !== undefined ? header.plusPath : undefined) ?? header.binaryNewPath ?? header.gitNew;
  const deleted = header.deleted || (header.minusPath !== undefined && header.plusPath === null);
  const created = header.created || (header.plusPath !== undefined && header.minusPath === null);
  const hunks = readHunks(body);
  const path = (deleted ? oldSide : newSide) ?? oldSide ?? newSide ?? '';

  let status: FileStatus;
  if (renamed) status = 'renamed';
  else if (copied) status = 'copied';
  else if (created) status = 'added';
  else if (deleted) status = 'deleted';
  else if (hunks.length === 0 && header.oldMode !== null && header.newMode !== null && header.oldMode !== header.newMode) status = 'mode-only';
  else status = 'modified';

  return {
    path,
    oldPath: renamed || copied ? (oldSide ?? null) : null,
    status: header.binary ? 'binary' : status,
    statusBehindBinary: header.binary ? status : null,
    isSubmodule: header.oldMode === SUBMODULE_MODE || header.newMode === SUBMODULE_MODE,
    oldMode: header.oldMode,
    newMode: header.newMode,
    hunks,
    similarity: header.similarity,
  };
}

/**
 * Parse the output of `git diff` (as produced by `readChange`: a/ b/ prefixes, no colour) into files.
 * Text that does not start with `diff --git` lines (a plain `diff -u`) yields no files.
 */
export function parseUnifiedDiff(text: string): DiffFile[] {
  const files: DiffFile[] = [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  let header: FileHeader | null = null;
  let body: string[] = [];
  let inBody = false;
  let inBinaryPatch = false;
  for (const line of lines) {
    // Every hunk line starts with ' ', '+', '-' or '\', so a "diff --git" line is always a file boundary.
    if (line.startsWith('diff --git ')) {
      if (header) files.push(finishFile(header, body));
      header = emptyHeader(line);
      body = [];
      inBody = false;
      inBinaryPatch = false;
      continue;
    }
    if (!header || inBinaryPatch) continue;
    if (inBody) {
      body.push(line);
      continue;
    }
    if (line.startsWith('@@ ')) {
      inBody = true;
      body.push(line);
      continue;
    }
    if (line === 'GIT binary patch') {
      header.binary = true;
      inBinaryPatch = true;
      continue;
    }
    readHeaderLine(header, line);
  }
  if (header) files.push(finishFile(header, body));
  return files;
}

/** New line number → text of every added line of a file. */
export function addedLines(file: DiffFile): Map<number, string> {
  const added = new Map<number, string>();
  for (const hunk of file.hunks) {
    for (const line of hunk.lines) if (line.kind === 'add' && line.newLine !== null) added.set(line.newLine, line.text);
  }
  return added;
}

/** New-file line numbers the change added or modified (a modification shows as a deletion plus an addition). */
export function changedLineNumbers(file: DiffFile): Set<number> {
  return new Set(addedLines(file).keys());
}

/**
 * New-side lines a diff touches: every added line, and for a pure deletion the new-side line where the
 * removed lines were (a deleted check touches the function it was in).
 */
/**
 * The lines a change removed, each with the new-side line where it stood (the next line that stayed,
 * or the last one of the hunk): what the prover reads to say that a change took a check away.
 */
export function removedLines(file: DiffFile): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  for (const hunk of file.hunks) {
    let pending: string[] = [];
    let lastNew = Math.max(1, hunk.newStart);
    for (const line of hunk.lines) {
      if (line.kind === 'del') pending.push(line.text);
      if (line.newLine !== null) {
        for (const text of pending) out.push({ line: line.newLine, text });
        pending = [];
        lastNew = line.newLine;
      }
    }
    for (const text of pending) out.push({ line: lastNew, text });
  }
  return out;
}

export function touchedLines(file: DiffFile): Set<number> {
  const lines = new Set<number>();
  for (const hunk of file.hunks) {
    let lastNew = Math.max(1, hunk.newStart);
    let pendingDeletion = false;
    for (const line of hunk.lines) {
      if (line.kind === 'add' && line.newLine !== null) lines.add(line.newLine);
      if (line.kind === 'del') pendingDeletion = true;
      if (line.newLine !== null) {
        if (pendingDeletion) {
          lines.add(line.newLine);
          if (lastNew < line.newLine) lines.add(lastNew);
          pendingDeletion = false;
        }
        lastNew = line.newLine;
      }
    }
    if (pendingDeletion) lines.add(lastNew);
  }
  return lines;
}


/**
 * True when any new-side line of `start..end` (inclusive) was added or modified by the change. An
 * `end` before `start` means the single line `start`. A finding spanning a changed line belongs to
 * the change even when its first line did not change.
 */
export function touchesChangedLines(file: DiffFile, start: number, end: number): boolean {
  const last = Math.max(start, end);
  for (const line of changedLineNumbers(file)) if (line >= start && line <= last) return true;
  return false;
}

/**
 * The file as if the change added every line of `text`: for a file whose base side was never reviewed
 * (excluded, binary, minified), so lines git shows as unchanged context are new to the review.
 */
export function asWholeAddition(file: DiffFile, text: string): DiffFile {
  const lines = text.split('\n');
  const endsWithNewline = lines.length > 1 && lines[lines.length - 1] === '';
  if (endsWithNewline) lines.pop();
  const added: DiffLine[] = lines.map((line, i) => ({
    kind: 'add',
    text: line,
    oldLine: null,
    newLine: i + 1,
    noNewlineAtEnd: !endsWithNewline && i === lines.length - 1,
  }));
  const hunk: Hunk = { oldStart: 0, oldLines: 0, newStart: 1, newLines: added.length, header: `@@ -0,0 +1,${added.length} @@`, lines: added };
  return { ...file, hunks: added.length === 0 ? [] : [hunk] };
}
