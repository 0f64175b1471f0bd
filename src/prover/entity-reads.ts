/**
 * Reads of a route-bound entity against the project's own per-object norm (docs/prover.md, "Reads of a
 * route-bound entity"). Symfony loads a typed action parameter by the route's id (`getAction(Invoice
 * $invoice)` for `/invoices/{id}`): the request picks the object. When the project checks objects of that
 * class one by one elsewhere (`#[IsGranted(new Expression("is_granted('access', subject.getCustomer())"),
 * 'invoice')]` on the web controller's invoice actions: a check of who may view it, `view`, `access`, `show`, the
 * header's `read_attributes`), it says that a permission naming no object
 * (`#[IsGranted('view_invoice')]`) does not decide who may see a given invoice. An action that hands such an
 * object to its answer (`new View($invoice)`, `$this->json($invoice)`) with no check bound to it (any
 * attribute, viewing included: a read needs no more) is a `resource_unbound` finding. A role
 * (`ROLE_ADMIN`) still covers every object; a class nobody checks per object sets no norm, so the rule is
 * silent in projects that reason by permissions only.
 */
import { makeProverFinding, type CheckInput } from './check.js';
import type { Facts, OperationFact } from './facts.js';
import type { CallIR, FunctionIR, ParameterIR } from '../syntax/ir-types.js';
import { callSignature } from './resolution.js';
import { bindingOf, localSubjects } from './resource-binding.js';
import type { EntryPoint, OperationSite, ProgramFile, ProverFinding, Witness } from './types.js';

/** Handler parameter types the container injects rather than the route binds. */
const NOT_AN_ENTITY = /(Request|Interface|Service|Repository|Manager|Factory|Handler|Response|Query|Fetcher|Configuration|Dispatcher|Logger)$/;

/** The attribute an expression check asks for: `new Expression("is_granted('access', subject.getCustomer())")`. */
const EXPRESSION_ATTRIBUTE = /is_granted\(\s*\\?['"]([\w-]+)\\?['"]/;

const bare = (name: string): string => name.replace(/^\$/, '');
const typeName = (type: string | null): string | null => (type === null ? null : (type.replace(/^\?/, '').replace(/^\\/, '').split('\\').pop() ?? null));

/** A parameter the route binds: typed by a project class that is no service, not the logged-in user. */
export function routeBound(parameter: ParameterIR, facts: Facts['php'], classes: ReadonlySet<string>): string | null {
  const type = typeName(parameter.type);
  if (type === null || !/^[A-Z]/.test(type) || NOT_AN_ENTITY.test(type) || !classes.has(type)) return null;
  if (facts.currentUserTypes.some((re) => re.test(type) || parameter.annotations.some((a) => re.test(a)))) return null;
  return type;
}

/** Entity classes some viewing check binds one object of, with one such check as an example (`Class.method: IsGranted(...)`). */
function perObjectNorm(input: CheckInput, facts: Facts['php']): Map<string, string> {
  const norm = new Map<string, string>();
  for (const [functionId, list] of input.witnesses.byFunction) {
    const ref = input.program.functions.get(functionId);
    if (!ref || input.program.byPath.get(ref.path)?.factsLanguage !== 'php') continue;
    for (const w of list) {
      if (w.kind !== 'path_guard' || w.functionId !== functionId) continue;
      const b = bindingOf(input.program, w);
      // Only a check of who may view the object sets the norm for reads (an `edit` voter says nothing about viewing).
      const attribute = b.attribute ?? EXPRESSION_ATTRIBUTE.exec(b.text)?.[1] ?? null;
      if (b.names.length === 0 || attribute === null || !facts.readAttributes.some((re) => re.test(attribute))) continue;
      for (const parameter of ref.fn.parameters) {
        const type = b.names.includes(bare(parameter.name)) ? typeName(parameter.type) : null;
        if (type !== null && !norm.has(type)) norm.set(type, `${ref.fn.qualifiedName}: ${b.text}`);
      }
    }
  }
  return norm;
}

/** The finding of every touched Symfony action that answers with a route-bound entity its checks do not bind. */
export function entityReadFindings(input: CheckInput & { facts: Facts }): ProverFinding[] {
  const facts = input.facts.php;
  // The row (`judged_as = "route-entity"`) names the answer calls, kind, severity and CWE.
  const row = facts.operations.find((o) => o.judgedAs === 'route-entity');
  if (!row) return [];
  const symfony = [...input.entries.values()].filter((e) => e.framework === 'symfony');
  if (symfony.length === 0) return [];
  const classes = new Set(input.program.files.filter((f) => f.factsLanguage === 'php').flatMap((f) => f.ir.classes.map((c) => c.name)));
  const norm = perObjectNorm(input, facts);
  const findings: ProverFinding[] = [];
  for (const entry of symfony) {
    if (input.touched && !input.touched.functions.has(entry.functionId)) continue;
    const found = unboundRead(input, row, entry, classes, norm);
    if (found) findings.push(found);
  }
  return findings;
}

function unboundRead(input: CheckInput & { facts: Facts }, row: OperationFact, entry: EntryPoint, classes: ReadonlySet<string>, norm: ReadonlyMap<string, string>): ProverFinding | null {
  const facts = input.facts.php;
  const ref = input.program.functions.get(entry.functionId);
  const file = ref ? input.program.byPath.get(ref.path) : undefined;
  if (!ref || !file) return null;
  const checks = (input.witnesses.byFunction.get(entry.functionId) ?? []).filter((w) => w.kind === 'path_guard');
  for (const parameter of ref.fn.parameters) {
    const type = routeBound(parameter, facts, classes);
    const example = type === null ? undefined : norm.get(type);
    if (type === null || example === undefined) continue;
    const name = bare(parameter.name);
    const answer = answerCall(file, ref.fn, row.calls, name);
    if (answer === null) continue;
    const described: string[] = [];
    let bound = false;
    for (const w of checks) {
      const b = bindingOf(input.program, w);
      if (b.names.length === 0 && b.attribute !== null && facts.globalRoles.some((re) => re.test(b.attribute ?? '')) && !facts.loginRoles.some((re) => re.test(b.attribute ?? ''))) bound = true;
      else if (localSubjects(input.program, w, b).has(name)) bound = true;
      else described.push(`\`${b.text}\` ${b.names.length === 0 ? 'names no object' : 'binds another object'}`);
    }
    if (bound) continue;
    const op: OperationSite = { operationId: row.id, kind: row.kind, functionId: entry.functionId, path: entry.path, line: answer.line, call: (answer.text.split('\n')[0] ?? '').trim(), handlerNamed: false, requires: row.requires, severity: row.severity, cwe: row.cwe };
    const sentence = `\`$${name}\` is the ${type} the route loads by the request's id (a parameter of the entry ${ref.fn.qualifiedName}), handed to the answer here; the project checks ${type} objects one by one elsewhere (${example}), but ${described.length > 0 ? `of the checks before it, ${described.join('; ')}` : 'no check here names it'}.`;
    const path = { hops: [{ functionId: entry.functionId, callLine: null }], entry: entry.functionId, complete: true };
    const dominating: Witness[] = checks;
    return makeProverFinding(input, entry, path, op, row.requires, dominating, checks, { variable: `$${name}`, sentence });
  }
  return null;
}

/** The first call in the body that hands `name` to the answer (a call of the row), or null. */
function answerCall(file: ProgramFile, fn: FunctionIR, calls: readonly RegExp[], name: string): CallIR | null {
  const mentions = new RegExp(String.raw`\$${name}\b(?!\s*->)`);
  const inBody = file.ir.calls.filter((c) => c.line > fn.bodyStartLine - 1 && c.line <= fn.endLine && c.enclosingFunction === fn.qualifiedName).sort((a, b) => a.line - b.line);
  return inBody.find((c) => calls.some((re) => re.test(callSignature(c))) && mentions.test(c.text)) ?? null;
}
