/**
 * Step 4: the context bundle. A deterministic expansion outward from the changed lines: the enclosing
 * function or class of each change, the files the changed files import, their tests, and schema files
 * the change touches or names. The limits are hard: expansion stops at the first limit reached and the
 * bundle says which limit, and what was left out.
 */
import { posix } from 'node:path';
import { FILE_TYPES, fileTypeOf } from '../languages/registry.js';
import { languageForPath, type Language } from '../syntax/languages.js';
import type { FileIR } from '../syntax/ir.js';
import type { SourceReader, SourceRead } from '../git/sources.js';

interface ContextLimits {
  maxFiles: number;
  maxTotalBytes: number;
  maxExpansionRounds: number;
}

/** A changed file as the bundle sees it: its new text, changed lines and (when parsed) its IR. */
export interface ChangedSource {
  path: string;
  text: string;
  changedLines: Set<number>;
  ir: FileIR | null;
  /** A trivial (comment or whitespace only) change is not expanded. */
  trivial: boolean;
}

type ContextReason = 'changed' | 'import' | 'test' | 'schema' | 'importer';

interface ContextFile {
  path: string;
  reason: ContextReason;
  /** Which file led here (null for changed files). */
  via: string | null;
  round: number;
  text: string;
  /** For changed files: the line spans sent as context (enclosing functions/classes), 1-based inclusive. */
  spans: { start: number; end: number }[] | null;
}

export interface ContextBundle {
  files: ContextFile[];
  totalBytes: number;
  /** `context.max_files`, `context.max_total_bytes`, `context.max_expansion_rounds` when reached. */
  limitsReached: string[];
  /** Candidates not taken, with the reason (a limit, or why they could not be read). */
  leftOut: { path: string; reason: string }[];
}

export interface ContextInput {
  changed: ChangedSource[];
  reader: SourceReader;
  limits: ContextLimits;
  /** Changed files whose public surface changed, with the files that import them (found by the caller). */
  publicSurfaceChanged?: Map<string, string[]>;
}

const SCHEMA_REFERENCE = /[\w./-]+\.(?:sql|graphql|gql|proto|prisma)\b|[\w./-]*(?:openapi|swagger)[\w.-]*\.(?:ya?ml|json)\b|[\w./-]+\.schema\.json\b/gi;
const CONTEXT_MARGIN = 3;
/** JavaScript and TypeScript test each other: a `.ts` module's test may be `.test.js`. */
const SCRIPT_EXTENSIONS = FILE_TYPES.filter((t) => t.language === 'javascript' || t.language === 'typescript').map((t) => t.extension);

/** Line spans worth sending for a changed file: each changed line's enclosing function, else a margin. */
export function changedSpans(source: ChangedSource): { start: number; end: number }[] {
  const lineCount = source.text.split('\n').length - (source.text.endsWith('\n') ? 1 : 0);
  const spans: { start: number; end: number }[] = [];
  for (const line of [...source.changedLines].sort((a, b) => a - b)) {
    const fn = source.ir ? innermost(source.ir, line) : null;
    const start = fn ? fn.start : Math.max(1, line - CONTEXT_MARGIN);
    const end = fn ? fn.end : Math.min(lineCount, line + CONTEXT_MARGIN);
    const last = spans[spans.length - 1];
    if (last && start <= last.end + 1) last.end = Math.max(last.end, end);
    else spans.push({ start, end });
  }
  return spans;
}

/** The innermost function enclosing a line, else the innermost class; null at top level. */
function innermost(ir: FileIR, line: number): { start: number; end: number } | null {
  let best: { start: number; end: number } | null = null;
  for (const fn of ir.functions) {
    if (fn.startLine <= line && line <= fn.endLine && (!best || fn.endLine - fn.startLine < best.end - best.start)) {
      best = { start: fn.startLine, end: fn.endLine };
    }
  }
  if (best) return best;
  for (const cls of ir.classes) {
    if (cls.startLine <= line && line <= cls.endLine && (!best || cls.endLine - cls.startLine < best.end - best.start)) {
      best = { start: cls.startLine, end: cls.endLine };
    }
  }
  return best;
}

/**
 * Repository paths by base name, built once per file list (the list is made once per run), so that
 * resolving an import or finding a test is a lookup, not a scan of every file in the repository.
 */
const basenameIndexes = new WeakMap<object, Map<string, string[]>>();

function byBasename(files: ReadonlySet<string> | readonly string[]): Map<string, string[]> {
  let index = basenameIndexes.get(files);
  if (!index) {
    index = new Map();
    for (const f of files) {
      const name = posix.basename(f);
      const list = index.get(name);
      if (list) list.push(f);
      else index.set(name, [f]);
    }
    basenameIndexes.set(files, index);
  }
  return index;
}

/** Paths that are `suffix` (with its leading slash) or end with it, sorted. */
function withSuffix(files: ReadonlySet<string> | readonly string[], suffix: string): string[] {
  return (byBasename(files).get(posix.basename(suffix)) ?? []).filter((f) => `/${f}`.endsWith(suffix)).sort();
}

/** Repository paths an import of `module` from `fromPath` may name, most likely first. */
export function importCandidates(fromPath: string, module: string, language: Language, files: ReadonlySet<string>): string[] {
  const dir = posix.dirname(fromPath);
  const exists = (p: string): boolean => files.has(p);
  const firstExisting = (candidates: string[]): string[] => candidates.map((c) => posix.normalize(c)).filter(exists).slice(0, 1);
  switch (language) {
    case 'javascript':
    case 'typescript':
    case 'tsx': {
      if (!module.startsWith('.')) return [];
      const base = posix.join(dir, module);
      const stem = base.replace(/\.(m|c)?js$/, '');
      // Resolution order, not a language table: TypeScript sources win over the JavaScript built from them.
      const exts = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
      return firstExisting([base, ...exts.map((e) => stem + e), ...exts.map((e) => `${base}/index${e}`)]);
    }
    case 'python': {
      const leading = /^\.+/.exec(module)?.[0].length ?? 0;
      const rest = module.slice(leading).split('.').filter(Boolean).join('/');
      let baseDir = leading === 0 ? '' : dir;
      for (let i = 1; i < leading; i++) baseDir = posix.dirname(baseDir);
      const stem = rest ? posix.join(baseDir, rest) : baseDir;
      const roots = leading === 0 ? ['', 'src/'] : [''];
      return firstExisting(roots.flatMap((r) => [`${r}${stem}.py`, `${r}${stem}/__init__.py`]).filter((p) => p !== '.py' && !p.startsWith('/')));
    }
    case 'java': {
      if (module.endsWith('.*')) return [];
      const suffix = `/${module.replace(/^static\s+/, '').split('.').join('/')}.java`;
      return withSuffix(files, suffix).slice(0, 1);
    }
    case 'php': {
      if (module.includes('/') || module.endsWith('.php')) return firstExisting([posix.join(dir, module)]);
      const parts = module.replace(/^\\/, '').split('\\');
      // PSR-4: the namespace prefix maps to a folder we do not know; match the longest path suffix.
      for (let take = parts.length; take >= 2; take--) {
        const suffix = `/${parts.slice(-take).join('/')}.php`;
        const hits = withSuffix(files, suffix);
        if (hits.length === 1) return hits;
      }
      return [];
    }
    case 'ruby':
      return module.startsWith('.') ? firstExisting([`${posix.join(dir, module)}.rb`, posix.join(dir, module)]) : [];
    case 'go':
      return [];
  }
}

/** Test files for a source file by each language's naming conventions. */
export function testCandidates(path: string, files: readonly string[]): string[] {
  const base = posix.basename(path);
  const dot = base.lastIndexOf('.');
  const stem = dot > 0 ? base.slice(0, dot) : base;
  const names = new Set<string>();
  switch (fileTypeOf(path)?.language) {
    case 'python':
      names.add(`test_${stem}.py`).add(`${stem}_test.py`).add(`tests_${stem}.py`);
      break;
    case 'javascript':
    case 'typescript':
      for (const e of SCRIPT_EXTENSIONS) names.add(`${stem}.test${e}`).add(`${stem}.spec${e}`);
      break;
    case 'java':
      names.add(`${stem}Test.java`).add(`${stem}Tests.java`).add(`${stem}IT.java`).add(`Test${stem}.java`);
      break;
    case 'php':
      names.add(`${stem}Test.php`);
      break;
    case 'go':
      names.add(`${stem}_test.go`);
      break;
    case 'ruby':
      names.add(`${stem}_spec.rb`).add(`${stem}_test.rb`);
      break;
    default:
      return [];
  }
  if (names.has(base)) return []; // a test file has no tests of its own
  return [...names].flatMap((name) => byBasename(files).get(name) ?? []).filter((f) => f !== path).sort();
}

/** Schema files named in a text (paths or base names that exist in the repository). */
export function schemaReferences(text: string, files: readonly string[]): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(SCHEMA_REFERENCE)) {
    const ref = match[0].replace(/^\.\//, '');
    for (const f of withSuffix(files, `/${ref}`)) found.add(f);
  }
  return [...found].sort();
}

interface Candidate {
  path: string;
  reason: ContextReason;
  via: string;
}

/** Build the bundle. Reads only through `reader`; stops at the first limit. */
export async function buildContext(input: ContextInput): Promise<ContextBundle> {
  const { limits, reader } = input;
  const files = await reader.listFiles();
  const fileSet = new Set(files);
  const bundle: ContextBundle = { files: [], totalBytes: 0, limitsReached: [], leftOut: [] };
  const taken = new Set<string>();
  const limitHit = (name: string): void => {
    if (!bundle.limitsReached.includes(name)) bundle.limitsReached.push(name);
  };
  /** Take a file into the bundle unless a hard limit says no; a refusal records the limit. */
  const admit = (file: ContextFile): boolean => {
    const bytes = Buffer.byteLength(file.text);
    const limit = bundle.files.length >= limits.maxFiles ? 'context.max_files' : bundle.totalBytes + bytes > limits.maxTotalBytes ? 'context.max_total_bytes' : null;
    if (limit !== null) {
      limitHit(limit);
      bundle.leftOut.push({ path: file.path, reason: limit });
      return false;
    }
    bundle.files.push(file);
    bundle.totalBytes += bytes;
    return true;
  };

  // Round 0: the changed files themselves, as the spans around their changes.
  for (const source of [...input.changed].sort((a, b) => a.path.localeCompare(b.path))) {
    const spans = changedSpans(source);
    const text = spanText(source.text, spans);
    if (admit({ path: source.path, reason: 'changed', via: null, round: 0, text, spans })) taken.add(source.path);
  }

  let frontier: { path: string; text: string; ir: FileIR | null; language: Language | null }[] = input.changed
    .filter((c) => !c.trivial && taken.has(c.path))
    .map((c) => ({ path: c.path, text: c.text, ir: c.ir, language: languageForPath(c.path) }));

  for (let round = 1; frontier.length > 0 && bundle.limitsReached.length === 0; round++) {
    const candidates = collectCandidates(frontier, round, files, fileSet, input.publicSurfaceChanged);
    const fresh = dedupeCandidates(candidates).filter((c) => !taken.has(c.path));
    if (fresh.length === 0) break;
    if (round > limits.maxExpansionRounds) {
      limitHit('context.max_expansion_rounds');
      for (const c of fresh) bundle.leftOut.push({ path: c.path, reason: 'context.max_expansion_rounds' });
      break;
    }
    const reads = await reader.readMany(fresh.map((c) => c.path));
    const next: typeof frontier = [];
    for (const candidate of fresh) {
      const read = reads.get(candidate.path) as SourceRead;
      if (!read.ok) {
        bundle.leftOut.push({ path: candidate.path, reason: `${read.reason}: ${read.detail}` });
        continue;
      }
      if (bundle.limitsReached.length > 0) {
        bundle.leftOut.push({ path: candidate.path, reason: bundle.limitsReached[0] as string });
        continue;
      }
      if (!admit({ path: candidate.path, reason: candidate.reason, via: candidate.via, round, text: read.text, spans: null })) continue;
      taken.add(candidate.path);
      next.push({ path: candidate.path, text: read.text, ir: null, language: languageForPath(candidate.path) });
    }
    frontier = next;
  }
  return bundle;
}

function collectCandidates(
  frontier: { path: string; text: string; ir: FileIR | null; language: Language | null }[],
  round: number,
  files: readonly string[],
  fileSet: ReadonlySet<string>,
  publicSurfaceChanged: Map<string, string[]> | undefined,
): Candidate[] {
  const out: Candidate[] = [];
  for (const item of [...frontier].sort((a, b) => a.path.localeCompare(b.path))) {
    if (item.language) {
      for (const module of importsOf(item)) {
        for (const path of importCandidates(item.path, module, item.language, fileSet)) out.push({ path, reason: 'import', via: item.path });
      }
    }
    if (round === 1) {
      for (const path of testCandidates(item.path, files)) out.push({ path, reason: 'test', via: item.path });
      for (const path of publicSurfaceChanged?.get(item.path) ?? []) out.push({ path, reason: 'importer', via: item.path });
    }
    for (const path of schemaReferences(item.text, files)) out.push({ path, reason: 'schema', via: item.path });
  }
  return out;
}

/** Imports from the IR when the file was parsed, else from a line scan of the common forms. */
function importsOf(item: { text: string; ir: FileIR | null }): string[] {
  return item.ir ? item.ir.imports.map((i) => i.module) : importLines(item.text);
}

/** Module names of the common import forms, by a line scan (for files that were not parsed). */
export function importLines(text: string): string[] {
  const modules: string[] = [];
  const pattern = /(?:from\s+['"]([^'"]+)['"]|require\(\s*['"]([^'"]+)['"]\s*\)|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*from\s+([.\w]+)\s+import|^\s*import\s+([\w.]+)|^\s*use\s+([\w\\]+)\s*;|require_relative\s+['"]([^'"]+)['"])/gm;
  for (const m of text.matchAll(pattern)) {
    const module = m.slice(1).find((g) => g !== undefined);
    if (module) modules.push(module.replace(/;$/, ''));
  }
  return modules;
}

function dedupeCandidates(candidates: Candidate[]): Candidate[] {
  const seen = new Set<string>();
  const out: Candidate[] = [];
  for (const c of candidates) {
    if (seen.has(c.path)) continue;
    seen.add(c.path);
    out.push(c);
  }
  return out.sort((a, b) => (a.reason === b.reason ? a.path.localeCompare(b.path) : reasonOrder(a.reason) - reasonOrder(b.reason)));
}

function reasonOrder(reason: ContextReason): number {
  return ['changed', 'import', 'test', 'schema', 'importer'].indexOf(reason);
}

/** The text of the given spans, each line prefixed by nothing (line numbers are carried by the spans). */
function spanText(text: string, spans: { start: number; end: number }[]): string {
  const lines = text.split('\n');
  return spans.map((s) => lines.slice(s.start - 1, s.end).join('\n')).join('\n');
}
