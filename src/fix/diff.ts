/**
 * A unified diff of one spliced file, for `jscr fix` without `--accept-model`. A proposal changes one
 * run of lines, so the diff is the common head and tail of the two versions and one hunk between them,
 * with three lines of context.
 */
import { lineBody, splitLines } from '../guard/lines.js';

const CONTEXT_LINES = 3;

/** `--- a/path` / `+++ b/path` and one hunk; empty when the two texts are equal. */
export function unifiedDiff(path: string, before: string, after: string): string {
  if (before === after) return '';
  const a = splitLines(before);
  const b = splitLines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;

  const start = Math.max(0, head - CONTEXT_LINES);
  const aEnd = Math.min(a.length, a.length - tail + CONTEXT_LINES);
  const bEnd = Math.min(b.length, b.length - tail + CONTEXT_LINES);
  const out: string[] = [`--- a/${path}`, `+++ b/${path}`, `@@ -${range(start, aEnd - start)} +${range(start, bEnd - start)} @@`];
  const emit = (mark: string, line: string): void => {
    out.push(`${mark}${lineBody(line)}`);
    if (!line.endsWith('\n')) out.push('\\ No newline at end of file');
  };
  for (let k = start; k < head; k++) emit(' ', a[k] ?? '');
  for (let k = head; k < a.length - tail; k++) emit('-', a[k] ?? '');
  for (let k = head; k < b.length - tail; k++) emit('+', b[k] ?? '');
  for (let k = a.length - tail; k < aEnd; k++) emit(' ', a[k] ?? '');
  return `${out.join('\n')}\n`;
}

/** A hunk range: `start,count` with 1-based start (an empty side starts at the line before it). */
function range(start: number, count: number): string {
  if (count === 0) return `${start},0`;
  return count === 1 ? `${start + 1}` : `${start + 1},${count}`;
}
