/**
 * The names of the functions, methods and classes an Edit changes: those declared on its lines, and
 * the definition it sits inside. The gate's local-callers question asks for the call sites of exactly
 * these, so a search for one of them is the investigation that question wants (issue #13).
 *
 * Read by indentation and one line at a time, like the public-surface opener: it can miss a name
 * (then only the file's own name credits, as before), never invent one that is not written there.
 */
import type { EditEntry } from './edit-window.js';
import type { ProfileLanguage } from './languages.js';

/** More names than this add nothing a reviewer would search for. */
const MAX_NAMES = 8;
/** Lines read upwards for the enclosing definition. */
const MAX_LINES_UP = 2000;
const MAX_LINE_CHARS = 2000;

const CONTROL_WORDS = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'function', 'new', 'else', 'do', 'try', 'elif', 'with', 'foreach', 'match', 'when', 'synchronized', 'using', 'lock', 'sizeof', 'typeof', 'await', 'yield']);

const PYTHON = [/^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)/, /^\s*class\s+([A-Za-z_]\w*)/];
const JAVASCRIPT = [
  /\bfunction\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(/,
  /^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)/,
  /^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]*)?=\s*(?:async\s*)?(?:function\b|\([^)]*\)\s*(?::[^=]*)?=>|[A-Za-z_$][\w$]*\s*=>)/,
  /^\s*(?:(?:public|private|protected|static|async|get|set|override|readonly|export|default)\s+)*\*?\s*([A-Za-z_$][\w$]*)\s*\([^;]*\)\s*(?::[^{;=]*)?\{\s*$/,
];
const C_LIKE = [
  /^\s*(?:[\w@<>[\],.?*&:]+\s+)+\**([A-Za-z_]\w*)\s*\([^;]*\)?\s*(?:throws\s+[\w.,\s]+)?\{?\s*$/,
  /^\s*(?:(?:public|private|protected|internal|abstract|final|sealed|static|partial|open|data)\s+)*(?:class|interface|enum|record|struct|object)\s+([A-Za-z_]\w*)/,
  /^\s*(?:(?:public|private|protected|internal|override|suspend|inline|open)\s+)*fun\s+(?:<[^>]*>\s*)?(?:[\w.]+\.)?([A-Za-z_]\w*)\s*\(/,
];
const GO = [/^\s*func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)/, /^\s*type\s+([A-Za-z_]\w*)/];
const RUST = [/\bfn\s+([A-Za-z_]\w*)/, /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:struct|enum|trait|impl(?:<[^>]*>)?)\s+([A-Za-z_]\w*)/];
const SHELL = [/^\s*function\s+([A-Za-z_][\w.-]*)/, /^\s*([A-Za-z_][\w.-]*)\s*\(\)\s*\{?/];
const POWERSHELL = [/^\s*(?:function|filter|workflow)\s+([\w-]+)/i];

function patternsFor(language: ProfileLanguage): readonly RegExp[] {
  switch (language) {
    case 'python':
      return PYTHON;
    case 'javascript':
    case 'typescript':
      return JAVASCRIPT;
    case 'go':
      return GO;
    case 'rust':
      return RUST;
    case 'shell':
      return SHELL;
    case 'powershell':
      return POWERSHELL;
    case 'batch':
      return [];
    default:
      return C_LIKE;
  }
}

/** The name a line defines, or null. */
function definedName(line: string, patterns: readonly RegExp[]): string | null {
  if (line.length > MAX_LINE_CHARS) return null;
  for (const pattern of patterns) {
    const name = pattern.exec(line)?.[1];
    if (name !== undefined && !CONTROL_WORDS.has(name)) return name;
  }
  return null;
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/**
 * Names declared on the lines the edit replaces and the definition enclosing its first changed
 * line, in that order, without repeats. `fileText` is the file before the edit.
 */
export function changedNames(fileText: string | null, entries: readonly EditEntry[], language: ProfileLanguage): string[] {
  const patterns = patternsFor(language);
  if (patterns.length === 0) return [];
  const names: string[] = [];
  const add = (name: string | null): void => {
    if (name !== null && !names.includes(name) && names.length < MAX_NAMES) names.push(name);
  };
  for (const entry of entries) {
    // The old side's names only: a definition the edit itself writes has no call sites to look up, so
    // naming one after an earlier search would buy credit for a search of something else.
    for (const line of entry.oldString.split('\n')) add(definedName(line, patterns));
    if (fileText === null || entry.oldString.length === 0) continue;
    const offset = fileText.indexOf(entry.oldString);
    if (offset < 0) continue;
    const lineStart = fileText.lastIndexOf('\n', offset - 1) + 1;
    const lineEnd = fileText.indexOf('\n', offset);
    const firstLine = fileText.slice(lineStart, lineEnd < 0 ? fileText.length : lineEnd);
    let indent = firstLine.trim().length === 0 ? Infinity : indentOf(firstLine);
    let end = lineStart - 1;
    for (let read = 0; end > 0 && read < MAX_LINES_UP; read++) {
      const start = fileText.lastIndexOf('\n', end - 1) + 1;
      const line = fileText.slice(start, end);
      end = start - 1;
      if (line.trim().length === 0 || indentOf(line) >= indent) continue;
      const name = definedName(line, patterns);
      if (name !== null) {
        add(name);
        break;
      }
      // a block opener (`if`, `for`) at a shallower level: the definition is shallower still
      indent = indentOf(line);
      if (indent === 0) break;
    }
  }
  return names;
}
