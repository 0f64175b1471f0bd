/**
 * The lexer core of the C family: JavaScript and TypeScript (templates, regex literals), Go (raw
 * strings), Rust (raw strings, lifetimes, nesting block comments), Java and Kotlin (text blocks),
 * C# (verbatim and interpolated strings) and C/C++ (raw strings). One pass cuts the text into
 * tokens; what is still open (brackets, templates, holes) can be read at any point. The core never
 * decides what a consumer may trust: it marks unclosed and unreadable pieces and goes on.
 */
import { afterBreak, codePointLength, isAsciiBlank, isDigit, isIdentChar, numberEnd, operatorAt, operatorTable, TokenCursor, type LexLanguage } from './chars.js';

export { type LexLanguage } from './chars.js';

export type CFamilyLanguage = Exclude<LexLanguage, 'python' | 'shell' | 'powershell' | 'batch'>;

export function isCFamilyLanguage(language: LexLanguage): language is CFamilyLanguage {
  return language !== 'python' && language !== 'shell' && language !== 'powershell' && language !== 'batch';
}

type CTokenKind =
  | 'newline'
  | 'blank'
  | 'line-comment'
  | 'block-comment'
  | 'string'
  /** A piece of a JS template: from its backtick, or from the `}` ending a hole, to the next backtick or `${`. */
  | 'template'
  | 'regex'
  | 'word'
  | 'number'
  | 'punct'
  /** Text the core cannot follow (C# raw strings, C# holes holding quotes, odd C++ raw delimiters): runs to the end. */
  | 'unreadable';

/** How a string is written: only `quoted` ends on its own line by rule. */
type StringForm =
  /** "..." or '...' with backslash escapes, ending on its line. */
  | 'quoted'
  /** Java and Kotlin """...""". */
  | 'text-block'
  /** Rust r#"..."#, C++ R"d(...)d", Go `...`. */
  | 'raw'
  /** C# @"..." and $"...". */
  | 'special'
  /** A backtick pair on one line outside JS and Go (Kotlin's quoted names). */
  | 'quoted-name';

export interface CToken {
  kind: CTokenKind;
  start: number;
  end: number;
  /** Strings, comments, templates and regexes: the closing mark was found. Others: true. */
  closed: boolean;
  form?: StringForm;
  /** Template pieces: how the piece ends (`open` when the text ends inside it). */
  templateEnd?: 'close' | 'hole' | 'open';
  /** `)`, `]` and `}`: what they closed (`nothing` for a stray one). */
  closes?: 'bracket' | 'hole' | 'nothing';
  /** Block comments: the body holds another opening mark. */
  nestedOpen?: boolean;
  /** A JS division right after `}`: a block (then it was a regex) or an object literal; cannot tell. */
  afterBrace?: boolean;
}

const JS_OPS = operatorTable(['>>>=', '...', '===', '!==', '**=', '<<=', '>>=', '>>>', '&&=', '||=', '??=', '=>', '==', '!=', '<=', '>=', '&&', '||', '??', '?.', '++', '--', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '**', '<<', '>>']);
const REGEX_AFTER_KEYWORD = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await']);
const CLOSER_OF: Readonly<Record<string, string>> = { ')': '(', ']': '[', '}': '{' };

/** JavaScript white space beyond ASCII (line terminators apart). */
function isJsSpace(ch: string): boolean {
  const code = ch.charCodeAt(0);
  return code === 0xa0 || code === 0xfeff || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x202f || code === 0x205f || code === 0x3000;
}

/** JS markup that may start in a piece of punctuation: an HTML-like comment, a JSX tag, or `<!`. */
export const MARKUP_HTML_COMMENT = 1;
export const MARKUP_TAG = 2;
const MARKUP_BANG = 4;

/** The kinds of markup (a bit mask of the MARKUP_ flags) that may start at a place in text[from, to). */
export function jsMarkupIn(text: string, from: number, to: number): number {
  let found = 0;
  for (let k = from; k < to; k++) {
    if (text.startsWith('-->', k) || text.startsWith('<!--', k)) found |= MARKUP_HTML_COMMENT;
    if (text[k] !== '<') continue;
    const next = text[k + 1];
    if (next === '!') found |= MARKUP_BANG;
    else if (next === '/' || next === '>' || (next !== undefined && isIdentChar(next))) found |= MARKUP_TAG;
  }
  return found;
}

export class CFamilyLexer extends TokenCursor<CToken> {
  private readonly open: string[] = [];
  private openTemplates = 0;
  private openHoles = 0;
  /** The last token that is not a blank, a line break or a comment. */
  private previous: CToken | null = null;
  private readonly js: boolean;

  constructor(
    text: string,
    private readonly language: CFamilyLanguage,
  ) {
    super(text);
    this.js = language === 'javascript' || language === 'typescript';
  }

  /** Brackets, templates (`` ` ``) and template holes (`${`) open here, innermost last. */
  get opened(): readonly string[] {
    return this.open;
  }
  /** Templates plus holes open here. */
  get templateNesting(): number {
    return this.openTemplates + this.openHoles;
  }
  get holes(): number {
    return this.openHoles;
  }

  /** The next token, or null at the end of the text. */
  next(): CToken | null {
    const token = this.read();
    if (token !== null && token.kind !== 'blank' && token.kind !== 'newline' && token.kind !== 'line-comment' && token.kind !== 'block-comment') {
      this.previous = token;
    }
    return token;
  }

  private read(): CToken | null {
    const { text } = this;
    const start = this.i;
    // after a hole's `}` the template goes on, even if only to say it is left open
    // the count first: most text is outside any template, and the stack's top is dearer to read
    if (this.openTemplates > 0 && this.open[this.open.length - 1] === '`' && (start < text.length || this.previous?.closes === 'hole')) return this.templatePiece(start, start);
    if (start >= text.length) return null;
    const ch = text[start] as string;
    const next = text[start + 1];
    if (this.isLineBreak(ch)) return this.emit('newline', start, afterBreak(text, start));
    if (isAsciiBlank(ch) || (this.js && isJsSpace(ch))) {
      let j = start + 1;
      while (j < text.length && (isAsciiBlank(text[j]) || (this.js && isJsSpace(text[j] as string)))) j++;
      return this.emit('blank', start, j);
    }
    if (ch === '/' && next === '/') return this.emit('line-comment', start, this.commentEnd(start + 2));
    if (ch === '/' && next === '*') return this.blockComment(start);
    if (this.js && ch === '/' && this.regexAllowed()) return this.regex(start);
    if (ch === '`') return this.backtick(start);
    if (ch === '"') return this.doubleQuote(start);
    if (ch === "'") {
      if (this.language === 'rust') {
        const afterChar = start + 1 + codePointLength(text, start + 1);
        if (next !== '\\' && text[afterChar] !== "'") return this.emit('punct', start, start + 1); // a lifetime or a label
      }
      return this.quoted(start, "'");
    }
    if (this.language === 'rust' && (ch === 'r' || ch === 'b' || ch === 'c') && !isIdentChar(text[start - 1])) {
      const raw = this.rustRawString(start);
      if (raw !== null) return raw;
    }
    if (isDigit(ch) || (ch === '.' && isDigit(next))) return this.emit('number', start, numberEnd(this.text, start));
    if (isIdentChar(ch) || (this.js && ch === '#' && isIdentChar(next))) {
      let j = start + 1;
      while (isIdentChar(text[j]) && !(this.js && isJsSpace(text[j] as string))) j++;
      return this.emit('word', start, j);
    }
    return this.punct(start);
  }


  private isLineBreak(ch: string): boolean {
    if (ch === '\n' || ch === '\r') return true;
    // JavaScript and C# end lines at these too, so a // comment stops there
    if ((this.js || this.language === 'csharp') && (ch === '\u2028' || ch === '\u2029')) return true;
    return this.language === 'csharp' && ch === '\u0085';
  }

  private commentEnd(from: number): number {
    let j = from;
    while (j < this.text.length && !this.isLineBreak(this.text[j] as string)) j++;
    return j;
  }

  private blockComment(start: number): CToken {
    const { text } = this;
    const nests = this.language === 'rust';
    let depth = 1;
    let j = start + 2;
    let end = -1;
    while (j < text.length) {
      if (text[j] === '*' && text[j + 1] === '/') {
        j += 2;
        if (--depth === 0) {
          end = j;
          break;
        }
        continue;
      }
      if (nests && text[j] === '/' && text[j + 1] === '*') {
        depth++;
        j += 2;
        continue;
      }
      j++;
    }
    const closed = end >= 0;
    const nestedOpen = text.slice(start + 2, closed ? end - 2 : text.length).includes('/*');
    return this.emit('block-comment', start, closed ? end : text.length, { closed, nestedOpen });
  }

  /** JS: a `/` starts a regex unless the token before it ends an operand. */
  private regexAllowed(): boolean {
    const previous = this.previous;
    if (previous === null) return true;
    const word = this.text.slice(previous.start, previous.end);
    switch (previous.kind) {
      case 'word':
        return REGEX_AFTER_KEYWORD.has(word);
      case 'punct':
        return !(word === ')' || word === ']' || word === '}' || word === '++' || word === '--');
      case 'template':
        return previous.templateEnd === 'hole';
      default:
        return false;
    }
  }

  private regex(start: number): CToken {
    const { text } = this;
    let j = start + 1;
    let inClass = false;
    for (;;) {
      const c = text[j];
      if (c === undefined || this.isLineBreak(c)) return this.emit('regex', start, j, { closed: false });
      if (c === '\\') {
        j += 2;
        continue;
      }
      if (c === '[') inClass = true;
      else if (c === ']') inClass = false;
      else if (c === '/' && !inClass) break;
      j++;
    }
    j++;
    while (isIdentChar(text[j])) j++;
    return this.emit('regex', start, j);
  }

  private backtick(start: number): CToken {
    const { text } = this;
    if (this.js) {
      this.open.push('`');
      this.openTemplates++;
      return this.templatePiece(start, start + 1);
    }
    if (this.language === 'go') {
      const close = text.indexOf('`', start + 1);
      return close < 0 ? this.emit('string', start, text.length, { closed: false, form: 'raw' }) : this.emit('string', start, close + 1, { form: 'raw' });
    }
    let j = start + 1;
    while (j < text.length && text[j] !== '`' && text[j] !== '\n' && text[j] !== '\r') j++;
    if (text[j] !== '`') return this.emit('string', start, j, { closed: false, form: 'quoted-name' });
    return this.emit('string', start, j + 1, { form: 'quoted-name' });
  }

  /** Inside a template (the top of `open` is its backtick): from `from` to the closing backtick or the next `${`. */
  private templatePiece(start: number, from: number): CToken {
    const { text } = this;
    let j = from;
    while (j < text.length) {
      const c = text[j];
      if (c === '\\') {
        j += 2;
        continue;
      }
      if (c === '`') {
        this.open.pop();
        this.openTemplates--;
        return this.emit('template', start, j + 1, { templateEnd: 'close' });
      }
      if (c === '$' && text[j + 1] === '{') {
        this.open.push('${');
        this.openHoles++;
        return this.emit('template', start, j + 2, { templateEnd: 'hole' });
      }
      j++;
    }
    return this.emit('template', start, text.length, { closed: false, templateEnd: 'open' });
  }

  private doubleQuote(start: number): CToken {
    const { text, language } = this;
    if (text.startsWith('"""', start)) {
      if (language === 'csharp') return this.emit('unreadable', start, text.length, { closed: false }); // C# raw strings
      if (language === 'java' || language === 'kotlin') {
        const close = text.indexOf('"""', start + 3);
        if (close < 0) return this.emit('string', start, text.length, { closed: false, form: 'text-block' });
        return this.emit('string', start, close + 3, { form: 'text-block' });
      }
    }
    const prev = text[start - 1];
    if (language === 'csharp' && (prev === '@' || prev === '$')) return this.csharpSpecialString(start);
    if (language === 'c' && prev === 'R') return this.cppRawString(start);
    return this.quoted(start, '"');
  }

  private quoted(start: number, quote: string): CToken {
    const { text } = this;
    let j = start + 1;
    for (;;) {
      const c = text[j];
      if (c === undefined || c === '\n' || c === '\r') return this.emit('string', start, j, { closed: false, form: 'quoted' });
      if (c === '\\') {
        j += 2;
        continue;
      }
      if (c === quote) return this.emit('string', start, j + 1, { form: 'quoted' });
      j++;
    }
  }

  private csharpSpecialString(quoteAt: number): CToken {
    const { text } = this;
    let verbatim = false;
    let interpolated = false;
    for (let k = quoteAt - 1; k >= 0 && (text[k] === '@' || text[k] === '$'); k--) {
      if (text[k] === '@') verbatim = true;
      else interpolated = true;
    }
    const unclosed = (end: number): CToken => this.emit('string', quoteAt, end, { closed: false, form: 'special' });
    let j = quoteAt + 1;
    for (;;) {
      const c = text[j];
      if (c === undefined) return unclosed(j);
      if (!verbatim && (c === '\n' || c === '\r')) return unclosed(j);
      if (!verbatim && c === '\\') {
        j += 2;
        continue;
      }
      if (c === '"') {
        if (verbatim && text[j + 1] === '"') {
          j += 2;
          continue;
        }
        return this.emit('string', quoteAt, j + 1, { form: 'special' });
      }
      if (interpolated && c === '{') {
        if (text[j + 1] === '{') {
          j += 2;
          continue;
        }
        // a hole holding quotes or braces would need a lexer of its own
        const close = text.indexOf('}', j + 1);
        if (close < 0) return this.emit('unreadable', quoteAt, text.length, { closed: false });
        for (let k = j + 1; k < close; k++) {
          const h = text[k];
          if (h === '"' || h === "'" || h === '{') return this.emit('unreadable', quoteAt, text.length, { closed: false });
        }
        j = close + 1;
        continue;
      }
      j++;
    }
  }

  private cppRawString(quoteAt: number): CToken {
    const { text } = this;
    const open = text.indexOf('(', quoteAt + 1);
    if (open < 0 || open - quoteAt > 17) return this.emit('unreadable', quoteAt, text.length, { closed: false });
    const delimiter = text.slice(quoteAt + 1, open);
    const close = text.indexOf(`)${delimiter}"`, open + 1);
    if (close < 0) return this.emit('string', quoteAt, text.length, { closed: false, form: 'raw' });
    return this.emit('string', quoteAt, close + delimiter.length + 2, { form: 'raw' });
  }

  /** Rust r"..", r#".."#, br".." and cr"..", or null when `start` begins a plain name. */
  private rustRawString(start: number): CToken | null {
    const { text } = this;
    let j = start;
    if (text[j] === 'b' || text[j] === 'c') j++;
    if (text[j] !== 'r') return null;
    j++;
    let hashes = 0;
    while (text[j] === '#') {
      hashes++;
      j++;
    }
    if (text[j] !== '"') return null;
    const closer = '"' + '#'.repeat(hashes);
    const close = text.indexOf(closer, j + 1);
    if (close < 0) return this.emit('string', start, text.length, { closed: false, form: 'raw' });
    return this.emit('string', start, close + closer.length, { form: 'raw' });
  }

  private punct(start: number): CToken {
    const { text } = this;
    let op = text[start] as string;
    if (this.js) op = operatorAt(text, start, JS_OPS);
    else if (codePointLength(text, start) === 2) op = text.slice(start, start + 2);
    const end = start + op.length;
    if (this.js && op.startsWith('/')) {
      const previous = this.previous;
      const afterBrace = previous !== null && previous.kind === 'punct' && text[previous.start] === '}' && previous.end === previous.start + 1;
      return this.emit('punct', start, end, afterBrace ? { afterBrace } : undefined);
    }
    if (op === '(' || op === '[' || op === '{') {
      this.open.push(op);
      return this.emit('punct', start, end);
    }
    const opener = CLOSER_OF[op];
    if (opener === undefined) return this.emit('punct', start, end);
    const top = this.open.at(-1);
    if (op === '}' && top === '${') {
      this.open.pop();
      this.openHoles--;
      return this.emit('punct', start, end, { closes: 'hole' });
    }
    if (top === opener) {
      this.open.pop();
      return this.emit('punct', start, end, { closes: 'bracket' });
    }
    return this.emit('punct', start, end, { closes: 'nothing' });
  }
}
