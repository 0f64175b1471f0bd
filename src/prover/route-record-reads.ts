/**
 * Reads of the record a Laravel route names, against the handler's own check (docs/prover.md, "Reads of
 * the record a route names"). A handler that checks the caller against its route key
 * (`checkPermissionOrCurrentUser('users-manage', $id)`, `$this->authorize('view', $post)`) says the record
 * behind that key is not everybody's. When it then loads the record by that key (`$user =
 * $this->userRepo->getById($id)`, or the route-bound model itself) and hands it to the answer
 * (`view('users.edit', ['user' => $user])`, `response()->json($post)`), the read is an obligation: a
 * check bound to the key must dominate the answer. The handler's own check sets the norm, so a handler
 * nobody checks per record is never judged; what the rule catches is a check that does not hold where the
 * answer is given: ownership against a current user that is the shared guest account with no login
 * check beside it (guest-users.ts), a boolean nothing acts on, a check in a branch that may not run.
 */
import { blankStrings } from './string-literals.js';
import { dropGuestOpenOwnership, makeProverFinding, shapeOf, type CheckInput } from './check.js';
import { judgeHop } from './dominance.js';
import type { Facts, OperationFact } from './facts.js';
import type { CallIR, FunctionIR, ParameterIR } from '../syntax/ir-types.js';
import { callSignature, type Program } from './resolution.js';
import { bindingOf, localSubjects } from './resource-binding.js';
import type { EntryPoint, OperationSite, PathRecord, ProgramFile, ProverFinding, Witness } from './types.js';

/** Parameter types the container injects (services, the request), never a route key. */
const INJECTED = /(Request|Interface|Service|Repository|Repo|Manager|Factory|Handler|Response|Query|Queries|Formatter|Guard|Dispatcher|Logger|Config|Store)$/;
/** A scalar route key (`int $id`, `string $slug`) or an untyped one. */
const SCALAR = /^\??(int|string|integer)$/;

const bare = (name: string): string => name.replace(/^\$/, '');
const typeName = (type: string | null): string | null => (type === null ? null : (type.replace(/^\?/, '').replace(/^\\/, '').split('\\').pop() ?? null));

/** One handler that answers with the record a route key names, after a check of that key. */
export interface RouteRecordRead {
  entry: EntryPoint;
  /** The route key (bare name) and the records derived from it (bare names), the key first. */
  key: string;
  records: Map<string, number>;
  /** The answer call that hands a record out. */
  answer: CallIR;
  /** The model class when the key is a route-bound model, else null. */
  modelType: string | null;
}

/** The route keys of a handler: scalars and route-bound project models, not injected services or the user. */
function routeKeys(parameters: readonly ParameterIR[], facts: Facts['php'], classes: ReadonlySet<string>): { name: string; model: string | null }[] {
  const out: { name: string; model: string | null }[] = [];
  for (const parameter of parameters) {
    const type = typeName(parameter.type);
    if (type === null || SCALAR.test(type)) {
      out.push({ name: bare(parameter.name), model: null });
      continue;
    }
    if (!/^[A-Z]/.test(type) || INJECTED.test(type) || !classes.has(type)) continue;
    if (facts.currentUserTypes.some((re) => re.test(type) || parameter.annotations.some((a) => re.test(a)))) continue;
    out.push({ name: bare(parameter.name), model: type });
  }
  return out;
}

/** Locals assigned, in order, from an expression that mentions the key or a local already derived from it, with the line of that assignment. */
function derivedRecords(file: ProgramFile, fn: FunctionIR, key: string): Map<string, number> {
  const out = new Map([[key, fn.startLine]]);
  for (let line = fn.bodyStartLine; line <= fn.endLine; line++) {
    const m = /^\s*\$(\w+)\s*=(?!=)\s*(.+)$/.exec(file.lines[line - 1] ?? '');
    if (!m?.[1] || !m[2] || out.has(m[1])) continue;
    // Looked up by it (`getById($id)`), not one of its fields (`$user->name`).
    if ([...out.keys()].some((name) => new RegExp(String.raw`\$${name}\b(?!\s*->)`).test(m[2] ?? ''))) out.set(m[1], line);
  }
  return out;
}

/** The line of the `{` that opens the block around `line` (braces counted upwards), or null. */
function blockStart(file: ProgramFile, fn: FunctionIR, line: number): number | null {
  let depth = 0;
  for (let l = line - 1; l > fn.bodyStartLine; l--) {
    const text = blankStrings((file.lines[l - 1] ?? ''), '""', false);
    for (let i = text.length - 1; i >= 0; i--) {
      if (text[i] === '}') depth++;
      else if (text[i] === '{' && depth-- === 0) return l;
    }
  }
  return null;
}

/**
 * A check in a block that may not run still covers a record that exists only in that block: the
 * record is looked up there and checked right after (`if ($slug !== null) { $shelf = ...; check($shelf); }`),
 * and outside it the variable holds no record.
 */
function checksWhereLookedUp(program: Program, file: ProgramFile, fn: FunctionIR, w: Witness, records: ReadonlyMap<string, number>): boolean {
  if (w.line === null || w.blockEnd === undefined || w.kind !== 'path_guard' && w.kind !== 'ownership_check') return false;
  const start = blockStart(file, fn, w.line);
  if (start === null) return false;
  const b = bindingOf(program, w);
  return b.names.some((name) => {
    const line = records.get(name);
    return line !== undefined && line > start && line < w.line!;
  });
}

/** True when a check of the handler's own binds one of the names (directly or through what they derive from). */
function bindsAny(program: Program, w: Witness, names: ReadonlySet<string>): boolean {
  if (w.kind !== 'path_guard' && w.kind !== 'ownership_check') return false;
  const b = bindingOf(program, w);
  if (b.names.length === 0) return false;
  for (const name of localSubjects(program, w, b)) if (names.has(name)) return true;
  return false;
}

/** The handlers of touched Laravel entries that answer with a record their own check binds by its route key. */
export function routeRecordReads(program: Program, facts: Facts, entries: ReadonlyMap<string, EntryPoint>, byFunction: ReadonlyMap<string, readonly Witness[]>, touched: ReadonlySet<string> | null): RouteRecordRead[] {
  const row = answerRow(facts);
  if (!row) return [];
  const laravel = [...entries.values()].filter((e) => e.framework === 'laravel' && (touched === null || touched.has(e.functionId)));
  if (laravel.length === 0) return [];
  const classes = new Set(program.files.filter((f) => f.factsLanguage === 'php').flatMap((f) => f.ir.classes.map((c) => c.name)));
  const out: RouteRecordRead[] = [];
  for (const entry of laravel) {
    const ref = program.functions.get(entry.functionId);
    const file = ref ? program.byPath.get(ref.path) : undefined;
    const checks = (byFunction.get(entry.functionId) ?? []).filter((w) => w.scope === 'statement' && w.functionId === entry.functionId);
    if (!ref || !file || checks.length === 0) continue;
    for (const { name, model } of routeKeys(ref.fn.parameters, facts.php, classes)) {
      // The norm is the handler's own: some check of it binds this key.
      if (!checks.some((w) => bindsAny(program, w, new Set([name])))) continue;
      const records = derivedRecords(file, ref.fn, name);
      // A scalar key handed out is no record; a model the route binds is one.
      const answered = [...records.keys()].slice(model === null ? 1 : 0);
      const answer = answerCall(file, ref.fn, row.calls, answered);
      if (answer) out.push({ entry, key: name, records, answer, modelType: model });
      if (answer) break;
    }
  }
  return out;
}

/** The row (`judged_as = "route-record"`) naming the answer calls, kind, severity and CWE. */
function answerRow(facts: Facts): OperationFact | undefined {
  return facts.php.operations.find((o) => o.judgedAs === 'route-record');
}

/** Paths of one hop for the handlers judged, so the control-flow graphs of their functions are built. */
export function routeRecordPaths(reads: readonly RouteRecordRead[]): PathRecord[] {
  return reads.map((r) => ({ hops: [{ functionId: r.entry.functionId, callLine: null }], entry: r.entry.functionId, complete: true }));
}

/** A finding for each answer no check bound to the route key dominates. */
export function routeRecordFindings(input: CheckInput & { facts: Facts }, reads: readonly RouteRecordRead[]): ProverFinding[] {
  const row = answerRow(input.facts);
  if (!row) return [];
  const findings: ProverFinding[] = [];
  for (const read of reads) {
    const { entry, answer } = read;
    const list = input.witnesses.byFunction.get(entry.functionId) ?? [];
    const judged = judgeHop(input.control, entry.functionId, list, answer.line, true, shapeOf);
    const dominating = [...judged.dominating];
    dropGuestOpenOwnership(dominating);
    const names = new Set(read.records.keys());
    const ref = input.program.functions.get(entry.functionId);
    const file = ref ? input.program.byPath.get(ref.path) : undefined;
    if (ref && file) for (const w of list) if (!dominating.includes(w) && checksWhereLookedUp(input.program, file, ref.fn, w, read.records)) dominating.push(w);
    const global = (w: Witness): boolean => {
      const b = bindingOf(input.program, w);
      return w.kind === 'path_guard' && b.names.length === 0 && b.attribute !== null && input.facts.php.globalRoles.some((re) => re.test(b.attribute ?? ''));
    };
    if (dominating.some((w) => bindsAny(input.program, w, names) || global(w))) continue;
    const own = list.filter((w) => bindsAny(input.program, w, new Set([read.key])));
    const why = own.map((w) => {
      if (w.guestOpen === true && !dominating.some((d) => d.kind === 'authn')) return `\`${bindingOf(input.program, w).text}\` compares with a current user that is the shared guest account when nobody is logged in, and no login check runs`;
      const uncovered = judged.uncovered.find((u) => u.witness === w);
      return `\`${bindingOf(input.program, w).text}\` does not decide every path to it${uncovered ? ` (${uncovered.why})` : ''}`;
    });
    const op: OperationSite = { operationId: row.id, kind: row.kind, functionId: entry.functionId, path: entry.path, line: answer.line, call: (answer.text.split('\n')[0] ?? '').trim(), handlerNamed: false, requires: row.requires, severity: row.severity, cwe: row.cwe };
    const what = read.modelType ? `the ${read.modelType} the route binds` : `the record looked up by the route's \`$${read.key}\``;
    const shown = [...read.records.keys()][read.records.size > 1 && read.modelType === null ? 1 : 0] ?? read.key;
    const sentence = `\`$${shown}\` is ${what} (a parameter of the entry ${entry.function}), handed to the answer here; the handler checks the caller against \`$${read.key}\`, but the check does not hold here: ${why.join('; ')}.`;
    const path = routeRecordPaths([read])[0]!;
    findings.push(makeProverFinding(input, entry, path, op, row.requires, dominating, list, { variable: `$${read.key}`, sentence }));
  }
  return findings;
}

/** The first answer call of the body handing out one of the records (the variable itself, not one of its fields). */
function answerCall(file: ProgramFile, fn: FunctionIR, calls: readonly RegExp[], records: readonly string[]): CallIR | null {
  if (records.length === 0) return null;
  const alternatives = records.join('|');
  const mentions = new RegExp(String.raw`\$(${alternatives})\b(?!\s*->)|\bcompact\([^)]*['"](${alternatives})['"]`);
  const inBody = file.ir.calls.filter((c) => c.line > fn.bodyStartLine - 1 && c.line <= fn.endLine && c.enclosingFunction === fn.qualifiedName).sort((a, b) => a.line - b.line);
  return inBody.find((c) => calls.some((re) => re.test(callSignature(c))) && mentions.test(c.text)) ?? null;
}
