/**
 * `proveChange`: the prover's pipeline, one step per module. Parse every candidate file once, build the
 * program (class table, function nodes) and the caller index, recognise entries, collect witnesses, find
 * operations, choose targets (the touched functions and the operations below them, or every operation in
 * whole-repository mode), compose paths from entries to targets, and judge each path. A failure in one
 * file is recorded as `error:<ClassName>` and the other files are still proved.
 */
import { registrationTouched } from './registration-touch.js';
import { loadGrammars } from '../syntax/parser.js';
import type { CallIR } from '../syntax/ir-types.js';
import { buildIR, MAX_FILE_PARSE_MS, parseWasStopped, type FileIR } from '../syntax/ir.js';
import { fileTypeOf } from '../languages/registry.js';
import { respelledName } from '../languages/identifier-spelling.js';
import { languageForPath, type Language } from '../syntax/languages.js';
import { entityReadFindings } from './entity-reads.js';
import { onBehalfWriteFindings } from './on-behalf-writes.js';
import { pythonRecordReadFindings } from './python-record-reads.js';
import { routeRecordFindings, routeRecordPaths, routeRecordReads } from './route-record-reads.js';
import { inheritedWriteFindings } from './django-generic-writes.js';
import { checkObligations, siteKey } from './check.js';
import { isSymfonyRoutesFile } from './symfony-routes.js';
import { argumentsFromRequest } from './request-input.js';
import { throwsAtLine, witnesses, type WitnessSet } from './enforcement.js';
import { controlFlowFor } from './dominance.js';
import { DECORATOR, withRemovedChecks } from './removed-checks.js';
import { privilegeGrantSites } from './privilege-grants.js';
import { unscopedRelationReadSites } from './scoped-relations.js';
import { bodyMatches } from './sibling-norm.js';
import { withProjectCurrentUser } from './object-check-norm.js';
import { withMiddlewarePrincipals } from './django-request-middleware.js';
import { loadFacts, type Facts, type FactsLanguage, type OperationFact } from './facts.js';
import { guardedOwnWrapper, librarySupertypesOf } from './overloads.js';
import { buildCallerIndex, composePaths } from './paths.js';
import { RECOGNISERS } from './recognisers/index.js';
import { buildProgram, callSignature, nodeAt, nodesUnderClassHead, type Program } from './resolution.js';
import type { Degradation } from './degradation.js';
import { applyPublicDeclarations, NO_DECLARATIONS, staleGuard, type ProverDeclarations } from './declarations.js';
import type { Coverage, EntryPoint, FunctionRef, OperationSite, ProgramFile, ProveResult, ProverInventory, RecognisedHelper, Witness } from './types.js';

/** Input of `proveChange`. */
export interface ProveInput {
  /** The repository root (for messages only; files come in `files`). */
  root: string;
  /** Every candidate file of the repository at head, as the caller read it. */
  files: { path: string; text: string }[];
  /** The change's touched new-side lines per file (and the lines it removed, where each stood), or null for whole-repository mode. */
  touched: { path: string; lines: Set<number>; removed?: { line: number; text: string }[] }[] | null;
  /** Most call edges between an entry and an operation (SPEC 3 default 3). */
  maxDepth: number;
  /** Most callers followed from one function (SPEC 3 default 25). */
  fanOut: number;
  /** How far below a touched function operations are looked for (default 2). */
  downDepth?: number;
  /** IRs the caller already built (the review parses changed files once), by path; reused as they are. */
  irs?: ReadonlyMap<string, FileIR>;
  /** The review's deadline: files not parsed before it passes are errors (the proof is incomplete). */
  deadline?: { remainingMs(): number };
  /** `[prover] guards` and `public` of the base configuration. */
  declarations?: ProverDeclarations;
  /** Also return what the engine recognised (entries, check helpers, operations): `jscr facts init`. */
  inventory?: boolean;
}

/** Build output, dependencies and generated code: never proved (their owners prove them). */
const LEFT_OUT = /(^|\/)(vendor|node_modules|target|build|dist|out|bower_components|third_party|\.git|generated|__generated__)\/|\.min\.(js|css)$|(^|\/)[^/]*\.generated\.[^/]+$|_pb2\.py$/;

/** True when a path is build output or vendored code. */
export function isLeftOut(path: string): boolean {
  return LEFT_OUT.test(path);
}

/** Non-source files the prover reads for configuration (Symfony's security.yaml and routes files). */
export function isProverConfig(path: string): boolean {
  return /(^|\/)config\/packages\/([\w-]+\/)?security\.ya?ml$/.test(path) || isSymfonyRoutesFile(path) || /(^|\/)WEB-INF\/web\.xml$/.test(path);
}

function bump(counts: Record<string, number>, key: string, by = 1): void {
  counts[key] = (counts[key] ?? 0) + by;
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.constructor.name || 'Error' : 'NonError';
}

/** Prove a change (or the whole repository when `touched` is null). */
export async function proveChange(input: ProveInput): Promise<ProveResult> {
  let facts = await loadFacts();
  const degradations: Degradation[] = [];
  const coverage: Coverage = {
    filesByLanguage: {},
    frameworksRecognised: {},
    entryPoints: 0,
    reached: 0,
    unreached: 0,
    operationsChecked: 0,
    operationsDischarged: 0,
    uncheckedByReason: {},
  };
  const reasons = coverage.uncheckedByReason;

  // 1. Which files, in which language.
  const configTexts = new Map<string, string>();
  const sources: { path: string; text: string; language: Language; factsLanguage: FactsLanguage }[] = [];
  for (const file of [...input.files].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    if (isLeftOut(file.path)) continue;
    if (isProverConfig(file.path)) {
      configTexts.set(file.path, file.text);
      continue;
    }
    const language = languageForPath(file.path);
    if (language === null) continue;
    bump(coverage.filesByLanguage, language);
    const factsLanguage = fileTypeOf(file.path)?.facts ?? null;
    if (factsLanguage === null) {
      bump(reasons, 'no_facts');
      continue;
    }
    sources.push({ ...file, language, factsLanguage });
  }

  // 2. Parse each file once.
  await loadGrammars(new Set(sources.map((s) => s.language)));
  const files: ProgramFile[] = [];
  for (const source of sources) {
    const left = input.deadline?.remainingMs();
    if (left === 0) {
      degradations.push({ kind: 'deadline_before_parse', path: source.path });
      continue;
    }
    try {
      const ir = input.irs?.get(source.path) ?? (await buildIR(source.path, source.language, source.text, left === undefined ? {} : { stopAt: Date.now() + left }));
      if (parseWasStopped(ir)) {
        degradations.push({ kind: 'parse_stopped', path: source.path, limitSeconds: MAX_FILE_PARSE_MS / 1000 });
        continue;
      }
      if (ir.hasErrors) {
        bump(reasons, 'parse_error');
        degradations.push({ kind: 'parse_error', path: source.path });
      }
      files.push({ path: source.path, text: source.text, language: source.language, factsLanguage: source.factsLanguage, ir, lines: source.text.split(/\r?\n/) });
      // What is visible is still proved; the run cannot say the file is clean.
      const respelled = await respelledName(source.language, source.path, source.text);
      if (respelled !== null) degradations.push({ kind: 'respelled_name', path: source.path, name: respelled });
    } catch (error) {
      recordError(reasons, degradations, source.path, error);
    }
  }

  // 3. The program model and the caller index, once.
  const program = buildProgram(files, librarySupertypesOf(facts));
  // The project's own accessors of the logged-in user are the current user too (object-check-norm.ts).
  facts = withProjectCurrentUser(program, facts);
  // What the registered Django middleware puts on the request from `request.user` is too (django-request-middleware.ts).
  facts = withMiddlewarePrincipals(program, facts);
  const index = buildCallerIndex(program);
  for (const [reason, count] of Object.entries(index.unresolved)) bump(reasons, reason, count);

  // 4. Entries.
  const registrations: EntryPoint[] = [];
  const entries = recogniseEntries(program, facts, configTexts, reasons, degradations, registrations);
  coverage.entryPoints = entries.size;
  for (const entry of entries.values()) bump(coverage.frameworksRecognised, entry.framework);
  // Entries the base configuration declares public are no starting points (and are listed as skipped);
  // an entry the change itself adds is not one the declaration was written for.
  const touched = input.touched === null ? null : touchedFunctions(program, input.touched);
  // A route whose registration the change rewrote (its middleware dropped) is touched like its handler,
  // whichever of the handler's registrations it was.
  if (touched) for (const id of registrationTouched(registrations, touched.lines, (path) => program.byPath.get(path))) touched.functions.add(id);
  const declarations = input.declarations ?? NO_DECLARATIONS;
  const publicDeclared = applyPublicDeclarations(entries, declarations.public, (entry) => touched !== null && addedByChange(program, touched.lines, entry.functionId));

  // 5. Witnesses. A declared guard whose own body the change wrote is not trusted as one.
  const witnessSet = witnesses({ program, facts, entries: [...entries.values()], index, configTexts, guards: declarations.guards, ...(touched && input.touched ? { changed: touched.functions, changedPaths: new Set(input.touched.map((t) => t.path)) } : {}) });
  const staleGuards = declarations.guards.filter((_, i) => !witnessSet.guardsCalled.has(i)).map(staleGuard);

  // 6. Operations.
  const operations = findOperations(program, facts, entries, reasons, degradations, witnessSet.byFunction);

  // 7. Targets.
  let targets: string[];
  if (touched === null) {
    targets = [...operations.keys()];
  } else {
    const down = new Set<string>(touched.functions);
    let frontier = [...touched.functions];
    for (let depth = 0; depth < (input.downDepth ?? 2); depth++) {
      const next: string[] = [];
      for (const id of frontier) {
        for (const callee of [...(index.callees.get(id) ?? [])].slice(0, input.fanOut)) {
          if (!down.has(callee)) {
            down.add(callee);
            next.push(callee);
          }
        }
      }
      frontier = next;
    }
    targets = [...down].filter((id) => operations.has(id));
  }
  targets.sort();

  // 8. Paths and the checker.
  const composed = composePaths({
    callers: (id) => index.callers.get(id) ?? [],
    entries: new Set(entries.keys()),
    targets,
    maxDepth: input.maxDepth,
    fanOut: input.fanOut,
  });
  if (composed.fanOutCuts > 0) bump(reasons, 'fan_out_cut', composed.fanOutCuts);
  if (composed.pathLimitCuts > 0) bump(reasons, 'path_limit', composed.pathLimitCuts);
  // Laravel handlers answering with the record their own check binds are judged on their own graphs too.
  const recordReads = routeRecordReads(program, facts, entries, witnessSet.byFunction, touched?.functions ?? null);
  const control = await controlFlowFor(program, [...composed.paths, ...routeRecordPaths(recordReads)], witnessSet.byFunction, (id) => throwsAtLine(program, id), input.deadline);
  const checkInput = { program, entries, paths: composed.paths, operations, witnesses: witnessSet, touched, facts, control };
  const checked = checkObligations(checkInput);
  checked.findings.push(...entityReadFindings(checkInput), ...onBehalfWriteFindings(checkInput), ...routeRecordFindings(checkInput, recordReads), ...pythonRecordReadFindings(checkInput), ...inheritedWriteFindings(checkInput));
  const removed = new Map((input.touched ?? []).filter((t) => (t.removed?.length ?? 0) > 0).map((t) => [t.path, t.removed ?? []] as const));
  // Only a change that removed lines can have removed a check: the names are gathered for it alone.
  const findings = removed.size === 0 || checked.findings.length === 0 ? checked.findings : withRemovedChecks(checked.findings, { program, facts, removed, checkNames: checkNamesOf(declarations, witnessSet) });

  // 9. Coverage of the targeted operations.
  const languagesWithEntries = new Set([...entries.values()].map((e) => program.byPath.get(e.path)?.factsLanguage));
  for (const target of targets) {
    for (const op of operations.get(target) ?? []) {
      if (checked.checked.has(siteKey(op))) continue;
      if (op.handlerNamed) continue; // the entry itself; reached by definition when checked
      if (op.onlyFrom) continue; // an obligation behind some entries only (a disclosed read): elsewhere it is no operation
      coverage.unreached++;
      const language = program.byPath.get(op.path)?.factsLanguage;
      bump(reasons, languagesWithEntries.has(language) ? 'no_path_from_entry' : 'framework_unrecognised');
    }
  }
  coverage.reached = checked.checked.size;
  coverage.operationsChecked = checked.checked.size;
  coverage.operationsDischarged = checked.discharged.size;
  const declared = { publicSkipped: publicDeclared.skipped, stale: [...staleGuards, ...publicDeclared.stale] };
  return { findings, coverage, degradations, declared, ...(input.inventory === true ? { inventory: inventoryOf(program, entries, witnessSet, operations) } : {}) };
}

/** The names that are checks in this repository: declared guards and the project's own check helpers. */
function checkNamesOf(declarations: ProverDeclarations, witnessSet: WitnessSet): Set<string> {
  const helpers = [...witnessSet.byFunction.values()].flat().flatMap((w) => {
    const helper = ownHelperOf(w.dischargerId);
    return helper ? [helper.qualifiedName.slice(helper.qualifiedName.lastIndexOf('.') + 1)] : [];
  });
  return new Set([...declarations.guards.map((g) => g.name), ...helpers]);
}

/** The project function a witness names, when its discharger is one of the project's own check helpers. */
function ownHelperOf(dischargerId: string): { shape: RecognisedHelper['shape']; qualifiedName: string } | null {
  const match = /^(helper|predicate):(.+)$/.exec(dischargerId);
  return match ? { shape: match[1] === 'predicate' ? 'predicate' : 'helper', qualifiedName: match[2] ?? '' } : null;
}

/** The helpers the witnesses name (`helper:` and `predicate:` dischargers), entries, and operation counts. */
function inventoryOf(program: Program, entries: ReadonlyMap<string, EntryPoint>, witnessSet: WitnessSet, operations: ReadonlyMap<string, OperationSite[]>): ProverInventory {
  const byQualified = new Map<string, FunctionRef>();
  for (const ref of program.functions.values()) if (!ref.fn.isLambda && !byQualified.has(ref.fn.qualifiedName)) byQualified.set(ref.fn.qualifiedName, ref);
  const helpers = new Map<string, RecognisedHelper>();
  for (const list of witnessSet.byFunction.values()) {
    for (const witness of list) {
      const helper = ownHelperOf(witness.dischargerId);
      const ref = helper ? byQualified.get(helper.qualifiedName) : undefined;
      if (!helper || !ref) continue;
      const known = helpers.get(ref.id);
      if (known) {
        if (!known.kinds.includes(witness.kind)) known.kinds.push(witness.kind);
        continue;
      }
      const { fn } = ref;
      helpers.set(ref.id, { name: fn.name, qualifiedName: fn.qualifiedName, className: fn.className, path: ref.path, startLine: fn.startLine, endLine: fn.endLine, kinds: [witness.kind], shape: helper.shape });
    }
  }
  const counts: Record<string, number> = {};
  for (const sites of operations.values()) for (const site of sites) bump(counts, site.operationId);
  const byPlace = (a: { path: string; line?: number; startLine?: number }, b: { path: string; line?: number; startLine?: number }): number => (a.path === b.path ? (a.line ?? a.startLine ?? 0) - (b.line ?? b.startLine ?? 0) : a.path < b.path ? -1 : 1);
  const named = new Map<string, FunctionRef>();
  for (const ref of program.functions.values()) if (!ref.fn.isLambda) named.set(`${ref.path}\u0000${ref.fn.qualifiedName}`, ref);
  const functions = [...named.values()].map(({ path, fn }) => ({ name: fn.name, qualifiedName: fn.qualifiedName, className: fn.className, path, startLine: fn.startLine, endLine: fn.endLine })).sort(byPlace);
  return { entries: [...entries.values()].sort(byPlace), helpers: [...helpers.values()].sort(byPlace), functions, operations: counts };
}

function recordError(reasons: Record<string, number>, degradations: Degradation[], path: string, error: unknown): void {
  const name = errorName(error);
  bump(reasons, `error:${name}`);
  const message = error instanceof Error ? error.message : String(error);
  degradations.push({ kind: 'exception', path, errorName: name, message: message.split('\n')[0] ?? '' });
}

/** The entries, one per handler (the first registration kept); `registrations` gains every registration, a handler registered twice included. */
function recogniseEntries(program: Program, facts: Facts, configTexts: ReadonlyMap<string, string>, reasons: Record<string, number>, degradations: Degradation[], registrations: EntryPoint[]): Map<string, EntryPoint> {
  const entries = new Map<string, EntryPoint>();
  for (const file of program.files) {
    for (const recogniser of RECOGNISERS) {
      if (!recogniser.languages.includes(file.factsLanguage)) continue;
      try {
        const found = recogniser.recognise(file, { program, facts, configTexts });
        for (const [reason, count] of Object.entries(found.unresolved)) bump(reasons, reason, count);
        for (const entry of found.entries) {
          registrations.push(entry);
          const existing = entries.get(entry.functionId);
          if (!existing) entries.set(entry.functionId, entry);
          else if (entry.access === 'public') existing.access = 'public';
        }
      } catch (error) {
        recordError(reasons, degradations, file.path, error);
      }
    }
  }
  return entries;
}

function findOperations(program: Program, facts: Facts, entries: ReadonlyMap<string, EntryPoint>, reasons: Record<string, number>, degradations: Degradation[], byFunction: ReadonlyMap<string, readonly Witness[]>): Map<string, OperationSite[]> {
  const operations = new Map<string, OperationSite[]>();
  const add = (site: OperationSite): void => {
    const list = operations.get(site.functionId);
    if (list) list.push(site);
    else operations.set(site.functionId, [site]);
  };
  // The call rows of each language, filtered once (the wrapper test below asks for them per call of a target).
  const callRows = new Map<FactsLanguage, OperationFact[]>();
  const rowsOf = (file: ProgramFile): OperationFact[] => {
    let rows = callRows.get(file.factsLanguage);
    if (!rows) callRows.set(file.factsLanguage, (rows = facts[file.factsLanguage].operations.filter((o) => o.calls.length > 0 && o.judgedAs === null)));
    return rows;
  };
  for (const file of program.files) {
    try {
      const rows = rowsOf(file);
      for (const call of file.ir.calls) {
        const signature = callSignature(call);
        const lineText = file.lines[call.line - 1] ?? '';
        // The enclosing node is looked up only for a call some row names (most calls match none).
        let node: FunctionRef | null | undefined;
        const nodeOfCall = (): FunctionRef | null => (node === undefined ? (node = nodeAt(program, file.ir, call.line)) : node);
        const row = rows.find((o) => o.calls.some((re) => re.test(signature)) && (o.line === null || o.line.test(lineText) || o.line.test(call.text)) && (o.argumentsFrom === null || fromRequest(file, nodeOfCall(), call, facts)));
        const site = row ? nodeOfCall() : null;
        if (!row || !site) continue;
        // A decorator runs once, when the function is defined: `@router.delete("/{id}")` registers a
        // route and deletes nothing.
        if (call.line < site.fn.bodyStartLine && /^\s*@/.test(lineText)) continue;
        if (guardedOwnWrapper({ program, file, caller: site, call, requires: row.requires, byFunction, sameKindOperation: (other, c) => rowsOf(other).some((o) => o.kind === row.kind && o.calls.some((re) => re.test(callSignature(c)))) })) continue;
        add({
          operationId: row.id,
          kind: row.kind,
          functionId: site.id,
          path: file.path,
          line: call.line,
          call: (call.text.split('\n')[0] ?? '').trim(),
          handlerNamed: false,
          requires: row.requires,
          ...(row.alternatives.length > 0 ? { alternatives: row.alternatives } : {}),
          severity: row.severity,
          cwe: row.cwe,
          ...(row.entries.length > 0 ? { onlyFrom: row.entries } : {}),
        });
      }
    } catch (error) {
      recordError(reasons, degradations, file.path, error);
    }
  }
  for (const site of privilegeGrantSites(program, facts)) add(site);
  for (const site of unscopedRelationReadSites(program, facts)) add(site);
  for (const entry of entries.values()) {
    const file = program.byPath.get(entry.path);
    const ref = program.functions.get(entry.functionId);
    if (!file || !ref) continue;
    const named = facts[file.factsLanguage].operations.filter((o) => o.framework === entry.framework && o.handlers.some((re) => re.test(ref.fn.name)));
    // A verb-norm row stands beside the first other row that names the handler (verb-norm.ts).
    const rows = [named.find((o) => !o.verbNorm), named.find((o) => o.verbNorm)];
    for (const row of rows) {
      if (!row || (row.body && !bodyMatches(file, ref, row.body))) continue;
      add({
        operationId: row.id,
        kind: row.kind,
        functionId: entry.functionId,
        path: entry.path,
        line: entry.line,
        call: `${ref.fn.name}(...)`,
        handlerNamed: true,
        requires: row.requires,
        severity: row.severity,
        cwe: row.cwe,
        ...(row.siblingNorm ? { siblingNorm: true } : {}),
        ...(row.verbNorm ? { verbNorm: true } : {}),
      });
    }
  }
  return operations;
}

/** True when an argument of the call reads request input of the function it sits in. */
function fromRequest(file: ProgramFile, node: FunctionRef | null, call: CallIR, facts: Facts): boolean {
  return node !== null && argumentsFromRequest(file, node.fn, call, facts[file.factsLanguage]);
}

/** True when the change wrote every line of the function: it is new (or rewritten whole). */
function addedByChange(program: Program, lines: ReadonlyMap<string, ReadonlySet<number>>, functionId: string): boolean {
  const ref = program.functions.get(functionId);
  const touchedLines = ref ? lines.get(ref.path) : undefined;
  if (!ref || !touchedLines) return false;
  for (let line = ref.fn.startLine; line <= ref.fn.endLine; line++) if (!touchedLines.has(line)) return false;
  return true;
}

/** The call-graph nodes whose lines a change touched. */
function touchedFunctions(program: Program, touched: NonNullable<ProveInput['touched']>): { functions: Set<string>; lines: Map<string, Set<number>> } {
  const functions = new Set<string>();
  const lines = new Map<string, Set<number>>();
  for (const { path, lines: set, removed } of touched) {
    lines.set(path, set);
    const file = program.byPath.get(path);
    if (!file) continue;
    // A decorator, annotation or attribute on a class's head, written or removed, stands before every
    // method: they are all touched. Only such a line: an edit beside the head (the context line the diff
    // marks before a deletion) is none.
    const underHead = (line: number): void => {
      for (const method of nodesUnderClassHead(program, file.ir, line)) functions.add(method.id);
    };
    for (const line of set) {
      const node = nodeAt(program, file.ir, line);
      if (node) functions.add(node.id);
      else if (DECORATOR.test(file.lines[line - 1] ?? '')) underHead(line);
    }
    for (const { line, text } of removed ?? []) if (DECORATOR.test(text) && !nodeAt(program, file.ir, line)) underHead(line);
  }
  return { functions, lines };
}
