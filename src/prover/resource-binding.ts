/**
 * Resource-bound checks (ADR 0028). An operation row with `resource_bound = true` acts on one object (the
 * record deleted, the parent a child is moved under, the object a team is granted access to). When that
 * object comes from the request (a route parameter or an id the request sent, followed back along the
 * path), a permission check discharges it only when it binds the same object: its subject argument
 * (`isGranted('edit', $post)`, `userCan('chapter-create', $parent)`, `#[IsGranted('edit', 'post')]`,
 * `can:update,post`) names the operation's object or a variable the object was derived from, and its
 * attribute is stronger than viewing (`view`, `show`, `read`, `access` do not allow a write). A check bound
 * to another object discharges nothing here. A role (`ROLE_ADMIN`) still does; so does a permission
 * that names no object, unless the path's other checks name objects (the code reasons per object, and
 * this one was left out); a login-level role (`ROLE_USER`) never does. Ownership (ownership.ts) is
 * judged apart, by the checker. Textual, like ownership.ts: a right-hand side derives from every
 * variable it names.
 */
import { blankStrings } from './string-literals.js';
import type { CallIR, FunctionIR } from '../syntax/ir-types.js';
import { booleanUse, REQUEST_DATA } from './branches.js';
import { ASSIGNMENT, createdByCall } from './created-by-code.js';
import type { LanguageFacts } from './facts.js';
import { callArguments } from './ownership.js';
import { callsByLine } from './enforcement.js';
import { isRecordLookup, prismaCheckNames, prismaRisk } from './prisma-binding.js';
import { resolveCall, type Program } from './resolution.js';
import { statementAt } from './recognisers/shared.js';
import type { EntryPoint, FunctionRef, OperationSite, PathRecord, ProgramFile, Witness } from './types.js';

/** Why a resource-bound operation stays undischarged: the object, and what the checks before it bind. */
export interface UnboundResource {
  /** The operation's object as written (`$parent`). */
  variable: string;
  /** One sentence: what the object is and why the checks before it do not cover it. */
  sentence: string;
}

/** The object a resource-bound operation acts on, and the request input it comes from. */
interface AtRisk {
  expression: string;
  /** Function id → bare names the object was derived from there (the object itself included). */
  chain: Map<string, Set<string>>;
  /** Where the request chose it (`a route parameter of ChapterController.move`, `$request->get(...)`). */
  origin: string;
  /** Function id → the variable that holds the object itself there (handed down from caller to callee), not what it was looked up by. */
  aliases: Map<string, string>;
}

/** What a witness says about the object it checks. */
export interface Binding {
  /** Bare variable names (no `$`) the check's subject names; empty when it binds no object. */
  names: string[];
  /** The attribute or ability as written (`view`, `chapter-create`), or null. */
  attribute: string | null;
  /** How a finding quotes the check: the call or attribute as written. */
  text: string;
}

/** The object itself or its class: `$this`, `self`, `static::`, `parent::`, `super` (a PHP `$parent` is a variable). */
const THIS = /^(this|self|static|parent|super)$/;
const IDENTIFIER = /^\$?([A-Za-z_]\w*)/;
const MAX_STEPS = 40;
const EXIT = /\b(throw|return|abort\w*|exit|die|redirect|raise)\b/;

/** The bare root variable of an expression (`$parent->id` → `parent`), or null for literals, `$this`, calls. */
export function rootVariable(expression: string): string | null {
  const text = expression.trim().replace(/^\(+/, '');
  if (/^['"`\d[{]/.test(text)) return null;
  const m = IDENTIFIER.exec(text);
  if (!m?.[1] || (text.startsWith('$') ? m[1] === 'this' : THIS.test(m[1]))) return null;
  // A bare name followed by `(` is a call (`find($id)`), not a variable; PHP variables carry `$`.
  if (!text.startsWith('$') && /^\s*\(/.test(text.slice(m[0].length))) return null;
  return m[1];
}

/** Bare names of the variables an expression mentions (PHP `$x`; elsewhere identifiers not followed by `(` or after a `.`). */
function mentionedVariables(expression: string, php: boolean): string[] {
  const out = new Set<string>();
  const re = php ? /\$([A-Za-z_]\w*)/g : /(?<![\w$.])([A-Za-z_]\w*)\b(?!\s*\()/g;
  for (const m of blankStrings(expression, '""').matchAll(re)) if (m[1] && (php ? m[1] !== 'this' : !THIS.test(m[1]))) out.add(m[1]);
  return [...out];
}

function callAt(file: ProgramFile, line: number, callee: string): CallIR | undefined {
  return file.ir.calls.find((c) => c.line === line && c.callee === callee) ?? file.ir.calls.find((c) => c.line === line);
}

/** The argument of an operation call that names its object: the row's `resource_arg`, else the first plain argument, else the receiver. */
function operationObject(call: CallIR, resourceArg: number | 'receiver' | null): string | null {
  const args = callArguments(call.text, call.callee) ?? [];
  if (typeof resourceArg === 'number') return args[resourceArg] ?? null;
  // `$em->remove($post)` acts on its argument, `$post->delete()` on its receiver.
  const argument = resourceArg === 'receiver' ? undefined : args.find((a) => rootVariable(a) !== null);
  if (argument !== undefined) return argument;
  return call.receiver !== null && rootVariable(call.receiver) !== null ? call.receiver : null;
}


/** Hop `index`'s function and file, with `name` recorded in its chain; null when the hop is unknown or `name` was already followed there. */
export function enterHop(program: Program, path: PathRecord, index: number, name: string, chain: Map<string, Set<string>>): { ref: FunctionRef; file: ProgramFile } | null {
  const hop = path.hops[index];
  const ref = hop ? program.functions.get(hop.functionId) : undefined;
  const file = ref ? program.byPath.get(ref.path) : undefined;
  if (!hop || !ref || !file) return null;
  const seen = chain.get(hop.functionId) ?? new Set<string>();
  if (seen.has(name)) return null;
  seen.add(name);
  chain.set(hop.functionId, seen);
  return { ref, file };
}

/**
 * Follow `name` in hop `index` of the path back to where it was chosen. Returns the origin when the
 * request chose it (request data on the way, or a parameter of the entry), null when the code built it,
 * took it from the logged-in user or from nothing the request names.
 */
function trace(program: Program, facts: LanguageFacts, path: PathRecord, index: number, name: string, bound: number, chain: Map<string, Set<string>>, budget: { steps: number }): string | null {
  if (budget.steps-- <= 0) return null;
  const at = enterHop(program, path, index, name, chain);
  if (!at) return null;
  const { ref, file } = at;
  const php = file.factsLanguage === 'php';
  const assignment = ASSIGNMENT(name, php);
  for (let line = Math.min(bound - 1, ref.fn.endLine); line > ref.fn.bodyStartLine; line--) {
    const m = assignment.exec(file.lines[line - 1] ?? '');
    if (!m?.[1]) continue;
    return originOf(program, facts, path, index, m[1], line, chain, budget);
  }
  const position = ref.fn.parameters.findIndex((p) => p.name.replace(/^\$/, '') === name);
  if (position < 0) return null;
  const parameter = ref.fn.parameters[position];
  if (parameter && facts.currentUserTypes.some((re) => (parameter.type !== null && re.test(parameter.type)) || parameter.annotations.some((a) => re.test(a)))) return null;
  if (index === 0) return `a parameter of the entry ${ref.fn.qualifiedName} (the request chooses it)`;
  const caller = path.hops[index - 1];
  const callerRef = caller ? program.functions.get(caller.functionId) : undefined;
  const callerFile = callerRef ? program.byPath.get(callerRef.path) : undefined;
  if (!caller || !callerRef || !callerFile || caller.callLine === null) return null;
  const call = callAt(callerFile, caller.callLine, ref.fn.name);
  const argument = call ? (callArguments(call.text, call.callee) ?? [])[position] : undefined;
  if (argument === undefined) return null;
  return originOf(program, facts, path, index - 1, argument, caller.callLine, chain, budget);
}

/**
 * A comparison that leaves on a mismatch ties the object to another one: after `if ($rate->getActivity()
 * !== $activity) throw ...` the rate belongs to the activity, so a check on the activity covers it (the
 * route-model binding scoped to a parent, written by hand). Each `||` disjunct is read alone; the names
 * of the other side join `names`.
 */
function scopeByComparisons(file: ProgramFile, fn: FunctionIR, names: Set<string>, before: number): void {
  const php = file.factsLanguage === 'php';
  for (let line = fn.bodyStartLine + 1; line < before; line++) {
    const condition = /\bif\s*\((.*)\)\s*\{?\s*$/.exec(file.lines[line - 1] ?? '')?.[1];
    if (condition === undefined || /&&|\band\b/.test(condition)) continue;
    if (!file.lines.slice(line - 1, line + 3).some((l, k) => (k === 0 ? EXIT.test(l.slice(l.indexOf(condition) + condition.length)) : EXIT.test(l)))) continue;
    for (const disjunct of condition.split(/\|\||\bor\b/)) {
      const sides = disjunct.split(/!==|!=|<>/);
      if (sides.length !== 2) continue;
      const [left, right] = sides.map((side) => mentionedVariables(side, php));
      if (!left || !right || left.length === 0 || right.length === 0) continue;
      if (left.some((n) => names.has(n))) for (const n of right) names.add(n);
      else if (right.some((n) => names.has(n))) for (const n of left) names.add(n);
    }
  }
}

/**
 * Laravel's scoped bindings (`Route::scopeBindings()->group(...)`, `->scopeBindings()` on the route)
 * resolve a nested route parameter through its parent (`/blogs/{blog}/posts/{post}`: the post is looked
 * up among the blog's), so a check on a parent covers the children after it.
 */
function scopedRouteBindings(program: Program, entry: EntryPoint, risk: AtRisk): void {
  if (entry.framework !== 'laravel' || !entry.route || !entry.registeredBy) return;
  const at = /^(.*):(\d+)$/.exec(entry.registeredBy);
  const file = at?.[1] ? program.byPath.get(at[1]) : undefined;
  const names = risk.chain.get(entry.functionId);
  if (!at || !file || !names || !scopedAt(file, Number(at[2]))) return;
  // The route's own parameters in order; under a prefix the handler's model parameters (route order) stand in.
  const own = [...entry.route.matchAll(/\{(\w+)\??\}/g)].map((m) => m[1] ?? '');
  const models = (program.functions.get(entry.functionId)?.fn.parameters ?? []).filter((p) => p.type !== null && /^\\?[A-Z]/.test(p.type) && !NOT_A_MODEL.test(p.type)).map((p) => p.name.replace(/^\$/, ''));
  const parameters = own.length >= 2 ? own : models;
  const deepest = Math.max(...parameters.map((p, i) => (names.has(p) ? i : -1)));
  for (const parent of parameters.slice(0, Math.max(0, deepest))) names.add(parent);
}

/** Handler parameter types the container injects rather than the route binds. */
const NOT_A_MODEL = /(Request|Interface|Service|Repository|Manager|Factory|Handler|Response)$/;

/** The route on `line` has scoped bindings: its own statement says so, or a group around it does. */
function scopedAt(file: ProgramFile, line: number): boolean {
  if (/->scopeBindings\(\)/.test(statementAt(file, line, 6))) return true;
  let depth = 0;
  for (let l = line - 1; l >= 1; l--) {
    const text = file.lines[l - 1] ?? '';
    depth += (text.match(/\}/g) ?? []).length - (text.match(/\{/g) ?? []).length;
    // A brace opened above and not closed before the route: a group closure around it.
    if (depth < 0) {
      if (/scopeBindings\(\)/.test(text) || /scopeBindings\(\)/.test(file.lines[l - 2] ?? '')) return true;
      depth = 0;
    }
  }
  return false;
}

/** The names `names` were derived from by assignments above `before` in one function (themselves included). */
function localDerivation(file: ProgramFile, fn: FunctionIR, names: readonly string[], before: number): Set<string> {
  const php = file.factsLanguage === 'php';
  const out = new Set<string>();
  const queue = names.map((name) => ({ name, before }));
  while (queue.length > 0 && out.size < MAX_STEPS) {
    const next = queue.shift();
    if (!next || out.has(next.name)) continue;
    out.add(next.name);
    const assignment = ASSIGNMENT(next.name, php);
    for (let line = Math.min(next.before - 1, fn.endLine); line > fn.bodyStartLine; line--) {
      const m = assignment.exec(file.lines[line - 1] ?? '');
      if (!m?.[1]) continue;
      if (!REQUEST_DATA.test(m[1])) for (const name of mentionedVariables(m[1], php)) queue.push({ name, before: line });
      break;
    }
  }
  return out;
}

function originOf(program: Program, facts: LanguageFacts, path: PathRecord, index: number, rhs: string, line: number, chain: Map<string, Set<string>>, budget: { steps: number }): string | null {
  const ref = program.functions.get(path.hops[index]?.functionId ?? '');
  // The logged-in user's objects and the request's own creations are judged by ownership.ts, not here.
  if (facts.currentUser.some((re) => re.test(rhs)) || facts.createdObjects.some((re) => re.test(rhs))) return null;
  // An object a called factory builds (`$service->createNewProject($customer)`) is the code's, whatever went into it.
  const holder = program.byPath.get(ref?.path ?? '');
  if (ref && holder && createdByCall(program, facts, holder, ref.fn, rhs, line)) return null;
  const request = REQUEST_DATA.exec(rhs);
  // A lookup scoped by another object (`Post::where('blog_id', $blog->id)->findOrFail($request->input('id'))`) is tied to it.
  if (request) for (const name of mentionedVariables(rhs, program.byPath.get(ref?.path ?? '')?.factsLanguage === 'php')) chain.get(path.hops[index]?.functionId ?? '')?.add(name);
  if (request) return `\`${rhs.trim().slice(0, 80)}\` (request input, in ${ref?.fn.qualifiedName ?? 'the path'})`;
  const php = program.byPath.get(ref?.path ?? '')?.factsLanguage === 'php';
  for (const name of mentionedVariables(rhs, php)) {
    const origin = trace(program, facts, path, index, name, line, chain, budget);
    if (origin !== null) return origin;
  }
  return null;
}

/** The objects a resource-bound operation acts on: the row's `resource_arg` (or the default) and its `also_bound`. */
function objectSelectors(facts: LanguageFacts, op: OperationSite): (number | 'receiver' | null)[] {
  const row = facts.operations.find((o) => o.id === op.operationId);
  if (!row?.resourceBound || op.handlerNamed) return [];
  return [row.resourceArg, ...row.alsoBound.filter((a) => a !== row.resourceArg)];
}

/**
 * The variable holding the object in each hop: the object's root at the operation, then, while that is a
 * parameter, the root of the argument the caller passed for it.
 */
function objectAliases(program: Program, path: PathRecord, root: string): Map<string, string> {
  const aliases = new Map<string, string>();
  let name: string | null = root;
  for (let i = path.hops.length - 1; i >= 0 && name !== null; i--) {
    const hop = path.hops[i];
    const ref = hop ? program.functions.get(hop.functionId) : undefined;
    if (!hop || !ref) break;
    aliases.set(hop.functionId, name);
    const position = ref.fn.parameters.findIndex((p) => p.name.replace(/^\$/, '') === name);
    const caller = path.hops[i - 1];
    const callerRef = caller ? program.functions.get(caller.functionId) : undefined;
    const callerFile = callerRef ? program.byPath.get(callerRef.path) : undefined;
    if (position < 0 || !caller || !callerFile || caller.callLine === null) break;
    const call = callAt(callerFile, caller.callLine, ref.fn.name);
    const argument = call ? (callArguments(call.text, call.callee) ?? [])[position] : undefined;
    name = argument === undefined ? null : rootVariable(argument);
  }
  return aliases;
}

/** The object a resource-bound operation acts on (the one `selector` names) when the request chose it, else null. */
function atRisk(program: Program, facts: LanguageFacts, path: PathRecord, op: OperationSite, selector: number | 'receiver' | null): AtRisk | null {
  const file = program.byPath.get(op.path);
  const call = file ? callAt(file, op.line, op.call.replace(/\(.*$/s, '').split(/->|::|\?->|\.|\s/).pop() ?? '') : undefined;
  if (!file || !call) return null;
  const last = path.hops.length - 1;
  // A write that names its rows by a `where` object (Prisma) is read by prisma-binding.ts.
  const where = file.factsLanguage === 'typescript' ? prismaRisk(program, facts, path, call, op.line) : undefined;
  if (where === null) return null;
  const expression = where?.expression ?? operationObject(call, selector);
  const root = expression === null ? null : rootVariable(expression);
  if (expression === null || (where === undefined && root === null)) return null;
  const chain = where?.chain ?? new Map<string, Set<string>>();
  const origin = where?.origin ?? originOf(program, facts, path, last, expression, op.line, chain, { steps: MAX_STEPS });
  if (origin === null) return null;
  path.hops.forEach((hop, i) => {
    const ref = program.functions.get(hop.functionId);
    const file = ref ? program.byPath.get(ref.path) : undefined;
    const names = chain.get(hop.functionId);
    if (ref && file && names) scopeByComparisons(file, ref.fn, names, i === last ? op.line : (hop.callLine ?? 0));
  });
  return { expression: expression.trim(), chain, origin, aliases: root === null ? new Map<string, string>() : objectAliases(program, path, root) };
}

const QUOTED = /^['"](.*)['"]$/s;

/** The arguments of a decorator's text (`IsGranted('view', 'customer')`), or null. */
function decoratorArguments(text: string): string[] | null {
  const name = /^@?([\w\\]+)\s*\(/.exec(text);
  return name?.[1] ? callArguments(text.replace(/^@/, ''), name[1]) : null;
}

/** What object a witness checks: its subject argument (statement), the named subject of an attribute, or a `can:` middleware's model. */
export function bindingOf(program: Program, w: Witness): Binding {
  const text = w.evidence.replace(/^@/, '');
  const can = /\bcan:([\w.-]+),\s*([\w,\s]+)/.exec(w.evidence);
  if (can?.[1] && can[2]) return { attribute: can[1], names: can[2].split(',').map((s) => s.trim()).filter(Boolean), text };
  if (w.scope === 'decorator' || w.scope === 'class') {
    const args = decoratorArguments(w.evidence.replace(/ on class .*$/, '')) ?? [];
    const subject = args.find((a) => /^subject\s*:/.test(a))?.replace(/^subject\s*:\s*/, '') ?? args.filter((a) => !/^\w+\s*:/.test(a))[1];
    const attribute = QUOTED.exec(args[0] ?? '')?.[1] ?? null;
    const name = subject === undefined ? null : (QUOTED.exec(subject.trim())?.[1] ?? null);
    return { attribute, names: name && /^\w+$/.test(name) ? [name] : [], text };
  }
  if (w.scope !== 'statement' || w.line === null) return { attribute: null, names: [], text };
  // A comparison, not a call, that names the record it checks (php-refusals.ts: `$token->user_id !== Auth::id()`).
  if (typeof w.resource === 'string' && w.callee === undefined) return { attribute: null, names: [w.resource], text };
  const ref = program.functions.get(w.functionId);
  const file = ref ? program.byPath.get(ref.path) : undefined;
  if (!file) return { attribute: null, names: [], text };
  // The calls of the check's line, from the file's index by line (not a scan of every call of the file per witness).
  const lineCalls = callsByLine(file).get(w.line) ?? [];
  const helper = /^([\w$]+)\(\) /.exec(w.evidence)?.[1];
  const named = helper === undefined ? undefined : lineCalls.find((c) => c.callee === helper);
  // A Prisma lookup or a thrower helper given an object binds the values it names (prisma-binding.ts).
  const objectCall = file.factsLanguage === 'typescript' ? (w.dischargerId.startsWith('helper:') ? named : lineCalls.find((c) => c.callee === w.callee && isRecordLookup(c))) : undefined;
  const objectNames = objectCall && ref ? prismaCheckNames(file, ref.fn, objectCall) : null;
  if (objectCall && objectNames !== null && objectNames.length > 0) return { attribute: null, names: objectNames, text: (objectCall.text.split('\n')[0] ?? '').trim() };
  // In TypeScript the check is its own call (`requireRole('admin')`), not the route registration it sits in.
  const own = file.factsLanguage === 'typescript' && named === undefined ? lineCalls.find((c) => c.callee === w.callee) : undefined;
  if (own) {
    // Only a quoted attribute says what it checks (`ability.can('update', article)`); arguments of a refusal (`new Response(null, ...)`) are no subject.
    const b = callBinding(own);
    // A predicate named for its ability (`canUpdateReport(auth, report)`): the name says what, the arguments on what.
    const ability = /^(?:can|cannot)([A-Z]\w*)$/.exec(own.callee.split('.').pop() ?? '')?.[1];
    if (b.attribute === null && ability !== undefined) return { ...b, attribute: ability };
    return b.attribute !== null ? b : { attribute: null, names: [], text: b.text };
  }
  if (named) return callBinding(named);
  // The check on that line with an attribute and a subject (`can('delete', $report)` inside `abort_if(...)`), else the first with an attribute.
  const onLine = lineCalls.map(callBinding);
  return onLine.find((b) => b.attribute !== null && b.names.length > 0) ?? onLine.find((b) => b.attribute !== null) ?? { attribute: null, names: [], text };
}

/**
 * Every object a witness checks: its binding, and for a statement witness whose line joins several
 * checks (`can('update', $book) && can('update', $model)`), each of them: all must pass.
 */
function bindingsOf(program: Program, w: Witness): Binding[] {
  const first = bindingOf(program, w);
  if (w.scope !== 'statement' || w.line === null || /^[\w$]+\(\) /.test(w.evidence)) return [first];
  const ref = program.functions.get(w.functionId);
  const file = ref ? program.byPath.get(ref.path) : undefined;
  const line = file?.lines[w.line - 1] ?? '';
  if (!file || /\|\||\bor\b/.test(line)) return [first];
  const others = (callsByLine(file).get(w.line) ?? []).map(callBinding).filter((b) => b.attribute !== null && b.names.length > 0 && b.text !== first.text);
  return [first, ...others];
}

/** What a check call binds: a quoted first argument is the attribute, the arguments after it the subject. */
function callBinding(call: CallIR): Binding {
  const text = (call.text.split('\n')[0] ?? '').trim();
  const args = callArguments(call.text, call.callee) ?? [];
  const attribute = QUOTED.exec(args[0] ?? '')?.[1] ?? null;
  // The first argument is the attribute when quoted; the subject follows. A receiver (`item.checkPermission(X)`) is the subject otherwise.
  const subjects = attribute !== null ? args.slice(1) : args;
  const names = subjects.map(rootVariable).filter((n): n is string => n !== null);
  if (names.length === 0 && call.receiver !== null && attribute === null) {
    const receiver = rootVariable(call.receiver);
    if (receiver !== null) names.push(receiver);
  }
  return { attribute, names, text };
}

/**
 * A check one call deeper: a call on the path, whose boolean the code leaves on (`if
 * (!$this->isSortChangePermissible($item, $model, $newBook)) return;`), to a repository function with a
 * check of a required kind (not only viewing) whose subject is the parameter the object was passed in.
 */
function checkedOneCallDeeper(program: Program, facts: LanguageFacts, path: PathRecord, op: OperationSite, risk: AtRisk, byFunction: ReadonlyMap<string, readonly Witness[]>, required: readonly string[]): boolean {
  return path.hops.some((hop, i) => {
    const ref = program.functions.get(hop.functionId);
    const file = ref ? program.byPath.get(ref.path) : undefined;
    const alias = risk.aliases.get(hop.functionId);
    if (!ref || !file || alias === undefined) return false;
    const bound = i === path.hops.length - 1 ? op.line : (hop.callLine ?? 0);
    const leaves = (from: number, to: number): boolean => file.lines.slice(from - 1, to).some((l) => EXIT.test(l));
    return file.ir.calls.some((call) => {
      if (call.line <= ref.fn.bodyStartLine || call.line >= bound) return false;
      const args = callArguments(call.text, call.callee) ?? [];
      // The object itself must be passed: a check on another argument that shares its request payload (a sort map) binds another object.
      const passed = args.flatMap((a, position) => (rootVariable(a) === alias ? [position] : []));
      if (passed.length === 0 || booleanUse(file, ref.fn, call.line, call.callee, leaves).kind !== 'leaves') return false;
      return resolveCall(program, file, ref.fn, call).targets.some((target) => {
        const parameters = new Set(passed.map((position) => target.fn.parameters[position]?.name.replace(/^\$/, '')).filter((n): n is string => n !== undefined));
        const targetFile = program.byPath.get(target.path);
        return (byFunction.get(target.id) ?? []).some((w) => {
          if (!required.includes(w.kind) || w.kind === 'authn' || w.scope !== 'statement' || w.line === null || !targetFile) return false;
          return bindingsOf(program, w).some((b) => {
            if (b.attribute !== null && facts.readAttributes.some((re) => re.test(b.attribute ?? ''))) return false;
            return [...localDerivation(targetFile, target.fn, b.names, w.line ?? 0)].some((n) => parameters.has(n));
          });
        });
      });
    });
  });
}

/** The names a witness's subject was derived from in its own function (the subject's names included). */
export function localSubjects(program: Program, w: Witness, b: Binding): Set<string> {
  const ref = program.functions.get(w.functionId);
  const file = ref ? program.byPath.get(ref.path) : undefined;
  return ref && file ? localDerivation(file, ref.fn, b.names, w.line ?? ref.fn.endLine) : new Set(b.names);
}

function describe(b: Binding): string {
  return `\`${b.text}\``;
}

/**
 * For an operation row marked `resource_bound`: null when the object is not the request's choice, or
 * when a dominating check of a required kind binds it with an attribute stronger than viewing; else
 * which object is unchecked and what the checks before it bind.
 */
export interface BindingInput {
  program: Program;
  facts: LanguageFacts;
  entry: EntryPoint;
  path: PathRecord;
  op: OperationSite;
  /** The witnesses that dominate the operation on this path. */
  dominating: readonly Witness[];
  required: readonly string[];
  /** Every function's witnesses (for checks one call deeper). */
  byFunction: ReadonlyMap<string, readonly Witness[]>;
}

export function unboundResource(input: BindingInput): UnboundResource | null {
  // Every object the operation acts on needs its own check: the first one left unchecked is reported.
  for (const selector of objectSelectors(input.facts, input.op)) {
    const unbound = unboundObject(input, selector);
    if (unbound !== null) return unbound;
  }
  return null;
}

function unboundObject(input: BindingInput, selector: number | 'receiver' | null): UnboundResource | null {
  const { program, facts, entry, path, op, dominating, required, byFunction } = input;
  const risk = atRisk(program, facts, path, op, selector);
  if (risk === null) return null;
  scopedRouteBindings(program, entry, risk);
  // A witness binds the object when its subject and the object share a variable they came from, in the witness's own function.
  const bindsObject = (w: Witness, b: Binding): boolean => {
    const names = risk.chain.get(w.functionId);
    return names !== undefined && [...localSubjects(program, w, b)].some((n) => names.has(n));
  };
  const relevant = dominating.filter((w) => required.includes(w.kind) && w.kind !== 'authn');
  const other: string[] = [];
  const viewing: string[] = [];
  const login: string[] = [];
  const general: string[] = [];
  const readOnlyAttribute = (b: Binding): boolean => b.attribute !== null && facts.readAttributes.some((re) => re.test(b.attribute ?? ''));
  for (const w of relevant) {
    const all = bindingsOf(program, w);
    if (all.length > 1 && all.some((b) => b.names.length > 0 && !readOnlyAttribute(b) && bindsObject(w, b))) return null;
    const b = all[0]!;
    const readOnly = readOnlyAttribute(b);
    if (b.names.length === 0) {
      if (b.attribute !== null && facts.loginRoles.some((re) => re.test(b.attribute ?? ''))) login.push(describe(b));
      else if (b.attribute !== null && facts.globalRoles.some((re) => re.test(b.attribute ?? ''))) return null; // a role: authority over every object
      else general.push(describe(b));
    } else if (!bindsObject(w, b)) other.push(describe(b));
    else if (readOnly) viewing.push(describe(b));
    else return null;
  }
  // A permission that names no object is authority over every object, unless the path's own checks
  // reason per object (`#[IsGranted('API')]` on the class, `IsGranted('edit', 'team')` on the action):
  // then the object they leave out is unchecked.
  if (other.length + viewing.length === 0 && general.length > 0) return null;
  if (other.length + viewing.length + login.length === 0) return null;
  if (checkedOneCallDeeper(program, facts, path, op, risk, byFunction, required)) return null;
  const parts = [
    ...(viewing.length > 0 ? [`${viewing.join(', ')} only allow${viewing.length === 1 ? 's' : ''} viewing it`] : []),
    ...(other.length > 0 ? [`${other.join(', ')} bind${other.length === 1 ? 's' : ''} another object`] : []),
    ...(login.length > 0 ? [`${login.join(', ')} bind${login.length === 1 ? 's' : ''} no object (a login-level role)`] : []),
    ...(general.length > 0 ? [`${general.join(', ')} name${general.length === 1 ? 's' : ''} no object`] : []),
  ];
  return { variable: risk.expression, sentence: `\`${risk.expression}\` is what ${op.call.replace(/\s+/g, ' ').slice(0, 80)} acts on, chosen by ${risk.origin}; of the checks before it, ${parts.join('; ')}.` };
}
