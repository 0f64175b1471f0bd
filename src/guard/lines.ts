/**
 * The one line splitter. The fix command's prompt numbers lines with it and the guard splices with
 * it, so a line number means the same thing to the model, the guard and the write (seed D8).
 */

/**
 * Split text into lines, each keeping its line ending. Only `\n` ends a line (a `\r\n` ending stays
 * whole on its line), which is how git and tree-sitter count lines. Empty text has no lines; text
 * without a final line break has a last line without an ending.
 */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (;;) {
    const newline = text.indexOf('\n', start);
    if (newline < 0) break;
    lines.push(text.slice(start, newline + 1));
    start = newline + 1;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

/** A line without its line ending. */
export function lineBody(line: string): string {
  return line.replace(/\r?\n$/, '');
}

/** The line ending a line carries (`\r\n`, `\n` or none). */
export function lineEnding(line: string): string {
  return line.endsWith('\r\n') ? '\r\n' : line.endsWith('\n') ? '\n' : '';
}
