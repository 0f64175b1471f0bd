/**
 * The one way a data-file error finds its line: a scan of the TOML text that notes where every table
 * header and every key is first written, by dotted path (arrays of tables counted, so `rule[3].pattern`
 * is the `pattern =` line under the fourth `[[rule]]`). It reads only enough TOML to skip strings,
 * comments and multi-line values; a path it cannot place falls back to its nearest placed parent.
 */
import { dottedPath, type KeyPath } from './key-path.js';

/**
 * The line of a key in `text`: a function giving the 1-based line where a path, or else its deepest
 * written parent, is (null when no part of it is written). The text is scanned once, on the first question.
 */
export function keyLocator(text: string): (path: KeyPath) => number | null {
  let lines: Map<string, number> | null = null;
  return (path) => {
    lines ??= keyLines(text);
    for (let length = path.length; length > 0; length--) {
      const line = lines.get(dottedPath(path.slice(0, length)));
      if (line !== undefined) return line;
    }
    return null;
  };
}

type MultiLineQuote = '"""' | "'''";

/** Where the scan stands between lines: inside a multi-line string, or nested in brackets of a value. */
interface ValueState {
  quote: MultiLineQuote | null;
  depth: number;
}

/** Every header and key of `text` by dotted path, at the line it first appears on. */
function keyLines(text: string): Map<string, number> {
  const found = new Map<string, number>();
  const note = (path: KeyPath, line: number): void => {
    for (let length = 1; length <= path.length; length++) {
      const key = dottedPath(path.slice(0, length));
      if (!found.has(key)) found.set(key, line);
    }
  };
  /** The index of the last element of each array of tables seen, by its dotted path. */
  const lastIndex = new Map<string, number>();
  let table: KeyPath = [];
  const state: ValueState = { quote: null, depth: 0 };
  for (const [index, rawLine] of text.split('\n').entries()) {
    const line = index + 1;
    if (state.quote !== null || state.depth > 0) {
      scanValue(rawLine, 0, state);
      continue;
    }
    const start = skipSpace(rawLine, 0);
    const first = rawLine[start];
    if (first === undefined || first === '#' || first === '\r') continue;
    if (first === '[') {
      const isArray = rawLine[start + 1] === '[';
      const read = readKey(rawLine, start + (isArray ? 2 : 1));
      if (read === null) continue;
      table = resolveHeader(read.segments, isArray, lastIndex);
      note(table, line);
      continue;
    }
    const read = readKey(rawLine, start);
    if (read === null || rawLine[read.end] !== '=') continue;
    note([...table, ...read.segments], line);
    scanValue(rawLine, read.end + 1, state);
  }
  return found;
}

/** A header's concrete path: the index of every array of tables it passes through, a new one for `[[...]]`. */
function resolveHeader(segments: readonly string[], isArray: boolean, lastIndex: Map<string, number>): KeyPath {
  const path: PropertyKey[] = [];
  for (const [position, segment] of segments.entries()) {
    path.push(segment);
    const key = dottedPath(path);
    if (isArray && position === segments.length - 1) {
      const next = (lastIndex.get(key) ?? -1) + 1;
      lastIndex.set(key, next);
      path.push(next);
    } else {
      const current = lastIndex.get(key);
      if (current !== undefined) path.push(current);
    }
  }
  return path;
}

function skipSpace(text: string, from: number): number {
  let at = from;
  while (text[at] === ' ' || text[at] === '\t') at++;
  return at;
}

/** A dotted key (bare, "basic" or 'literal' segments) from `from`; `end` is the first character after it and its spaces. */
function readKey(text: string, from: number): { segments: string[]; end: number } | null {
  const segments: string[] = [];
  let at = skipSpace(text, from);
  for (;;) {
    const quote = text[at];
    if (quote === '"' || quote === "'") {
      let segment = '';
      at++;
      while (at < text.length && text[at] !== quote) {
        if (quote === '"' && text[at] === '\\') at++;
        segment += text[at] ?? '';
        at++;
      }
      if (at >= text.length) return null;
      segments.push(segment);
      at++;
    } else {
      const start = at;
      while (at < text.length && isBareKeyChar(text.charCodeAt(at))) at++;
      if (at === start) return null;
      segments.push(text.slice(start, at));
    }
    at = skipSpace(text, at);
    if (text[at] !== '.') return { segments, end: at };
    at = skipSpace(text, at + 1);
  }
}

/** A-Z, a-z, 0-9, `_` and `-`: the characters of a bare TOML key. */
function isBareKeyChar(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 95 || code === 45;
}

/** Step over a value's text from `from`, keeping track of open multi-line strings and brackets. */
function scanValue(text: string, from: number, state: ValueState): void {
  let at = from;
  if (state.quote !== null) {
    const close = text.indexOf(state.quote, at);
    if (close < 0) return;
    at = close + 3;
    state.quote = null;
  }
  while (at < text.length) {
    const ch = text[at];
    if (ch === '#') return;
    if (ch === '"' || ch === "'") {
      const triple = (ch + ch + ch) as MultiLineQuote;
      if (text.startsWith(triple, at)) {
        const close = text.indexOf(triple, at + 3);
        if (close < 0) {
          state.quote = triple;
          return;
        }
        at = close + 3;
        continue;
      }
      at++;
      while (at < text.length && text[at] !== ch) at += ch === '"' && text[at] === '\\' ? 2 : 1;
      at++;
      continue;
    }
    if (ch === '[' || ch === '{') state.depth++;
    else if ((ch === ']' || ch === '}') && state.depth > 0) state.depth--;
    at++;
  }
}
