/**
 * Records written for a user the request chose (docs/prover.md, "Writes on behalf of another user").
 * A Symfony action that builds a record for a user (`$this->timesheetService->createNewTimesheet($user)`,
 * `$entry->setUser($user)`) acts for that user. When the user is the logged-in one that is the caller's
 * own record; when the request picked it (a form's data object, `$request->query->get(...)`, a
 * route-bound entity) it is a write on behalf of someone else. Where the project has permissions for
 * acting for other users (`create_other_timesheet`, `edit_other_timesheet`: the row's `held_by`), such a
 * write needs one of them (a viewing one, `view_other_timesheet`, only lets the caller look), or a check
 * bound to that user or to the record built for them (a voter deciding for its owner), or a comparison
 * of that user with the logged-in one that decides something (a refusal, or which permission is asked).
 * A role (`ROLE_SUPER_ADMIN`) covers every user. A project with no such permission sets no norm, and
 * the rule is silent there.
 */
import { makeProverFinding, type CheckInput } from './check.js';
import type { Facts, LanguageFacts, OperationFact } from './facts.js';
import type { CallIR, FunctionIR } from '../syntax/ir-types.js';
import { escape } from './branches.js';
import { callSignature, type Program } from './resolution.js';
import { callArguments } from './ownership.js';
import { bindingOf } from './resource-binding.js';
import { routeBound } from './entity-reads.js';
import type { EntryPoint, OperationSite, ProgramFile, ProverFinding, Witness } from './types.js';

/** `$name = value` (also `??=`), the assigned name and the value. */
const ASSIGNMENT = /^\s*(\$\w+)\s*(?:\?\?)?=(?![=>])\s*(.+)$/;
/** `foreach ($list as $x)` / `foreach ($list as $k => $x)`. */
const FOREACH = /foreach\s*\((.+?)\s+as\s+(?:\$\w+\s*=>\s*)?(\$\w+)/;
/** Quoted words: a check's attributes. */
const QUOTED = /['"]([\w:.-]+)['"]/g;
/** A branch that ends the request or leaves the action. */
const LEAVES = /\b(throw|return)\b|createAccessDeniedException|AccessDenied/;

/** A pattern for `$name` read as a value (not `$names`, not `$this->name`). */
function mention(name: string): RegExp {
  return new RegExp(`(?<![\\w$>])${escape(name)}(?![\\w])`);
}

const mentionsAny = (text: string, names: ReadonlySet<string>): boolean => [...names].some((n) => mention(n).test(text));

/** The words a check asks for that allow acting for other users (not a viewing permission). */
function onBehalfAttributes(text: string, row: OperationFact, facts: LanguageFacts): string[] {
  const held = row.heldBy;
  if (held === null) return [];
  return [...text.matchAll(QUOTED)].map((m) => m[1] ?? '').filter((w) => held.test(w) && !facts.readAttributes.some((re) => re.test(w)));
}

const fileChecks = new WeakMap<ProgramFile, CallIR[]>();

/** The path_guard call checks of a PHP file (`isGranted`, `denyAccessUnlessGranted`), acted on or not; found once per file. */
function checksOfFile(file: ProgramFile, facts: LanguageFacts): CallIR[] {
  const known = fileChecks.get(file);
  if (known) return known;
  const rows = facts.dischargers.filter((d) => d.kind === 'path_guard' && d.calls.length > 0);
  const found = file.ir.calls.filter((c) => rows.some((d) => d.calls.some((re) => re.test(callSignature(c)))));
  fileChecks.set(file, found);
  return found;
}

/** The check calls inside a function's body (closures in it included). */
function checkCalls(file: ProgramFile, fn: FunctionIR, facts: LanguageFacts): CallIR[] {
  return checksOfFile(file, facts).filter((c) => c.line >= fn.bodyStartLine && c.line <= fn.endLine);
}

const norms = new WeakMap<Program, string | null>();

/** One check of the project that asks for a permission to act for other users (`Class.method: isGranted('edit_other_timesheet')`), or null. */
function onBehalfNorm(program: Program, row: OperationFact, facts: LanguageFacts): string | null {
  const known = norms.get(program);
  if (known !== undefined) return known;
  let found: string | null = null;
  for (const file of program.files) {
    if (file.factsLanguage !== 'php' || found !== null) continue;
    const call = checksOfFile(file, facts).find((c) => onBehalfAttributes(c.text, row, facts).length > 0);
    const fn = call ? undefined : file.ir.functions.find((f) => f.decorators.some((d) => /^IsGranted\b/.test(d) && onBehalfAttributes(d, row, facts).length > 0));
    if (call) found = `${call.enclosingFunction ?? file.path}: ${(call.text.split('\n')[0] ?? '').trim()}`;
    else if (fn) found = `${fn.qualifiedName}: ${fn.decorators.find((d) => /^IsGranted\b/.test(d) && onBehalfAttributes(d, row, facts).length > 0) ?? ''}`;
  }
  norms.set(program, found);
  return found;
}

/** Locals holding what the request chose, line by line up to `untilLine` (exclusive); a reassignment from elsewhere drops one. */
function requestChosen(file: ProgramFile, fn: FunctionIR, row: OperationFact, facts: LanguageFacts, classes: ReadonlySet<string>, untilLine: number): Set<string> {
  const chosen = new Set<string>();
  for (const p of fn.parameters) {
    const filled = facts.requestInputs.some((re) => (p.type !== null && re.test(p.type)) || p.annotations.some((a) => re.test(a)));
    if (filled || routeBound(p, facts, classes) !== null) chosen.add(p.name);
  }
  const from = row.valueFrom;
  for (let line = fn.bodyStartLine; line < untilLine && line <= fn.endLine; line++) {
    const text = (file.lines[line - 1] ?? '').replace(/\/\/.*$/, '');
    const seed = from?.exec(text);
    const assigned = ASSIGNMENT.exec(text);
    const loop = FOREACH.exec(text);
    if (seed?.groups?.['value']) chosen.add(seed.groups['value']);
    else if (seed && assigned?.[1]) chosen.add(assigned[1]);
    else if (loop?.[1] && loop[2] && mentionsAny(loop[1], chosen)) chosen.add(loop[2]);
    else if (assigned?.[1] && assigned[2] !== undefined) {
      if (mentionsAny(assigned[2], chosen)) chosen.add(assigned[1]);
      else chosen.delete(assigned[1]);
    }
  }
  return chosen;
}

/** Locals holding the logged-in user (`$currentUser = $this->getUser()`) before `untilLine`. */
function currentUserLocals(file: ProgramFile, fn: FunctionIR, facts: LanguageFacts, untilLine: number): Set<string> {
  const locals = new Set<string>();
  for (let line = fn.bodyStartLine; line < untilLine && line <= fn.endLine; line++) {
    const assigned = ASSIGNMENT.exec(file.lines[line - 1] ?? '');
    if (assigned?.[1] && assigned[2] !== undefined && facts.currentUser.some((re) => re.test(assigned[2] ?? ''))) locals.add(assigned[1]);
  }
  return locals;
}

/** True when a line before `untilLine` compares `owner` with the logged-in user and decides on it (a check on that line, or a branch that leaves). */
function comparedWithCaller(file: ProgramFile, fn: FunctionIR, facts: LanguageFacts, owner: string, checks: readonly CallIR[], untilLine: number): boolean {
  const current = currentUserLocals(file, fn, facts, untilLine);
  const callerSide = (text: string): boolean => facts.currentUser.some((re) => re.test(text)) || mentionsAny(text, current);
  const comparison = new RegExp(`${escape(owner)}(?![\\w])\\s*[!=]==?|[!=]==?\\s*${escape(owner)}(?![\\w])`);
  for (let line = fn.bodyStartLine; line < untilLine && line <= fn.endLine; line++) {
    const text = file.lines[line - 1] ?? '';
    if (!comparison.test(text) || !callerSide(text.replace(mention(owner), ''))) continue;
    const next = `${text}\n${file.lines[line] ?? ''}\n${file.lines[line + 1] ?? ''}`;
    if (checks.some((c) => c.line === line) || LEAVES.test(next)) return true;
  }
  return false;
}

/** Objects that select records rather than being one (`$query = new TimesheetQuery()`): their `setUser` filters a read. */
const SELECTOR = /(Query|Criteria|Filter|Search|Form|Request)$/;

/** True when `receiver` is a selector: named like one, or built as one in the function before `line`. */
function isSelector(file: ProgramFile, fn: FunctionIR, receiver: string, line: number): boolean {
  if (/query|filter|criteria|search|form/i.test(receiver)) return true;
  const built = new RegExp(`${escape(receiver)}\\s*=\\s*new\\s+\\\\?([\\w\\\\]+)`);
  for (let at = fn.bodyStartLine; at < line; at++) {
    const m = built.exec(file.lines[at - 1] ?? '');
    if (m?.[1] && SELECTOR.test(m[1])) return true;
  }
  return false;
}

/** The name the operation's line assigns its result to, or the receiver a setter is called on: the record built. */
function builtRecord(file: ProgramFile, call: CallIR): string | null {
  const assigned = ASSIGNMENT.exec(file.lines[call.line - 1] ?? '');
  if (assigned?.[1]) return assigned[1];
  const receiver = /^\$\w+$/.exec(call.receiver ?? '');
  return receiver && receiver[0] !== '$this' ? receiver[0] : null;
}

/** The finding of every touched Symfony action that builds a record for a user the request chose, with none of the checks above. */
export function onBehalfWriteFindings(input: CheckInput & { facts: Facts }): ProverFinding[] {
  const facts = input.facts.php;
  const row = facts.operations.find((o) => o.judgedAs === 'on-behalf-write');
  if (!row) return [];
  const symfony = [...input.entries.values()].filter((e) => e.framework === 'symfony' && (!input.touched || input.touched.functions.has(e.functionId)));
  if (symfony.length === 0) return [];
  const norm = onBehalfNorm(input.program, row, facts);
  if (norm === null) return [];
  const classes = new Set(input.program.files.filter((f) => f.factsLanguage === 'php').flatMap((f) => f.ir.classes.map((c) => c.name)));
  const findings: ProverFinding[] = [];
  for (const entry of symfony) {
    const found = onBehalfWrite(input, row, entry, classes, norm);
    if (found) findings.push(found);
  }
  return findings;
}

function onBehalfWrite(input: CheckInput & { facts: Facts }, row: OperationFact, entry: EntryPoint, classes: ReadonlySet<string>, norm: string): ProverFinding | null {
  const facts = input.facts.php;
  const ref = input.program.functions.get(entry.functionId);
  const file = ref ? input.program.byPath.get(ref.path) : undefined;
  if (!ref || !file) return null;
  // A login, sign-up or password reset acts for the account it authenticates: what it is for.
  if (input.witnesses.authFlows.get(entry.functionId)?.actsOn.has(row.kind)) return null;
  const fn = ref.fn;
  const declared = (input.witnesses.byFunction.get(entry.functionId) ?? []).filter((w) => w.kind === 'path_guard' && w.scope !== 'statement');
  // A role, or a declared permission to act for others, covers every write of the action.
  for (const w of declared) {
    const b = bindingOf(input.program, w);
    if (onBehalfAttributes(b.text, row, facts).length > 0) return null;
    if (b.attribute !== null && facts.globalRoles.some((re) => re.test(b.attribute ?? '')) && !facts.loginRoles.some((re) => re.test(b.attribute ?? ''))) return null;
  }
  const checks = checkCalls(file, fn, facts);
  const body = file.ir.calls.filter((c) => c.enclosingFunction === fn.qualifiedName && c.line >= fn.bodyStartLine && c.line <= fn.endLine).sort((a, b) => a.line - b.line);
  for (const call of body) {
    if (!row.calls.some((re) => re.test(callSignature(call)))) continue;
    if (call.receiver !== null && /^\$\w+$/.test(call.receiver) && isSelector(file, fn, call.receiver, call.line)) continue;
    const chosen = requestChosen(file, fn, row, facts, classes, call.line);
    const owner = (callArguments(call.text, call.callee) ?? []).find((arg) => (row.ownerArgument?.test(arg) ?? false) && mentionsAny(arg, chosen));
    if (owner === undefined) continue;
    const before = checks.filter((c) => c.line <= call.line);
    if (before.some((c) => onBehalfAttributes(c.text, row, facts).length > 0)) continue;
    if (before.some((c) => [...c.text.matchAll(QUOTED)].some((m) => facts.globalRoles.some((re) => re.test(m[1] ?? '')) && !facts.loginRoles.some((re) => re.test(m[1] ?? ''))))) continue;
    // A check bound to the user, or to the record built for them (a voter decides for its owner), wherever it is asked.
    const built = builtRecord(file, call);
    const bound = new Set([owner, ...(built ? [built] : [])]);
    if (checks.some((c) => mentionsAny(c.text, bound) && !facts.readAttributes.some((re) => re.test(/['"]([\w:.-]+)['"]/.exec(c.text)?.[1] ?? '')))) continue;
    if (comparedWithCaller(file, fn, facts, owner, checks, call.line)) continue;
    const op: OperationSite = { operationId: row.id, kind: row.kind, functionId: entry.functionId, path: entry.path, line: call.line, call: (call.text.split('\n')[0] ?? '').trim(), handlerNamed: false, requires: row.requires, severity: row.severity, cwe: row.cwe };
    const seen: Witness[] = input.witnesses.byFunction.get(entry.functionId) ?? [];
    const asked = checks.filter((c) => c.line < call.line).map((c) => `\`${(c.text.split('\n')[0] ?? '').trim()}\``);
    const sentence = `\`${owner}\` is a user the request chose (in ${fn.qualifiedName}), and this builds a record for that user; the project asks for a permission to act for other users elsewhere (${norm}), but ${asked.length > 0 ? `the checks before it (${asked.slice(0, 3).join(', ')}) neither ask for one nor compare that user with the logged-in one` : 'nothing before it asks for one or compares that user with the logged-in one'}.`;
    const path = { hops: [{ functionId: entry.functionId, callLine: null }], entry: entry.functionId, complete: true };
    return makeProverFinding(input, entry, path, op, row.requires, declared, seen, { variable: owner, sentence });
  }
  return null;
}
