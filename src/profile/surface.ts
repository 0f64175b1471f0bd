/** touchesPublicSurface: does the change declare or sit inside a public name? (seed: "Public surface") */
import { baseNameOf, type ProfileLanguage } from './languages.js';
import { containsWord, indentOf, isIdentChar, leadingIdentifier, splitLines, startsWithWord, trimStart } from './text.js';

/** Languages whose surface a lexical reading cannot tell (package-private Java, C linkage, batch labels). */
const ALWAYS_SURFACE: ReadonlySet<ProfileLanguage> = new Set(['java', 'kotlin', 'csharp', 'c', 'batch']);

/** Files that are all surface: TypeScript declaration files and Python package initialisers. */
export function isAllSurfaceFile(path: string, language: ProfileLanguage): boolean {
  if (ALWAYS_SURFACE.has(language)) return true;
  const base = baseNameOf(path);
  if (language === 'python') return base === '__init__.py';
  return base.endsWith('.d.ts') || base.endsWith('.d.mts') || base.endsWith('.d.cts');
}

function isPublicPythonName(name: string): boolean {
  if (name.length === 0) return false;
  if (!name.startsWith('_')) return true;
  return name.length > 4 && name.startsWith('__') && name.endsWith('__');
}

function isAllUpperName(name: string): boolean {
  let letters = 0;
  for (const ch of name) {
    if (ch >= 'a' && ch <= 'z') return false;
    if (ch >= 'A' && ch <= 'Z') letters++;
  }
  return letters > 0;
}

function isCapital(ch: string | undefined): boolean {
  return ch !== undefined && ch.toUpperCase() === ch && ch.toLowerCase() !== ch;
}

const PYTHON_COLON_KEYWORDS = new Set(['else', 'try', 'finally', 'lambda', 'match', 'case']);

/** `name = ...`, `name: T`, `name, other = ...` or `name += ...` after the name at the start of `rest`. */
function isPythonAssignmentOf(rest: string): string | null {
  const name = leadingIdentifier(rest);
  if (name.length === 0 || PYTHON_COLON_KEYWORDS.has(name)) return null;
  const after = trimStart(rest.slice(name.length));
  const first = after[0];
  if (first === ':' || first === ',') return name;
  if (first === '=' && after[1] !== '=') return name;
  if (first !== undefined && '+-*/%&|^@<>'.includes(first)) {
    // augmented assignment such as += or >>=, but not a comparison like <=
    let k = 1;
    if ((first === '*' || first === '/' || first === '<' || first === '>') && after[1] === first) k = 2;
    if (after[k] === '=' && after[k + 1] !== '=' && !(k === 1 && (first === '<' || first === '>'))) return name;
  }
  return null;
}

function pythonLineIsSurface(line: string, firstOfSnippet: boolean): boolean {
  if (containsWord(line, '__all__')) return true;
  let rest = trimStart(line);
  if (startsWithWord(rest, 'async')) rest = trimStart(rest.slice(5));
  for (const keyword of ['def', 'class']) {
    if (startsWithWord(rest, keyword)) {
      if (isPublicPythonName(leadingIdentifier(trimStart(rest.slice(keyword.length))))) return true;
    }
  }
  if (firstOfSnippet) {
    // The snippet may begin after the indentation: only the constant convention is trusted there.
    const name = isPythonAssignmentOf(trimStart(line));
    return name !== null && isPublicPythonName(name) && isAllUpperName(name);
  }
  if (indentOf(line).length > 0) return false;
  const name = isPythonAssignmentOf(line);
  return name !== null && isPublicPythonName(name);
}

function jsLineIsSurface(line: string): boolean {
  const t = trimStart(line);
  return startsWithWord(t, 'export') || startsWithWord(t, 'public') || startsWithWord(t, 'declare') || containsWord(line, 'exports');
}

function goLineIsSurface(line: string): boolean {
  const t = trimStart(line);
  if (startsWithWord(t, 'package')) return true;
  if (isCapital(t[0])) return true;
  if (startsWithWord(t, 'func')) {
    let rest = trimStart(t.slice(4));
    if (rest.startsWith('(')) {
      const close = rest.indexOf(')');
      if (close < 0) return true; // a receiver we cannot read: keep the question
      rest = trimStart(rest.slice(close + 1));
    }
    return isCapital(rest[0]);
  }
  for (const keyword of ['type', 'var', 'const']) {
    if (startsWithWord(t, keyword)) return isCapital(trimStart(t.slice(keyword.length))[0]);
  }
  return false;
}

const RUST_SURFACE_ATTRIBUTES = ['macro_export', 'derive', 'repr', 'no_mangle', 'export_name'];

function rustLineIsSurface(line: string): boolean {
  let t = trimStart(line);
  if (startsWithWord(t, 'unsafe')) t = trimStart(t.slice(6));
  if (startsWithWord(t, 'pub') || startsWithWord(t, 'impl') || startsWithWord(t, 'trait') || startsWithWord(t, 'extern')) return true;
  if (t.startsWith('#[')) {
    let inner = trimStart(t.slice(2));
    if (inner.startsWith('unsafe(')) inner = trimStart(inner.slice(7));
    for (const attribute of RUST_SURFACE_ATTRIBUTES) if (startsWithWord(inner, attribute)) return true;
  }
  return false;
}

function shellLineIsSurface(line: string): boolean {
  const t = trimStart(line);
  if (startsWithWord(t, 'function') || startsWithWord(t, 'export')) return true;
  for (const keyword of ['declare', 'typeset', 'local', 'readonly']) {
    if (!startsWithWord(t, keyword)) continue;
    if (keyword === 'local' || keyword === 'readonly') continue;
    let rest = trimStart(t.slice(keyword.length));
    while (rest.startsWith('-')) {
      let end = 1;
      while (end < rest.length && rest[end] !== ' ' && rest[end] !== '\t') end++;
      if (rest.slice(1, end).includes('x')) return true;
      rest = trimStart(rest.slice(end));
    }
  }
  // name() { ... } with an optional blank before the parentheses
  let end = 0;
  while (end < t.length && (isIdentChar(t[end]) || t[end] === '-' || t[end] === '.' || t[end] === ':') && t[end] !== '$') end++;
  if (end === 0) return false;
  return trimStart(t.slice(end)).startsWith('()');
}

const POWERSHELL_SURFACE_WORDS = ['function', 'filter', 'workflow', 'class', 'enum', 'param'];
const POWERSHELL_SURFACE_PREFIXES = ['export-modulemember', '[cmdletbinding', '$global:'];

function powershellLineIsSurface(line: string): boolean {
  const t = trimStart(line).toLowerCase();
  for (const word of POWERSHELL_SURFACE_WORDS) if (startsWithWord(t, word)) return true;
  for (const prefix of POWERSHELL_SURFACE_PREFIXES) if (t.startsWith(prefix)) return true;
  return false;
}

/** Does one line declare or expose a public name? `firstOfSnippet`: it may begin mid-line. */
function lineIsSurface(line: string, language: ProfileLanguage, firstOfSnippet: boolean): boolean {
  switch (language) {
    case 'javascript':
    case 'typescript':
      return jsLineIsSurface(line);
    case 'python':
      return pythonLineIsSurface(line, firstOfSnippet);
    case 'go':
      return goLineIsSurface(line);
    case 'rust':
      return rustLineIsSurface(line);
    case 'shell':
      return shellLineIsSurface(line);
    case 'powershell':
      return powershellLineIsSurface(line);
    default:
      return true;
  }
}

/** Does any line of a snippet touch the surface? */
export function snippetTouchesSurface(snippet: string, language: ProfileLanguage, startsMidLine: boolean): boolean {
  const lines = splitLines(snippet);
  for (let i = 0; i < lines.length; i++) {
    if (lineIsSurface(lines[i] as string, language, startsMidLine && i === 0)) return true;
  }
  return false;
}

/** Upward scan budget for finding the enclosing opener; past it the edit counts as surface. */
export const MAX_OPENER_SCAN = 4 * 1024 * 1024;

/** Work left for the opener scans of one call. */
export interface ScanBudget {
  left: number;
}

function isSkippedAboveLine(line: string, language: ProfileLanguage): boolean {
  const t = trimStart(line);
  if (t.length === 0) return true;
  if (t.startsWith('//') || t.startsWith('/*') || t.startsWith('*') || t.startsWith('@')) return true;
  if ((language === 'python' || language === 'shell') && t.startsWith('#')) return true;
  if (language === 'rust' && t.startsWith('#[')) return true;
  return false;
}

/** Indentation of the first non-blank line after `from` (the member indentation of a container). */
function memberIndentAfter(text: string, from: number): string | null {
  let cursor = from;
  while (cursor < text.length) {
    const nl = text.indexOf('\n', cursor);
    const end = nl < 0 ? text.length : nl;
    const line = text.slice(cursor, end);
    if (trimStart(line).length > 0) return indentOf(line);
    if (nl < 0) return null;
    cursor = nl + 1;
  }
  return null;
}

type OpenerKind = 'all-inside' | 'members' | 'python-class' | 'none';

function jsOpener(line: string): OpenerKind {
  if (line.startsWith('module.exports') || line.startsWith('exports.')) {
    const eq = line.indexOf('=');
    if (eq < 0) return 'none';
    const value = trimStart(line.slice(eq + 1));
    if (value.startsWith('{') || value.startsWith('[')) return 'all-inside';
    const name = leadingIdentifier(value);
    if (name.length > 0 && name !== 'function' && name !== 'class' && trimStart(value.slice(name.length)).startsWith('(')) return 'all-inside';
    return 'none';
  }
  if (!startsWithWord(line, 'export')) return 'none';
  let rest = trimStart(line.slice(6));
  if (startsWithWord(rest, 'default')) rest = trimStart(rest.slice(7));
  if (rest.startsWith('{')) return 'all-inside';
  for (const word of ['interface', 'enum', 'type', 'namespace', 'module', 'declare']) if (startsWithWord(rest, word)) return 'all-inside';
  if (startsWithWord(rest, 'abstract')) rest = trimStart(rest.slice(8));
  if (startsWithWord(rest, 'class')) return 'members';
  for (const word of ['const', 'let', 'var']) {
    if (startsWithWord(rest, word)) return containsWord(rest, 'function') || rest.includes('=>') ? 'none' : 'all-inside';
  }
  return 'none';
}

function rustOpener(line: string): OpenerKind {
  if (!startsWithWord(line, 'pub')) return 'none';
  let rest = line.slice(3);
  if (rest.startsWith('(')) {
    const close = rest.indexOf(')');
    if (close < 0) return 'members';
    rest = rest.slice(close + 1);
  }
  rest = trimStart(rest);
  for (const word of ['enum', 'struct', 'union', 'trait', 'use']) if (startsWithWord(rest, word)) return 'members';
  return 'none';
}

function pythonOpener(line: string): OpenerKind {
  if (line.startsWith('__all__')) return 'all-inside';
  if (startsWithWord(line, 'class') && isPublicPythonName(leadingIdentifier(trimStart(line.slice(5))))) return 'python-class';
  return 'none';
}

/**
 * The enclosing-opener rule: read the nearest column-0 line above `offset` in `text` and decide
 * whether the edited lines (`editedLines`, whole lines of either side) are members of a public
 * container. Scans upward at most `budget.left` characters; past that it answers true.
 */
export function enclosingOpenerMakesSurface(
  text: string,
  offset: number,
  editedLines: readonly string[],
  language: ProfileLanguage,
  budget: ScanBudget,
): boolean {
  if (language !== 'javascript' && language !== 'typescript' && language !== 'python' && language !== 'rust') return false;
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const own = text[lineStart];
  if (own !== undefined && own !== ' ' && own !== '\t' && own !== '\n') return false; // the edit is at column 0 itself
  let cursor = lineStart;
  while (cursor > 0) {
    const prevStart = text.lastIndexOf('\n', cursor - 2) + 1;
    const line = text.slice(prevStart, cursor - 1);
    budget.left -= line.length + 1;
    if (budget.left < 0) return true;
    const openerAt = prevStart;
    cursor = prevStart;
    if (isSkippedAboveLine(line, language)) continue;
    const first = line[0];
    if (first === ' ' || first === '\t') continue;
    if (first === '}' || first === ']' || first === ')') return false; // the edit is at top level
    const kind = language === 'python' ? pythonOpener(line) : language === 'rust' ? rustOpener(line) : jsOpener(line);
    if (kind === 'none') return false;
    if (kind === 'all-inside') return true;
    const memberIndent = memberIndentAfter(text, openerAt + line.length + 1);
    if (memberIndent === null || memberIndent.length === 0) return false;
    for (const edited of editedLines) {
      if (trimStart(edited).length === 0 || indentOf(edited) !== memberIndent) continue;
      if (kind === 'members') return true;
      const name = isPythonAssignmentOf(trimStart(edited));
      if (name !== null && isPublicPythonName(name)) return true;
    }
    return false;
  }
  return false;
}
