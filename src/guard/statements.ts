/**
 * Small lexers for the replacement alone, before and after the parse: the size of its longest
 * statement in tokens (seed D11), and whether its last token ends a statement (word 15). They never
 * recurse, so no input can overrun the stack here.
 */
import { CFamilyLexer } from '../lexing/c-family.js';
import { PythonLexer } from '../lexing/python.js';
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

/** The guard's statement tokens of Python, from the Python lexer core. */
function lexPython(text: string): Lexed {
  const tokens: Token[] = [];
  let strayClose: string | null = null;
  let unterminated: string | null = null;
  let boundary = true;
  let trailingBackslash = false;
  const lexer = new PythonLexer(text);
  const push = (kind: Token['kind'], value: string): void => {
    tokens.push({ kind, text: value, boundaryBefore: boundary });
    boundary = false;
  };
  for (let token = lexer.next(); token !== null; token = lexer.next()) {
    trailingBackslash = token.kind === 'continuation';
    const value = text.slice(token.start, token.end);
    switch (token.kind) {
      case 'newline':
        if (lexer.opened.length === 0) boundary = true;
        break;
      case 'string':
        if (!token.closed) unterminated ??= 'a string is left open';
        push('string', value);
        break;
      case 'name':
      case 'number':
        push(token.kind, value);
        break;
      case 'op':
        if (token.closes === 'nothing') strayClose ??= value;
        push('op', value);
        if (value === ';' && lexer.opened.length === 0) boundary = true;
        break;
      default: // blanks, comments and continuations separate tokens only
        break;
    }
  }
  return { tokens, unterminated, open: [...lexer.opened], strayClose, trailingBackslash };
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

/** The guard's statement tokens of JavaScript and TypeScript, from the C-family lexer core. */
function lexJavaScript(text: string): Lexed {
  const tokens: Token[] = [];
  let strayClose: string | null = null;
  let unterminated: string | null = null;
  let newlineBefore = false;
  // For each '{' the core holds open: whether it opened a block. Only a block's braces end statements:
  // the braces of an object literal are part of the expression, and nesting them must count (seed D11).
  const braceIsBlock: boolean[] = [];
  const lexer = new CFamilyLexer(text, 'javascript');
  const push = (kind: Token['kind'], value: string, block?: boolean): void => {
    const previous = tokens.at(-1);
    const top = lexer.opened.at(-1);
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
  for (let token = lexer.next(); token !== null; token = lexer.next()) {
    const value = text.slice(token.start, token.end);
    switch (token.kind) {
      case 'newline':
        newlineBefore = true;
        break;
      case 'block-comment':
        if (!token.closed) unterminated ??= 'a block comment is left open';
        else if (value.includes('\n')) newlineBefore = true;
        break;
      case 'word':
        push('name', value);
        break;
      case 'number':
        push('number', value);
        break;
      case 'string':
        if (!token.closed) unterminated ??= 'a string is left open';
        push('string', value);
        break;
      case 'regex':
        if (!token.closed) unterminated ??= 'a regular expression is left open';
        push('regex', value);
        break;
      case 'template':
        if (token.templateEnd === 'close') push('template', '`');
        else if (token.templateEnd === 'hole') push('op', '${');
        else unterminated ??= 'a template string is left open';
        break;
      case 'punct':
        if (value === '{') {
          const outer = lexer.opened.at(-2);
          const block = opensBlock(tokens.at(-1), outer === undefined || (outer === '{' && braceIsBlock.at(-1) === true));
          braceIsBlock.push(block);
          push('op', value, block);
        } else if (value === '}' && token.closes === 'bracket') push('op', value, braceIsBlock.pop() === true);
        else {
          if (token.closes === 'nothing') strayClose ??= value;
          push('op', value);
        }
        break;
      default: // blanks and line comments separate tokens only
        break;
    }
  }
  return { tokens, unterminated, open: [...lexer.opened], strayClose, trailingBackslash: false };
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
