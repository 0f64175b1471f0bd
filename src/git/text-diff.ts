/**
 * Files git's diff showed as "Binary files ... differ", diffed again with every file as text. What git
 * calls binary is steered by attributes and settings the reviewed repository controls, so callers that
 * found (or expect) text content ask for the real lines here.
 */
import { diffPathsAsText, type RawChange } from './change.js';
import { parseUnifiedDiff, type DiffFile } from './diff.js';

/** The text diff of each given file, by the given object; null when git still gave no text diff for it. */
export async function diffAgainAsText(root: string, change: RawChange, files: readonly DiffFile[]): Promise<Map<DiffFile, DiffFile | null>> {
  const out = new Map<DiffFile, DiffFile | null>();
  if (files.length === 0) return out;
  // Both sides of a rename, so git pairs them again.
  const paths = files.flatMap((f) => (f.oldPath === null ? [f.path] : [f.oldPath, f.path]));
  const again = parseUnifiedDiff(await diffPathsAsText(root, change, paths));
  for (const file of files) out.set(file, again.find((f) => f.path === file.path && f.status !== 'binary') ?? null);
  return out;
}
