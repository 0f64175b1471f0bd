/** Character classes and small scans every lexer core shares. All linear; none builds a RegExp. */

/** The languages the lexer cores read, named as the change profile names them (the registry's lexer families). */
export type LexLanguage = 'javascript' | 'typescript' | 'python' | 'go' | 'rust' | 'java' | 'kotlin' | 'csharp' | 'c' | 'shell' | 'powershell' | 'batch';

/** Letters, digits, `_`, `$` and everything past ASCII: what may stand inside a name. */
export function isIdentChar(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  const code = ch.charCodeAt(0);
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || ch === '_' || ch === '$' || code > 127;
}

export function isDigit(ch: string | undefined): boolean {
  return ch !== undefined && ch >= '0' && ch <= '9';
}

/** Blanks between tokens in every language. */
export function isAsciiBlank(ch: string | undefined): boolean {
  return ch === ' ' || ch === '\t' || ch === '\f' || ch === '\v';
}

/** The index just past the line break at `i` (\r\n counts once). */
export function afterBreak(text: string, i: number): number {
  return text[i] === '\r' && text[i + 1] === '\n' ? i + 2 : i + 1;
}

/** UTF-16 units of the code point at `at`. */
export function codePointLength(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return code >= 0xd800 && code <= 0xdbff ? 2 : 1;
}

/**
 * Does `text` end with `marker` as a line continuation: the marker last on its line, before only
 * blanks and one line break?
 */
export function endsWithContinuation(text: string, marker: string): boolean {
  let end = text.length;
  if (text[end - 1] === '\n') end--;
  if (text[end - 1] === '\r') end--;
  while (end > 0 && (text[end - 1] === ' ' || text[end - 1] === '\t')) end--;
  return end > 0 && text[end - 1] === marker;
}

/** The first place at or after `from` where `text` holds one of `chars`, on the same line; -1 if none. */
export function indexOnLine(text: string, from: number, chars: string): number {
  for (let i = from; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === '\n' || ch === '\r') return -1;
    if (chars.includes(ch)) return i;
  }
  return -1;
}

/** End of a number literal at `start`: digits, letters, `_` and dots, and a sign right after an exponent letter. */
export function numberEnd(text: string, start: number): number {
  let j = start + 1;
  for (;;) {
    const c = text[j];
    if (c === undefined) return j;
    const wordLike = isDigit(c) || c === '.' || c === '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    const exponentSign = (c === '+' || c === '-') && (text[j - 1] === 'e' || text[j - 1] === 'E');
    if (!wordLike && !exponentSign) return j;
    j++;
  }
}

/** Split at \n, \r\n and lone \r (the line breaks the profile's lexers know). */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\n' || ch === '\r') {
      lines.push(text.slice(start, i));
      if (ch === '\r' && text[i + 1] === '\n') i++;
      start = i + 1;
    }
  }
  lines.push(text.slice(start));
  return lines;
}

/** Operators grouped by their first character, longest first, for one lookup per operator. */
export function operatorTable(operators: readonly string[]): ReadonlyMap<string, readonly string[]> {
  const table = new Map<string, string[]>();
  for (const op of [...operators].sort((a, b) => b.length - a.length)) {
    const first = op[0] as string;
    const list = table.get(first) ?? [];
    list.push(op);
    table.set(first, list);
  }
  return table;
}

/** The longest operator of `table` at `at`, or the single character there. */
export function operatorAt(text: string, at: number, table: ReadonlyMap<string, readonly string[]>): string {
  const ch = text[at] as string;
  const candidates = table.get(ch);
  if (candidates !== undefined) for (const op of candidates) if (text.startsWith(op, at)) return op;
  return ch;
}

/** Where a token stands in the text and whether its closing mark was found; every core's tokens extend it. */
export interface Span {
  kind: string;
  start: number;
  end: number;
  closed: boolean;
}

/** The reading position every core moves through its text, and the one way to hand out a token. */
export abstract class TokenCursor<T extends Span> {
  protected i = 0;

  constructor(protected readonly text: string) {}

  protected emit(kind: T['kind'], start: number, end: number, extra?: Partial<T>): T {
    // an escape at the very end steps past it
    const last = Math.min(end, this.text.length);
    this.i = last;
    // the fields a token kind adds are all optional, so the four shared ones make a whole T
    const token = { kind, start, end: last, closed: true } as T;
    return extra === undefined ? token : Object.assign(token, extra);
  }
}
