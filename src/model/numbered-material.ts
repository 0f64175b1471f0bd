/**
 * The material a model is shown, as numbered lines: every line knows its new-file line number (or that
 * it has none: a removed line, a hunk header), so the prompt can show numbers and anchoring can check a
 * quote against exactly what was sent. Material too large for one call is split by file.
 */

/** A piece of material a model is shown: the review assembles it (src/review/material-segments.ts), redacts it, and the model library reads it. */
export interface ModelSegment {
  path: string;
  /** New-file line number of the segment's first line (for a hunk: of its first line after the header). */
  startLine: number;
  /** The lines; the model library is only ever given them redacted. */
  text: string;
  /** `context`: plain lines of the new file; `hunk`: an `@@` header then `+`/`-`/` ` prefixed lines. */
  kind: 'context' | 'hunk';
}

/** One line of material. */
export interface MaterialLine {
  /** New-file line number; null for a removed line or a hunk header. */
  line: number | null;
  /** Diff marker of a hunk line (`+`, `-`, ` `), `@` for a hunk header, `` for a context line. */
  mark: '' | '+' | '-' | ' ' | '@';
  /** The line without its diff marker. */
  text: string;
}

/** A segment split into numbered lines. */
export interface NumberedSegment {
  path: string;
  kind: 'context' | 'hunk';
  lines: MaterialLine[];
}

/** What one model call is shown. */
export interface MaterialChunk {
  segments: NumberedSegment[];
  /** Paths in the chunk, in order of first appearance. */
  paths: string[];
  /** Size of the material lines in bytes (what `model.max_input_bytes` bounds). */
  bytes: number;
}

/** Number the lines of one segment. */
export function numberSegment(segment: ModelSegment): NumberedSegment {
  const raw = segment.text.split('\n');
  const lines: MaterialLine[] = [];
  if (segment.kind === 'context') {
    raw.forEach((text, index) => lines.push({ line: segment.startLine + index, mark: '', text }));
    return { path: segment.path, kind: 'context', lines };
  }
  let next = segment.startLine;
  for (const text of raw) {
    const first = text.charAt(0);
    if (text.startsWith('@@')) {
      lines.push({ line: null, mark: '@', text });
    } else if (first === '+' || first === ' ') {
      lines.push({ line: next, mark: first, text: text.slice(1) });
      next += 1;
    } else if (first === '-') {
      lines.push({ line: null, mark: '-', text: text.slice(1) });
    } else {
      // `\ No newline at end of file` and the like: shown, never numbered.
      lines.push({ line: null, mark: '@', text });
    }
  }
  return { path: segment.path, kind: 'hunk', lines };
}

/** Bytes a line takes in the prompt, gutter included (approximately: the gutter is a few bytes). */
function lineBytes(line: MaterialLine): number {
  return Buffer.byteLength(line.text, 'utf8') + 10;
}

function segmentBytes(segment: NumberedSegment): number {
  return segment.lines.reduce((sum, line) => sum + lineBytes(line), 0);
}

/**
 * Split material into chunks of at most `maxBytes`, keeping each file's segments together when the
 * file fits in one chunk. A file larger than the limit is split between its segments, and a segment
 * larger than the limit between its lines (each line keeps its number, so anchoring is unaffected).
 */
export function chunkMaterial(segments: readonly NumberedSegment[], maxBytes: number): MaterialChunk[] {
  const byPath = new Map<string, NumberedSegment[]>();
  for (const segment of segments) {
    const list = byPath.get(segment.path) ?? [];
    list.push(segment);
    byPath.set(segment.path, list);
  }
  const chunks: MaterialChunk[] = [];
  let current: MaterialChunk = { segments: [], paths: [], bytes: 0 };
  const flush = (): void => {
    if (current.segments.length > 0) chunks.push(current);
    current = { segments: [], paths: [], bytes: 0 };
  };
  const add = (segment: NumberedSegment, bytes: number): void => {
    current.segments.push(segment);
    if (!current.paths.includes(segment.path)) current.paths.push(segment.path);
    current.bytes += bytes;
  };
  for (const [, fileSegments] of byPath) {
    const fileBytes = fileSegments.reduce((sum, s) => sum + segmentBytes(s), 0);
    if (fileBytes <= maxBytes) {
      if (current.bytes + fileBytes > maxBytes) flush();
      for (const segment of fileSegments) add(segment, segmentBytes(segment));
      continue;
    }
    for (const piece of fileSegments.flatMap((s) => splitSegment(s, maxBytes))) {
      const bytes = segmentBytes(piece);
      if (current.bytes + bytes > maxBytes) flush();
      add(piece, bytes);
    }
  }
  flush();
  return chunks;
}

/** Cut a segment into pieces of at most `maxBytes` (a single longer line becomes a piece of its own). */
function splitSegment(segment: NumberedSegment, maxBytes: number): NumberedSegment[] {
  const pieces: NumberedSegment[] = [];
  let lines: MaterialLine[] = [];
  let bytes = 0;
  for (const line of segment.lines) {
    const size = lineBytes(line);
    if (lines.length > 0 && bytes + size > maxBytes) {
      pieces.push({ ...segment, lines });
      lines = [];
      bytes = 0;
    }
    lines.push(line);
    bytes += size;
  }
  if (lines.length > 0) pieces.push({ ...segment, lines });
  return pieces;
}
