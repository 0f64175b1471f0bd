/**
 * The prover over a revision's files: which files it reads (source languages with facts, and the
 * security configuration files), read through the shared source reader, then `proveChange`. Used by
 * `jscr prove` and by the review's prover step, so both judge the same files the same way.
 */
import type { SourceReader } from '../git/sources.js';
import { fileTypeOf } from '../languages/registry.js';
import { languageForPath } from '../syntax/languages.js';
import { isLeftOut, isProverConfig, proveChange } from './prove.js';
import { classifyTarget } from '../gate/classify.js';
import { minifiedReason } from '../languages/minified.js';
import picomatch from 'picomatch';
import { leavesIncomplete, type Degradation } from './degradation.js';
import type { ProveResult } from './types.js';
import type { FileIR } from '../syntax/ir.js';
import type { ProverDeclarations } from './declarations.js';
import { RECOGNISERS } from './recognisers/index.js';
import { isDeadlineBound, selectionDetail, selectScope, type ScopeSelection } from './scope.js';
import type { FactsLanguage } from './facts.js';

export interface ProveFromReaderInput {
  root: string;
  reader: SourceReader;
  /** Touched lines per changed file (and the lines it removed), or null for the whole repository. */
  touched: { path: string; lines: Set<number>; removed?: { line: number; text: string }[] }[] | null;
  maxDepth: number;
  fanOut: number;
  /** IRs already built for some files (the review's changed files). */
  irs?: ReadonlyMap<string, FileIR>;
  /** The review's deadline, checked between files. */
  deadline?: { remainingMs(): number };
  /** `[prover] guards` and `public` of the base configuration. */
  declarations?: ProverDeclarations;
  /** `review.exclude` of the configuration: vendored and generated paths are not the application's code, so the prover reads none of them. */
  exclude?: readonly string[];
  /** In change mode, prove only the files the change needs (scope.ts): the review and `jscr prove --base` ask for this. */
  scoped?: boolean;
  /** With `scoped`, read every file anyway when the candidates' text is smaller than this (bytes; default `SCOPE_FROM_BYTES`). */
  scopeFromBytes?: number;
  /** How far below a touched function operations are looked for (default 2). */
  downDepth?: number;
  /** Also return what the engine recognised (`jscr facts init`). */
  inventory?: boolean;
}

export interface ProveFromReaderOutcome {
  result: ProveResult;
  /** Files the prover read. */
  fileCount: number;
  /** True when a file could not be read or the prover failed on one: the run is incomplete. */
  incomplete: boolean;
  /** Files the prover could have read (candidates of the change's languages). */
  candidateCount: number;
  /** What the scoped selection chose and why, or null when every candidate was read. */
  selection: ScopeSelection | null;
  /** One line on what was read: `12 of 1,806 files: 2 changed, 7 callers` or `1,806 file(s) read`. */
  readDetail: string;
}

/**
 * Below this much candidate text (after test and minified files are left out) a change is proved over
 * every file, by the review and by `jscr prove` alike (ADR 0047): a whole read of so little costs well
 * under a second and is the reference the selection is held to. Above it the selection is used: it
 * reports what a whole read reports on the pools' changes but one (pixelfed-apiv1-roles, docs/prover-history.md)
 * and costs a fraction (documenso 1.9 s of CPU against 8.8 s, thingsboard 8.4 s against 16.7 s).
 */
export const SCOPE_FROM_BYTES = 1024 * 1024;

export async function proveFromReader(input: ProveFromReaderInput): Promise<ProveFromReaderOutcome> {
  // A change is proved against the files of its own fact languages only: a change to Python code
  // cannot be reached from a Java entry point, and reading the rest of a large repository costs seconds.
  const wanted = input.touched === null ? null : new Set(input.touched.map((t) => factsLanguageOf(t.path)).filter((l): l is string => l !== undefined));
  if (wanted !== null && wanted.size === 0) {
    return { result: { findings: [], coverage: emptyCoverage(), degradations: [] }, fileCount: 0, incomplete: false, candidateCount: 0, selection: null, readDetail: '0 file(s) read' };
  }
  const excluded = input.exclude !== undefined && input.exclude.length > 0 ? picomatch([...input.exclude], { dot: true }) : (): boolean => false;
  const listed = (await input.reader.listFiles()).filter(
    (p) => !isLeftOut(p) && !excluded(p) && (isProverConfig(p) || (languageForPath(p) !== null && (wanted === null || wanted.has(factsLanguageOf(p) ?? '')))),
  );
  const files: { path: string; text: string }[] = [];
  const readProblems: Degradation[] = [];
  const readInto = async (paths: string[]): Promise<void> => {
    const reads = await input.reader.readMany(paths);
    for (const path of paths) {
      const read = reads.get(path);
      if (read === undefined) continue;
      if (read.ok) files.push({ path, text: read.text });
      else if (read.reason === 'unreadable') readProblems.push({ kind: 'unreadable', path, detail: read.detail });
      else readProblems.push({ kind: 'not_read', path, reason: read.reason, detail: read.detail });
    }
  };
  await readInto(listed.filter((p) => !isTestCode(p)));
  // Minified and bundled code (a theme's built assets, a vendored bundle) is build output: its
  // thousands of functions on one line cost seconds and hold no handler of the application.
  const minified = new Map<string, string>();
  for (const file of files) {
    const reason = minifiedReason(file.text);
    if (reason !== null) minified.set(file.path, reason);
  }
  const served = files.filter((f) => !minified.has(f.path));
  // A file the other code names is read like any other, so neither naming a file like a test (a
  // `test_hooks.py` the app imports) nor minifying it (a bundle the server requires) can hide a handler.
  const keptBundles = new Set(namedFiles([...minified.keys()], served));
  for (const [path, reason] of minified) if (!keptBundles.has(path)) readProblems.push({ kind: 'minified', path, detail: reason });
  files.splice(0, files.length, ...files.filter((f) => !minified.has(f.path) || keptBundles.has(f.path)));
  await readInto(namedFiles(listed.filter(isTestCode), served));
  const downDepth = input.downDepth ?? 2;
  // Scoping only saves time: a small repository is proved whole (SCOPE_FROM_BYTES).
  const candidateBytes = files.reduce((sum, f) => sum + f.text.length, 0);
  const scoping = input.touched !== null && input.scoped === true && candidateBytes >= (input.scopeFromBytes ?? SCOPE_FROM_BYTES);
  let selection = scoping && input.touched !== null ? selectFor(files, input.touched, input, downDepth) : null;
  // Scoping only saves time; it never narrows the proof. A selection stopped by a size bound (a name in
  // more files than fan_out, the byte bound) falls back to every file, so the review stays complete.
  // Only the deadline, which would stop the whole-repository proof too, is left as a bound.
  let fellBack: string[] = [];
  if (selection !== null && selection.scope.bounds.some((bound) => !isDeadlineBound(bound))) {
    fellBack = selection.scope.bounds;
    selection = null;
  }
  const proved = selection === null ? files : files.filter((f) => selection.chosen.has(f.path));
  const result = await proveChange({ root: input.root, files: proved, touched: input.touched, maxDepth: input.maxDepth, fanOut: input.fanOut, downDepth, ...(input.irs ? { irs: input.irs } : {}), ...(input.deadline ? { deadline: input.deadline } : {}), ...(input.declarations ? { declarations: input.declarations } : {}), ...(input.inventory === true ? { inventory: true } : {}) });
  result.degradations.unshift(...readProblems);
  const scope = selection?.scope ?? null;
  return {
    result,
    fileCount: proved.length,
    incomplete: result.degradations.some(leavesIncomplete) || (scope !== null && scope.bounds.length > 0),
    candidateCount: files.length,
    selection: scope,
    readDetail:
      scope !== null
        ? selectionDetail(scope, files.length)
        : `${proved.length.toLocaleString('en-US')} file(s) read${fellBack.length > 0 ? ` (every file: the scoped selection met a bound: ${fellBack[0] ?? ''})` : ''}`,
  };
}

/** The scoped selection over the read files; files of no facts language are left to the prover's own counting. */
function selectFor(files: readonly { path: string; text: string }[], touched: NonNullable<ProveFromReaderInput['touched']>, input: ProveFromReaderInput, downDepth: number): { scope: ScopeSelection; chosen: Set<string> } {
  const searchable: { path: string; text: string; factsLanguage: FactsLanguage }[] = [];
  for (const file of files) {
    const factsLanguage = fileTypeOf(file.path)?.facts ?? null;
    if (factsLanguage !== null || isProverConfig(file.path)) searchable.push({ ...file, factsLanguage: factsLanguage ?? 'php' });
  }
  const scope = selectScope({
    files: searchable,
    touched,
    ...(input.irs ? { irs: input.irs } : {}),
    registrations: RECOGNISERS.map((r) => r.registrationFiles ?? {}),
    alwaysRead: isProverConfig,
    maxDepth: input.maxDepth,
    fanOut: input.fanOut,
    downDepth,
    ...(input.deadline ? { deadline: input.deadline } : {}),
  });
  return { scope, chosen: new Set(scope.paths) };
}

function factsLanguageOf(path: string): string | undefined {
  return fileTypeOf(path)?.facts ?? undefined;
}

function emptyCoverage(): ProveResult['coverage'] {
  return { filesByLanguage: {}, frameworksRecognised: {}, entryPoints: 0, reached: 0, unreached: 0, operationsChecked: 0, operationsDischarged: 0, uncheckedByReason: {} };
}

/** The base name of a path without its extension: the name other code uses for the module. */
function moduleName(path: string): string {
  return (path.split('/').pop() ?? path).replace(/\.[^.]*$/, '');
}

const NAME_TOKEN = /[A-Za-z_$][\w$-]*(?:\.[A-Za-z_$][\w$-]*)*/g;

/**
 * The paths whose module name the given texts write, as an identifier, a dotted or a hyphenated name
 * (`test_hooks`, `admin.test`, `FooTest`, `server-bundle`). Only the wanted names are kept: a set of
 * every name of a large repository cost seconds.
 */
function namedFiles(paths: readonly string[], texts: readonly { text: string }[]): string[] {
  const wanted = new Set(paths.map(moduleName));
  const found = new Set<string>();
  const note = (name: string): void => {
    if (wanted.has(name)) found.add(name);
  };
  for (const { text } of texts) {
    if (found.size === wanted.size) break;
    for (const m of text.matchAll(NAME_TOKEN)) {
      const token = m[0];
      note(token);
      // Hyphens join a module's name (`require('./server-bundle')`) and split an expression (`a-b`): both kept.
      const dotted = token.includes('.');
      const hyphenated = token.includes('-');
      if (dotted || hyphenated) for (const part of token.split(/[.-]/)) note(part);
      if (dotted && hyphenated) for (const part of token.split('.')) note(part);
    }
  }
  return paths.filter((path) => found.has(moduleName(path)));
}

/**
 * Test code (`tests/`, `src/test/`, `*.test.ts`, `test_*.py`: the gate's own notion of a test file) is
 * not served unless the other code names it (`namedFiles`), so it holds no entry and lies on no path from one; reading it only costs time (718 of
 * kimai's 1,843 PHP files, about 40% of a run) and lets a test's mock with a project method's name make
 * that name ambiguous.
 */
function isTestCode(path: string): boolean {
  return classifyTarget(path.toLowerCase()) === 'test';
}
