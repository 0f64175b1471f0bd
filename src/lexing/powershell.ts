/**
 * The lexer core of PowerShell scripts: `#` and `<# #>` comments, backtick escapes, '...' and
 * "..." strings (PowerShell also takes the typographic quotes as quote marks) and here-strings.
 * A `#` where no comment can start comes out as `unreadable` and ends the text.
 */
import { afterBreak, isIdentChar, TokenCursor } from './chars.js';

type PowerShellTokenKind =
  | 'newline'
  | 'blank'
  | 'line-comment'
  | 'block-comment'
  /** A backtick and the character it quotes. */
  | 'escape'
  /** A backtick before a line break or the end of the text. */
  | 'continuation'
  | 'string'
  | 'here-string'
  | 'word'
  | 'punct'
  | 'unreadable';

export interface PowerShellToken {
  kind: PowerShellTokenKind;
  start: number;
  end: number;
  /** Strings, here-strings and block comments: the closing mark was found. Others: true. */
  closed: boolean;
  /** Strings and here-strings: single-quoted (verbatim) or double-quoted (expanding). */
  quote?: 'single' | 'double';
  /** Strings: the string runs over a line break. */
  multiline?: boolean;
  /** Double-quoted strings and here-strings: they hold a `$(`, so code runs inside. */
  substitutes?: boolean;
  /** Block comments: the body holds another `<#`. */
  nestedOpen?: boolean;
  /** Block comments: `<#` stands where a comment may start (line start, after a blank or `;`). */
  atCommentStart?: boolean;
}

const SINGLE_QUOTES = "'\u2018\u2019\u201a\u201b";
const DOUBLE_QUOTES = '"\u201c\u201d\u201e';

export class PowerShellLexer extends TokenCursor<PowerShellToken> {


  next(): PowerShellToken | null {
    const { text } = this;
    const start = this.i;
    if (start >= text.length) return null;
    const ch = text[start] as string;
    const next = text[start + 1];
    if (ch === '\n' || ch === '\r') return this.emit('newline', start, afterBreak(text, start));
    if (ch === ' ' || ch === '\t') {
      let j = start + 1;
      while (text[j] === ' ' || text[j] === '\t') j++;
      return this.emit('blank', start, j);
    }
    if (ch === '<' && next === '#') {
      const close = text.indexOf('#>', start + 2);
      const end = close < 0 ? text.length : close + 2;
      const body = text.slice(start + 2, close < 0 ? text.length : close);
      return this.emit('block-comment', start, end, { closed: close >= 0, nestedOpen: body.includes('<#'), atCommentStart: this.atCommentStart(start) });
    }
    if (ch === '#') {
      if (!this.atCommentStart(start)) return this.emit('unreadable', start, text.length, { closed: false });
      let j = start + 1;
      while (j < text.length && text[j] !== '\n' && text[j] !== '\r') j++;
      return this.emit('line-comment', start, j);
    }
    if (ch === '@' && (next === '"' || next === "'")) {
      const closer = `\n${next}@`;
      const close = text.indexOf(closer, start + 2);
      const quote = next === '"' ? 'double' : 'single';
      if (close < 0) return this.emit('here-string', start, text.length, { closed: false, quote });
      const substitutes = quote === 'double' && text.slice(start, close).includes('$(');
      return this.emit('here-string', start, close + closer.length, { quote, substitutes });
    }
    if (ch === '`') {
      if (next === undefined || next === '\n' || next === '\r') return this.emit('continuation', start, Math.min(text.length, start + 2));
      return this.emit('escape', start, start + 2);
    }
    if (SINGLE_QUOTES.includes(ch)) return this.quoted(start, SINGLE_QUOTES, 'single');
    if (DOUBLE_QUOTES.includes(ch)) return this.quoted(start, DOUBLE_QUOTES, 'double');
    if (isIdentChar(ch) && !SINGLE_QUOTES.includes(ch) && !DOUBLE_QUOTES.includes(ch)) {
      let j = start + 1;
      while (isIdentChar(text[j]) && !SINGLE_QUOTES.includes(text[j] as string) && !DOUBLE_QUOTES.includes(text[j] as string)) j++;
      return this.emit('word', start, j);
    }
    return this.emit('punct', start, start + 1);
  }


  private atCommentStart(at: number): boolean {
    const prev = this.text[at - 1];
    return prev === undefined || prev === '\n' || prev === '\r' || prev === ' ' || prev === '\t' || prev === ';';
  }

  /** A string closed by any mark of its class; a doubled mark stands for itself, and "..." takes backtick escapes. */
  private quoted(start: number, marks: string, quote: 'single' | 'double'): PowerShellToken {
    const { text } = this;
    let j = start + 1;
    let multiline = false;
    let substitutes = false;
    for (;;) {
      const c = text[j];
      if (c === undefined) return this.emit('string', start, text.length, { closed: false, quote, multiline, substitutes });
      if (c === '\n' || c === '\r') multiline = true;
      if (quote === 'double') {
        if (c === '`') {
          j += 2;
          continue;
        }
        if (c === '$' && text[j + 1] === '(') substitutes = true;
      }
      if (marks.includes(c)) {
        const after = text[j + 1];
        if (after !== undefined && marks.includes(after)) {
          j += 2;
          continue;
        }
        return this.emit('string', start, j + 1, { quote, multiline, substitutes });
      }
      j++;
    }
  }
}
