/**
 * Which changed files are reviewed: each is reviewed in full, excluded by the base's configuration,
 * listed as data, or not reviewed, and a file not reviewed makes the review incomplete (docs/coverage.md).
 * Listed in the report only then; a review that read every file has nothing to say here.
 */
import { filesHiddenByIndexFlags } from '../../git/change.js';
import { changedLineNumbers, type DiffFile } from '../../git/diff.js';
import { readLinguistMarks } from '../../git/attributes.js';
import { decideCoverage, type CoveredFile } from '../coverage.js';
import { incomplete, ran, result, type ReviewStep, type StepRun } from './step.js';

/** A changed file that is reviewed, with its changed (added) line numbers worked out once. */
export type ReadableFile = CoveredFile & { text: string; changedLines: Set<number> };

export interface ReadFiles {
  /** Every changed file with its coverage class. */
  changedFiles: CoveredFile[];
  /** The diff of every changed file, as coverage settled it (some are diffed again as text). */
  diffFiles: DiffFile[];
  /** The files reviewed in full, in diff order. */
  readable: ReadableFile[];
  readableByPath: ReadonlyMap<string, ReadableFile>;
}

/** The lines of `file` a scanner looks at: all of them with `review.scope = "changed-files"`. */
export function scanLinesFor(file: ReadableFile, run: StepRun): Set<number> | 'all' {
  return run.change.config.review.scope === 'changed-files' ? 'all' : file.changedLines;
}

export const readFilesStep: ReviewStep<'read_files', unknown, ReadFiles> = {
  name: 'read_files',
  timing: 'always',
  listed: 'when_incomplete',
  run: async (_input, { change }) => {
    const { config, raw } = change;
    const changedFiles = await decideCoverage({
      root: change.root,
      change: raw,
      diffFiles: change.diffFiles,
      reader: change.reader,
      baseReader: change.baseReader,
      exclude: config.review.exclude,
      maxFileBytes: config.review.max_file_bytes,
      marks: await readLinguistMarks(change.baseReader),
      hiddenByIndex: raw.kind === 'working-tree' ? await filesHiddenByIndexFlags(change.root) : [],
    });
    const readable: ReadableFile[] = changedFiles.flatMap((f) => (f.class === 'reviewed' && f.text !== null ? [{ ...f, text: f.text, changedLines: changedLineNumbers(f.diff) }] : []));
    const output: ReadFiles = { changedFiles, diffFiles: changedFiles.map((f) => f.diff), readable, readableByPath: new Map(readable.map((f) => [f.diff.path, f])) };
    const unread = changedFiles.filter((f) => f.class === 'not_reviewed');
    if (unread.length === 0) return result(ran(`${readable.length} file(s) reviewed`), output);
    const named = unread.slice(0, 5).map((f) => `${f.diff.path} (${f.reason ?? ''})`).join('; ');
    return result(incomplete('failed', `${unread.length} changed file(s) not reviewed: ${named}${unread.length > 5 ? '; ...' : ''}`), output);
  },
};
