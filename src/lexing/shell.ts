/**
 * The lexer core of POSIX shells (sh, bash, zsh): comments where a `#` can start one, quotes,
 * escapes, command substitutions and heredocs. Only \n ends a line: bash reads a lone carriage
 * return as part of a word. Pieces the core cannot place (backticks, a `#` right after an operator,
 * a heredoc without a terminator word) come out as `unreadable` and end the text.
 */
import { isIdentChar, TokenCursor } from './chars.js';

type ShellTokenKind =
  | 'newline'
  | 'blank'
  | 'line-comment'
  /** A backslash and the character it quotes. */
  | 'escape'
  /** A backslash before a line break or the end of the text. */
  | 'continuation'
  | 'string'
  | 'substitution-open'
  | 'substitution-close'
  /** `<<word` or `<<-word`: its body follows the next line break. */
  | 'heredoc'
  /** The lines of the heredocs opened on the line before, through their terminators. */
  | 'heredoc-body'
  | 'word'
  | 'punct'
  | 'unreadable';

export interface ShellToken {
  kind: ShellTokenKind;
  start: number;
  end: number;
  /** Strings and heredoc bodies: the closing mark was found. Others: true. */
  closed: boolean;
  /** Strings: '...', $'...' or "...". */
  quote?: 'single' | 'ansi-c' | 'double';
  /** Strings: the string runs over a line break. */
  multiline?: boolean;
  /** Double-quoted strings: they hold a `$(` or a backtick, so code runs inside. */
  substitutes?: boolean;
  /** Double-quoted strings: a `${` that does not close before a quote, line break, backtick or `$`. */
  parameterTrouble?: boolean;
}

/** After these, a `#` may be a zsh glob flag or part of an operator: neither comment nor word for sure. */
const OPERATOR_CHARS = '()|&<>';
/** Characters that end a heredoc's terminator word. */
const TERMINATOR_END = ' \t\n;|&)<>';

interface PendingHeredoc {
  terminator: string;
  stripTabs: boolean;
}

export class ShellLexer extends TokenCursor<ShellToken> {
  private depth = 0;
  private readonly pending: PendingHeredoc[] = [];
  private bodiesDue = false;


  /** Command substitutions `$(` open here. */
  get substitutionDepth(): number {
    return this.depth;
  }
  /** Heredocs opened whose bodies have not started (their line has not ended). */
  get pendingHeredocs(): number {
    return this.pending.length;
  }

  next(): ShellToken | null {
    const { text } = this;
    const start = this.i;
    if (this.bodiesDue) return this.heredocBodies(start);
    if (start >= text.length) return null;
    const ch = text[start] as string;
    const next = text[start + 1];
    if (ch === '\n' || (ch === '\r' && next === '\n')) {
      if (this.pending.length > 0) this.bodiesDue = true;
      return this.emit('newline', start, ch === '\r' ? start + 2 : start + 1);
    }
    if (ch === ' ' || ch === '\t') {
      let j = start + 1;
      while (text[j] === ' ' || text[j] === '\t') j++;
      return this.emit('blank', start, j);
    }
    if (ch === '`') return this.emit('unreadable', start, text.length, { closed: false });
    if (ch === '#') {
      const prev = text[start - 1];
      if (prev !== undefined && OPERATOR_CHARS.includes(prev)) return this.emit('unreadable', start, text.length, { closed: false });
      if (prev === undefined || prev === '\n' || prev === ' ' || prev === '\t' || prev === ';') {
        const nl = text.indexOf('\n', start);
        if (nl < 0) return this.emit('line-comment', start, text.length);
        return this.emit('line-comment', start, text[nl - 1] === '\r' ? nl - 1 : nl);
      }
      return this.emit('punct', start, start + 1);
    }
    if (ch === '\\') {
      if (next === undefined || next === '\n') return this.emit('continuation', start, Math.min(text.length, start + 2));
      return this.emit('escape', start, start + 2);
    }
    if (ch === "'") return text[start - 1] === '$' ? this.ansiCString(start) : this.singleQuoted(start);
    if (ch === '"') return this.doubleQuoted(start);
    if (ch === '$' && next === '(') {
      this.depth++;
      return this.emit('substitution-open', start, start + 2);
    }
    if (ch === ')' && this.depth > 0) {
      this.depth--;
      return this.emit('substitution-close', start, start + 1);
    }
    if (ch === '<' && next === '<') {
      if (text[start + 2] === '<') return this.emit('punct', start, start + 3); // a here-string is one word
      return this.heredoc(start);
    }
    if (isIdentChar(ch)) {
      let j = start + 1;
      while (isIdentChar(text[j]) && !(text[j] === '$' && text[j + 1] === '(')) j++;
      return this.emit('word', start, j);
    }
    return this.emit('punct', start, start + 1);
  }


  private singleQuoted(start: number): ShellToken {
    const close = this.text.indexOf("'", start + 1);
    if (close < 0) return this.emit('string', start, this.text.length, { closed: false, quote: 'single' });
    const body = this.text.slice(start, close);
    return this.emit('string', start, close + 1, { quote: 'single', multiline: body.includes('\n') || body.includes('\r') });
  }

  /** $'...' has backslash escapes of its own and ends on its line. */
  private ansiCString(start: number): ShellToken {
    const { text } = this;
    let j = start + 1;
    for (;;) {
      const c = text[j];
      if (c === undefined || c === '\n' || c === '\r') return this.emit('string', start, j, { closed: false, quote: 'ansi-c' });
      if (c === '\\') {
        j += 2;
        continue;
      }
      if (c === "'") return this.emit('string', start, j + 1, { quote: 'ansi-c' });
      j++;
    }
  }

  private doubleQuoted(start: number): ShellToken {
    const { text } = this;
    let j = start + 1;
    let multiline = false;
    let substitutes = false;
    let parameterTrouble = false;
    for (;;) {
      const c = text[j];
      if (c === undefined) return this.emit('string', start, text.length, { closed: false, quote: 'double' });
      if (c === '\n' || c === '\r') multiline = true;
      if (c === '`' || (c === '$' && text[j + 1] === '(')) substitutes = true;
      if (c === '\\') {
        j += 2;
        continue;
      }
      if (c === '$' && text[j + 1] === '{' && !parameterCloses(text, j + 2)) parameterTrouble = true;
      if (c === '"') return this.emit('string', start, j + 1, { quote: 'double', multiline, substitutes, parameterTrouble });
      j++;
    }
  }

  private heredoc(start: number): ShellToken {
    const { text } = this;
    let j = start + 2;
    const stripTabs = text[j] === '-';
    if (stripTabs) j++;
    while (text[j] === ' ' || text[j] === '\t') j++;
    let terminator = '';
    while (j < text.length && !TERMINATOR_END.includes(text[j] as string)) {
      const c = text[j] as string;
      if (c !== '"' && c !== "'" && c !== '\\') terminator += c;
      j++;
    }
    if (terminator.length === 0) return this.emit('unreadable', start, text.length, { closed: false });
    this.pending.push({ terminator, stripTabs });
    return this.emit('heredoc', start, j);
  }

  /** The bodies of the heredocs opened on the line just ended, one after another. */
  private heredocBodies(start: number): ShellToken {
    const { text } = this;
    this.bodiesDue = false;
    let i = start;
    for (const heredoc of this.pending.splice(0)) {
      for (;;) {
        if (i >= text.length) return this.emit('heredoc-body', start, text.length, { closed: false });
        const nl = text.indexOf('\n', i);
        const end = nl < 0 ? text.length : nl;
        let line = text.slice(i, end);
        if (heredoc.stripTabs) while (line.startsWith('\t')) line = line.slice(1);
        i = nl < 0 ? text.length : nl + 1;
        if (line === heredoc.terminator) break;
        if (nl < 0) return this.emit('heredoc-body', start, text.length, { closed: false });
      }
    }
    return this.emit('heredoc-body', start, i);
  }
}

/** Does the `${` whose name starts at `from` close before a quote, line break, backtick or `$`? */
function parameterCloses(text: string, from: number): boolean {
  for (let k = from; k < text.length; k++) {
    const c = text[k];
    if (c === '}') return true;
    if (c === '"' || c === "'" || c === '\n' || c === '\r' || c === '`' || c === '$') return false;
  }
  return false;
}
