/**
 * What the review does with each changed file (SPEC 2): review it in full, list it as data or as having
 * no content to review, list it as excluded by the base revision's configuration, or list it as not
 * reviewed, which makes the review incomplete. Git's diff text never decides this: binary is git's
 * content rule applied by jscr to the bytes, and a file git's diff called binary whose content is text
 * is diffed again as text, so its added lines are known.
 */
import { unsafePathReason } from '../repo-path.js';
import picomatch from 'picomatch';
import type { HiddenByIndex, RawChange } from '../git/change.js';
import { asWholeAddition, type DiffFile } from '../git/diff.js';
import { diffAgainAsText } from '../git/text-diff.js';
import { decodeSource, type BytesRead, type SourceReader } from '../git/sources.js';
import { isBinaryContent } from '../policy/paths.js';
import type { LinguistMarks } from '../git/attributes.js';
import { binaryStrings } from './binary-strings.js';
import { fileTypeOfFile } from '../languages/registry.js';
import { respelledName } from '../languages/identifier-spelling.js';
import { binaryKind, declaredEncodingReason, hiddenLineBreakReason, isCodePath, isLfsPointer, mayBeDataByName, minifiedReason, textDataKind, type DataKind } from './file-kinds.js';

/** The state of one changed file in the report. */
type CoverageClass = 'reviewed' | 'no_content' | 'data' | 'excluded' | 'not_reviewed';

export interface CoveredFile {
  diff: DiffFile;
  class: CoverageClass;
  /** The new text, for a reviewed file only. */
  text: string | null;
  /** The data kind, for `data` files. */
  kind: DataKind | null;
  /** Why the file is not reviewed in full (null for a reviewed file): starts with a short code such as `too_large`. */
  reason: string | null;
  /**
   * What the secret detector reads of a data file, which nothing else reads: a lock file's or source
   * map's text, or the printable strings of binary content (binary-strings.ts). Null for other classes.
   */
  secretText?: { text: string; binary: boolean } | null;
}

export interface CoverageInput {
  root: string;
  change: RawChange;
  diffFiles: DiffFile[];
  /** Reads the new side of the change. */
  reader: SourceReader;
  /** Reads the base side (null when there is no base commit: every file is new anyway). */
  baseReader: SourceReader | null;
  /** `review.exclude` and `review.max_file_bytes` of the configuration in force (the base's). */
  exclude: readonly string[];
  maxFileBytes: number;
  /** linguist marks of the base revision's `.gitattributes`. */
  marks: LinguistMarks;
  /** Working-tree files git's diff passes over on the index's word (assume-unchanged, skip-worktree). */
  hiddenByIndex: readonly HiddenByIndex[];
}

/**
 * Data files are read whole up to this size to test their shape; a larger file named like one is not
 * reviewed (its shape is unknown). A far larger limit than code, since lock files are routinely huge,
 * and small enough that parsing one stays well inside Node's heap.
 */
const DATA_MAX_BYTES = 100 * 1024 * 1024;

/** How to take vendored or generated paths out of the review, said wherever a file is not reviewed. */
/**
 * How to exclude this file if it is vendored or generated: its own folder (a bundle's neighbours are
 * usually tool output too), or the file itself at the root, as a TOML string the user can paste.
 */
function excludeHint(path: string): string {
  const slash = path.lastIndexOf('/');
  return `if it is vendored or generated, ${excludeSetting(slash > 0 ? `${path.slice(0, slash)}/**` : path)}`;
}

/** The `review.exclude` line for one glob, quoted for TOML (a JSON string is a TOML basic string). */
function excludeSetting(glob: string): string {
  return `set review.exclude = [${JSON.stringify(glob)}] in .jscr.toml on the base branch`;
}

const SYMLINK_MODE = '120000';
const EXECUTABLE_MODE = '100755';

interface ExcludeGlob {
  glob: string;
  test: (path: string) => boolean;
}

/** Decide every changed file's state; the returned diff files replace the given ones (some diffed again as text). */
export async function decideCoverage(input: CoverageInput): Promise<CoveredFile[]> {
  const excludeGlobs = input.exclude.map((glob) => ({ glob, test: picomatch(glob, { dot: true }) }));
  const decided = new Map<DiffFile, CoveredFile>();
  const toRead: DiffFile[] = [];
  const hiddenPaths = new Map(input.hiddenByIndex.map((h) => [h.path, h.reason]));
  const diffFiles = [...input.diffFiles, ...input.hiddenByIndex.filter((h) => !input.diffFiles.some((d) => d.path === h.path)).map((h) => unseenFile(h.path))];
  for (const diff of diffFiles) {
    const hiddenReason = hiddenPaths.get(diff.path);
    const early = hiddenReason === undefined ? withoutReading(diff, excludeGlobs, input.marks) : covered(diff, 'not_reviewed', hiddenReason);
    if (early !== null) decided.set(diff, early);
    else toRead.push(diff);
  }
  // Files that may be data are read one at a time, so only one large lock file is in memory at once.
  const byName = toRead.filter((d) => mayBeDataByName(d.path));
  const reads = await input.reader.readBytes(
    toRead.filter((d) => !mayBeDataByName(d.path)).map((d) => d.path),
    () => input.maxFileBytes,
  );
  for (const diff of byName) {
    const read = (await input.reader.readBytes([diff.path], () => Math.max(DATA_MAX_BYTES, input.maxFileBytes))).get(diff.path);
    decided.set(diff, fromContent(diff, read, input.maxFileBytes));
  }
  for (const diff of toRead) if (!decided.has(diff)) decided.set(diff, fromContent(diff, reads.get(diff.path), input.maxFileBytes));

  // Text that git's diff showed as "Binary files differ": its diff again, with every file as text.
  const hidden = toRead.filter((d) => d.status === 'binary' && decided.get(d)?.class === 'reviewed');
  for (const [diff, redone] of await diffAgainAsText(input.root, input.change, hidden)) {
    const covered = decided.get(diff) as CoveredFile;
    decided.set(
      diff,
      redone === null ? { ...covered, class: 'not_reviewed', text: null, reason: 'unreadable: git would not show the changes of this text file' } : { ...covered, diff: redone },
    );
  }
  for (const [diff, state] of decided) {
    const grammar = state.class === 'reviewed' && state.text !== null ? fileTypeOfFile(diff.path, state.text)?.grammar : undefined;
    const respelled = grammar === undefined || grammar === null ? null : await respelledName(grammar, diff.path, state.text as string);
    if (respelled !== null) decided.set(diff, covered(diff, 'not_reviewed', `${respelled.code}: ${respelled.detail}; ${excludeHint(diff.path)}`));
  }
  await reviewUnreviewedBaseInFull(input, excludeGlobs, decided);
  return diffFiles.map((d) => decided.get(d) as CoveredFile);
}

/** A changed file git's diff did not show at all (no hunks to go by). */
function unseenFile(path: string): DiffFile {
  return { path, oldPath: null, status: 'modified', statusBehindBinary: null, isSubmodule: false, oldMode: null, newMode: null, hunks: [], similarity: null };
}

/**
 * A reviewed file whose base side the review never read line by line (excluded by the base
 * configuration, binary, minified, too large, data, unreadable) has no reviewed "unchanged" lines: a
 * rename out of `vendor/` or a NUL byte removed from a binary file would otherwise pass its old content
 * as context. Such a file is reviewed as if the change added all of it.
 */
async function reviewUnreviewedBaseInFull(input: CoverageInput, excludeGlobs: ExcludeGlob[], decided: Map<DiffFile, CoveredFile>): Promise<void> {
  const withBase = [...decided.entries()].filter(([, f]) => f.class === 'reviewed' && f.text !== null && hasBaseSide(f.diff));
  if (withBase.length === 0) return;
  const basePath = (f: CoveredFile): string => f.diff.oldPath ?? f.diff.path;
  const reads = input.baseReader === null ? new Map<string, BytesRead>() : await input.baseReader.readBytes(withBase.map(([, f]) => basePath(f)), () => input.maxFileBytes);
  for (const [key, file] of withBase) {
    const path = basePath(file);
    const baseDiff: DiffFile = { ...file.diff, path, oldPath: null, newMode: file.diff.oldMode };
    const baseState = withoutReading(baseDiff, excludeGlobs, input.marks) ?? fromContent(baseDiff, reads.get(path), input.maxFileBytes);
    if (baseState.class !== 'reviewed') decided.set(key, { ...file, diff: asWholeAddition(file.diff, file.text as string) });
  }
}

/** True when git compared the file with a base version (not an added file). */
function hasBaseSide(diff: DiffFile): boolean {
  return diff.status !== 'added' && diff.statusBehindBinary !== 'added';
}

function covered(diff: DiffFile, cls: CoverageClass, reason: string | null, kind: DataKind | null = null, text: string | null = null): CoveredFile {
  return { diff, class: cls, text, kind, reason };
}

/** The files whose state is known from the change and the base configuration alone. */
function withoutReading(diff: DiffFile, excludeGlobs: ExcludeGlob[], marks: LinguistMarks): CoveredFile | null {
  // A name that is not a plain relative path is data, never joined to a folder: not reviewed.
  const unsafe = unsafePathReason(diff.path) ?? (diff.oldPath === null ? null : unsafePathReason(diff.oldPath));
  if (unsafe !== null) return covered(diff, 'not_reviewed', `unsafe_path: ${unsafe}`);
  if (diff.status === 'deleted' || diff.statusBehindBinary === 'deleted') return covered(diff, 'no_content', 'deleted');
  if (diff.newMode === SYMLINK_MODE) return covered(diff, 'no_content', 'a symlink: never read or followed');
  const glob = excludeGlobs.find((g) => g.test(diff.path));
  if (glob !== undefined) return covered(diff, 'excluded', `excluded: review.exclude "${glob.glob}" of the base configuration`);
  const mark = marks.markOf(diff.path);
  if (mark !== null) return covered(diff, 'excluded', `excluded: ${mark.mark} in the base revision's ${mark.file}`);
  // A submodule pointer moved: the code it now names lives in another repository, which this review
  // cannot read. That is code not looked at, unless the base configuration excludes the path.
  if (diff.isSubmodule) {
    return covered(diff, 'not_reviewed', `submodule: the commit it now points at is another repository's code, not reviewed here; to accept submodule bumps, ${excludeSetting(diff.path)}`);
  }
  return null;
}

/** A read file's state from its bytes. */
function fromContent(diff: DiffFile, read: BytesRead | undefined, maxFileBytes: number): CoveredFile {
  if (read === undefined) return covered(diff, 'not_reviewed', 'unreadable: not read');
  if (!read.ok && read.reason !== 'too_large') return covered(diff, 'not_reviewed', `${read.reason}: ${read.detail}`);
  const head = read.ok ? read.bytes : read.head;
  // A script with a `#!` line is code whatever its name (a shell runs it past a NUL on a later line), and
  // so is an executable file: bash runs one without a `#!` line as a script when only a later line has a NUL.
  const code = isCodePath(diff.path) || diff.newMode === EXECUTABLE_MODE || (head[0] === 0x23 && head[1] === 0x21);
  if (!read.ok && head.length === 0) return covered(diff, 'not_reviewed', `unreadable: the start of a ${read.size}-byte file could not be read`);
  if (isBinaryContent(head)) {
    if (code) return covered(diff, 'not_reviewed', `binary: content with NUL bytes in a code file (a source-code name, the executable mode or a #! line; git's rule: a NUL in the first 8,000 bytes); ${excludeHint(diff.path)}`);
    const { kind, format } = binaryKind(head);
    // Binary data is reviewed with nothing to review (SPEC); searching its strings for secrets is an
    // extra that needs all of it, so a larger one says it was not searched rather than failing the review.
    if (!read.ok) return covered(diff, 'data', `${format === null ? 'binary content' : `${kind} (${format})`} of ${read.size} bytes: nothing to review line by line; over review.max_file_bytes (${maxFileBytes}), its strings were not searched for secrets`, kind);
    const reason = format === null ? 'binary content: nothing to review line by line' : `${kind} (${format}): nothing to review line by line`;
    return { ...covered(diff, 'data', reason, kind), secretText: { text: binaryStrings(read.bytes), binary: true } };
  }
  if (!read.ok) return covered(diff, 'not_reviewed', `too_large: ${read.size} bytes, over review.max_file_bytes (${maxFileBytes}); ${excludeHint(diff.path)}`);
  const text = decodeSource(read.bytes) as string;
  // A checkout with LFS puts on disk what the server holds, not these lines: code there was not read.
  if (isLfsPointer(text)) {
    if (code) return covered(diff, 'not_reviewed', `lfs_pointer: a Git LFS pointer; the code it stands for lives on an LFS server, outside the repository, and was not reviewed; ${excludeHint(diff.path)}`);
    return covered(diff, 'data', 'lfs pointer: a Git LFS pointer; its content lives on an LFS server, outside the repository, and was not read', 'lfs pointer');
  }
  const dataKind = textDataKind(diff.path, text);
  if (dataKind !== null) return { ...covered(diff, 'data', `${dataKind}: nothing to review line by line`, dataKind), secretText: { text, binary: false } };
  if (read.bytes.length > maxFileBytes) return covered(diff, 'not_reviewed', `too_large: ${read.bytes.length} bytes, over review.max_file_bytes (${maxFileBytes}); ${excludeHint(diff.path)}`);
  const minified = code ? minifiedReason(text) : null;
  if (minified !== null) return covered(diff, 'not_reviewed', `${minified}: tool-written code is not reviewed line by line; ${excludeHint(diff.path)}`);
  const readOtherwise = hiddenLineBreakReason(diff.path, text) ?? declaredEncodingReason(diff.path, text);
  if (readOtherwise !== null) return covered(diff, 'not_reviewed', `${readOtherwise}; ${excludeHint(diff.path)}`);
  return covered(diff, 'reviewed', null, null, text);
}

/** One entry of the report's `skipped_files`: every changed file not reviewed in full, with its class. */
export interface SkippedFile {
  path: string;
  class: Exclude<CoverageClass, 'reviewed'>;
  kind?: DataKind;
  reason: string;
}

export function skippedFiles(files: readonly CoveredFile[]): SkippedFile[] {
  return files.flatMap((f) =>
    f.class === 'reviewed' ? [] : [{ path: f.diff.path, class: f.class, ...(f.kind === null ? {} : { kind: f.kind }), reason: f.reason ?? f.class }],
  );
}
