/**
 * Which files a change's proof needs, chosen by text before anything is parsed. The review's prover
 * judges only paths through the touched functions, so it needs: the changed files; the files naming a
 * touched function (its callers), and theirs, up to `max_depth` hops; the files declaring what those
 * functions call (callees, and the helpers whose checks count as witnesses); the files declaring the
 * classes they name and every ancestor of those (recognisers and call resolution read the lineage); and
 * each recogniser's registration files (routes, kernels). The search is a word match with identifier
 * boundaries over the revision's own texts: it over-selects (a comment naming a function is a "caller")
 * and never parses. A name found in more files than `fan_out` allows, or more text than the byte bound,
 * is a bound hit: the selection keeps going but the proof is incomplete.
 */
import type { FactsLanguage } from './facts.js';
import type { FileIR } from '../syntax/ir.js';
import { VERBS } from './sibling-norm.js';
import { handedNames, moduleStatementAt, type StatementSpan } from './module-statements.js';

/** Why a file was selected; the first reason a file got is the one it is counted under. */
export type SelectionReason = 'changed' | 'callers' | 'callees' | 'types' | 'routes' | 'config' | 'siblings';

/** Where a recogniser's entries are registered, if not in the entry's own file (data, not code). */
export interface RegistrationFiles {
  /** Paths that register entries (Laravel's `routes/*.php`). */
  paths?: readonly RegExp[];
  /** Text that marks a registering file wherever it sits (`addServlet(`). */
  markers?: readonly RegExp[];
  /**
   * Registering files that list middleware by class (Laravel's `app/Http/Kernel.php`): the classes
   * they name are read too, as what `auth` or `can` does on a route sits in the class the alias names.
   */
  middlewareLists?: readonly RegExp[];
  /** Text that marks such a list wherever it sits (a package's provider calling `aliasMiddleware(`). */
  middlewareMarkers?: readonly RegExp[];
}

export interface ScopeInput {
  /** Candidate files with their text, each with its facts language. */
  files: readonly { path: string; text: string; factsLanguage: FactsLanguage }[];
  /** Touched new-side lines of the changed files. */
  touched: readonly { path: string; lines: ReadonlySet<number> }[];
  /** IRs of changed files the review already built (to name the touched functions exactly). */
  irs?: ReadonlyMap<string, FileIR>;
  registrations: readonly RegistrationFiles[];
  /** Files always read whole (security configuration). */
  alwaysRead: (path: string) => boolean;
  maxDepth: number;
  fanOut: number;
  /** How far below a touched function the proof looks for operations. */
  downDepth: number;
  /** Most bytes of text searched; past it the rest is not searched (a bound hit). */
  maxBytes?: number;
  /** The review's deadline: when it passes, the selection stops where it is (a bound hit). */
  deadline?: { remainingMs(): number };
}

export interface ScopeSelection {
  /** Selected paths, sorted. */
  paths: string[];
  /** Selected files per reason. */
  byReason: Record<SelectionReason, number>;
  /** Bounds the selection hit, one line each (the caller reads every file, or, for the deadline, the proof is incomplete). */
  bounds: string[];
  /**
   * Names found in more files than `prover.fan_out`: only the first `fan_out` files' callers were
   * read, as the whole-repository proof follows at most `fan_out` callers per function itself.
   */
  cuts: string[];
}

const DEADLINE_BOUND = 'the review deadline (review.deadline_s) passed while choosing the files to prove';

/** Whether a bound is the deadline's (the others are size bounds, which the caller answers by reading every file). */
export function isDeadlineBound(bound: string): boolean {
  return bound === DEADLINE_BOUND;
}

/** True when a sorted list holds a number in [low, high]. */
function anyWithin(sorted: readonly number[], low: number, high: number): boolean {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] ?? 0) < low) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length && (sorted[lo] ?? 0) <= high;
}

/** Text searched at most, summed over files (far above a real repository's source). */
export const SCOPE_MAX_BYTES = 256 * 1024 * 1024;

/** One declaration found by text: a function or a class, where it starts, and its header's type names. */
interface Declaration {
  name: string;
  kind: 'function' | 'class';
  offset: number;
  /** Where a function's body ends (its closing brace, or its last indented line in Python); found when first asked. */
  end: number | null;
  /** For a class: the capitalised names of its header (superclass, interfaces). */
  supertypes: string[];
  /** An interface (or trait): a type, but nothing a call is narrowed by (`Props` is named everywhere). */
  isInterface: boolean;
}

interface IndexedFile {
  path: string;
  text: string;
  declarations: Declaration[];
  /** Offsets of the first character of each line (line n starts at lineStarts[n - 1]). */
  lineStarts: number[];
  language: FactsLanguage;
  /** Classes the file declares. */
  classNames: string[];
  /** The file name without extension (`user.server`, or the folder of an `index.ts`): what an import names. */
  stem: string;
}

const CONTROL_WORDS = new Set(['async', 'await', 'typeof', 'super', 'this', 'self', 'yield', 'throw', 'void', 'in', 'of', 'instanceof', 'print', 'echo', 'require', 'include', 'import', 'export', 'if', 'for', 'foreach', 'while', 'switch', 'catch', 'synchronized', 'return', 'new', 'else', 'elseif', 'try', 'do', 'function', 'with', 'elif', 'using', 'when', 'match', 'fn', 'array', 'list', 'isset', 'empty', 'unset']);

/**
 * A name followed by a parameter list and a body: a method or function declaration (any C-like language).
 * A parameter list may hold one level of parentheses and of braces: a default `context = {}`, an inline
 * object type or a destructured parameter (a service method declared so was no declaration, and the
 * callee holding the operation was left out).
 */
const BODY_DECLARATION = /(?:^|[\s;{}])([A-Za-z_$][\w$]*)\s*\((?:[^;{}()]|\([^;{}()]*\)|\{[^{}()]*\})*\)\s*(?::\s*[^;{}=()]+(?:\([^;{}()]*\))?)?\s*(?:throws\s[^;{]*)?\{/g;

const DECLARATION_SHAPES: Record<FactsLanguage, readonly { kind: 'function' | 'class'; re: RegExp }[]> = {
  php: [
    { kind: 'function', re: /\bfunction\s+&?\s*([A-Za-z_]\w*)\s*\(/g },
    { kind: 'class', re: /(?<!::)\b(?:class|interface|trait|enum)\s+([A-Za-z_]\w*)/g },
  ],
  java: [
    { kind: 'function', re: BODY_DECLARATION },
    // A body-less declaration (abstract, interface): `Type name(...);`, never `new X(...);` or `return x(...);`.
    // The type starts with a word character: a type of spaces took the indentation of every call
    // statement (`    save(x);`) for a declaration, and the backtracking cost seconds per project.
    { kind: 'function', re: /^[ \t]*(?:(?:public|protected|private|static|final|abstract|synchronized|native|default)\s+)*(?:<[^>;]*>\s+)?(?!(?:new|return|throw|else|case|yield|await)\b)[\w$][\w.$<>[\],? ]*\s+([A-Za-z_$][\w$]*)\s*\([^;{]*\)\s*(?:throws\s[^;{]*)?;/gm },
    { kind: 'class', re: /\b(?:class|interface|enum|record)\s+([A-Za-z_$][\w$]*)/g },
  ],
  python: [
    { kind: 'function', re: /\bdef\s+([A-Za-z_]\w*)/g },
    { kind: 'class', re: /^[ \t]*class\s+([A-Za-z_]\w*)/gm },
  ],
  typescript: [
    { kind: 'function', re: /\bfunction\s*\*?\s*([A-Za-z_$][\w$]*)/g },
    // The type annotation stays on its line and out of a closing brace: one reaching across lines took an object
    // key (`message: X })`) for the name and swallowed the next `export const check = (...) =>`.
    { kind: 'function', re: /\b([A-Za-z_$][\w$]*)\s*(?::[^=;\n}]+)?[=:]\s*(?:async\s*)?(?:function\b|(?:\([^()]*\)|[A-Za-z_$][\w$]*)\s*(?::[^=;]+)?=>)/g },
    { kind: 'function', re: BODY_DECLARATION },
    // A client or builder holding middleware (`const authActionClient = actionClient.use(async ...)`): its
    // middleware runs before every handler built from it, as a wrapper's body does.
    { kind: 'function', re: /\bconst\s+([A-Za-z_$][\w$]*)\s*=\s*[A-Za-z_$][\w$.]*\s*\.\s*use\s*\(/g },
    // An action built from such a client (`const x = client.inputSchema(s).action(async (...) => ...)`): its handler's body is the declaration's.
    { kind: 'function', re: /\bconst\s+([A-Za-z_$][\w$]*)\s*=\s*[A-Za-z_$][\w$]*\s*(?:\.\s*[A-Za-z_$][\w$]*\s*\((?:[^()]|\([^()]*\))*\)\s*)*\.\s*action\s*\(/g },
    { kind: 'class', re: /\b(?:class|interface)\s+([A-Za-z_$][\w$]*)/g },
  ],
};

const CAPITALISED = /(?<![\w$])[A-Z][\w$]*/g;
const CALLED = /(?<![\w$])([A-Za-z_$][\w$]*)\s*\(/g;
/** A call on a receiver (`x.name(`, `$x->name(`, `X::name(`): it reaches methods, or functions of an imported module. */
function onReceiver(text: string, at: number): boolean {
  const before = text[at - 1];
  return before === '.' || (before === '>' && text[at - 2] === '-') || (before === ':' && text[at - 2] === ':');
}
/** A receiver other than the object itself: `this.teams.rename(`, `$repo->save(`, not `this.rename(`/`self.rename(`. */
function onOtherReceiver(text: string, at: number, received: boolean): boolean {
  return received && !/(?:^|[^\w$.])(?:this|self|\$this|static|parent|super)\s*(?:\.|->|::)\s*$/.test(text.slice(Math.max(0, at - 16), at));
}
/** A decorator or annotation's name, its last dotted part (`@admin_required`, `@auth.login_required`), never an e-mail address. */
const DECORATOR = /(?<![\w$@.])@(?:[A-Za-z_$][\w$]*\.)*([A-Za-z_$][\w$]*)/g;
/**
 * `export const POST = withWorkspace(`, `export default withAuth(`: the wrapper an exported JS handler is handed to;
 * `export const x = authActionClient.inputSchema(s).action(`: the next-safe-action client an action is built from.
 */
const EXPORT_WRAPPER = /^export\s+(?:default\s+|(?:const|let|var)\s+[A-Za-z_$][\w$]*\s*(?::[^=\n]+)?=\s*)([A-Za-z_$][\w$]*)\s*(?:\(|\.\s*(?:inputSchema|schema|metadata|outputSchema|bindArgsSchemas|use|action)\s*\()/gm;
const MODEL_WRITE_VERBS = 'create|createMany|update|updateMany|upsert|delete|deleteMany';
/** A write to a model on a client (`prisma.organisationGroup.delete(`, `tx.teamMember.update(`). */
const MODEL_WRITE = new RegExp(`\\.([A-Za-z_$][\\w$]*)\\.(?:${MODEL_WRITE_VERBS})\\s*\\(`, 'g');
/** An `if` whose condition names a role (`isOrganisationRoleWithinUserHierarchy(currentRole, group.organisationRole)`). */
const ROLE_COMPARISON = /\bif\s*\([^\n]*Role\b/;
const CONSTRUCTED = /\bnew\s+(?:[\w$]+[.\\])*([A-Za-z_$][\w$]*)/g;

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function declarationsOf(text: string, language: FactsLanguage): Declaration[] {
  const found = new Map<number, Declaration>();
  for (const shape of DECLARATION_SHAPES[language]) {
    shape.re.lastIndex = 0;
    for (const match of text.matchAll(shape.re)) {
      const name = match[1];
      if (name === undefined || CONTROL_WORDS.has(name)) continue;
      const offset = (match.index) + match[0].indexOf(name);
      if (found.has(offset)) continue;
      let supertypes: string[] = [];
      if (shape.kind === 'class') {
        const headerEnd = text.slice(offset, offset + 600).search(language === 'python' ? /:\s*$/m : /\{/);
        const header = text.slice(offset + name.length, headerEnd === -1 ? offset + 200 : offset + headerEnd);
        supertypes = [...header.matchAll(CAPITALISED)].map((m) => m[0]);
      }
      found.set(offset, { name, kind: shape.kind, offset, end: shape.kind === 'function' ? null : offset, supertypes, isInterface: shape.kind === 'class' && /^\s*(?:interface|trait)\b/.test(match[0]) });
    }
  }
  return [...found.values()].sort((a, b) => a.offset - b.offset);
}

/** The innermost declared function at or before `offset` (the function a use most likely sits in). */
function enclosingFunction(file: IndexedFile, offset: number): Declaration | null {
  let low = 0;
  let high = file.declarations.length - 1;
  let best = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if ((file.declarations[mid]?.offset ?? 0) <= offset) {
      best = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  for (let i = best; i >= 0; i--) {
    const declaration = file.declarations[i];
    if (declaration?.kind === 'function' && endOf(file, declaration) >= offset) return declaration;
  }
  return null;
}

/** Characters scanned at most for one body's end (a longer body is taken to run to the end of the file). */
const MAX_BODY_SCAN = 512 * 1024;

/**
 * The end of the function declared at `offset`: Python by indentation; the others by matching braces
 * from the first `{` after the parameters (skipping strings and comments), or the `;` of a body-less one.
 */
function bodyEnd(text: string, offset: number, language: FactsLanguage): number {
  const limit = Math.min(text.length, offset + MAX_BODY_SCAN);
  if (language === 'python') {
    const lineStart = text.lastIndexOf('\n', offset) + 1;
    const indent = /^[ \t]*/.exec(text.slice(lineStart, offset))?.[0].length ?? 0;
    let at = text.indexOf('\n', offset);
    while (at !== -1 && at < limit) {
      const next = text.indexOf('\n', at + 1);
      const line = text.slice(at + 1, next === -1 ? text.length : next);
      const lineIndent = /^[ \t]*/.exec(line)?.[0].length ?? 0;
      if (line.trim() !== '' && lineIndent <= indent && !/^\s*[)\]]/.test(line)) return at;
      at = next;
    }
    return text.length;
  }
  let depth = 0;
  let opened = false;
  let parens = 0;
  let paramsClosed = false;
  // Braces in the parameter list (destructuring) or a return type (`: { ok: boolean }`) are not the body.
  let typeBraces = 0;
  for (let i = offset; i < limit; i++) {
    const c = text[i];
    if (c === '"' || c === "'" || c === '`') {
      i = stringEnd(text, i, limit);
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      i = text.indexOf('\n', i);
      if (i === -1) return text.length;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      i = text.indexOf('*/', i + 2);
      if (i === -1) return text.length;
      i++;
      continue;
    }
    if (opened) {
      if (c === '{') depth++;
      else if (c === '}' && --depth === 0) return i;
      continue;
    }
    if (c === '(') parens++;
    else if (c === ')') {
      parens--;
      if (parens === 0) paramsClosed = true;
    } else if (c === ';' && parens <= 0 && typeBraces === 0) return i;
    else if (c === '{') {
      if (!paramsClosed || parens > 0 || typeBraces > 0 || /[:<,|&(=?]/.test(/\S(?=\s*$)/.exec(text.slice(Math.max(offset, i - 40), i))?.[0] ?? '')) typeBraces++;
      else {
        opened = true;
        depth = 1;
      }
    } else if (c === '}' && typeBraces > 0) typeBraces--;
  }
  return limit === text.length ? text.length : limit;
}

/** The index of the quote closing the string opened at `start` (backslash escapes honoured). */
function stringEnd(text: string, start: number, limit: number): number {
  const quote = text[start];
  for (let i = start + 1; i < limit; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === quote) return i;
    else if (text[i] === '\n' && quote !== '`') return i;
  }
  return limit;
}

function endOf(file: IndexedFile, declaration: Declaration): number {
  declaration.end ??= bodyEnd(file.text, declaration.offset, file.language);
  return declaration.end;
}

/** The text of a declared function, from its name to the end of its body. */
function bodyOf(file: IndexedFile, declaration: Declaration): string {
  return file.text.slice(declaration.offset, endOf(file, declaration) + 1);
}

function escapeName(name: string): string {
  return name.replace(/\$/g, '\\$');
}

/** A module-level statement as a nameless declaration, so its calls are walked like a function body's. */
function statementDeclaration(span: StatementSpan): Declaration {
  return { name: '', kind: 'function', offset: span.start, end: Math.max(span.start, span.end - 1), supertypes: [], isInterface: false };
}

/** A key of one function found by text. */
function functionKey(path: string, declaration: Declaration): string {
  return `${path}\0${declaration.offset}`;
}

/** Select the files a change's proof needs. */
export function selectScope(input: ScopeInput): ScopeSelection {
  const maxBytes = input.maxBytes ?? SCOPE_MAX_BYTES;
  const bounds: string[] = [];
  const cuts: string[] = [];
  const late = (): boolean => {
    if (input.deadline?.remainingMs() !== 0) return false;
    if (!bounds.includes(DEADLINE_BOUND)) bounds.push(DEADLINE_BOUND);
    return true;
  };
  const files: IndexedFile[] = [];
  let bytes = 0;
  for (const file of input.files) {
    if (late()) break;
    bytes += file.text.length;
    if (bytes > maxBytes) {
      bounds.push(`the text search stopped at ${maxBytes.toLocaleString('en-US')} bytes; ${(input.files.length - files.length).toLocaleString('en-US')} file(s) not searched`);
      break;
    }
    const declarations = declarationsOf(file.text, file.factsLanguage);
    const stem = /([^/]+?)(?:\/index)?\.\w+$/.exec(file.path)?.[1] ?? '';
    files.push({ path: file.path, text: file.text, language: file.factsLanguage, declarations, lineStarts: lineStartsOf(file.text), classNames: declarations.filter((d) => d.kind === 'class').map((d) => d.name), stem });
  }
  const byPath = new Map(files.map((f) => [f.path, f]));
  const declarers = new Map<string, { function: Set<string>; class: Set<string> }>();
  const index: DeclarationIndex = { declarers, byPath, reachable: new Map(), lineage: new Map() };
  for (const file of files) {
    for (const declaration of file.declarations) {
      let entry = declarers.get(declaration.name);
      if (!entry) declarers.set(declaration.name, (entry = { function: new Set(), class: new Set() }));
      entry[declaration.kind].add(file.path);
    }
  }

  const selected = new Map<string, SelectionReason>();
  const select = (path: string, reason: SelectionReason): void => {
    if (!selected.has(path) && byPath.has(path)) selected.set(path, reason);
  };

  // Seeds: the changed files, registration files and configuration.
  for (const { path } of input.touched) select(path, 'changed');
  for (const file of input.files) {
    if (input.alwaysRead(file.path)) select(file.path, 'config');
  }
  for (const file of files) {
    const registers = input.registrations.some((r) => (r.paths ?? []).some((re) => re.test(file.path)) || (r.markers ?? []).some((re) => re.test(file.text)));
    if (registers) select(file.path, 'routes');
  }
  const middlewareLists = files.filter((file) =>
    input.registrations.some((r) => (r.middlewareLists ?? []).some((re) => re.test(file.path)) || (r.middlewareMarkers ?? []).some((re) => re.test(file.text))),
  );

  // A file's functions by name, built once per file: a call looks its callee up instead of scanning
  // every declaration of a large file for each call.
  const functionsByName = new Map<string, Map<string, Declaration[]>>();
  const functionsNamed = (file: IndexedFile, name: string): readonly Declaration[] => {
    let byName = functionsByName.get(file.path);
    if (byName === undefined) {
      byName = new Map();
      for (const d of file.declarations) {
        if (d.kind !== 'function') continue;
        const list = byName.get(d.name);
        if (list === undefined) byName.set(d.name, [d]);
        else list.push(d);
      }
      functionsByName.set(file.path, byName);
    }
    return byName.get(name) ?? [];
  };
  // The touched functions: from the review's IR where there is one, else the enclosing text declaration.
  const touchedFunctions = new Map<string, { file: IndexedFile; declaration: Declaration }>();
  // Touched module-level statements of JS/TS files (a route registration): walked like a body, and the
  // functions they hand over are touched functions (registration-touch.ts makes a handler touched).
  const touchedStatements: { file: IndexedFile; declaration: Declaration }[] = [];
  const touchedNames = new Set<string>();
  for (const { path, lines } of input.touched) {
    const file = byPath.get(path);
    if (!file) continue;
    const sorted = [...lines].sort((a, b) => a - b);
    const ir = input.irs?.get(path);
    for (const fn of ir?.functions ?? []) {
      if (!anyWithin(sorted, fn.startLine, fn.endLine)) continue;
      touchedNames.add(fn.name);
      if (fn.className !== null && ['constructor', '__construct', '__init__', fn.className].includes(fn.name)) touchedNames.add(fn.className);
    }
    // One statement per span: the touched lines of a long registration share it.
    const statements: StatementSpan[] = [];
    for (const line of sorted) {
      const offset = file.lineStarts[line - 1];
      const around = offset === undefined ? null : enclosingFunction(file, offset + (file.text.slice(offset, offset + 400).search(/\S|$/)));
      if (around) {
        touchedFunctions.set(functionKey(path, around), { file, declaration: around });
        if (ir === undefined) touchedNames.add(around.name);
      } else if (file.language === 'typescript' && !statements.some((span) => offset !== undefined && offset >= span.start && offset <= span.end)) {
        const span = moduleStatementAt(file.text, file.lineStarts, line);
        if (span) statements.push(span);
      }
    }
    for (const span of statements) {
      const declaration = statementDeclaration(span);
      touchedStatements.push({ file, declaration });
      for (const { name, received } of handedNames(bodyOf(file, declaration))) {
        if (CONTROL_WORDS.has(name)) continue;
        for (const declarer of reachableDeclarers(file, name, received, index).declarers) {
          select(declarer, 'callees');
          const handed = byPath.get(declarer);
          if (handed) for (const d of functionsNamed(handed, name)) touchedFunctions.set(functionKey(declarer, d), { file: handed, declaration: d });
        }
      }
    }
    // The IR's own functions spanning touched lines are walked down from as well.
    for (const declaration of file.declarations) {
      if (declaration.kind === 'function' && touchedNames.has(declaration.name)) touchedFunctions.set(functionKey(path, declaration), { file, declaration });
    }
  }

  const walkedDown = new Map<string, number>();
  const typesDone = new Set<string>();
  /** Models a walked function writes (`prisma.organisationGroup.delete(`): the role-hierarchy norm reads every writer of one. */
  const writtenModels = new Set<string>();
  /** Every name a walked function calls on a receiver: resolution follows an untyped receiver's call only when one method carries the name. */
  const calledNames = new Set<string>();
  const declaredClassesIn = (text: string): string[] => [...new Set([...text.matchAll(CAPITALISED)].map((m) => m[0]))].filter((word) => (declarers.get(word)?.class.size ?? 0) > 0);
  // A class name: every file declaring it, and its ancestors' declarers, transitively.
  const selectTypes = (names: Iterable<string>): void => {
    const queue = [...names];
    while (queue.length > 0) {
      const name = queue.pop() ?? '';
      if (typesDone.has(name)) continue;
      typesDone.add(name);
      for (const path of declarers.get(name)?.class ?? []) {
        select(path, 'types');
        for (const declaration of byPath.get(path)?.declarations ?? []) {
          if (declaration.kind === 'class' && declaration.name === name) queue.push(...declaration.supertypes);
        }
      }
    }
  };
  // The functions a text's decorators (`@admin_required`, `@auth.login_required`) name, selected.
  const definitionsOf = (file: IndexedFile, names: Iterable<string>, withBarrels = false): { file: IndexedFile; declaration: Declaration }[] => {
    const found: { file: IndexedFile; declaration: Declaration }[] = [];
    for (const name of new Set(names)) {
      if (CONTROL_WORDS.has(name)) continue;
      for (const path of reachableDeclarers(file, name, false, index).declarers) {
        select(path, 'callees');
        // A wrapper imported through a folder's barrel (`@/lib/auth` → lib/auth/index.ts → ./workspace) resolves only with the barrel read.
        if (withBarrels) for (const barrel of barrelsAbove(path)) select(barrel, 'callees');
        const definer = byPath.get(path);
        if (definer) for (const declaration of functionsNamed(definer, name)) found.push({ file: definer, declaration });
      }
    }
    return found;
  };
  const barrelsAbove = (path: string): string[] => {
    const parts = path.split('/').slice(0, -1);
    const out: string[] = [];
    for (let depth = parts.length; depth >= Math.max(1, parts.length - 1); depth--) {
      for (const ext of ['ts', 'tsx', 'js', 'jsx', 'mjs']) {
        const barrel = `${parts.slice(0, depth).join('/')}/index.${ext}`;
        if (barrel !== path && byPath.has(barrel)) out.push(barrel);
      }
    }
    return out;
  };
  const decoratorDefinitions = (file: IndexedFile, text: string) => definitionsOf(file, [...text.matchAll(DECORATOR)].map((m) => m[1] ?? ''));
  // A JS route wrapper around an exported handler (`export const POST = withWorkspace(async (...) => ...)`) runs before it, like a decorator.
  const wrapperDefinitions = (file: IndexedFile) => definitionsOf(file, [...file.text.matchAll(EXPORT_WRAPPER)].map((m) => m[1] ?? ''), true);
  // Callees: every declarer of each name a function calls, `depth` hops down, with the types it names.
  const walkDown = (start: readonly { file: IndexedFile; declaration: Declaration }[], depth: number): void => {
    let frontier = start.map((f) => ({ ...f, left: depth }));
    while (frontier.length > 0) {
      const next: typeof frontier = [];
      for (const { file, declaration, left } of frontier) {
        if (late()) return;
        // A function walked with as many hops left already is done.
        const key = functionKey(file.path, declaration);
        if ((walkedDown.get(key) ?? 0) >= left) continue;
        walkedDown.set(key, left);
        const body = bodyOf(file, declaration);
        const decorators = decoratorsOf(file, declaration);
        // The classes its decorators, parameters and body name: an entity a parameter converts to, a
        // decorator's definition, a DTO; recognisers and the checker read them.
        selectTypes(declaredClassesIn(decorators + body));
        // A decorator defined as a function wraps this one at the same depth: its body holds the check.
        for (const { file: definer, declaration: definition } of decoratorDefinitions(file, decorators)) next.push({ file: definer, declaration: definition, left });
        for (const match of body.matchAll(CONSTRUCTED)) for (const path of declarers.get(match[1] ?? '')?.class ?? []) select(path, 'types');
        for (const match of body.matchAll(MODEL_WRITE)) writtenModels.add(match[1] ?? '');
        for (const match of body.matchAll(CALLED)) {
          const name = match[1] ?? '';
          const received = onReceiver(body, match.index);
          if (received) calledNames.add(name);
          // A call of the function's own name is its declaration or a recursion, unless another object receives it
          // (a NestJS controller's `rename` calling `this.teams.rename`).
          if ((name === declaration.name && !onOtherReceiver(body, match.index, received)) || CONTROL_WORDS.has(name)) continue;
          const reach = reachableDeclarers(file, name, received, index);
          for (const path of reach.lineage) select(path, 'types');
          for (const path of reach.declarers) {
            select(path, 'callees');
            const callee = byPath.get(path);
            if (!callee || left <= 1) continue;
            for (const d of functionsNamed(callee, name)) next.push({ file: callee, declaration: d, left: left - 1 });
          }
        }
      }
      frontier = next;
    }
  };

  // Every file of the changed files' own classes' lineage, and every class a changed file names (its
  // imports, class decorators, the types of its parameters and properties). The definitions of the
  // decorators a changed file uses anywhere: a sibling's `@admins_only` is what the change's function
  // is compared with.
  for (const file of middlewareLists) selectTypes(declaredClassesIn(file.text));
  const decoratorsOfChanged: { file: IndexedFile; declaration: Declaration }[] = [];
  for (const { path } of input.touched) {
    const file = byPath.get(path);
    if (file === undefined) continue;
    for (const declaration of file.declarations) if (declaration.kind === 'class') selectTypes([declaration.name]);
    selectTypes(declaredClassesIn(file.text));
    for (const match of file.text.matchAll(MODEL_WRITE)) writtenModels.add(match[1] ?? '');
    decoratorsOfChanged.push(...decoratorDefinitions(file, file.text));
    if (file.language === 'typescript') decoratorsOfChanged.push(...wrapperDefinitions(file));
    // A class-based handler is held to its folder's norm when its file has too few siblings of its verb
    // (sibling-norm.ts): the folder's other verb handlers, and the decorators they declare, are read.
    if (!declaresVerb(file)) continue;
    const folder = folderOf(path);
    for (const sibling of files) {
      if (sibling.path === path || sibling.language !== file.language || folderOf(sibling.path) !== folder || !declaresVerb(sibling)) continue;
      select(sibling.path, 'siblings');
      decoratorsOfChanged.push(...decoratorDefinitions(sibling, sibling.text));
    }
  }
  // Operations sit up to `downDepth` below a touched function; a helper's check counts one more down.
  walkDown([...touchedFunctions.values(), ...touchedStatements, ...decoratorsOfChanged], input.downDepth + 1);

  // Callers, hop by hop: each name with the files declaring the function it stands for.
  let names = new Map<string, Set<string>>();
  for (const { file, declaration } of touchedFunctions.values()) addOrigin(names, declaration.name, file.path);
  for (const name of touchedNames) if (!names.has(name)) names.set(name, new Set(input.touched.map((t) => t.path)));
  const searched = new Set<string>();
  for (let hop = 0; hop < input.maxDepth && names.size > 0 && !late(); hop++) {
    const fresh = [...names.keys()].filter((n) => !searched.has(n) && /^[A-Za-z_$][\w$]*$/.test(n));
    for (const n of fresh) searched.add(n);
    if (fresh.length === 0) break;
    const hitsByName = wordHits(files, fresh);
    const callers: { file: IndexedFile; declaration: Declaration }[] = [];
    const nextNames = new Map<string, Set<string>>();
    for (const [name, inFiles] of [...hitsByName].sort(([a], [b]) => (a < b ? -1 : 1))) {
      let paths = [...inFiles.keys()].sort();
      if (paths.length > input.fanOut) {
        paths = narrowToClassUsers(paths, name, names.get(name) ?? new Set(), index);
        if (paths.length > input.fanOut) {
          cuts.push(`'${name}' is named in ${paths.length.toLocaleString('en-US')} files, more than prover.fan_out (${input.fanOut}); callers in the first ${input.fanOut} were read`);
          paths = paths.slice(0, input.fanOut);
        }
      }
      for (const path of paths) {
        const file = byPath.get(path);
        if (!file) continue;
        for (const offset of inFiles.get(path) ?? []) {
          const around = enclosingFunction(file, offset);
          if (!around || (around.name === name && around.offset === offset)) continue;
          select(path, 'callers');
          callers.push({ file, declaration: around });
          addOrigin(nextNames, around.name, path);
        }
      }
    }
    // A caller's own checks may sit in helpers it calls; recognisers read its classes' lineage.
    walkDown(callers, 2);
    for (const { file } of callers) selectTypes(file.declarations.filter((d) => d.kind === 'class').map((d) => d.name));
    names = nextNames;
  }

  keepAmbiguity(calledNames, index, selected);
  // The project's own norm for a model (role-hierarchy.ts) is read off every function writing it that
  // compares two roles: those files are read, as the whole proof reads them.
  if (writtenModels.size > 0) {
    const writes = new RegExp(`\\.(?:${[...writtenModels].map(escapeName).join('|')})\\.(?:${MODEL_WRITE_VERBS})\\s*\\(`);
    for (const file of files) if (!selected.has(file.path) && ROLE_COMPARISON.test(file.text) && writes.test(file.text)) select(file.path, 'siblings');
  }

  const byReason: Record<SelectionReason, number> = { changed: 0, callers: 0, callees: 0, types: 0, routes: 0, config: 0, siblings: 0 };
  for (const reason of selected.values()) byReason[reason]++;
  return { paths: [...selected.keys()].sort(), byReason, bounds, cuts };
}

/**
 * Resolution follows a call whose receiver it cannot type to the one repository function carrying the
 * name, and leaves it unresolved when two do. A name two files of the repository declare must stay
 * ambiguous in the selection too, or the scoped proof follows `this.prisma.user.update(` into the one
 * `update` it happened to select. For each name called on a receiver, up to two files declaring it
 * are kept, of files with classes and of files without.
 */
function keepAmbiguity(calledNames: ReadonlySet<string>, index: DeclarationIndex, selected: Map<string, SelectionReason>): void {
  for (const name of [...calledNames].sort()) {
    const all = [...(index.declarers.get(name)?.function ?? [])].sort();
    // Files with and without a class declaration apart: the text does not see every class (a class
    // expression, an object of methods), so each kind keeps its two.
    for (const ofKind of [all.filter((path) => (index.byPath.get(path)?.classNames.length ?? 0) > 0), all.filter((path) => (index.byPath.get(path)?.classNames.length ?? 0) === 0)]) {
      if (ofKind.length < 2) continue;
      let kept = ofKind.filter((path) => selected.has(path)).length;
      for (const path of ofKind) {
        if (kept >= 2) break;
        if (selected.has(path)) continue;
        selected.set(path, 'callees');
        kept++;
      }
    }
  }
}

/**
 * The decorator, annotation and attribute lines right above a declaration (`@Roles('admin')`,
 * `#[IsGranted(...)]`, `@login_required`), a multi-line one whole, and the declaration's own line
 * before its name (`public function`).
 */
function decoratorsOf(file: IndexedFile, declaration: Declaration): string {
  const line = lineIndexAt(file.lineStarts, declaration.offset);
  let start = file.lineStarts[line] ?? 0;
  let depth = 0;
  for (let n = line - 1; n >= 0 && line - n <= 40; n--) {
    const text = file.text.slice(file.lineStarts[n] ?? 0, file.lineStarts[n + 1] ?? file.text.length);
    for (const c of text) {
      if (c === ')' || c === ']') depth++;
      else if (c === '(' || c === '[') depth--;
    }
    const decorator = /^\s*(?:@|#\[)/.test(text);
    if (!decorator && depth <= 0) break;
    start = file.lineStarts[n] ?? 0;
    if (decorator && depth <= 0) depth = 0;
  }
  return file.text.slice(start, declaration.offset);
}

/** The 0-based index of the line holding `offset`. */
function lineIndexAt(lineStarts: readonly number[], offset: number): number {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((lineStarts[mid] ?? 0) <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** True when a file declares a request-verb method (`def get(self)`), a class-based handler's shape. */
function declaresVerb(file: IndexedFile): boolean {
  return file.declarations.some((d) => d.kind === 'function' && VERBS.has(d.name));
}

function folderOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/') + 1);
}

function addOrigin(names: Map<string, Set<string>>, name: string, path: string): void {
  const origins = names.get(name);
  if (origins) origins.add(path);
  else names.set(name, new Set([path]));
}

/** Name → file → offsets of each occurrence as a whole word (identifier boundaries, `$` included). */
function wordHits(files: readonly IndexedFile[], names: readonly string[]): Map<string, Map<string, number[]>> {
  const word = new RegExp(`(?<![\\w$])(?:${names.map(escapeName).join('|')})(?![\\w$])`, 'g');
  const hits = new Map<string, Map<string, number[]>>();
  for (const file of files) {
    for (const match of file.text.matchAll(word)) {
      let inFiles = hits.get(match[0]);
      if (!inFiles) hits.set(match[0], (inFiles = new Map<string, number[]>()));
      const offsets = inFiles.get(file.path);
      if (offsets) offsets.push(match.index);
      else inFiles.set(file.path, [match.index]);
    }
  }
  return hits;
}

const capitalisedCache = new WeakMap<IndexedFile, Set<string>>();

/** The capitalised words of a file (the class names it can mention). */
function capitalisedWords(file: IndexedFile): Set<string> {
  let words = capitalisedCache.get(file);
  if (!words) capitalisedCache.set(file, (words = new Set([...file.text.matchAll(CAPITALISED)].map((m) => m[0]))));
  return words;
}

/**
 * The files declaring `name` that a call in `from` can resolve to: all of them when one file declares
 * it (resolution follows a unique name); else `from` itself, files declaring a class `from` names, and
 * files of module functions whose file name `from` names (an import). And `lineage`: for a class `from`
 * names that inherits `name` from an ancestor, that class's files up to the ancestor (resolution needs
 * the receiver's class in the table to walk up to the method).
 */
function reachableDeclarers(from: IndexedFile, name: string, onReceiver: boolean, index: DeclarationIndex): { declarers: string[]; lineage: string[] } {
  const key = `${from.path}\0${name}\0${String(onReceiver)}`;
  const known = index.reachable.get(key);
  if (known) return known;
  const all = index.declarers.get(name)?.function ?? new Set<string>();
  let declarers = [...all];
  const words = capitalisedWords(from);
  // On a receiver, a file of module functions is reached only as an imported module (`mod.name()`).
  if (onReceiver) declarers = declarers.filter((path) => path === from.path || (index.byPath.get(path)?.classNames.length ?? 0) > 0 || imports(from, index.byPath.get(path)?.stem ?? ''));
  if (declarers.length > 1) {
    declarers = declarers.filter((path) => {
      if (path === from.path) return true;
      const declarer = index.byPath.get(path);
      if (!declarer) return false;
      if (declarer.classNames.some((c) => words.has(c))) return true;
      return declarer.classNames.length === 0 && imports(from, declarer.stem);
    });
  }
  const lineage = new Set<string>();
  if (all.size > 0) {
    for (const chain of inheritedChains(from, index)) {
      if (chain.some((path) => all.has(path))) for (const path of chain) lineage.add(path);
    }
  }
  const answer = { declarers, lineage: [...lineage] };
  index.reachable.set(key, answer);
  return answer;
}

const chainsCache = new WeakMap<IndexedFile, string[][]>();

/** For each class a file names that has ancestors in the repository: its files and theirs. */
function inheritedChains(from: IndexedFile, index: DeclarationIndex): string[][] {
  let chains = chainsCache.get(from);
  if (!chains) {
    chains = [...capitalisedWords(from)].map((word) => lineageFiles(word, index)).filter((chain) => chain.length > 1);
    chainsCache.set(from, chains);
  }
  return chains;
}

const importsCache = new WeakMap<IndexedFile, Map<string, boolean>>();

/** True when `from` has an import or require naming a module whose last part is `stem`. */
function imports(from: IndexedFile, stem: string): boolean {
  let known = importsCache.get(from);
  if (!known) importsCache.set(from, (known = new Map<string, boolean>()));
  let answer = known.get(stem);
  if (answer === undefined) known.set(stem, (answer = importsModule(from, stem)));
  return answer;
}

function importsModule(from: IndexedFile, stem: string): boolean {
  if (stem === '' || !from.text.includes(stem)) return false;
  const quoted = stem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const shape = from.language === 'python' ? new RegExp(`(?:^|\\n)\\s*(?:from|import)\\s+[\\w.]*\\b${quoted}\\b`) : new RegExp(`(?:from|import|require\\()\\s*['"][^'"]*\\b${quoted}(?:\\.[jt]sx?)?['"]`);
  return shape.test(from.text);
}

/** The files declaring a class and each of its ancestors (by name, every declaration of each). */
function lineageFiles(className: string, index: DeclarationIndex): string[] {
  const known = index.lineage.get(className);
  if (known) return known;
  const files = new Set<string>();
  const seen = new Set<string>();
  const queue = [className];
  while (queue.length > 0) {
    const name = queue.pop() ?? '';
    if (seen.has(name)) continue;
    seen.add(name);
    for (const path of index.declarers.get(name)?.class ?? []) {
      files.add(path);
      for (const d of index.byPath.get(path)?.declarations ?? []) if (d.kind === 'class' && d.name === name) queue.push(...d.supertypes);
    }
  }
  const answer = [...files];
  index.lineage.set(className, answer);
  return answer;
}

/** What the narrowing reads: declarers by name and kind, and the files by path. */
interface DeclarationIndex {
  declarers: ReadonlyMap<string, { function: Set<string>; class: Set<string> }>;
  byPath: ReadonlyMap<string, IndexedFile>;
  /** `reachableDeclarers` answers, by calling file and name. */
  reachable: Map<string, { declarers: string[]; lineage: string[] }>;
  /** `lineageFiles` answers, by class name. */
  lineage: Map<string, string[]>;
}

/**
 * Of the files naming a method, those that can reach the one declared in `origins` through its class:
 * the declaring files, and files that name one of its classes or their subclasses (a typed receiver,
 * a static call, an inherited `$this->`), or for a module function, files importing its module. A call
 * through a base type reaches the base's method, not this one. A name only one file declares is reached by any receiver (resolution follows a unique
 * name), so it is not narrowed.
 */
function narrowToClassUsers(paths: string[], name: string, origins: ReadonlySet<string>, index: DeclarationIndex): string[] {
  const owning = index.declarers.get(name)?.function ?? new Set<string>();
  if (owning.size <= 1) return paths;
  const classNames = new Set<string>();
  for (const path of origins) for (const d of index.byPath.get(path)?.declarations ?? []) if (d.kind === 'class' && !d.isInterface) classNames.add(d.name);
  // Subclasses, transitively: their files mention a class of the set in a class header.
  for (let grew = classNames.size > 0; grew; ) {
    grew = false;
    for (const file of index.byPath.values()) {
      for (const d of file.declarations) {
        if (d.kind === 'class' && !classNames.has(d.name) && d.supertypes.some((s) => classNames.has(s))) {
          classNames.add(d.name);
          grew = true;
        }
      }
    }
  }
  const mentions = classNames.size === 0 ? null : new RegExp(`(?<![\\w$])(?:${[...classNames].map(escapeName).join('|')})(?![\\w$])`);
  const stems = [...origins].map((path) => index.byPath.get(path)?.stem ?? '');
  return paths.filter((path) => {
    const file = index.byPath.get(path);
    if (origins.has(path)) return true;
    if (!file) return false;
    return (mentions?.test(file.text) ?? false) || stems.some((stem) => imports(file, stem));
  });
}

/** `12 of 1,806 files: 2 changed, 7 callers, 3 routes` (reasons with no file left out). */
export function selectionDetail(selection: ScopeSelection, candidates: number): string {
  const parts = (Object.entries(selection.byReason) as [SelectionReason, number][]).filter(([, n]) => n > 0).map(([reason, n]) => `${n.toLocaleString('en-US')} ${reason}`);
  const cut = selection.cuts.length > 0 ? `; ${selection.cuts.length} name(s) cut at prover.fan_out (${selection.cuts[0] ?? ''})` : '';
  return `${selection.paths.length.toLocaleString('en-US')} of ${candidates.toLocaleString('en-US')} files${parts.length > 0 ? `: ${parts.join(', ')}` : ''}${cut}`;
}
