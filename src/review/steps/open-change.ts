/**
 * Steps 1-3 (boundary, read_change, parse_diff) and the base's configuration. They come before the
 * step log exists because the deadline's length is in that configuration; the deadline still counts
 * from the start of the run, so a huge diff uses it up too. Each of the three records times itself.
 */
import { loadConfig, type JscrConfig } from '../../config/index.js';
import { configTextAtRevision } from '../../git/config-at-revision.js';
import { readChange, resolveRepository, untrackedFiles, type ChangeSpec, type RawChange } from '../../git/change.js';
import { parseUnifiedDiff, type DiffFile } from '../../git/diff.js';
import { createSourceReader, type SourceReader } from '../../git/sources.js';
import { openBoundary, type RepoBoundary } from '../../policy/paths.js';
import type { StepResult } from './step.js';

export interface OpenChangeInput {
  /** Any directory inside the repository. */
  repoDir: string;
  change: ChangeSpec;
  /** `--config FILE`, overriding the base revision's `.jscr.toml`. */
  configPath?: string;
}

/** The change under review, as every later step sees it. */
export interface OpenedChange {
  root: string;
  raw: RawChange;
  /** Every file of the diff, parsed. */
  diffFiles: DiffFile[];
  config: JscrConfig;
  /** Where the configuration came from (an absolute path), or null for the defaults. */
  configSource: string | null;
  boundary: RepoBoundary;
  /** Reads the reviewed revision's files. */
  reader: SourceReader;
  /** Reads the base revision's files; null when there is no base commit. */
  baseReader: SourceReader | null;
  /** Untracked files of a working-tree review (not part of the change). */
  untracked: string[];
}

export const openChangeStep = {
  name: 'boundary',
  /** Open the change. A directory that is not in a repository, or a bad revision, is exit 2 (GitError). */
  async run(input: OpenChangeInput): Promise<StepResult<OpenedChange>> {
    const startedAt = Date.now();
    const root = await resolveRepository(input.repoDir);
    // git only: nothing else in the repository is read yet
    const raw = await readChange(root, input.change);
    const readAt = Date.now();
    const diffFiles = parseUnifiedDiff(raw.diffText);
    const parsedAt = Date.now();
    // The configuration of the base, so the change cannot weaken its own review (SPEC 3).
    const { config, source: configSource } = await loadConfig({
      repoRoot: root,
      ...(input.configPath === undefined ? {} : { configPath: input.configPath }),
      // No base revision (a root commit, a repository with no commits): the defaults, never the
      // working tree's file, which may be part of the change itself.
      baseText: raw.baseRev === null ? null : await configTextAtRevision(root, raw.baseRev),
    });
    const followSymlinks = config.repository.follow_symlinks;
    const boundary = await openBoundary(root, { followSymlinks });
    const boundaryMs = Date.now() - parsedAt;
    // `git diff HEAD` leaves untracked files out; say so, or a new file's review would read as clean.
    const untracked = raw.kind === 'working-tree' ? await untrackedFiles(root) : [];
    const maxFileBytes = config.review.max_file_bytes;
    const reader = createSourceReader({ root, boundary, source: sourceFor(raw), maxFileBytes, followSymlinks });
    const baseReader = raw.baseRev === null ? null : createSourceReader({ root, boundary, source: { kind: 'revision', rev: raw.baseRev }, maxFileBytes, followSymlinks });
    const untrackedNote = untracked.length > 0 ? `; ${untracked.length} untracked file(s) not part of the change (git add them to review them)` : '';
    return {
      status: 'ran',
      detail: `root .; symlinks ${followSymlinks ? 'followed inside the root' : 'refused'}`,
      incomplete: false,
      durationMs: boundaryMs,
      output: { root, raw, diffFiles, config, configSource, boundary, reader, baseReader, untracked },
      findings: [],
      followedBy: [
        { name: 'read_change', status: 'ran', detail: `${raw.kind} ${raw.range}${untrackedNote}`, incomplete: false, durationMs: readAt - startedAt },
        { name: 'parse_diff', status: 'ran', detail: `${diffFiles.length} file(s)`, incomplete: false, durationMs: parsedAt - readAt },
      ],
    };
  },
} as const;

function sourceFor(raw: RawChange): Parameters<typeof createSourceReader>[0]['source'] {
  if (raw.kind === 'staged') return { kind: 'index' };
  if (raw.kind === 'working-tree' || raw.headRev === null) return { kind: 'worktree' };
  return { kind: 'revision', rev: raw.headRev };
}
