/**
 * One prover run over a repository's revisions: the change `base..head` (only what it touched) or the
 * whole repository at `head`, read from git's objects. `jscr prove` and the pool runner both call it, so
 * a measured run judges exactly what a user's run judges.
 */
import { readChange, resolveCommit } from '../git/change.js';
import { configTextAtRevision } from '../git/config-at-revision.js';
import { parseUnifiedDiff, removedLines, touchedLines } from '../git/diff.js';
import { diffAgainAsText } from '../git/text-diff.js';
import { createSourceReader, type SourceReader } from '../git/sources.js';
import { openBoundary } from '../policy/paths.js';
import { loadConfig } from '../config/index.js';
import { languageForPath } from '../syntax/languages.js';
import { proveFromReader } from './source.js';
import { notProvenReason } from './render.js';
import { incompleteDegradationLines, type Degradation } from './degradation.js';
import type { ProveResult } from './types.js';

/** Larger files are skipped (generated code, data) and counted. */
const MAX_FILE_BYTES = 1024 * 1024;

export interface ProveRangeInput {
  /** The repository's top folder (already resolved). */
  root: string;
  /** Called once the configuration is read and valid, before the proof starts (for a progress line). */
  onStart?: () => void;
  /** The base revision of a change, or undefined for the whole repository. */
  base?: string;
  head: string;
  /** Overrides `[prover] max_depth` of the configuration. */
  maxDepth?: number;
  /** `--config FILE`, absolute: used instead of the base revision's `.jscr.toml`. */
  configPath?: string;
  /** Also return what the engine recognised (`jscr facts init`). */
  inventory?: boolean;
}

export interface ProveRangeOutcome {
  result: ProveResult;
  /** The head as a full commit id. */
  head: string;
  /** A file could not be read or proved. */
  incomplete: boolean;
  /** Why the run is incomplete (the first degradation that leaves it so, and how many), or null. */
  incompleteReason: string | null;
  /** Why nothing could be proved (no entry of a known framework), or null. */
  notProven: string | null;
  /** Bytes of each file the prover read, by repository path. */
  filesRead: Map<string, number>;
}

export async function proveRange(input: ProveRangeInput): Promise<ProveRangeOutcome> {
  const { root } = input;
  const head = await resolveCommit(root, input.head);
  const touched = input.base === undefined ? null : await touchedFiles(root, `${input.base}..${head}`);

  // The base revision's configuration (the head's for the whole repository): a change cannot declare its own guards or public entries.
  const { config } = await loadConfig({
    repoRoot: root,
    baseText: await configTextAtRevision(root, input.base ?? head),
    ...(input.configPath === undefined ? {} : { configPath: input.configPath }),
  });
  // the configuration was read and is valid: only now is the run started (a bad file is one error line)
  input.onStart?.();
  const filesRead = new Map<string, number>();
  const reader = recordingReads(
    createSourceReader({
      root,
      boundary: await openBoundary(root, { followSymlinks: false }),
      source: { kind: 'revision', rev: head },
      maxFileBytes: MAX_FILE_BYTES,
      followSymlinks: false,
    }),
    filesRead,
  );
  const { result, incomplete } = await proveFromReader({
    root,
    reader,
    touched,
    maxDepth: input.maxDepth ?? config.prover.max_depth,
    fanOut: config.prover.fan_out,
    declarations: { guards: config.prover.guards, public: config.prover.public },
    exclude: config.review.exclude,
    // A change of a large repository is proved over the files it needs, as the review proves it (SCOPE_FROM_BYTES).
    scoped: true,
    ...(input.inventory === true ? { inventory: true } : {}),
  });
  return { result, head, incomplete, incompleteReason: incomplete ? incompleteReasonOf(result.degradations) : null, notProven: notProvenReason(result), filesRead };
}

/** One line for a record: the first reason and how many more, so a pool record says why it is incomplete. */
function incompleteReasonOf(degradations: readonly Degradation[]): string {
  const lines = incompleteDegradationLines(degradations);
  if (lines.length === 0) return 'the scoped selection met a bound';
  return lines.length === 1 ? (lines[0] ?? '') : `${lines[0] ?? ''} (and ${lines.length - 1} more)`;
}

async function touchedFiles(root: string, range: string): Promise<{ path: string; lines: Set<number>; removed: { line: number; text: string }[] }[]> {
  const change = await readChange(root, { kind: 'range', range });
  const files = parseUnifiedDiff(change.diffText);
  // Git's "Binary files differ" is no verdict (attributes in the change can ask for it): code files get their text diff.
  const redone = await diffAgainAsText(root, change, files.filter((f) => f.status === 'binary' && f.statusBehindBinary !== 'deleted' && languageForPath(f.path) !== null));
  return files
    .map((f) => redone.get(f) ?? f)
    .filter((f) => f.status !== 'deleted' && f.status !== 'binary' && !f.isSubmodule)
    .map((f) => ({ path: f.path, lines: touchedLines(f), removed: removedLines(f) }));
}

/**
 * The same reader, noting the size of every file read whole: a run is judged by what it actually read.
 * The other methods are inherited, so a method the reader gains later needs no change here.
 */
function recordingReads(reader: SourceReader, filesRead: Map<string, number>): SourceReader {
  const recording = Object.create(reader) as SourceReader;
  recording.readMany = async (paths) => {
    const reads = await reader.readMany(paths);
    for (const [path, read] of reads) if (read.ok) filesRead.set(path, Buffer.byteLength(read.text));
    return reads;
  };
  recording.readBytes = async (paths, maxBytesFor) => {
    const reads = await reader.readBytes(paths, maxBytesFor);
    for (const [path, read] of reads) if (read.ok) filesRead.set(path, read.bytes.length);
    return reads;
  };
  return recording;
}
