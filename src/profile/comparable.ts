/**
 * The trivial-edit lexer (seed: "Trivial edits", "Shell scripts"): turns a piece of code into its
 * compared form (comments removed except directives, blank lines dropped, blanks between tokens
 * folded to one space) or null when it cannot read the text with confidence. One linear pass.
 */
import { CFamilyLexer, isCFamilyLanguage, type CFamilyLanguage } from '../lexing/c-family.js';
import { isAsciiBlank, isIdentChar, lineEnd } from '../lexing/chars.js';
import { PythonLexer } from '../lexing/python.js';
import type { ProfileLanguage } from './languages.js';
import { isDirectiveComment } from './directives.js';
import { splitLines } from './text.js';

/** A refusal: the lexer gave up, so the entry is not trivial. */
class Uncertain extends Error {}

function giveUp(): never {
  throw new Uncertain();
}

/** Builds the compared lines: blanks fold to one space, verbatim pieces (strings, directives) are kept. */
class CodeWriter {
  readonly lines: string[] = [];
  private current = '';
  private pendingSpace = false;
  private indent = '';
  constructor(private readonly keepIndent: boolean) {}

  /** Record the leading blanks of a line (Python keeps them as code). */
  startLine(indent: string): void {
    this.indent = indent;
  }
  blank(): void {
    this.pendingSpace = true;
  }
  code(text: string): void {
    if (this.pendingSpace && this.current.length > 0) this.current += ' ';
    this.pendingSpace = false;
    this.current += text;
  }
  endLine(): void {
    if (this.current.length > 0) this.lines.push(this.keepIndent ? this.indent + this.current : this.current);
    this.current = '';
    this.indent = '';
    this.pendingSpace = false;
  }
  /** A dropped block comment: a separator, whose line breaks still end lines. */
  comment(body: string): void {
    for (let k = 0; k < body.length; k++) {
      if (body[k] === '\n' || body[k] === '\r') {
        this.endLine();
        k = breakEnd(body, k);
      }
    }
    this.blank();
  }
  result(): string {
    this.endLine();
    return this.lines.join('\n');
  }
}

const TYPOGRAPHIC_QUOTES = '\u2018\u2019\u201a\u201b\u201c\u201d\u201e';

/** Checks every language shares: line separators the lexer does not split on, and continuations. */
function precheck(text: string, language: ProfileLanguage): void {
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === '\u2028' || ch === '\u2029' || ch === '\u0085') giveUp();
    if (language === 'shell' && ch === '\r' && text[i + 1] !== '\n') giveUp();
    if (language === 'powershell' && TYPOGRAPHIC_QUOTES.includes(ch)) giveUp();
    if (isCFamilyLanguage(language) && ch === '?' && text.startsWith('??/', i)) giveUp();
    // Java turns \uXXXX escapes into characters before it lexes, so `// \u000a code` runs the code
    if (language === 'java' && ch === '\\' && text[i + 1] === 'u') giveUp();
  }
  for (const line of splitLines(text)) {
    let end = line.length;
    while (end > 0 && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--;
    const last = line[end - 1];
    if (language === 'batch') {
      if (last === '^') giveUp();
    } else if (last === '\\') giveUp();
    if (language === 'powershell' && last === '`') giveUp();
  }
}

/** Skip over a line break at `i` (\r\n counts once); returns the index of its last char. */
function breakEnd(text: string, i: number): number {
  return text[i] === '\r' && text[i + 1] === '\n' ? i + 1 : i;
}

/** Blanks fold; other white space (JS reads U+00A0 as a blank, C does not) stays code. */
function writeBlanks(run: string, out: CodeWriter): void {
  for (const ch of run) {
    if (isAsciiBlank(ch)) out.blank();
    else out.code(ch);
  }
}

/** JS text where `<` may open JSX or an HTML comment, or `-->` closes one. */
function looksLikeMarkup(text: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) {
    if (text.startsWith('-->', k)) return true;
    const next = text[k + 1];
    if (text[k] === '<' && (next === '/' || next === '>' || next === '!' || (next !== undefined && isIdentChar(next)))) return true;
  }
  return false;
}

function lexCFamily(text: string, language: CFamilyLanguage, out: CodeWriter): void {
  const js = language === 'javascript' || language === 'typescript';
  const lexer = new CFamilyLexer(text, language);
  for (let token = lexer.next(); token !== null; token = lexer.next()) {
    const piece = text.slice(token.start, token.end);
    switch (token.kind) {
      case 'newline':
        out.endLine();
        break;
      case 'blank':
        writeBlanks(piece, out);
        break;
      case 'line-comment':
        if (isDirectiveComment('//', piece.slice(2), language)) out.code(piece);
        else out.blank();
        break;
      case 'block-comment': {
        if (!token.closed || token.nestedOpen === true) giveUp();
        const body = piece.slice(2, -2);
        if (isDirectiveComment('/*', body, language)) out.code(piece);
        else out.comment(body);
        break;
      }
      case 'string':
        // only one-line strings are read; every multi-line form, and Kotlin's $ templates, give up
        if (!token.closed || (token.form !== 'quoted' && token.form !== 'quoted-name')) giveUp();
        if (language === 'kotlin' && piece.includes('$')) giveUp();
        out.code(piece);
        break;
      case 'punct':
        // division and regex literals cannot be told apart; nor JSX from a comparison
        if (js && (piece.includes('/') || looksLikeMarkup(text, token.start, token.end))) giveUp();
        out.code(piece);
        break;
      case 'word':
      case 'number':
        out.code(piece);
        break;
      default: // templates, regex literals, unreadable strings
        giveUp();
    }
  }
}

function lexPython(text: string, out: CodeWriter): void {
  let atLineStart = true;
  const lexer = new PythonLexer(text);
  for (let token = lexer.next(); token !== null; token = lexer.next()) {
    const piece = text.slice(token.start, token.end);
    if (atLineStart) {
      atLineStart = false;
      if (token.kind === 'blank') {
        out.startLine(piece);
        continue;
      }
      out.startLine('');
    }
    switch (token.kind) {
      case 'newline':
        out.endLine();
        atLineStart = true;
        break;
      case 'blank':
        out.blank();
        break;
      case 'comment':
        if (isDirectiveComment('#', piece.slice(1), 'python')) out.code(piece);
        break;
      case 'string':
        // f-strings, template strings and triple quotes can hold code or line breaks
        if (token.formatted === true || token.triple === true || !token.closed || token.continued === true) giveUp();
        out.code(piece);
        break;
      case 'continuation':
        giveUp();
        break;
      default:
        out.code(piece);
    }
  }
}

function isCommentPosition(text: string, i: number): boolean {
  const prev = text[i - 1];
  return prev === undefined || prev === '\n' || prev === '\r' || prev === ' ' || prev === '\t' || prev === ';';
}

function lexPosixShell(text: string, out: CodeWriter): void {
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    const next = text[i + 1];
    if (ch === '\n' || ch === '\r') {
      out.endLine();
      i = breakEnd(text, i);
      continue;
    }
    if (ch === ' ' || ch === '\t') {
      out.blank();
      continue;
    }
    if (ch === '`') giveUp();
    if (ch === '<' && next === '<') giveUp(); // heredocs, here-strings, shifts
    if (ch === '#') {
      const prev = text[i - 1];
      if (prev === '(' || prev === ')' || prev === '|' || prev === '&' || prev === '<' || prev === '>') giveUp();
      if (isCommentPosition(text, i)) {
        const end = lineEnd(text, i);
        if (isDirectiveComment('#', text.slice(i + 1, end), 'shell')) out.code(text.slice(i, end));
        else out.blank();
        i = end - 1;
        continue;
      }
      out.code(ch);
      continue;
    }
    if (ch === '\\') {
      if (next === undefined || next === '\n' || next === '\r') giveUp();
      out.code(text.slice(i, i + 2));
      i++;
      continue;
    }
    if (ch === "'") {
      if (text[i - 1] === '$') giveUp(); // $'...' has its own escapes
      const close = text.indexOf("'", i + 1);
      const end = lineEnd(text, i);
      if (close < 0 || close > end) giveUp();
      out.code(text.slice(i, close + 1));
      i = close;
      continue;
    }
    if (ch === '"') {
      let j = i + 1;
      for (;;) {
        const c = text[j];
        if (c === undefined || c === '\n' || c === '\r' || c === '`') giveUp();
        if (c === '\\') {
          j += 2;
          continue;
        }
        if (c === '$' && text[j + 1] === '(') giveUp();
        if (c === '$' && text[j + 1] === '{') {
          let k = j + 2;
          while (text[k] !== undefined && text[k] !== '}') {
            const inner = text[k];
            if (inner === '"' || inner === "'" || inner === '\n' || inner === '\r' || inner === '`' || inner === '$') giveUp();
            k++;
          }
          if (text[k] === undefined) giveUp();
          j = k + 1;
          continue;
        }
        if (c === '"') break;
        j++;
      }
      out.code(text.slice(i, j + 1));
      i = j;
      continue;
    }
    out.code(ch);
  }
}

function lexPowerShell(text: string, out: CodeWriter): void {
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    const next = text[i + 1];
    if (ch === '\n' || ch === '\r') {
      out.endLine();
      i = breakEnd(text, i);
      continue;
    }
    if (ch === ' ' || ch === '\t') {
      out.blank();
      continue;
    }
    if (ch === '@' && (next === '"' || next === "'")) giveUp(); // here-strings
    if (ch === '<' && next === '#') {
      if (!isCommentPosition(text, i)) giveUp();
      const close = text.indexOf('#>', i + 2);
      if (close < 0) giveUp();
      const body = text.slice(i + 2, close);
      if (body.includes('<#')) giveUp();
      if (isDirectiveComment('<#', body, 'powershell')) out.code(text.slice(i, close + 2));
      else out.comment(body);
      i = close + 1;
      continue;
    }
    if (ch === '#') {
      if (!isCommentPosition(text, i)) giveUp();
      const end = lineEnd(text, i);
      if (isDirectiveComment('#', text.slice(i + 1, end), 'powershell')) out.code(text.slice(i, end));
      else out.blank();
      i = end - 1;
      continue;
    }
    if (ch === '`') {
      if (next === undefined || next === '\n' || next === '\r') giveUp();
      out.code(text.slice(i, i + 2));
      i++;
      continue;
    }
    if (ch === "'") {
      let j = i + 1;
      for (;;) {
        const c = text[j];
        if (c === undefined || c === '\n' || c === '\r') giveUp();
        if (c === "'" && text[j + 1] === "'") {
          j += 2;
          continue;
        }
        if (c === "'") break;
        j++;
      }
      out.code(text.slice(i, j + 1));
      i = j;
      continue;
    }
    if (ch === '"') {
      let j = i + 1;
      for (;;) {
        const c = text[j];
        if (c === undefined || c === '\n' || c === '\r') giveUp();
        if (c === '`') {
          j += 2;
          continue;
        }
        if (c === '$' && text[j + 1] === '(') giveUp();
        if (c === '"' && text[j + 1] === '"') {
          j += 2;
          continue;
        }
        if (c === '"') break;
        j++;
      }
      out.code(text.slice(i, j + 1));
      i = j;
      continue;
    }
    out.code(ch);
  }
}

const BATCH_REM_FORBIDDEN = '%^&|<>()';

function lexBatch(text: string): string {
  const kept: string[] = [];
  for (const line of splitLines(text)) {
    let i = 0;
    while (line[i] === ' ' || line[i] === '\t') i++;
    if (i === line.length) continue; // blank line
    let j = i;
    if (line[j] === '@') {
      j++;
      while (line[j] === ' ' || line[j] === '\t') j++;
    }
    const word = line.slice(j, j + 3).toLowerCase();
    const after = line[j + 3];
    if (word === 'rem' && (after === undefined || after === ' ' || after === '\t')) {
      const body = line.slice(j + 3);
      for (const c of BATCH_REM_FORBIDDEN) if (body.includes(c)) giveUp();
      if (isDirectiveComment('rem', body, 'batch')) kept.push(line);
      continue;
    }
    kept.push(line); // code lines are compared exactly: echo keeps its spacing
  }
  return kept.join('\n');
}

/**
 * The compared form of `text`, or null when the lexer cannot read it with confidence. Two texts
 * with equal compared forms differ only in ordinary comments and blanks between tokens.
 */
export function comparableCode(text: string, language: ProfileLanguage): string | null {
  try {
    precheck(text, language);
    if (language === 'batch') return lexBatch(text);
    const out = new CodeWriter(language === 'python');
    if (language === 'python') lexPython(text, out);
    else if (language === 'shell') lexPosixShell(text, out);
    else if (language === 'powershell') lexPowerShell(text, out);
    else if (isCFamilyLanguage(language)) lexCFamily(text, language, out);
    return out.result();
  } catch (error) {
    if (error instanceof Uncertain) return null;
    throw error;
  }
}
