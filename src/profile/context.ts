/**
 * The file context of a trivial check (seed: "File context"): apply each entry to the file as the
 * Edit tool would, compare the edit window before and after, and make sure the text above the
 * window ends in plain code. Anything it cannot follow answers "not trivial".
 */
import { allowsJsx, type ProfileLanguage } from './languages.js';
import { comparableCode } from './comparable.js';
import { isIdentChar, splitLines, trimStart } from './text.js';

/** Largest file text (characters) the check works on, before or after an edit. */
export const MAX_FILE_CHARS = 1024 * 1024;
/** Largest edit window (characters). */
export const MAX_WINDOW_CHARS = 128 * 1024;
/** Scanning work allowed for one call (characters). */
export const MAX_CONTEXT_WORK = 8 * 1024 * 1024;
/** Deepest nesting of templates, substitutions and interpolations the prefix scanner follows. */
export const MAX_NESTING = 8;

/** One Edit entry as the tool receives it. */
export interface EditEntry {
  oldString: string;
  newString: string;
  replaceAll?: boolean;
}

/** Work left for one call. */
export interface WorkBudget {
  left: number;
}

function spend(budget: WorkBudget, amount: number): boolean {
  budget.left -= amount;
  return budget.left >= 0;
}

/** Patterns String.prototype.replace would expand in a replacement. */
export function hasReplacementPattern(text: string): boolean {
  for (let i = text.indexOf('$'); i >= 0 && i < text.length - 1; i = text.indexOf('$', i + 1)) {
    const next = text[i + 1] as string;
    if (next === '$' || next === '&' || next === '`' || next === "'" || next === '<' || (next >= '0' && next <= '9')) return true;
  }
  return false;
}

/** Go files that import "C": the comment before the import is C code. */
export function importsC(text: string): boolean {
  for (const line of splitLines(text)) {
    const t = trimStart(line);
    if (t === '"C"' || t.startsWith('"C" ') || t.startsWith('import "C"') || t.startsWith('import\t"C"')) return true;
    if (t.startsWith('import') && t.includes(' "C"')) return true;
  }
  return false;
}

/** Where an entry applies: the occurrences and the text after applying it. */
export interface AppliedEntry {
  before: string;
  after: string;
  firstOffset: number;
  lastEnd: number;
  count: number;
}

/** Apply one entry as the tool would; null when the tool would refuse it (missing, ambiguous, empty). */
export function applyEntry(text: string, entry: EditEntry, budget: WorkBudget): AppliedEntry | null {
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
export function editWindow(applied: AppliedEntry, entry: EditEntry): { start: number; before: string; after: string } {
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

function endsWithContinuation(prefix: string, marker: string): boolean {
  let end = prefix.length;
  if (prefix[end - 1] === '\n') end--;
  if (prefix[end - 1] === '\r') end--;
  while (end > 0 && (prefix[end - 1] === ' ' || prefix[end - 1] === '\t')) end--;
  return end > 0 && prefix[end - 1] === marker;
}

const JS_REGEX_KEYWORDS = new Set([
  'return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await',
]);

/** Scan to the end of a single-line string; a line break inside loses the scanner. */
function skipQuoted(text: string, start: number, quote: string): number {
  let j = start + 1;
  for (;;) {
    const c = text[j];
    if (c === undefined || c === '\n' || c === '\r') lost();
    if (c === '\\') {
      j += 2;
      continue;
    }
    if (c === quote) return j + 1;
    j++;
  }
}

function skipBlockComment(text: string, start: number, nests: boolean): number {
  let depth = 1;
  let j = start + 2;
  while (j < text.length) {
    if (text[j] === '*' && text[j + 1] === '/') {
      depth--;
      j += 2;
      if (depth === 0) return j;
      continue;
    }
    if (nests && text[j] === '/' && text[j + 1] === '*') {
      depth++;
      j += 2;
      continue;
    }
    j++;
  }
  return lost();
}

function skipLineComment(text: string, start: number): number {
  const nl = text.indexOf('\n', start);
  const end = nl < 0 ? text.length : nl;
  if (endsWithContinuation(text.slice(start, end), '\\')) lost();
  return end;
}

/** C family and JS/TS: does `text` end in plain code? */
function cFamilyEndsPlain(text: string, language: ProfileLanguage, jsx: boolean): boolean {
  const js = language === 'javascript' || language === 'typescript';
  // stack of open contexts inside code: 'template' (inside `...`) or 'brace' (inside ${ ... })
  const stack: ('template' | 'hole')[] = [];
  const braceDepths: number[] = [];
  let holes = 0;
  let braces = 0;
  let lastSignificant = '';
  let lastWord = '';
  let i = 0;
  const scanTemplate = (): void => {
    // inside a template literal: up to the closing backtick or a ${ hole
    for (;;) {
      const c = text[i];
      if (c === undefined) lost();
      if (c === '\\') {
        i += 2;
        continue;
      }
      if (c === '`') {
        i++;
        stack.pop();
        lastSignificant = '`';
        return;
      }
      if (c === '$' && text[i + 1] === '{') {
        i += 2;
        stack.push('hole');
        holes++;
        if (holes > MAX_NESTING) lost();
        braceDepths.push(braces);
        braces++;
        lastSignificant = '{';
        return;
      }
      i++;
    }
  };
  while (i < text.length) {
    if (stack[stack.length - 1] === 'template') {
      scanTemplate();
      continue;
    }
    const ch = text[i] as string;
    const next = text[i + 1];
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
      i++;
      continue;
    }
    if (ch === '/' && next === '/') {
      i = skipLineComment(text, i);
      continue;
    }
    if (ch === '/' && next === '*') {
      i = skipBlockComment(text, i, language === 'rust');
      continue;
    }
    if (js && (text.startsWith('<!--', i) || text.startsWith('-->', i))) lost();
    if (js && jsx && ch === '<' && (next === '/' || next === '>' || (next !== undefined && isIdentChar(next)))) lost();
    if (js && ch === '/') {
      const division =
        lastSignificant === ')' || lastSignificant === ']' || (isIdentChar(lastSignificant) && !JS_REGEX_KEYWORDS.has(lastWord));
      if (lastSignificant === '}') {
        const nl = text.indexOf('\n', i + 1);
        const rest = text.slice(i + 1, nl < 0 ? text.length : nl);
        if (rest.includes('/') || rest.includes('"') || rest.includes("'") || rest.includes('`')) lost();
        i++;
        lastSignificant = '/';
        continue;
      }
      if (division) {
        i++;
        lastSignificant = '/';
        continue;
      }
      // a regex literal: up to the unescaped / outside a class, on this line
      let j = i + 1;
      let inClass = false;
      for (;;) {
        const c = text[j];
        if (c === undefined || c === '\n' || c === '\r') lost();
        if (c === '\\') {
          j += 2;
          continue;
        }
        if (c === '[') inClass = true;
        else if (c === ']') inClass = false;
        else if (c === '/' && !inClass) break;
        j++;
      }
      i = j + 1;
      while (isIdentChar(text[i])) i++;
      lastSignificant = 'a';
      lastWord = '';
      continue;
    }
    if (ch === '`') {
      if (js) {
        stack.push('template');
        if (stack.length > 2 * MAX_NESTING + 1) lost();
        i++;
        continue;
      }
      const close = text.indexOf('`', i + 1);
      if (close < 0) lost();
      if (language !== 'go' && text.slice(i, close).includes('\n')) lost();
      i = close + 1;
      lastSignificant = 'a';
      continue;
    }
    if (ch === '{') braces++;
    if (ch === '}') {
      if (stack[stack.length - 1] === 'hole' && braceDepths[braceDepths.length - 1] === braces - 1) {
        braces--;
        braceDepths.pop();
        stack.pop(); // back inside the template that opened the hole
        holes--;
        i++;
        continue;
      }
      braces--;
    }
    if (ch === '"' || ch === "'") {
      if (language === 'rust' && ch === "'") {
        const after = text.codePointAt(i + 1);
        const width = after !== undefined && after > 0xffff ? 2 : 1;
        if (next !== '\\' && text[i + 1 + width] !== "'") {
          i++;
          lastSignificant = 'a';
          continue;
        }
      }
      if (ch === '"' && text.startsWith('"""', i)) {
        if (language === 'csharp') lost(); // C# raw strings
        if (language === 'java' || language === 'kotlin') {
          const close = text.indexOf('"""', i + 3);
          if (close < 0) lost();
          if (language === 'kotlin' && text.slice(i, close).includes('${')) lost();
          i = close + 3;
          lastSignificant = 'a';
          continue;
        }
      }
      const prev = text[i - 1];
      if (ch === '"' && language === 'csharp' && (prev === '@' || prev === '$')) {
        i = skipCSharpSpecialString(text, i);
        lastSignificant = 'a';
        continue;
      }
      if (ch === '"' && language === 'c' && prev === 'R') {
        i = skipCppRawString(text, i);
        lastSignificant = 'a';
        continue;
      }
      const end = skipQuoted(text, i, ch);
      if (language === 'kotlin' && text.slice(i, end).includes('${')) lost();
      i = end;
      lastSignificant = 'a';
      continue;
    }
    if (language === 'rust' && (ch === 'r' || ch === 'b') && !isIdentChar(text[i - 1])) {
      let j = i;
      if (text[j] === 'b') j++;
      if (text[j] === 'r') {
        j++;
        let hashes = 0;
        while (text[j] === '#') {
          hashes++;
          j++;
        }
        if (text[j] === '"') {
          const closer = '"' + '#'.repeat(hashes);
          const close = text.indexOf(closer, j + 1);
          if (close < 0) lost();
          i = close + closer.length;
          lastSignificant = 'a';
          continue;
        }
      }
    }
    if (isIdentChar(ch)) {
      let j = i;
      while (isIdentChar(text[j])) j++;
      lastWord = text.slice(i, j);
      lastSignificant = 'a';
      i = j;
      continue;
    }
    lastSignificant = ch;
    lastWord = '';
    i++;
  }
  return stack.length === 0 && !endsWithContinuation(text, '\\');
}

function skipCSharpSpecialString(text: string, quoteAt: number): number {
  let verbatim = false;
  let interpolated = false;
  for (let k = quoteAt - 1; k >= 0 && (text[k] === '@' || text[k] === '$'); k--) {
    if (text[k] === '@') verbatim = true;
    else interpolated = true;
  }
  let j = quoteAt + 1;
  for (;;) {
    const c = text[j];
    if (c === undefined) lost();
    if (!verbatim && (c === '\n' || c === '\r')) lost();
    if (!verbatim && c === '\\') {
      j += 2;
      continue;
    }
    if (c === '"') {
      if (verbatim && text[j + 1] === '"') {
        j += 2;
        continue;
      }
      return j + 1;
    }
    if (interpolated && c === '{') {
      if (text[j + 1] === '{') {
        j += 2;
        continue;
      }
      const close = text.indexOf('}', j + 1);
      if (close < 0) lost();
      const hole = text.slice(j + 1, close);
      if (hole.includes('"') || hole.includes("'") || hole.includes('{')) lost();
      j = close + 1;
      continue;
    }
    j++;
  }
}

function skipCppRawString(text: string, quoteAt: number): number {
  const open = text.indexOf('(', quoteAt + 1);
  if (open < 0 || open - quoteAt > 17) lost();
  const delimiter = text.slice(quoteAt + 1, open);
  const close = text.indexOf(`)${delimiter}"`, open + 1);
  if (close < 0) lost();
  return close + delimiter.length + 2;
}

function pythonEndsPlain(text: string): boolean {
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch === '#') {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl;
      continue;
    }
    if (ch === '"' || ch === "'") {
      let p = i;
      while (p > 0 && isIdentChar(text[p - 1])) p--;
      const prefix = text.slice(p, i).toLowerCase();
      const formatted = prefix.includes('f') || prefix.includes('t');
      const raw = prefix.includes('r');
      const triple = text.startsWith(ch + ch + ch, i);
      const closer = triple ? ch + ch + ch : ch;
      let j = i + closer.length;
      for (;;) {
        const c = text[j];
        if (c === undefined) lost();
        if (!triple && (c === '\n' || c === '\r')) lost();
        if (c === '\\') {
          if (!triple && (text[j + 1] === '\n' || text[j + 1] === '\r')) lost();
          j += 2;
          continue;
        }
        if (formatted && c === '{') {
          if (text[j + 1] === '{') {
            j += 2;
            continue;
          }
          // a replacement field: it must not hold its own quote, a comment or a line break
          let depth = 1;
          let k = j + 1;
          while (depth > 0) {
            const f = text[k];
            if (f === undefined || f === ch || f === '#' || f === '\n' || f === '\r') lost();
            if (f === '{') depth++;
            if (f === '}') depth--;
            if (depth > MAX_NESTING) lost();
            k++;
          }
          j = k;
          continue;
        }
        if (text.startsWith(closer, j)) {
          j += closer.length;
          break;
        }
        j++;
      }
      void raw;
      i = j;
      continue;
    }
    i++;
  }
  return !endsWithContinuation(text, '\\');
}

/** POSIX shells: comments, quotes, $( ), heredocs. */
function shellEndsPlain(text: string): boolean {
  let i = 0;
  let substitutionDepth = 0;
  const pendingHeredocs: { terminator: string; stripTabs: boolean }[] = [];
  while (i < text.length) {
    const ch = text[i] as string;
    const next = text[i + 1];
    if (ch === '\n') {
      i++;
      // bodies of heredocs opened on the line just ended
      for (const heredoc of pendingHeredocs) {
        for (;;) {
          if (i >= text.length) lost();
          const nl = text.indexOf('\n', i);
          const end = nl < 0 ? text.length : nl;
          let line = text.slice(i, end);
          if (heredoc.stripTabs) while (line.startsWith('\t')) line = line.slice(1);
          i = nl < 0 ? text.length : nl + 1;
          if (line === heredoc.terminator) break;
          if (nl < 0) lost();
        }
      }
      pendingHeredocs.length = 0;
      continue;
    }
    if (ch === '`') lost();
    if (ch === '#') {
      const prev = text[i - 1];
      if (prev === '(' || prev === ')' || prev === '|' || prev === '&' || prev === '<' || prev === '>') lost();
      if (isCommentStart(prev)) {
        if (substitutionDepth > 0) lost();
        const nl = text.indexOf('\n', i);
        i = nl < 0 ? text.length : nl;
        continue;
      }
      i++;
      continue;
    }
    if (ch === '\\') {
      i += 2;
      continue;
    }
    if (ch === "'") {
      if (text[i - 1] === '$') {
        i = skipQuoted(text, i, "'");
        continue;
      }
      const close = text.indexOf("'", i + 1);
      if (close < 0) lost();
      i = close + 1;
      continue;
    }
    if (ch === '"') {
      let j = i + 1;
      for (;;) {
        const c = text[j];
        if (c === undefined || c === '`') lost();
        if (c === '\\') {
          j += 2;
          continue;
        }
        if (c === '$' && text[j + 1] === '(') lost();
        if (c === '"') break;
        j++;
      }
      i = j + 1;
      continue;
    }
    if (ch === '$' && next === '(') {
      substitutionDepth++;
      if (substitutionDepth > MAX_NESTING) lost();
      i += 2;
      continue;
    }
    if (ch === ')' && substitutionDepth > 0) {
      substitutionDepth--;
      i++;
      continue;
    }
    if (ch === '<' && next === '<') {
      if (text[i + 2] === '<') {
        i += 3; // a here-string is one word
        continue;
      }
      if (substitutionDepth > 0) lost();
      let j = i + 2;
      const stripTabs = text[j] === '-';
      if (stripTabs) j++;
      while (text[j] === ' ' || text[j] === '\t') j++;
      let terminator = '';
      while (j < text.length && text[j] !== ' ' && text[j] !== '\t' && text[j] !== '\n' && text[j] !== ';' && text[j] !== '|' && text[j] !== '&' && text[j] !== ')' && text[j] !== '<' && text[j] !== '>') {
        const c = text[j] as string;
        if (c !== '"' && c !== "'" && c !== '\\') terminator += c;
        j++;
      }
      if (terminator.length === 0) lost();
      pendingHeredocs.push({ terminator, stripTabs });
      i = j;
      continue;
    }
    if (substitutionDepth > 0 && isIdentChar(ch)) {
      let j = i;
      while (isIdentChar(text[j])) j++;
      if (text.slice(i, j) === 'case' && !isIdentChar(text[i - 1])) lost();
      i = j;
      continue;
    }
    i++;
  }
  return substitutionDepth === 0 && pendingHeredocs.length === 0 && !endsWithContinuation(text, '\\');
}

function isCommentStart(prev: string | undefined): boolean {
  return prev === undefined || prev === '\n' || prev === ' ' || prev === '\t' || prev === ';';
}

function powershellEndsPlain(text: string): boolean {
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    const next = text[i + 1];
    if (ch === '<' && next === '#') {
      const close = text.indexOf('#>', i + 2);
      if (close < 0) lost();
      i = close + 2;
      continue;
    }
    if (ch === '#') {
      if (!isCommentStart(text[i - 1])) lost();
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl;
      continue;
    }
    if (ch === '@' && (next === '"' || next === "'")) {
      const closer = `\n${next}@`;
      const close = text.indexOf(closer, i + 2);
      if (close < 0) lost();
      if (next === '"' && text.slice(i, close).includes('$(')) lost();
      i = close + closer.length;
      continue;
    }
    if (ch === '`') {
      i += 2;
      continue;
    }
    if (ch === "'") {
      let j = i + 1;
      for (;;) {
        const c = text[j];
        if (c === undefined) lost();
        if (c === "'" && text[j + 1] === "'") {
          j += 2;
          continue;
        }
        if (c === "'") break;
        j++;
      }
      i = j + 1;
      continue;
    }
    if (ch === '"') {
      let j = i + 1;
      for (;;) {
        const c = text[j];
        if (c === undefined) lost();
        if (c === '`') {
          j += 2;
          continue;
        }
        if (c === '$' && text[j + 1] === '(') lost();
        if (c === '"' && text[j + 1] === '"') {
          j += 2;
          continue;
        }
        if (c === '"') break;
        j++;
      }
      i = j + 1;
      continue;
    }
    i++;
  }
  return !endsWithContinuation(text, '`');
}

/** Does `prefix` (text above the window, ending at a line start) end in plain code? */
export function prefixEndsInPlainCode(prefix: string, language: ProfileLanguage, path: string): boolean {
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
        return cFamilyEndsPlain(prefix, language, allowsJsx(path));
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
    const before = comparableCode(window.before, language);
    if (before === null || before !== comparableCode(window.after, language)) return false;
    if (!spend(budget, window.start)) return false;
    if (!prefixEndsInPlainCode(text.slice(0, window.start), language, path)) return false;
    text = applied.after;
  }
  return true;
}
