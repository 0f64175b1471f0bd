/**
 * The trivial-edit lexer (seed: "Trivial edits", "Shell scripts"): turns a piece of code into its
 * compared form (comments removed except directives, blank lines dropped, blanks between tokens
 * folded to one space) or null when it cannot read the text with confidence. One linear pass.
 */
import { CFamilyLexer, isCFamilyLanguage, jsMarkupIn, type CFamilyLanguage } from '../lexing/c-family.js';
import { isAsciiBlank, splitLines } from '../lexing/chars.js';
import { batchLines } from '../lexing/batch.js';
import { PowerShellLexer } from '../lexing/powershell.js';
import { PythonLexer } from '../lexing/python.js';
import { ShellLexer } from '../lexing/shell.js';
import type { ProfileLanguage } from './languages.js';
import { isDirectiveComment } from './directives.js';

/** A refusal: the lexer gave up, so the entry is not trivial. */
class Uncertain extends Error {}

function giveUp(): never {
  throw new Uncertain();
}

/** Builds the compared lines: blanks fold to one space, verbatim pieces (strings, directives) are kept. */
class CodeWriter {
  private readonly lines: string[] = [];
  private current = '';
  private pendingSpace = false;
  private indent = '';
  /** How much of `expected` the lines so far have matched, when writing against one. */
  private matched = 0;
  private lineCount = 0;
  /**
   * With `expected`, the writer checks each finished line against that compared form and gives up at
   * the first difference: the caller only wants to know whether the two are equal.
   */
  constructor(
    private readonly keepIndent: boolean,
    private readonly expected: string | null = null,
  ) {}

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
    if (this.current.length > 0) this.push(this.keepIndent ? this.indent + this.current : this.current);
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
    if (this.expected === null) return this.lines.join('\n');
    if (this.matched !== this.expected.length) giveUp();
    return this.expected;
  }

  private push(line: string): void {
    const first = this.lineCount++ === 0;
    if (this.expected === null) {
      this.lines.push(line);
      return;
    }
    // the joined form is compared, piece by piece, exactly as the two whole results would be
    const piece = first ? line : `\n${line}`;
    if (!this.expected.startsWith(piece, this.matched)) giveUp();
    this.matched += piece.length;
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

/** Line breaks, blanks and line comments, written alike in every language but Python (whose indentation is code). */
function writeLayout(kind: string, piece: string, marker: string, language: ProfileLanguage, out: CodeWriter): boolean {
  switch (kind) {
    case 'newline':
      out.endLine();
      return true;
    case 'blank':
      writeBlanks(piece, out);
      return true;
    case 'line-comment':
      if (isDirectiveComment(marker, piece.slice(marker.length), language)) out.code(piece);
      else out.blank();
      return true;
    default:
      return false;
  }
}

function lexCFamily(text: string, language: CFamilyLanguage, out: CodeWriter): void {
  const js = language === 'javascript' || language === 'typescript';
  const lexer = new CFamilyLexer(text, language);
  for (let token = lexer.next(); token !== null; token = lexer.next()) {
    const piece = text.slice(token.start, token.end);
    if (writeLayout(token.kind, piece, '//', language, out)) continue;
    switch (token.kind) {
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
        if (js && (piece.includes('/') || jsMarkupIn(text, token.start, token.end) !== 0)) giveUp();
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

function lexPosixShell(text: string, out: CodeWriter): void {
  const lexer = new ShellLexer(text);
  for (let token = lexer.next(); token !== null; token = lexer.next()) {
    const piece = text.slice(token.start, token.end);
    if (writeLayout(token.kind, piece, '#', 'shell', out)) continue;
    switch (token.kind) {
      case 'escape':
        if (piece[1] === '\r') giveUp();
        out.code(piece);
        break;
      case 'string':
        // one-line strings only: no $'...' escapes, no code inside "..."
        if (!token.closed || token.multiline === true || token.quote === 'ansi-c' || token.substitutes === true || token.parameterTrouble === true) giveUp();
        out.code(piece);
        break;
      case 'word':
      case 'substitution-open':
      case 'substitution-close':
        out.code(piece);
        break;
      case 'punct':
        if (piece === '<<<') giveUp(); // here-strings, like heredocs, are not compared
        out.code(piece);
        break;
      default: // continuations, heredocs, backticks, # after an operator
        giveUp();
    }
  }
}

function lexPowerShell(text: string, out: CodeWriter): void {
  const lexer = new PowerShellLexer(text);
  for (let token = lexer.next(); token !== null; token = lexer.next()) {
    const piece = text.slice(token.start, token.end);
    if (writeLayout(token.kind, piece, '#', 'powershell', out)) continue;
    switch (token.kind) {
      case 'block-comment': {
        if (token.atCommentStart !== true || !token.closed || token.nestedOpen === true) giveUp();
        const body = piece.slice(2, -2);
        if (isDirectiveComment('<#', body, 'powershell')) out.code(piece);
        else out.comment(body);
        break;
      }
      case 'string':
        if (!token.closed || token.multiline === true || token.substitutes === true) giveUp();
        out.code(piece);
        break;
      case 'escape':
      case 'word':
      case 'punct':
        out.code(piece);
        break;
      default: // here-strings, continuations, a # where no comment starts
        giveUp();
    }
  }
}

const BATCH_REM_FORBIDDEN = '%^&|<>()';

function lexBatch(text: string): string {
  const kept: string[] = [];
  for (const line of batchLines(text)) {
    if (line.kind === 'blank') continue;
    if (line.kind === 'remark') {
      for (const c of BATCH_REM_FORBIDDEN) if (line.body.includes(c)) giveUp();
      if (isDirectiveComment('rem', line.body, 'batch')) kept.push(line.text);
      continue;
    }
    kept.push(line.text); // code lines are compared exactly: echo keeps its spacing
  }
  return kept.join('\n');
}

/**
 * The compared form of `text`, or null when the lexer cannot read it with confidence. Two texts
 * with equal compared forms differ only in ordinary comments and blanks between tokens.
 */
export function comparableCode(text: string, language: ProfileLanguage): string | null {
  return comparableAgainst(text, language, null);
}

/**
 * Do `before` and `after` have the same compared form (both readable with confidence)? The same answer
 * as comparing two `comparableCode` results, but `after` is read only as far as it agrees.
 */
export function sameComparableCode(before: string, after: string, language: ProfileLanguage): boolean {
  if (differsOutsideAnyComment(before, after, language)) return false;
  const expected = comparableCode(before, language);
  return expected !== null && comparableAgainst(after, language, expected) !== null;
}

/** Every character a C-family lexer could treat as a blank or a line break, and then some. */
const BLANKS = /[\s\u0085]+/g;

/**
 * A cheap, exact "no": when neither C-family window can hold a comment or a line continuation (no `/`,
 * `#`, backslash, `<!--` or `-->`), equal compared forms would mean equal tokens, so texts that differ
 * with every blank removed cannot have equal compared forms. Most edits change code, and this spares
 * lexing both windows for them.
 */
function differsOutsideAnyComment(before: string, after: string, language: ProfileLanguage): boolean {
  if (!isCFamilyLanguage(language)) return false;
  const mayComment = (text: string): boolean => /[/#\\]/.test(text) || text.includes('<!--') || text.includes('-->');
  if (mayComment(before) || mayComment(after)) return false;
  return before.replace(BLANKS, '') !== after.replace(BLANKS, '');
}

function comparableAgainst(text: string, language: ProfileLanguage, expected: string | null): string | null {
  try {
    precheck(text, language);
    if (language === 'batch') {
      const lexed = lexBatch(text);
      return expected === null || lexed === expected ? lexed : null;
    }
    const out = new CodeWriter(language === 'python', expected);
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
