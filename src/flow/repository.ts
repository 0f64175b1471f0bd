/**
 * Functions of other files of the repository, for the data-flow engine: a call the file does not
 * define (phpipam's `escape_input`, Piwigo's `pwg_query`, a project's query wrapper method) is looked
 * up by a bounded text search for its definition, the defining file is read through the review's
 * reader (which refuses symlinks out of the root and oversized files), parsed, lowered, and the
 * definition is summarised like a helper of the same file: which parameters reach the return, for which
 * sink kinds the return is clean, which parameters reach a sink inside.
 *
 * Bounded on every axis: names searched per run, files read, bytes per file, definitions per name,
 * levels of lookup (a wrapper of a wrapper), and helpers under way at once. What a bound left out is
 * said in `notes`, never passed off as looked up.
 */
import type { Language } from '../syntax/languages.js';
import { analyseFile, FileAnalyser, type AnalyseOptions, type ExternalDefinition, type ExternalFunctions, type FileAnalysis, type HelperSummary } from './engine.js';
import type { FlowFile, FlowFunction } from './ir.js';
import { nameKeyFor, type CallExpr } from './match.js';
import type { FlowRows } from './rows.js';
import { simpleClassName } from './value.js';

/** One file as the review's reader gives it (its SourceRead, restated: data flow does not import git). */
type SourceRead = { ok: true; path: string; text: string } | { ok: false; path: string; reason: string; detail: string };

/** What the lookup reads the repository through (the review's SourceReader has both). */
export interface DefinitionReader {
  grepEach(needles: readonly string[], pathspecs: readonly string[]): Promise<Map<string, string[]>>;
  readMany(paths: readonly string[]): Promise<Map<string, SourceRead>>;
}

/** Lowering a read file for data flow (src/flow/index.ts lowerText), passed in to keep the parser out of this module. */
export type LowerFile = (path: string, language: Language, text: string) => Promise<FlowFile | null>;

export interface LookupLimits {
  /** Names searched in one run. */
  names: number;
  /** Files read and parsed in one run. */
  files: number;
  /** A defining file larger than this is skipped (with a note). */
  fileBytes: number;
  /** A call that may run more definitions than this (after its arity and receiver sort them) is left alone. */
  definitionsPerName: number;
  /** A name defined in more places than this is not kept at all (a common method name). */
  definitionsKept: number;
  /** Levels of lookup: 1 finds the changed file's callees, 2 also their callees. */
  depth: number;
  /** Summaries of looked-up helpers under way at once (a helper calling a helper ...). */
  nesting: number;
}

export const DEFAULT_LOOKUP_LIMITS: LookupLimits = { names: 96, files: 12, fileBytes: 256 * 1024, definitionsPerName: 3, definitionsKept: 8, depth: 2, nesting: 4 };

/**
 * How each language writes a function's definition, as a literal text to search for; files it may be in.
 * `byClass`: the search is for the class of the call's receiver, not the method's name (a Java method
 * has no keyword before its name, and `getValue(` is in every caller); the class's methods are then
 * known as `Class.method`.
 */
interface DefinitionForm {
  needle: (name: string) => string;
  /**
   * More texts that find a file defining the name's methods: for Java, a class implementing an interface
   * (`implements ReportService`), so that a call through the interface type runs its one implementation.
   */
  alsoNeedles?: (name: string) => string[];
  pathspecs: string[];
  byClass?: true;
}

const DEFINITION_FORMS: Partial<Record<Language, DefinitionForm>> = {
  php: { needle: (name) => `function ${name}`, pathspecs: ['*.php', '*.inc', '*.phtml'] },
  python: { needle: (name) => `def ${name}`, pathspecs: ['*.py'] },
  javascript: { needle: (name) => `function ${name}`, pathspecs: ['*.js', '*.mjs', '*.cjs', '*.jsx', '*.ts', '*.tsx'] },
  typescript: { needle: (name) => `function ${name}`, pathspecs: ['*.ts', '*.tsx', '*.mts', '*.cts', '*.js'] },
  tsx: { needle: (name) => `function ${name}`, pathspecs: ['*.ts', '*.tsx', '*.js', '*.jsx'] },
  go: { needle: (name) => `func ${name}`, pathspecs: ['*.go'] },
  java: { needle: (type) => `class ${type}`, alsoNeedles: (type) => [`implements ${type}`], pathspecs: ['*.java'], byClass: true },
};

/** Names worth a search: identifiers long enough not to be defined everywhere. */
const SEARCHABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{2,63}$/;

interface Defined {
  fn: FlowFunction;
  path: string;
}

/** How many arguments a function takes: its required ones, and at most (Infinity with a rest parameter). */
export function arityOf(fn: FlowFunction): { required: number; most: number } {
  const own = fn.parameters.filter((p, i) => !(i === 0 && fn.className !== null && (p.name === 'self' || p.name === 'cls')));
  const rest = own.some((p) => p.type?.endsWith('...') ?? false);
  let required = 0;
  for (const p of own) if (p.defaultValue === null && !(p.type?.endsWith('...') ?? false)) required++;
  return { required, most: rest ? Number.POSITIVE_INFINITY : own.length };
}

/**
 * One review run's lookups. The engine (synchronous) notes the calls it could not resolve that were
 * handed data, and reads what was found through `definitionsFor`; between analyses the caller searches
 * the noted names (asynchronously) with `lookUpPending` and analyses again when something was found.
 * Definitions, analysers and misses are cached for the whole run.
 */
export class RepositoryFunctions implements ExternalFunctions {
  readonly notes: string[] = [];
  private readonly defined = new Map<string, Defined[]>();
  /** By language: names to search, by their key, as written in a call (the search is literal). */
  private readonly pending = new Map<Language, Map<string, string>>();
  private readonly known = new Map<Language, Set<string>>();
  /** Names searched (found or not). */
  private readonly searched = new Set<string>();
  private readonly analysers = new Map<string, FileAnalyser>();
  private readonly files = new Map<string, FlowFile>();
  private readonly skippedFiles = new Set<string>();
  private filesRead = 0;
  private active = 0;
  private nameBudgetNoted = false;
  private fileBudgetNoted = false;

  constructor(
    private readonly reader: DefinitionReader,
    private readonly rowsFor: (language: Language) => FlowRows | undefined,
    private readonly lower: LowerFile,
    private readonly limits: LookupLimits = DEFAULT_LOOKUP_LIMITS,
  ) {}

  /**
   * A call the engine could not resolve was handed data (outside data, a parameter, a field): its name
   * is searched at the next `lookUpPending`.
   */
  noteUnresolved(call: CallExpr, from: FlowFile, receiverClass: string | null = null, viaReceiver = false): void {
    const form = DEFINITION_FORMS[from.language];
    if (call.isNew || form === undefined || (viaReceiver && form.byClass !== true) || !SEARCHABLE_NAME.test(call.callee) || this.knownTo(from.language).has(this.key(call.callee, from.language))) return;
    const searchedFor = form.byClass ? receiverClass : call.callee;
    if (searchedFor === null || !SEARCHABLE_NAME.test(searchedFor)) return;
    const name = this.key(searchedFor, from.language);
    if (this.searched.has(name)) return;
    const pending = this.pending.get(from.language) ?? new Map<string, string>();
    if (!pending.has(name)) pending.set(name, searchedFor);
    this.pending.set(from.language, pending);
  }

  /**
   * Search the names noted since the last call. True when a definition was found, so that an analysis
   * made without it is worth running again; the analysers of helper files start afresh then.
   */
  async lookUpPending(): Promise<boolean> {
    let found = false;
    const pending = [...this.pending];
    this.pending.clear();
    for (const [language, names] of pending) {
      const form = DEFINITION_FORMS[language];
      if (form === undefined) continue;
      if ((await this.search(names, language, form)) > 0) found = true;
    }
    if (found) this.analysers.clear();
    return found;
  }

  /** Levels of lookup a file's analysis may go through. */
  get depth(): number {
    return this.limits.depth;
  }

  /** Definitions elsewhere in the repository a call may run, each with the analyser of its file. */
  definitionsFor(call: CallExpr, from: FlowFile, receiverClass: string | null = null): readonly ExternalDefinition[] {
    const form = DEFINITION_FORMS[from.language];
    if (call.isNew || form === undefined || (form.byClass && receiverClass === null)) return [];
    const fromPath = from.path;
    const defs = this.defined.get(this.key(form.byClass ? `${receiverClass ?? ''}.${call.callee}` : call.callee, from.language)) ?? [];
    const out: ExternalDefinition[] = [];
    for (const d of defs) {
      if (d.path === fromPath) continue; // the engine resolves the file's own functions
      const { required, most } = arityOf(d.fn);
      if (call.arguments.length < required || call.arguments.length > most) continue;
      // A bare call runs a plain function; a call on a receiver runs a method.
      if ((call.receiver === null) !== (d.fn.className === null)) continue;
      const analyser = this.analyserFor(d.path);
      if (analyser !== null) out.push({ fn: d.fn, analyser, path: d.path });
    }
    // Too many candidates: the call could run any of them, so none is taken for it.
    return out.length > this.limits.definitionsPerName ? [] : out;
  }

  /** What a looked-up helper does with its parameters, for readers other than the engine (the prover's argument provenance). */
  summaryOf(name: string, language: Language): Array<{ path: string; function: string; summary: HelperSummary }> {
    const form = DEFINITION_FORMS[language];
    if (form === undefined) return [];
    return (this.defined.get(this.key(name, language)) ?? []).flatMap((d) => {
      const summary = this.analyserFor(d.path)?.describe(d.fn) ?? null;
      return summary === null ? [] : [{ path: d.path, function: d.fn.qualifiedName, summary }];
    });
  }

  enter(): boolean {
    if (this.active >= this.limits.nesting) return false;
    this.active++;
    return true;
  }

  leave(): void {
    this.active = Math.max(0, this.active - 1);
  }

  private knownTo(language: Language): ReadonlySet<string> {
    let names = this.known.get(language);
    if (names === undefined) {
      const rows = this.rowsFor(language);
      names = rows === undefined ? new Set() : new Set([...knownNames(rows)].map((name) => this.key(name, language)));
      this.known.set(language, names);
    }
    return names;
  }

  private key(name: string, language: Language): string {
    return nameKeyFor(language)(name);
  }

  private analyserFor(path: string): FileAnalyser | null {
    const cached = this.analysers.get(path);
    if (cached !== undefined) return cached;
    const file = this.files.get(path);
    const rows = file === undefined ? undefined : this.rowsFor(file.language);
    if (file === undefined || rows === undefined) return null;
    const analyser = new FileAnalyser(file, { rows, external: this, lookUpParameters: true });
    this.analysers.set(path, analyser);
    return analyser;
  }

  /**
   * A searched name that is an interface with one implementing class among the files read: that class's
   * methods are known as the interface's (`ReportService.render` runs `ReportServiceImpl.render`). With
   * two implementations or more, which one runs is the caller's wiring, so none is taken.
   */
  private implementedInterfaces(taken: readonly string[]): string[] {
    const implementers = new Map<string, Array<{ className: string; path: string }>>();
    for (const [path, lowered] of this.files) {
      for (const flowClass of lowered.classes) {
        for (const written of flowClass.interfaces) {
          const name = simpleClassName(written.replace(/<.*$/s, '').trim());
          if (!taken.includes(name)) continue;
          const list = implementers.get(name) ?? [];
          list.push({ className: flowClass.name, path });
          implementers.set(name, list);
        }
      }
    }
    const keys: string[] = [];
    for (const [name, list] of implementers) {
      const only = list.length === 1 ? list[0] : undefined;
      const lowered = only === undefined ? undefined : this.files.get(only.path);
      if (only === undefined || lowered === undefined) continue;
      for (const fn of lowered.functions) {
        if (fn.className !== only.className || fn.enclosingFunction !== null || fn.qualifiedName === '<module>') continue;
        const key = `${name}.${fn.name}`;
        const defs = this.defined.get(key) ?? [];
        defs.push({ fn, path: only.path });
        this.defined.set(key, defs);
        keys.push(key);
      }
    }
    return keys;
  }

  /** One search for all `names`, then the files that hold their definitions, read and lowered once per run. */
  private async search(names: ReadonlyMap<string, string>, language: Language, form: DefinitionForm): Promise<number> {
    const room = Math.max(0, this.limits.names - this.searched.size);
    if (names.size > room && !this.nameBudgetNoted) {
      this.nameBudgetNoted = true;
      this.notes.push(`flow: helpers of other files: ${names.size - room} name(s) not looked up (at most ${this.limits.names} per run)`);
    }
    const taken = [...names.keys()].sort().slice(0, room);
    if (taken.length === 0) return 0;
    for (const name of taken) this.searched.add(name);
    // Case-insensitive languages are searched as the calls spell the name; a definition spelt otherwise is missed.
    const needles = new Map(taken.flatMap((key) => [form.needle(names.get(key) ?? key), ...(form.alsoNeedles?.(names.get(key) ?? key) ?? [])].map((needle) => [needle, key] as const)));
    const hits = await this.reader.grepEach([...needles.keys()], form.pathspecs);
    const wanted = new Set<string>();
    for (const [needle, paths] of hits) {
      // A name written in more files than are kept is a common method name: its files are not read for it.
      if (needles.has(needle) && paths.length <= this.limits.definitionsKept) for (const p of paths) wanted.add(p);
    }
    const paths = [...wanted].sort().filter((p) => !this.files.has(p) && !this.skippedFiles.has(p));
    const fresh = paths.slice(0, Math.max(0, this.limits.files - this.filesRead));
    if (fresh.length < paths.length && !this.fileBudgetNoted) {
      this.fileBudgetNoted = true;
      this.notes.push(`flow: helpers of other files: ${paths.length - fresh.length} file(s) not read (at most ${this.limits.files} per run)`);
    }
    this.filesRead += fresh.length;
    const reads = fresh.length > 0 ? await this.reader.readMany(fresh) : new Map<string, SourceRead>();
    for (const [path, read] of reads) {
      if (!read.ok) {
        this.skippedFiles.add(path);
        continue; // a symlink, a submodule, an unsafe path: never read, and nothing to note beyond the reader's refusal
      }
      if (Buffer.byteLength(read.text) > this.limits.fileBytes) {
        this.skippedFiles.add(path);
        this.notes.push(`flow: helpers of other files: ${path} not read (${Buffer.byteLength(read.text)} bytes, over ${this.limits.fileBytes})`);
        continue;
      }
      const lowered = await this.lower(path, language, read.text);
      if (lowered === null) {
        this.skippedFiles.add(path);
        continue;
      }
      this.files.set(path, lowered);
    }
    // A name may be defined in a file an earlier search already read.
    const keys = new Set<string>();
    for (const [path, lowered] of this.files) {
      for (const fn of lowered.functions) {
        if (fn.qualifiedName === '<module>' || fn.enclosingFunction !== null) continue;
        const searchedFor = form.byClass ? (fn.className === null ? null : simpleClassName(fn.className)) : fn.name;
        if (searchedFor === null || !taken.includes(this.key(searchedFor, language))) continue;
        const name = this.key(form.byClass ? `${searchedFor}.${fn.name}` : fn.name, language);
        keys.add(name);
        const list = this.defined.get(name) ?? [];
        list.push({ fn, path });
        this.defined.set(name, list);
      }
    }
    if (form.byClass) for (const name of this.implementedInterfaces(taken)) keys.add(name);
    let found = 0;
    for (const name of keys) {
      const defs = this.defined.get(name) ?? [];
      if (defs.length > this.limits.definitionsKept) this.defined.delete(name);
      else if (defs.length > 0) found++;
    }
    return found;
  }
}

/** Names the language's rows already describe: their meaning comes from the rows, not from a search. */
function knownNames(rows: FlowRows): Set<string> {
  const out = new Set<string>();
  for (const table of [rows.sources, rows.sinks, rows.sanitisers, rows.guards, rows.propagators, rows.exits]) {
    for (const row of table) {
      const call = 'call' in row ? row.call : 'match' in row && row.match.kind === 'call' ? row.match.call : null;
      if (call !== null && typeof call === 'object' && 'names' in call) for (const n of call.names) out.add(n);
    }
  }
  return out;
}

/**
 * Analyse a file with the helpers of other files: after each analysis, the calls it could not resolve
 * that were handed data are looked up, and the file is analysed again when a definition was found (at
 * most `repository.depth` times).
 */
export async function analyseWithHelpers(file: FlowFile, options: Omit<AnalyseOptions, 'external'>, only: ReadonlySet<string> | null, repository: RepositoryFunctions): Promise<FileAnalysis> {
  let analysis = analyseFile(file, { ...options, external: repository }, only);
  for (let level = 0; level < repository.depth && (await repository.lookUpPending()); level++) analysis = analyseFile(file, { ...options, external: repository }, only);
  return analysis;
}
