/**
 * The trivial-edit lexer (seed: "Trivial edits", "Shell scripts"): turns a piece of code into its
 * compared form (comments removed except directives, blank lines dropped, blanks between tokens
 * folded to one space) or null when it cannot read the text with confidence. One linear pass.
 */
import { isCFamily, type ProfileLanguage } from './languages.js';
import { isDirectiveComment } from './directives.js';
import { isIdentChar, splitLines } from './text.js';

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
    if (isCFamily(language) && ch === '?' && text.startsWith('??/', i)) giveUp();
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

function lineEnd(text: string, from: number): number {
  let i = from;
  while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
  return i;
}

/** Scan a single-line quoted string starting at `start`; returns the index after its closing quote. */
function singleLineString(text: string, start: number, quote: string, forbidDollar: boolean): number {
  let j = start + 1;
  while (j < text.length) {
    const c = text[j];
    if (c === '\\') {
      j += 2;
      continue;
    }
    if (c === '\n' || c === '\r') giveUp();
    if (forbidDollar && c === '$') giveUp();
    if (c === quote) return j + 1;
    j++;
  }
  return giveUp();
}

function codePointLength(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return code >= 0xd800 && code <= 0xdbff ? 2 : 1;
}

/** Python-style string prefix letters right before a quote (f, r, b, u and combinations). */
function stringPrefix(text: string, quoteAt: number): string {
  let i = quoteAt;
  while (i > 0 && isIdentChar(text[i - 1])) i--;
  return text.slice(i, quoteAt).toLowerCase();
}

/** Skip over a line break at `i` (\r\n counts once); returns the index of its last char. */
function breakEnd(text: string, i: number): number {
  return text[i] === '\r' && text[i + 1] === '\n' ? i + 1 : i;
}

function lexCFamily(text: string, language: ProfileLanguage, out: CodeWriter): void {
  const js = language === 'javascript' || language === 'typescript';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    const next = text[i + 1];
    if (ch === '\n' || ch === '\r') {
      out.endLine();
      i = breakEnd(text, i);
      continue;
    }
    if (ch === ' ' || ch === '\t' || ch === '\f' || ch === '\v') {
      out.blank();
      continue;
    }
    if (ch === '/' && next === '/') {
      const end = lineEnd(text, i);
      const body = text.slice(i + 2, end);
      if (isDirectiveComment('//', body, language)) out.code(text.slice(i, end));
      else out.blank();
      i = end - 1;
      continue;
    }
    if (ch === '/' && next === '*') {
      const close = text.indexOf('*/', i + 2);
      if (close < 0) giveUp();
      const body = text.slice(i + 2, close);
      if (body.includes('/*')) giveUp();
      if (isDirectiveComment('/*', body, language)) out.code(text.slice(i, close + 2));
      else out.comment(body);
      i = close + 1;
      continue;
    }
    if (js) {
      if (ch === '/') giveUp(); // division and regex literals cannot be told apart
      if (ch === '<' && (next === '/' || next === '>' || next === '!' || (next !== undefined && isIdentChar(next)))) giveUp();
      if (ch === '-' && text.startsWith('-->', i)) giveUp();
    }
    if (ch === '`' && (js || language === 'go')) giveUp();
    if (ch === '"') {
      if ((language === 'java' || language === 'kotlin' || language === 'csharp') && text.startsWith('"""', i)) giveUp();
      const prev = text[i - 1];
      if (language === 'csharp' && (prev === '@' || prev === '$')) giveUp();
      if (language === 'c' && prev === 'R') giveUp();
      const end = singleLineString(text, i, '"', language === 'kotlin');
      out.code(text.slice(i, end));
      i = end - 1;
      continue;
    }
    if (language === 'rust' && (ch === 'r' || ch === 'b') && !isIdentChar(text[i - 1])) {
      let j = i;
      if (text[j] === 'b') j++;
      if (text[j] === 'r') {
        j++;
        while (text[j] === '#') j++;
        if (text[j] === '"') giveUp(); // raw string
      }
    }
    if (ch === "'") {
      if (language === 'rust') {
        const afterChar = i + 1 + codePointLength(text, i + 1);
        if (next !== '\\' && text[afterChar] !== "'") {
          out.code(ch); // a lifetime or label
          continue;
        }
      }
      const end = singleLineString(text, i, "'", language === 'kotlin');
      out.code(text.slice(i, end));
      i = end - 1;
      continue;
    }
    out.code(ch);
  }
}

function lexPython(text: string, out: CodeWriter): void {
  let atLineStart = true;
  for (let i = 0; i < text.length; i++) {
    if (atLineStart) {
      let j = i;
      while (text[j] === ' ' || text[j] === '\t' || text[j] === '\f') j++;
      out.startLine(text.slice(i, j));
      atLineStart = false;
      i = j;
      if (i >= text.length) break;
    }
    const ch = text[i] as string;
    if (ch === '\n' || ch === '\r') {
      out.endLine();
      i = breakEnd(text, i);
      atLineStart = true;
      continue;
    }
    if (ch === ' ' || ch === '\t' || ch === '\f') {
      out.blank();
      continue;
    }
    if (ch === '#') {
      const end = lineEnd(text, i);
      if (isDirectiveComment('#', text.slice(i + 1, end), 'python')) out.code(text.slice(i, end));
      i = end - 1;
      continue;
    }
    if (ch === '"' || ch === "'") {
      const prefix = stringPrefix(text, i);
      if (prefix.includes('f') || prefix.includes('t')) giveUp(); // f-strings and template strings
      if (text.startsWith(ch + ch + ch, i)) giveUp();
      const end = singleLineString(text, i, ch, false);
      out.code(text.slice(i, end));
      i = end - 1;
      continue;
    }
    out.code(ch);
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
    else lexCFamily(text, language, out);
    return out.result();
  } catch (error) {
    if (error instanceof Uncertain) return null;
    throw error;
  }
}
