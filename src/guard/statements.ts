/**
 * Small lexers for the replacement alone, before and after the parse: the size of its longest
 * statement in tokens (seed D11), and whether its last token ends a statement (word 15). They never
 * recurse, so no input can overrun the stack here.
 */
import type { GuardLanguage } from './languages.js';

interface Token {
  kind: 'name' | 'number' | 'string' | 'op' | 'regex' | 'template';
  text: string;
  /** A statement boundary precedes this token. */
  boundaryBefore: boolean;
  /** For `{` and `}` in JavaScript: the brace opens or closes a block (not an object literal). */
  block?: boolean;
}

interface Lexed {
  tokens: Token[];
  /** Why the text ends inside something: an open string, template, regex or comment. */
  unterminated: string | null;
  /** Brackets still open at the end, innermost last. */
  open: string[];
  /** A closing bracket that matched nothing. */
  strayClose: string | null;
  /** The last physical line ends with a backslash continuation (Python). */
  trailingBackslash: boolean;
}

const PY_OPS = ['**=', '//=', '>>=', '<<=', '...', '->', ':=', '**', '//', '>>', '<<', '<=', '>=', '==', '!=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '@='];
const JS_OPS = ['>>>=', '...', '===', '!==', '**=', '<<=', '>>=', '>>>', '&&=', '||=', '??=', '=>', '==', '!=', '<=', '>=', '&&', '||', '??', '?.', '++', '--', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '**', '<<', '>>'];
const CLOSERS: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

function isNameStart(c: string): boolean {
  return /[A-Za-z_$\u00c0-\uffff]/.test(c);
}
function isNamePart(c: string): boolean {
  return /[\w$\u00c0-\uffff]/.test(c);
}

/** End (exclusive) of the number literal starting at `start`: digits, letters, dots and exponent signs. */
function numberEnd(text: string, start: number): number {
  let j = start + 1;
  while (j < text.length && (/[\w.]/.test(text[j] ?? '') || (/[+-]/.test(text[j] ?? '') && /[eE]/.test(text[j - 1] ?? '')))) j++;
  return j;
}

function matchOp(text: string, i: number, ops: readonly string[]): string {
  for (const op of ops) if (text.startsWith(op, i)) return op;
  return text[i] ?? '';
}

function lexPython(text: string): Lexed {
  const tokens: Token[] = [];
  const open: string[] = [];
  let strayClose: string | null = null;
  let unterminated: string | null = null;
  let boundary = true;
  let trailingBackslash = false;
  let i = 0;
  const push = (kind: Token['kind'], value: string): void => {
    tokens.push({ kind, text: value, boundaryBefore: boundary });
    boundary = false;
  };
  while (i < text.length) {
    const c = text[i] ?? '';
    trailingBackslash = false;
    if (c === '#') {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    if (c === '\\' && (text[i + 1] === '\n' || (text[i + 1] === '\r' && text[i + 2] === '\n') || i + 1 === text.length)) {
      i += text[i + 1] === '\r' ? 3 : 2;
      trailingBackslash = i >= text.length;
      continue;
    }
    if (c === '\n') {
      if (open.length === 0) boundary = true;
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f') {
      i++;
      continue;
    }
    let prefix = '';
    if (isNameStart(c)) {
      let j = i;
      while (j < text.length && isNamePart(text[j] ?? '')) j++;
      const word = text.slice(i, j);
      if (!/^(r|u|b|f|br|rb|fr|rf)$/i.test(word) || (text[j] !== '"' && text[j] !== "'")) {
        push('name', word);
        i = j;
        continue;
      }
      prefix = word.toLowerCase();
      i = j;
    }
    const q = text[i] ?? '';
    if (q === '"' || q === "'") {
      const triple = text.startsWith(q.repeat(3), i);
      const start = i - prefix.length;
      i += triple ? 3 : 1;
      let closed = false;
      while (i < text.length) {
        const s = text[i];
        if (s === '\\') {
          i += 2;
          continue;
        }
        if (!triple && s === '\n') break;
        if (triple ? text.startsWith(q.repeat(3), i) : s === q) {
          i += triple ? 3 : 1;
          closed = true;
          break;
        }
        i++;
      }
      if (!closed) {
        unterminated ??= 'a string is left open';
        if (!triple) {
          push('string', text.slice(start, i));
          continue;
        }
      }
      push('string', text.slice(start, i));
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(text[i + 1] ?? ''))) {
      const j = numberEnd(text, i);
      push('number', text.slice(i, j));
      i = j;
      continue;
    }
    const op = matchOp(text, i, PY_OPS);
    if (op === '(' || op === '[' || op === '{') open.push(op);
    else if (op in CLOSERS) {
      if (open.at(-1) === CLOSERS[op]) open.pop();
      else strayClose ??= op;
    }
    push('op', op);
    if (op === ';' && open.length === 0) boundary = true;
    i += op.length;
  }
  return { tokens, unterminated, open, strayClose, trailingBackslash };
}

const REGEX_AFTER_KEYWORD = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await']);

function regexAllowed(previous: Token | undefined): boolean {
  if (!previous) return true;
  if (previous.kind === 'name') return REGEX_AFTER_KEYWORD.has(previous.text);
  if (previous.kind === 'op') return ![')', ']', '}', '++', '--'].includes(previous.text);
  return false;
}

/** Tokens after which a name still expects an expression, so a `{` after them is an object. */
const EXPRESSION_KEYWORDS = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'yield', 'await']);

/**
 * Whether a `{` opens a block rather than an object literal, from the token before it: a block
 * follows `)` (function, if, for, switch), `=>`, `;`, a block's braces, `else`/`try`/`finally`/`do`,
 * or a declaration's name (`class A {`); at the start, only where a statement may start. Anything
 * else (`=`, `(`, `,`, `:`, `?`, `return`) is an object, which is counted with its statement.
 */
function opensBlock(previous: Token | undefined, atStatementLevel: boolean): boolean {
  if (!previous) return atStatementLevel;
  if (previous.kind === 'op') return previous.text === ')' || previous.text === '=>' || previous.text === ';' || ((previous.text === '{' || previous.text === '}') && previous.block === true);
  if (previous.kind === 'name') return !EXPRESSION_KEYWORDS.has(previous.text);
  return false;
}

function lexJavaScript(text: string): Lexed {
  const tokens: Token[] = [];
  // Brackets, plus '`' for a template and '${' for an expression inside one.
  const open: string[] = [];
  let strayClose: string | null = null;
  let unterminated: string | null = null;
  let newlineBefore = false;
  let i = 0;
  // For each '{' in `open`: whether it opened a block. Only a block's braces end statements: the
  // braces of an object literal are part of the expression, and nesting them must count (seed D11).
  const braceIsBlock: boolean[] = [];
  const push = (kind: Token['kind'], value: string, block?: boolean): void => {
    const previous = tokens.at(-1);
    const top = open.at(-1);
    // A line break ends a statement when no ( or [ is open and the lines on both sides are complete.
    const lineBoundary =
      newlineBefore &&
      (top === undefined || (top === '{' && braceIsBlock.at(-1) === true)) &&
      previous !== undefined &&
      (previous.kind !== 'op' || [')', ']', '}', '++', '--'].includes(previous.text)) &&
      kind !== 'op';
    const afterBoundaryOp = previous?.kind === 'op' && (previous.text === ';' || ((previous.text === '{' || previous.text === '}') && previous.block === true));
    tokens.push({ kind, text: value, boundaryBefore: tokens.length === 0 || lineBoundary || afterBoundaryOp, ...(block === undefined ? {} : { block }) });
    newlineBefore = false;
  };
  const scanTemplateChunk = (): void => {
    // i is just after '`' or after the '}' closing a `${`; read to '`' or '${'.
    while (i < text.length) {
      const s = text[i];
      if (s === '\\') {
        i += 2;
        continue;
      }
      if (s === '`') {
        i++;
        open.pop();
        push('template', '`');
        return;
      }
      if (s === '$' && text[i + 1] === '{') {
        i += 2;
        open.push('${');
        push('op', '${');
        return;
      }
      i++;
    }
    unterminated ??= 'a template string is left open';
  };
  while (i < text.length) {
    const c = text[i] ?? '';
    if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) {
        unterminated ??= 'a block comment is left open';
        break;
      }
      if (text.slice(i, end).includes('\n')) newlineBefore = true;
      i = end + 2;
      continue;
    }
    if (c === '\n') {
      newlineBefore = true;
      i++;
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (isNameStart(c) || c === '#') {
      let j = i + 1;
      while (j < text.length && isNamePart(text[j] ?? '')) j++;
      push('name', text.slice(i, j));
      i = j;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      let closed = false;
      while (j < text.length) {
        const s = text[j];
        if (s === '\\') {
          j += 2;
          continue;
        }
        if (s === '\n') break;
        if (s === c) {
          closed = true;
          j++;
          break;
        }
        j++;
      }
      if (!closed) unterminated ??= 'a string is left open';
      push('string', text.slice(i, j));
      i = j;
      continue;
    }
    if (c === '`') {
      i++;
      open.push('`');
      scanTemplateChunk();
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(text[i + 1] ?? ''))) {
      const j = numberEnd(text, i);
      push('number', text.slice(i, j));
      i = j;
      continue;
    }
    if (c === '/' && regexAllowed(tokens.at(-1))) {
      let j = i + 1;
      let inClass = false;
      let closed = false;
      while (j < text.length && text[j] !== '\n') {
        const s = text[j];
        if (s === '\\') {
          j += 2;
          continue;
        }
        if (s === '[') inClass = true;
        else if (s === ']') inClass = false;
        else if (s === '/' && !inClass) {
          closed = true;
          j++;
          break;
        }
        j++;
      }
      if (!closed) unterminated ??= 'a regular expression is left open';
      while (j < text.length && isNamePart(text[j] ?? '')) j++;
      push('regex', text.slice(i, j));
      i = j;
      continue;
    }
    const op = matchOp(text, i, JS_OPS);
    i += op.length;
    if (op === '}' && open.at(-1) === '${') {
      open.pop();
      push('op', '}');
      scanTemplateChunk();
      continue;
    }
    if (op === '{') {
      const block = opensBlock(tokens.at(-1), open.at(-1) === undefined || (open.at(-1) === '{' && braceIsBlock.at(-1) === true));
      open.push(op);
      braceIsBlock.push(block);
      push('op', op, block);
      continue;
    }
    if (op === '(' || op === '[') open.push(op);
    else if (op in CLOSERS) {
      if (open.at(-1) === CLOSERS[op]) {
        open.pop();
        if (op === '}') {
          push('op', op, braceIsBlock.pop() === true);
          continue;
        }
      } else strayClose ??= op;
    }
    push('op', op);
  }
  return { tokens, unterminated, open, strayClose, trailingBackslash: false };
}

function lex(text: string, language: GuardLanguage): Lexed {
  return language === 'python' ? lexPython(text) : lexJavaScript(text);
}

/** The number of tokens in the longest statement of the text (an approximation that never undercounts a chain). */
export function longestStatementTokens(text: string, language: GuardLanguage): number {
  const { tokens } = lex(text, language);
  let longest = 0;
  let current = 0;
  for (const token of tokens) {
    if (token.boundaryBefore) current = 0;
    current++;
    if (current > longest) longest = current;
  }
  return longest;
}

const JS_KEYWORDS_NEEDING_MORE = new Set([
  'if', 'else', 'for', 'while', 'do', 'with', 'new', 'typeof', 'void', 'delete', 'await', 'in', 'instanceof', 'of',
  'const', 'let', 'var', 'function', 'class', 'extends', 'export', 'import', 'case', 'throw', 'try', 'catch', 'finally',
  'switch', 'async', 'abstract', 'declare', 'type', 'interface', 'enum', 'namespace', 'implements',
]);
const JS_HEADERS = new Set(['if', 'for', 'while', 'with']);

/** The index of the '(' matching the ')' at `close`, or -1. */
function matchingOpen(tokens: readonly Token[], close: number): number {
  let depth = 0;
  for (let k = close; k >= 0; k--) {
    const t = tokens[k];
    if (t?.kind !== 'op') continue;
    if (t.text === ')') depth++;
    else if (t.text === '(') {
      depth--;
      if (depth === 0) return k;
    }
  }
  return -1;
}

/**
 * Why the replacement would change how the lines after it are read, or null when its last token ends
 * a statement. `nextLine` is the first line after the replaced range (JavaScript's automatic
 * semicolons depend on it).
 */
export function runsPastItsRange(text: string, language: GuardLanguage, nextLine: string | null): string | null {
  const lexed = lex(text, language);
  if (lexed.unterminated) return `${lexed.unterminated} at its end, so it would swallow the lines after it`;
  if (lexed.strayClose) return `it closes a "${lexed.strayClose}" it did not open`;
  const innermost = lexed.open.at(-1);
  if (innermost) return `a "${innermost}" is left open at its end, so the lines after it would continue it`;
  if (lexed.trailingBackslash) return 'it ends with a backslash, which joins the line after it';
  const tokens = lexed.tokens;
  const last = tokens.at(-1);
  if (!last) return null;
  // The last statement starts at the last boundary.
  let statementStart = tokens.length - 1;
  while (statementStart > 0 && !tokens[statementStart]?.boundaryBefore) statementStart--;
  const first = tokens[statementStart];
  if (first?.kind === 'op' && first.text === '@') return 'it ends with a decorator, which would apply to the line after it';
  if (language === 'python') {
    if (last.kind === 'op' && last.text === ':') return 'it ends with a block header, whose body would be the lines after it';
    return null;
  }
  if (last.kind === 'op' && ![';', ')', ']', '}', '++', '--'].includes(last.text)) {
    return `it ends with "${last.text}", so the expression continues into the lines after it`;
  }
  if (last.kind === 'name' && JS_KEYWORDS_NEEDING_MORE.has(last.text)) {
    return `it ends with the keyword "${last.text}", which reads the lines after it`;
  }
  if (last.kind === 'op' && last.text === ')') {
    const opener = matchingOpen(tokens, tokens.length - 1);
    const before = tokens[opener - 1];
    if (before?.kind === 'name' && JS_HEADERS.has(before.text)) {
      return `it ends with an "${before.text} (...)" whose body would be the line after it`;
    }
  }
  if (!(last.kind === 'op' && (last.text === ';' || last.text === '}')) && nextLine !== null && /^\s*[([`+\-/]/.test(nextLine)) {
    return 'its last statement has no semicolon and the next line starts with a character that would continue it';
  }
  return null;
}
