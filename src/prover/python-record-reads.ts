/**
 * Python reads of a record the URL names, against the module's own per-object norm (docs/prover.md,
 * "Python reads of a record the URL names"; ADR 0064). A Django, DRF, Flask, FastAPI or Tornado handler
 * that looks a record up by one of its URL parameters (`eng = get_object_or_404(Engagement, id=eid)`,
 * `Document.objects.get(pk=pk)`, `session.query(Job).get(job_id)`, `db.get(Job, job_id)`) lets the
 * request pick the record. When another function of the same module checks a record of that model one by
 * one (`user_has_permission_or_403(request.user, eng, ...)` after the same lookup, or a decorator naming
 * the model, `@user_is_authorized(Engagement, Permissions.Engagement_Edit, 'eid')`), the project says a
 * login alone does not decide who may read such a record; a handler that makes no check bound to the
 * record, its key or its model is the one its author forgot (DefectDojo's `ViewEngagement.get`). A model
 * nobody in the module checks per object sets no norm, so the rule is silent where the project reasons
 * by roles only; a lookup already scoped to the caller (the row's `held_by`: `request.user`,
 * `.restrict(user, ...)`, `owner=`) is no read past a check, and neither is a read behind one of the
 * project's per-object checks run before the view (a `process_view` middleware checking the URL kwarg's
 * record by URL name) or in a view declared public. Textual, like entity-reads.ts: a check anywhere in
 * the handler that names the record, its key, its model or the parent its lookup is filtered by counts
 * (no dominance), so the rule errs towards silence.
 */
import { makeProverFinding, type CheckInput } from './check.js';
import type { Facts, OperationFact } from './facts.js';
import type { CallIR, FunctionIR } from '../syntax/ir-types.js';
import { callSignature, functionId } from './resolution.js';
import type { OperationSite, ProgramFile, ProverFinding, Witness } from './types.js';

/** Parameters a framework passes that never come from the URL. */
const NOT_URL = /^(self|cls|request|req|response|args|kwargs|db|session|current_user|user|background_tasks|form|data|payload|body)$/;
/** Parameter types a framework or FastAPI's `Depends` injects, never a URL key. */
const INJECTED_TYPE = /(Request|Response|Session|User|Depends|BackgroundTasks|WebSocket|Form|File|UploadFile|Body|Schema|Model|Create|Update|In)\b/;

/** One lookup of a record by a URL key inside a function: the record's local, the model, the key, the call. */
interface Lookup {
  record: string;
  model: string;
  key: string;
  /** Locals the lookup is filtered by (`engagement` in `.filter(engagement=engagement)`): a parent record a check of the handler may bind it through. */
  parents: string[];
  call: CallIR;
}

/** The model a lookup call names: the first argument of `get_object_or_404(M, ...)`/`db.get(M, ...)`, the class before `.objects`, `query(M)`. */
function modelOf(call: CallIR): string | null {
  const text = call.text;
  const shapes = [/\bquery\(\s*([A-Z]\w*)\s*\)/, /\b([A-Z]\w*)\s*\.\s*(?:objects|query)\b/, /^[\w.]*\(\s*([A-Z]\w*)\s*[,)]/];
  for (const re of shapes) {
    const m = re.exec(text);
    if (m?.[1]) return m[1];
  }
  return null;
}

/** The calls of one function's own body (not its nested functions), in line order. */
function bodyCalls(file: ProgramFile, fn: FunctionIR): CallIR[] {
  return file.ir.calls.filter((c) => c.enclosingFunction === fn.qualifiedName && c.line >= fn.bodyStartLine && c.line <= fn.endLine).sort((a, b) => a.line - b.line);
}

/** Lookups `x = <lookup call>` of the function whose call mentions one of `keys` (any key when null), unless already scoped to the caller. */
function lookupsOf(file: ProgramFile, fn: FunctionIR, row: OperationFact, keys: readonly string[] | null): Lookup[] {
  const out: Lookup[] = [];
  for (const call of bodyCalls(file, fn)) {
    if (!row.calls.some((re) => re.test(callSignature(call)))) continue;
    const line = file.lines[call.line - 1] ?? '';
    const assigned = /^\s*(\w+)\s*(?::\s*[\w.[\], ]+)?=(?!=)/.exec(line)?.[1];
    const model = modelOf(call);
    if (!assigned || !model) continue;
    if (row.heldBy?.test(call.text) || row.heldBy?.test(line)) continue;
    const key = keys === null ? '' : keys.find((k) => new RegExp(String.raw`(?<![\w.'"])${k}\b(?!\s*=[^=])`).test(call.text));
    if (key === undefined) continue;
    const parents = [...call.text.matchAll(/\b\w+\s*=\s*([A-Za-z_]\w*)\s*[,)]/g)].map((m) => m[1] ?? '').filter((w) => /^[a-z_]/.test(w) && w !== key && w !== assigned);
    out.push({ record: assigned, model, key, parents, call });
  }
  return out;
}

/** The URL parameters of a handler: named parameters that are not the framework's injected objects. */
function urlKeys(fn: FunctionIR): string[] {
  return fn.parameters
    .map((p) => ({ name: p.name.replace(/^\*+/, ''), type: p.type, star: p.name.startsWith('*') }))
    .filter((p) => !p.star && !NOT_URL.test(p.name) && (p.type === null || /^(int|str|UUID|uuid\.UUID|Optional\[(int|str)\])$/.test(p.type) || !INJECTED_TYPE.test(p.type)))
    .map((p) => p.name);
}

/** A check that names one of the words (the record, its key, its model) in its evidence. */
function namesAny(w: Witness, words: readonly string[]): boolean {
  if (w.kind !== 'path_guard' && w.kind !== 'ownership_check') return false;
  return words.some((word) => new RegExp(String.raw`\b${word}\b`).test(w.evidence));
}

/**
 * A check that runs before the handler on the request as its URL names it and is one of the project's
 * per-object checks (a `process_view` middleware looking the URL kwarg's record up and calling
 * `user_has_permission_or_403` on it, by the view's URL name): the record is checked before the
 * handler reads it, though the check's text cannot name the handler's local.
 */
function objectCheckBefore(w: Witness, row: OperationFact): boolean {
  return w.scope === 'router' && (w.kind === 'path_guard' || w.kind === 'ownership_check') && row.objectCheck !== null && row.objectCheck.test(w.evidence);
}

/**
 * One of the project's object checks in the function that names one of `words` (a call's whole text, as
 * a check written over several lines names its record on a later one), or a decorator of it naming one
 * of `decoratorWords`.
 */
function checkLine(file: ProgramFile, fn: FunctionIR, row: OperationFact, words: readonly string[], decoratorWords: readonly string[] = words): string | null {
  if (!row.objectCheck) return null;
  const naming = (list: readonly string[]): RegExp | null => (list.length === 0 ? null : new RegExp(String.raw`\b(${list.join('|')})\b`));
  const decorated = naming(decoratorWords);
  for (const d of fn.decorators) if (decorated && row.objectCheck.test(d) && decorated.test(d)) return `@${d}`;
  const named = naming(words);
  for (const call of bodyCalls(file, fn)) if (named && row.objectCheck.test(call.text) && named.test(call.text)) return call.text.replace(/\s+/g, ' ').replace(/\( /g, '(').replace(/,? \)/g, ')');
  return null;
}

/** Per file, the models some function of it checks per object (a decorator naming the model, a check of a record it looked up), with an example. */
function moduleNorms(row: OperationFact, file: ProgramFile): Map<string, { functionId: string; example: string }[]> {
  const norms = new Map<string, { functionId: string; example: string }[]>();
  for (const fn of file.ir.functions) {
    const id = functionId(file.path, fn);
    const byModel = new Map<string, string[]>();
    for (const l of lookupsOf(file, fn, row, null)) byModel.set(l.model, [...(byModel.get(l.model) ?? []), l.record]);
    for (const d of fn.decorators) for (const m of d.matchAll(/\b([A-Z]\w*)\s*,/g)) if (m[1] && !byModel.has(m[1])) byModel.set(m[1], []);
    for (const [model, records] of byModel) {
      // A call must be given the record itself: one naming only the model (`policy(Task).user_has_permission(user, "add")`) is a model-wide permission, no per-object norm.
      const example = checkLine(file, fn, row, records, [model, ...records]);
      if (example !== null) norms.set(model, [...(norms.get(model) ?? []), { functionId: id, example }]);
    }
  }
  return norms;
}

/** Findings for touched Python handlers that read a record by a URL key past the module's per-object norm. */
export function pythonRecordReadFindings(input: CheckInput & { facts: Facts }): ProverFinding[] {
  const row = input.facts.python.operations.find((o) => o.judgedAs === 'python-record-read');
  if (!row) return [];
  const findings: ProverFinding[] = [];
  const normsByFile = new Map<string, Map<string, { functionId: string; example: string }[]>>();
  for (const entry of input.entries.values()) {
    if (input.touched && !input.touched.functions.has(entry.functionId)) continue;
    // A view the project declares open to everyone (DRF AllowAny, [[prover.public]]) reads what it means everyone to read.
    if (entry.access === 'public' || input.witnesses.publicEntries.has(entry.functionId)) continue;
    const ref = input.program.functions.get(entry.functionId);
    const file = ref ? input.program.byPath.get(ref.path) : undefined;
    if (!ref || !file || file.factsLanguage !== 'python') continue;
    const keys = urlKeys(ref.fn);
    if (keys.length === 0) continue;
    const lookups = lookupsOf(file, ref.fn, row, keys);
    if (lookups.length === 0) continue;
    let norms = normsByFile.get(file.path);
    if (!norms) normsByFile.set(file.path, (norms = moduleNorms(row, file)));
    const own = input.witnesses.byFunction.get(entry.functionId) ?? [];
    for (const lookup of lookups) {
      const norm = (norms.get(lookup.model) ?? []).filter((n) => n.functionId !== entry.functionId);
      if (norm.length === 0) continue;
      // Checked here: the record, its key, its model or the parent record its lookup is filtered by.
      const bound = [lookup.record, lookup.key, lookup.model, ...lookup.parents];
      if (own.some((w) => namesAny(w, bound) || objectCheckBefore(w, row)) || checkLine(file, ref.fn, row, bound) !== null) continue;
      const op: OperationSite = { operationId: row.id, kind: row.kind, functionId: entry.functionId, path: entry.path, line: lookup.call.line, call: (lookup.call.text.split('\n')[0] ?? '').trim(), handlerNamed: false, requires: row.requires, severity: row.severity, cwe: row.cwe };
      const sentence = `\`${lookup.record}\` is the ${lookup.model} looked up by the URL's \`${lookup.key}\` (a parameter of the entry ${ref.fn.qualifiedName}); this module checks ${lookup.model} records one by one elsewhere (\`${norm[0]!.example}\` in ${norm[0]!.functionId.split('::').pop()?.replace(/@\d+$/, '')}), but no check here names \`${lookup.record}\`, \`${lookup.key}\` or ${lookup.model}.`;
      const path = { hops: [{ functionId: entry.functionId, callLine: null }], entry: entry.functionId, complete: true };
      const checks = own.filter((w) => w.kind === 'path_guard' || w.kind === 'ownership_check' || w.kind === 'authn');
      findings.push(makeProverFinding(input, entry, path, op, row.requires, checks, own, { variable: lookup.record, sentence }));
      break;
    }
  }
  return findings;
}
