/**
 * What a model would be shown: the context bundle and the diff hunks, as segments that keep their
 * new-file line numbers so a model finding can be anchored to a real line. Everything here passes the
 * redaction step before it may leave the machine.
 */
import type { DiffFile } from '../git/diff.js';
import type { ModelSegment } from '../model/index.js';
import type { SourceReader } from '../git/sources.js';
import type { ContextBundle } from './context-bundle.js';

/** Segments in a stable order: context files in bundle order, then every file's hunks. */
export function assembleMaterial(context: ContextBundle, diffs: readonly DiffFile[], excluded: ReadonlySet<string> = new Set()): ModelSegment[] {
  const segments: ModelSegment[] = [];
  for (const file of context.files) {
    if (excluded.has(file.path)) continue;
    if (file.spans) {
      const lines = file.text.split('\n');
      let offset = 0;
      for (const span of file.spans) {
        const count = span.end - span.start + 1;
        segments.push({ path: file.path, startLine: span.start, text: lines.slice(offset, offset + count).join('\n'), kind: 'context' });
        offset += count;
      }
    } else {
      segments.push({ path: file.path, startLine: 1, text: file.text, kind: 'context' });
    }
  }
  for (const diff of diffs) {
    if (excluded.has(diff.path)) continue;
    for (const hunk of diff.hunks) {
      const body = hunk.lines.map((l) => `${l.kind === 'add' ? '+' : l.kind === 'del' ? '-' : ' '}${l.text}`).join('\n');
      segments.push({ path: diff.path, startLine: hunk.newStart, text: `${hunk.header}\n${body}`, kind: 'hunk' });
    }
  }
  return segments;
}

/**
 * The whole texts the material is cut from, for secret detection before any cutting: each changed
 * file's new text, each context file read whole, and, when `base` is given (a model will be shown the
 * material), each changed file's base text, whose removed lines the hunks carry.
 */
export async function materialSources(
  changed: readonly { diff: DiffFile; text: string }[],
  context: ContextBundle,
  base: SourceReader | null,
): Promise<{ path: string; text: string }[]> {
  const out = changed.map((file) => ({ path: file.diff.path, text: file.text }));
  for (const file of context.files) if (file.spans === null) out.push({ path: file.path, text: file.text });
  if (base === null) return out;
  const old = changed.filter((file) => file.diff.status !== 'added');
  const reads = await base.readMany(old.map((file) => file.diff.oldPath ?? file.diff.path));
  for (const file of old) {
    const read = reads.get(file.diff.oldPath ?? file.diff.path);
    if (read?.ok) out.push({ path: file.diff.path, text: read.text });
  }
  return out;
}
