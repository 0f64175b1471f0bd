/**
 * The lexer core of Python: comments, strings with their prefixes (raw, bytes, f- and t-strings),
 * triple quotes, backslash continuations, numbers, operators and brackets. One pass; brackets still
 * open can be read at any point. Like the C-family core it marks what is unclosed or unreadable and
 * leaves the verdict to its consumers.
 */
import { afterBreak, isDigit, isIdentChar, numberEnd, operatorAt, operatorTable, TokenCursor } from './chars.js';

type PyTokenKind = 'newline' | 'blank' | 'comment' | 'continuation' | 'string' | 'name' | 'number' | 'op';

export interface PyToken {
  kind: PyTokenKind;
  start: number;
  end: number;
  /** Strings: the closing quote was found. Others: true. */
  closed: boolean;
  /** Strings: three quotes. */
  triple?: boolean;
  /** Strings: an f- or t-string, whose `{...}` fields are code. */
  formatted?: boolean;
  /** Formatted strings: a field holds the string's own quote, a comment, a line break or deep nesting. */
  fieldsUnreadable?: boolean;
  /** One-quote strings: a backslash carries the string onto the next line. */
  continued?: boolean;
  /** `)`, `]` and `}`: what they closed (`nothing` for a stray one). */
  closes?: 'bracket' | 'nothing';
}

/** Deepest nesting of braces inside one f-string field the core follows. */
export const MAX_FIELD_NESTING = 8;

const OPS = operatorTable(['**=', '//=', '>>=', '<<=', '...', '->', ':=', '**', '//', '>>', '<<', '<=', '>=', '==', '!=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '@=']);
const CLOSER_OF: Readonly<Record<string, string>> = { ')': '(', ']': '[', '}': '{' };
/** The string prefixes Python accepts (lowercased). */
const STRING_PREFIXES = new Set(['r', 'u', 'b', 'f', 't', 'br', 'rb', 'fr', 'rf', 'tr', 'rt']);

function isBlank(ch: string | undefined): boolean {
  return ch === ' ' || ch === '\t' || ch === '\f';
}

function isBreak(ch: string | undefined): boolean {
  return ch === '\n' || ch === '\r';
}

export class PythonLexer extends TokenCursor<PyToken> {
  private readonly open: string[] = [];


  /** Brackets open here, innermost last. */
  get opened(): readonly string[] {
    return this.open;
  }

  /** The next token, or null at the end of the text. */
  next(): PyToken | null {
    const { text } = this;
    const start = this.i;
    if (start >= text.length) return null;
    const ch = text[start] as string;
    if (isBreak(ch)) return this.emit('newline', start, afterBreak(text, start));
    if (isBlank(ch)) {
      let j = start + 1;
      while (isBlank(text[j])) j++;
      return this.emit('blank', start, j);
    }
    if (ch === '#') {
      let j = start + 1;
      while (j < text.length && !isBreak(text[j])) j++;
      return this.emit('comment', start, j);
    }
    if (ch === '\\' && (isBreak(text[start + 1]) || start + 1 === text.length)) {
      return this.emit('continuation', start, start + 1 === text.length ? start + 1 : afterBreak(text, start + 1));
    }
    if (ch === '"' || ch === "'") return this.string(start, start);
    if (isDigit(ch) || (ch === '.' && isDigit(text[start + 1]))) return this.emit('number', start, numberEnd(this.text, start));
    if (isIdentChar(ch)) {
      let j = start + 1;
      while (isIdentChar(text[j])) j++;
      if ((text[j] === '"' || text[j] === "'") && STRING_PREFIXES.has(text.slice(start, j).toLowerCase())) return this.string(start, j);
      return this.emit('name', start, j);
    }
    return this.op(start);
  }


  /** A string whose prefix starts at `start` and whose quote is at `quoteAt`. */
  private string(start: number, quoteAt: number): PyToken {
    const { text } = this;
    const quote = text[quoteAt] as string;
    const prefix = text.slice(start, quoteAt).toLowerCase();
    const formatted = prefix.includes('f') || prefix.includes('t');
    const triple = text.startsWith(quote + quote + quote, quoteAt);
    const closer = triple ? quote + quote + quote : quote;
    const bodyStart = quoteAt + closer.length;
    let continued = false;
    let j = bodyStart;
    let closed = false;
    while (j < text.length) {
      const c = text[j];
      if (c === '\\') {
        if (!triple && isBreak(text[j + 1])) continued = true;
        j += 2;
        continue;
      }
      if (!triple && isBreak(c)) break;
      if (text.startsWith(closer, j)) {
        closed = true;
        break;
      }
      j++;
    }
    const bodyEnd = Math.min(j, text.length);
    const end = closed ? bodyEnd + closer.length : bodyEnd;
    const extra: Partial<PyToken> = { closed, triple, formatted };
    if (continued) extra.continued = true;
    if (formatted && !this.fieldsReadable(bodyStart, bodyEnd, quote)) extra.fieldsUnreadable = true;
    return this.emit('string', start, end, extra);
  }

  /** Every `{...}` field of a formatted body closes inside it and holds no quote of its own, comment or line break. */
  private fieldsReadable(from: number, to: number, quote: string): boolean {
    const { text } = this;
    let j = from;
    while (j < to) {
      const c = text[j];
      if (c === '\\') {
        j += 2;
        continue;
      }
      if (c !== '{') {
        j++;
        continue;
      }
      if (text[j + 1] === '{') {
        j += 2;
        continue;
      }
      let depth = 1;
      let k = j + 1;
      while (depth > 0) {
        if (k >= to) return false;
        const f = text[k];
        if (f === quote || f === '#' || isBreak(f)) return false;
        if (f === '{') depth++;
        if (f === '}') depth--;
        if (depth > MAX_FIELD_NESTING) return false;
        k++;
      }
      j = k;
    }
    return true;
  }

  private op(start: number): PyToken {
    const { text } = this;
    const op = operatorAt(text, start, OPS);
    const end = start + op.length;
    if (op === '(' || op === '[' || op === '{') {
      this.open.push(op);
      return this.emit('op', start, end);
    }
    const opener = CLOSER_OF[op];
    if (opener === undefined) return this.emit('op', start, end);
    if (this.open.at(-1) === opener) {
      this.open.pop();
      return this.emit('op', start, end, { closes: 'bracket' });
    }
    return this.emit('op', start, end, { closes: 'nothing' });
  }
}
