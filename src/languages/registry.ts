/**
 * The one table of the languages and file kinds jscr knows, by file extension: which tree-sitter
 * grammar parses a file, which lexer family reads its comments and strings (the change profile, the
 * edit-window check, the guard), which rule kind selects rules for it, which external scanners take
 * it, which prover facts apply and whether the guard checks it. Every part of jscr asks this module,
 * and every lookup goes through `extensionOf`, so no two parts can disagree on what a file is.
 *
 * The gate imports this (through src/profile): it must stay a plain table that imports only the lexer
 * cores' names of their languages.
 */
import { isCFamilyLanguage, type LexLanguage } from '../lexing/c-family.js';

/** The tree-sitter grammars jscr ships (`.tsx` has its own). */
export const GRAMMARS = ['python', 'javascript', 'typescript', 'tsx', 'java', 'php', 'go', 'ruby'] as const;
export type Grammar = (typeof GRAMMARS)[number];

/** A lexer family (one way of writing comments and strings): one of the lexer cores' own list. */
export type LexerFamily = LexLanguage;

/** File kinds rules may target besides the grammars: files that are not a programming language's. */
export const FILE_KINDS = ['shell', 'dockerfile', 'github-actions'] as const;
export type FileKind = (typeof FILE_KINDS)[number];

/** The external scanners that choose their files by extension. */
export type ExtensionScanner = 'bandit' | 'eslint' | 'shellcheck';

/** The languages of the prover's facts files (`ruleset/obligations/<language>.toml`). */
export const FACTS_LANGUAGES = ['java', 'php', 'python', 'typescript'] as const;
export type FactsLanguage = (typeof FACTS_LANGUAGES)[number];

/** A language the guard can compile, parse and read imports of. */
export type GuardLanguage = 'python' | 'javascript' | 'typescript';

/** The languages of this table; several share a grammar or a lexer family, some have only one of them. */
type LanguageName =
  | 'python'
  | 'javascript'
  | 'typescript'
  | 'java'
  | 'php'
  | 'go'
  | 'ruby'
  | 'rust'
  | 'kotlin'
  | 'csharp'
  | 'c'
  | 'shell'
  | 'powershell'
  | 'batch';

/** What jscr does with files of one extension. */
export interface FileType {
  /** Lowercase, with its dot. */
  extension: string;
  language: LanguageName;
  grammar: Grammar | null;
  lexer: LexerFamily | null;
  /** The rule kind for files that are not a grammar's (shell scripts). */
  kind: FileKind | null;
  scanners: readonly ExtensionScanner[];
  facts: FactsLanguage | null;
  guard: GuardLanguage | null;
  /** `<` may open JSX here (TypeScript's .ts, .mts and .cts only have generics). */
  jsx: boolean;
}

type Traits = Omit<FileType, 'extension' | 'language'>;

export interface LanguageRow {
  language: LanguageName;
  extensions: readonly string[];
  traits: Partial<Traits>;
  /** Extensions that differ from the row, and how. */
  except?: Readonly<Record<string, Partial<Traits>>>;
}

const NO_TRAITS: Traits = { grammar: null, lexer: null, kind: null, scanners: [], facts: null, guard: null, jsx: false };

const LANGUAGE_ROWS: readonly LanguageRow[] = [
  {
    language: 'python',
    extensions: ['.py', '.pyi', '.pyw'],
    traits: { grammar: 'python', lexer: 'python', scanners: ['bandit'], facts: 'python', guard: 'python' },
    // Stubs hold declarations only: nothing for bandit to find, nothing the guard would run.
    // The guard's list of extensions is part of its refusal message and stays as it was.
    except: { '.pyi': { scanners: [], guard: null }, '.pyw': { guard: null } },
  },
  {
    language: 'javascript',
    extensions: ['.js', '.mjs', '.cjs', '.jsx'],
    traits: { grammar: 'javascript', lexer: 'javascript', scanners: ['eslint'], facts: 'typescript', guard: 'javascript', jsx: true },
  },
  {
    language: 'typescript',
    extensions: ['.ts', '.mts', '.cts', '.tsx'],
    // No eslint: its default parser cannot read TypeScript, and jscr ships no TypeScript parser for it.
    traits: { grammar: 'typescript', lexer: 'typescript', facts: 'typescript', guard: 'typescript' },
    except: { '.tsx': { grammar: 'tsx', jsx: true } },
  },
  { language: 'java', extensions: ['.java'], traits: { grammar: 'java', lexer: 'java', facts: 'java' } },
  { language: 'php', extensions: ['.php'], traits: { grammar: 'php', facts: 'php' } },
  { language: 'go', extensions: ['.go'], traits: { grammar: 'go', lexer: 'go' } },
  { language: 'ruby', extensions: ['.rb'], traits: { grammar: 'ruby' } },
  { language: 'rust', extensions: ['.rs'], traits: { lexer: 'rust' } },
  { language: 'kotlin', extensions: ['.kt', '.kts'], traits: { lexer: 'kotlin' } },
  { language: 'csharp', extensions: ['.cs'], traits: { lexer: 'csharp' } },
  { language: 'c', extensions: ['.c', '.h', '.cc', '.cpp', '.cxx', '.hpp', '.hh', '.hxx'], traits: { lexer: 'c' } },
  {
    language: 'shell',
    extensions: ['.sh', '.bash', '.zsh', '.ksh', '.dash'],
    traits: { lexer: 'shell', kind: 'shell', scanners: ['shellcheck'] },
    // shellcheck supports sh, bash, dash and ksh only: it refuses a zsh script (SC1071) rather than check it.
    except: { '.zsh': { scanners: [] } },
  },
  { language: 'powershell', extensions: ['.ps1', '.psm1'], traits: { lexer: 'powershell' } },
  { language: 'batch', extensions: ['.bat', '.cmd'], traits: { lexer: 'batch' } },
];

/**
 * Extensions of other code someone runs or renders, which jscr has no table for: binary content
 * under one of these is a file jscr could not review, not data.
 */
export const OTHER_CODE_EXTENSIONS: readonly string[] = (
  '.scala .groovy .gradle .phtml .erb .vb .swift .m .mm .pl .pm .lua .r .dart .ex .exs .erl .clj .hs .ml .fs .fish .vue ' +
  '.svelte .astro .html .htm .xhtml .css .scss .sass .less .jsp .asp .aspx .ejs .hbs .twig .coffee .sql .tf'
).split(' ');

/** The table by extension. An extension listed twice, not lowercase with its dot, or excepted but not listed is a bug in the rows. */
export function buildFileTypes(rows: readonly LanguageRow[]): ReadonlyMap<string, FileType> {
  const table = new Map<string, FileType>();
  for (const row of rows) {
    for (const odd of Object.keys(row.except ?? {})) {
      if (!row.extensions.includes(odd)) throw new Error(`language registry: ${row.language} makes an exception for ${odd}, which it does not list`);
    }
    for (const extension of row.extensions) {
      if (table.has(extension)) throw new Error(`language registry: ${extension} is listed twice`);
      if (!/^\.[a-z0-9]+$/.test(extension)) throw new Error(`language registry: ${extension} is not a lowercase extension with its dot`);
      table.set(extension, Object.freeze({ extension, language: row.language, ...NO_TRAITS, ...row.traits, ...row.except?.[extension] }));
    }
  }
  return table;
}

const BY_EXTENSION = buildFileTypes(LANGUAGE_ROWS);
const OTHER_CODE = new Set(OTHER_CODE_EXTENSIONS);

/** Every extension in the table, in table order. */
export const FILE_TYPES: readonly FileType[] = [...BY_EXTENSION.values()];

/** The base name of a path with either separator, lowercased. */
export function baseNameOf(path: string): string {
  let start = 0;
  for (let i = 0; i < path.length; i++) {
    const ch = path[i];
    if (ch === '/' || ch === '\\') start = i + 1;
  }
  return path.slice(start).toLowerCase();
}

/** The lowercased extension of a path's base name, with its dot, or '' when it has none (`.py` alone is a dot file). */
export function extensionOf(path: string): string {
  const base = baseNameOf(path);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot);
}

/** What jscr does with a path, by its extension; null for extensions jscr has no table for. */
export function fileTypeOf(path: string): FileType | null {
  return BY_EXTENSION.get(extensionOf(path)) ?? null;
}

/** The extensions an external scanner takes, in table order. */
export function scannerExtensions(scanner: ExtensionScanner): string[] {
  return FILE_TYPES.filter((type) => type.scanners.includes(scanner)).map((type) => type.extension);
}

/** The paths an external scanner takes, in their order. */
export function pathsForScanner(paths: readonly string[], scanner: ExtensionScanner): string[] {
  return paths.filter((path) => fileTypeOf(path)?.scanners.includes(scanner) === true);
}

/** The extensions the guard checks, in table order. */
export function guardExtensions(): string[] {
  return FILE_TYPES.filter((type) => type.guard !== null).map((type) => type.extension);
}

/** True when a path's extension says it holds code, whether or not jscr reads that language. */
export function isCodePath(path: string): boolean {
  const extension = extensionOf(path);
  return BY_EXTENSION.has(extension) || OTHER_CODE.has(extension);
}

/** True for the lexer families with `//` and `/* *\/` comments and C-like strings. */
export function isCFamily(family: LexerFamily): boolean {
  return isCFamilyLanguage(family);
}

const DOCKERFILE_NAME = /(^|\/)((Dockerfile|Containerfile)(\.[^/]*)?|[^/]+\.(dockerfile|containerfile))$/i;
const WORKFLOW_PATH = /^\.github\/workflows\/[^/]+\.ya?ml$/;
/** A shebang is looked for in this much of the first line. */
const SHEBANG_MAX_CHARS = 200;

/**
 * Interpreters a `#!` line may name, and the extension whose row of the table their scripts get. A
 * script without an extension (`bin/deploy`) is as much code as `deploy.py`: a change cannot keep it
 * from being parsed and checked by leaving the extension off.
 */
const INTERPRETER_EXTENSIONS: readonly (readonly [RegExp, string])[] = [
  [/^(python|pypy)[0-9.]*$/, '.py'],
  [/^(node|nodejs|bun)$/, '.js'],
  [/^(ts-node|tsx)$/, '.ts'],
  [/^php[0-9.]*$/, '.php'],
  [/^ruby[0-9.]*$/, '.rb'],
  [/^(sh|bash|dash|ksh)$/, '.sh'],
  [/^zsh$/, '.zsh'],
];

/** The program a `#!` first line runs (`env`'s first operand when it runs env), or null. */
function shebangInterpreter(text: string): string | null {
  if (!text.startsWith('#!')) return null;
  const newline = text.indexOf('\n');
  const words = text.slice(2, Math.min(newline === -1 ? text.length : newline, SHEBANG_MAX_CHARS)).trim().split(/\s+/);
  let program = baseNameOf(words[0] ?? '');
  if (program === 'env') {
    // `env -S python3 -u`, `env PYTHONPATH=. python3`: the first word that is neither an option nor an assignment.
    program = baseNameOf(words.slice(1).find((word) => !word.startsWith('-') && !word.includes('=')) ?? '');
  }
  return program === '' ? null : program;
}

/**
 * What jscr does with a file, by its extension or, for a name the table does not know, by the
 * interpreter its `#!` line names. Every step that reads a changed file's content asks this.
 */
export function fileTypeOfFile(path: string, text: string): FileType | null {
  const byName = fileTypeOf(path);
  if (byName !== null) return byName;
  const interpreter = shebangInterpreter(text);
  if (interpreter === null) return null;
  const extension = INTERPRETER_EXTENSIONS.find(([pattern]) => pattern.test(interpreter))?.[1];
  return extension === undefined ? null : (BY_EXTENSION.get(extension) ?? null);
}

/**
 * The rule kind of a file that is not a grammar's: a GitHub Actions workflow or a Dockerfile by its
 * name, a shell script by its extension or by its shebang.
 */
export function fileKindOf(path: string, text: string): FileKind | null {
  if (WORKFLOW_PATH.test(path)) return 'github-actions';
  if (DOCKERFILE_NAME.test(path)) return 'dockerfile';
  return fileTypeOfFile(path, text)?.kind ?? null;
}
