/**
 * The file context of a trivial check (seed: "File context"): apply each entry to the file as the
 * Edit tool would, compare the edit window before and after, and make sure the text above the
 * window ends in plain code. Anything it cannot follow answers "not trivial".
 */
import { CFamilyLexer, isCFamilyLanguage, jsMarkupIn, MARKUP_HTML_COMMENT, MARKUP_TAG, type CFamilyLanguage } from '../lexing/c-family.js';
import { endsWithContinuation, indexOnLine, isIdentChar } from '../lexing/chars.js';
import { PowerShellLexer } from '../lexing/powershell.js';
import { MAX_FIELD_NESTING, PythonLexer } from '../lexing/python.js';
import { ShellLexer } from '../lexing/shell.js';
import { allowsJsx, type ProfileLanguage } from './languages.js';
import { sameComparableCode } from './comparable.js';
import { splitLines, trimStart } from './text.js';

/** Largest file text (characters) the check works on, before or after an edit. */
const MAX_FILE_CHARS = 1024 * 1024;
/** Largest edit window (characters). */
const MAX_WINDOW_CHARS = 128 * 1024;
/** Scanning work allowed for one call (characters). */
const MAX_CONTEXT_WORK = 8 * 1024 * 1024;
/** Deepest nesting of templates, substitutions and interpolations the prefix scanner follows. */
const MAX_NESTING = MAX_FIELD_NESTING;

/** One Edit entry as the tool receives it. */
export interface EditEntry {
  oldString: string;
  newString: string;
  replaceAll?: boolean;
}

/** Work left for one call. */
interface WorkBudget {
  left: number;
}

function spend(budget: WorkBudget, amount: number): boolean {
  budget.left -= amount;
  return budget.left >= 0;
}

/** Patterns String.prototype.replace would expand in a replacement. */
function hasReplacementPattern(text: string): boolean {
  for (let i = text.indexOf('$'); i >= 0 && i < text.length - 1; i = text.indexOf('$', i + 1)) {
    const next = text[i + 1] as string;
    if (next === '$' || next === '&' || next === '`' || next === "'" || next === '<' || (next >= '0' && next <= '9')) return true;
  }
  return false;
}

/** Go files that import "C": the comment before the import is C code. */
function importsC(text: string): boolean {
  for (const line of splitLines(text)) {
    const t = trimStart(line);
    if (t === '"C"' || t.startsWith('"C" ') || t.startsWith('import "C"') || t.startsWith('import\t"C"')) return true;
    if (t.startsWith('import') && t.includes(' "C"')) return true;
  }
  return false;
}

/** Where an entry applies: the occurrences and the text after applying it. */
interface AppliedEntry {
  before: string;
  after: string;
  firstOffset: number;
  lastEnd: number;
  count: number;
}

/** Apply one entry as the tool would; null when the tool would refuse it (missing, ambiguous, empty). */
function applyEntry(text: string, entry: EditEntry, budget: WorkBudget): AppliedEntry | null {
  const { oldString, newString } = entry;
  if (oldString.length === 0) return null;
  const first = text.indexOf(oldString);
  if (!spend(budget, text.length)) return null;
  if (first < 0) return null;
  if (entry.replaceAll !== true) {
    if (text.indexOf(oldString, first + 1) >= 0) return null;
    const after = text.slice(0, first) + newString + text.slice(first + oldString.length);
    return { before: text, after, firstOffset: first, lastEnd: first + oldString.length, count: 1 };
  }
  const pieces = text.split(oldString);
  const count = pieces.length - 1;
  const lastEnd = text.length - (pieces[pieces.length - 1] as string).length;
  return { before: text, after: pieces.join(newString), firstOffset: first, lastEnd, count };
}

/** The window of an applied entry, before and after. */
function editWindow(applied: AppliedEntry, entry: EditEntry): { start: number; before: string; after: string } {
  const { before, after, firstOffset, lastEnd, count } = applied;
  const ownLineStart = before.lastIndexOf('\n', firstOffset - 1) + 1;
  const start = ownLineStart === 0 ? 0 : before.lastIndexOf('\n', ownLineStart - 2) + 1;
  const newlineAfter = before.indexOf('\n', lastEnd);
  const end = newlineAfter < 0 ? before.length : newlineAfter;
  const delta = count * (entry.newString.length - entry.oldString.length);
  return { start, before: before.slice(start, end), after: after.slice(start, end + delta) };
}

/** Thrown inside a prefix scanner when it cannot follow the text. */
class Lost extends Error {}
function lost(): never {
  throw new Lost();
}

/** C family and JS/TS: does `text` end in plain code? */
function cFamilyEndsPlain(text: string, language: CFamilyLanguage, jsx: boolean): boolean {
  const js = language === 'javascript' || language === 'typescript';
  const lexer = new CFamilyLexer(text, language);
  for (let token = lexer.next(); token !== null; token = lexer.next()) {
    switch (token.kind) {
      case 'line-comment':
        // a backslash at the end of a C line comment carries it onto the next line
        if (endsWithContinuation(text.slice(token.start, token.end), '\\')) lost();
        break;
      case 'block-comment':
      case 'regex':
        if (!token.closed) lost();
        break;
      case 'string':
        if (!token.closed) lost();
        if (language === 'kotlin' && token.form !== 'quoted-name' && text.slice(token.start, token.end).includes('${')) lost();
        break;
      case 'template':
        if (lexer.holes > MAX_NESTING || lexer.templateNesting > 2 * MAX_NESTING + 1) lost();
        break;
      case 'punct':
        if (js) {
          // HTML-like comments always, JSX tags where the file allows them
          const markup = jsMarkupIn(text, token.start, token.end);
          if ((markup & MARKUP_HTML_COMMENT) !== 0 || (jsx && (markup & MARKUP_TAG) !== 0)) lost();
        }
        // after `}` a `/` is a regex (after a block) or a division (after an object): follow only when it cannot matter
        if (token.afterBrace === true && indexOnLine(text, token.start + 1, '/"\'`') >= 0) lost();
        break;
      case 'unreadable':
        lost();
        break;
      default:
        break;
    }
  }
  return lexer.templateNesting === 0 && !endsWithContinuation(text, '\\');
}

function pythonEndsPlain(text: string): boolean {
  const lexer = new PythonLexer(text);
  for (let token = lexer.next(); token !== null; token = lexer.next()) {
    if (token.kind === 'string' && (!token.closed || token.fieldsUnreadable === true || token.continued === true)) lost();
  }
  return !endsWithContinuation(text, '\\');
}

/** POSIX shells: comments, quotes, $( ), heredocs. */
function shellEndsPlain(text: string): boolean {
  const lexer = new ShellLexer(text);
  for (let token = lexer.next(); token !== null; token = lexer.next()) {
    const inSubstitution = lexer.substitutionDepth > 0;
    switch (token.kind) {
      case 'unreadable':
        lost();
        break;
      case 'line-comment':
        if (inSubstitution) lost();
        break;
      case 'string':
      case 'heredoc-body':
        if (!token.closed || token.substitutes === true) lost();
        break;
      case 'heredoc':
        if (inSubstitution) lost();
        break;
      case 'substitution-open':
        if (lexer.substitutionDepth > MAX_NESTING) lost();
        break;
      case 'word':
        // `case x in a) ...` closes no substitution with its `)`
        if (inSubstitution && text.startsWith('case', token.start) && token.end - token.start === 4 && !isIdentChar(text[token.start - 1])) lost();
        break;
      default:
        break;
    }
  }
  return lexer.substitutionDepth === 0 && lexer.pendingHeredocs === 0 && !endsWithContinuation(text, '\\');
}

function powershellEndsPlain(text: string): boolean {
  const lexer = new PowerShellLexer(text);
  for (let token = lexer.next(); token !== null; token = lexer.next()) {
    if (token.kind === 'unreadable') lost();
    if ((token.kind === 'string' || token.kind === 'here-string' || token.kind === 'block-comment') && (!token.closed || token.substitutes === true)) lost();
  }
  return !endsWithContinuation(text, '`');
}

/** Does `prefix` (text above the window, ending at a line start) end in plain code? */
function prefixEndsInPlainCode(prefix: string, language: ProfileLanguage, path: string): boolean {
  try {
    switch (language) {
      case 'python':
        return pythonEndsPlain(prefix);
      case 'shell':
        return shellEndsPlain(prefix);
      case 'powershell':
        return powershellEndsPlain(prefix);
      case 'batch':
        return !endsWithContinuation(prefix, '^');
      default:
        return isCFamilyLanguage(language) && cFamilyEndsPlain(prefix, language, allowsJsx(path));
    }
  } catch (error) {
    if (error instanceof Lost) return false;
    throw error;
  }
}

/**
 * Is every entry of an Edit trivial against the file it applies to? Applies the entries in order,
 * compares each window with the lexer, and checks the text above each window.
 */
export function editsAreTrivial(fileText: string, entries: readonly EditEntry[], language: ProfileLanguage, path: string): boolean {
  if (fileText.length > MAX_FILE_CHARS) return false;
  if (language === 'go' && importsC(fileText)) return false;
  // a Java unicode escape anywhere above can open or close a comment or string before the lexer sees it
  if (language === 'java' && fileText.includes('\\u')) return false;
  const budget: WorkBudget = { left: MAX_CONTEXT_WORK };
  let text = fileText;
  for (const entry of entries) {
    if (hasReplacementPattern(entry.newString)) return false;
    const applied = applyEntry(text, entry, budget);
    if (applied === null || applied.after.length > MAX_FILE_CHARS) return false;
    const window = editWindow(applied, entry);
    if (window.before.length > MAX_WINDOW_CHARS || window.after.length > MAX_WINDOW_CHARS) return false;
    if (!spend(budget, window.before.length + window.after.length)) return false;
    if (!sameComparableCode(window.before, window.after, language)) return false;
    if (!spend(budget, window.start)) return false;
    if (!prefixEndsInPlainCode(text.slice(0, window.start), language, path)) return false;
    text = applied.after;
  }
  return true;
}
