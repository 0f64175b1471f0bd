/**
 * Witnesses: evidence that a check runs before an operation. Statement witnesses are discharger calls
 * inside functions (a boolean check counts only when a branch on it leaves the function); decorator and
 * class witnesses come from annotations/attributes/decorators and from hooks that run before every
 * handler of a class (`getTarget()`, `prepare()`, `boot()`); router witnesses come from Laravel route
 * files and controller constructors and from Symfony's `security.yaml` `access_control`; baseline
 * witnesses are what the framework itself enforces (Jenkins' Overall/Read). Which names count is data
 * (the discharger rows); how they are found is here.
 */
import type { CallIR, FunctionIR } from '../syntax/ir-types.js';
import type { DischargerFact, Facts, LanguageFacts } from './facts.js';
import type { CallerIndex } from './paths.js';
import { importOf, routeImports } from './symfony-routes.js';
import { callSignature, lookupClass, nodeAt, resolveCall, superChain, type ClassRecord, type Program } from './resolution.js';
import { formRequestChecks } from './laravel-form-request.js';
import { accessListNames, appliedMiddleware, fileMiddleware, judgeMiddleware, middlewareTokens, readMiddlewareRegistry, routeNameIn, type ChecksBefore, type JudgeContext } from './laravel-middleware.js';
import { callArguments, currentUserTakenOrLeft } from './ownership.js';
import { isRouteFile, quotedNames, routeController, routeGroups, routeSites, routeTargets } from './recognisers/laravel.js';
import { routeClosures } from './laravel-route-closures.js';
import { methodsOf, statementAt } from './recognisers/shared.js';
import { assertionDecides, booleanUse, comparisonUse, conditionalAt, conditionalReach, failedTestUse, CONDITION_KEYWORDS, guardClauseHead, nullTestOf, REQUEST_DATA, type BooleanUse } from './branches.js';
import { callsGuard, GUARD_KINDS, type GuardDeclaration } from './declarations.js';
import { parseWebXml, servletConstraint } from './web-xml.js';
import { complementedInFunction } from './case-split-checks.js';
import { ifElseKinds } from './split-helpers.js';
import { alternativeShape, callbackCheckKind, strongest, weaker } from './alternative-checks.js';
import { anonymousCallerTest, GUEST_OPEN_NOTE, loginPredicates } from './guest-users.js';
import { jsMiddlewareWitnesses } from './js-middleware.js';
import { capabilityLookups, pythonWebWitnesses, refusalWitnesses } from './python-web-checks.js';
import { nestGuardWitnesses } from './nest-guards.js';
import { djangoViewMiddlewareWitnesses } from './django-view-middleware.js';
import { djangoDispatchWitnesses } from './django-dispatch-checks.js';
import { fakeCheckReason, pythonDecoratorChecksNothing } from './fake-checks.js';
import { methodSecurityReader, springChainWitnesses } from './spring-security.js';
import type { DischargeKind, EntryPoint, FunctionRef, ProgramFile, Witness } from './types.js';
import { statementRange } from './function-body.js';
import { refusesUnlessAllowed } from './final-refusals.js';
import { armRefusal, RETURNED_REFUSAL, returnedRefusalKind } from './ts-returned-refusals.js';
import { phpOwnerRefusals, phpRefusingHelpers } from './php-refusals.js';

/** Witnesses per function, and what they say about entries. */
export interface WitnessSet {
  /** Function id → witnesses that apply to it. */
  byFunction: Map<string, Witness[]>;
  /** Entries declared public by configuration or annotation (`PUBLIC_ACCESS`, `@PermitAll`). */
  publicEntries: Set<string>;
  /** Checks seen that do not end the request (a boolean nobody branches on): function id → descriptions. */
  inert: Map<string, string[]>;
  /** Entries whose purpose is authenticating a user (login, OAuth/SSO callback, registration...): entry function id → the flow. */
  authFlows: Map<string, AuthFlow>;
  /** Indexes of the `[prover] guards` declarations some call reached (the others are stale). */
  guardsCalled: Set<number>;
}

/** An entry recognised as an authentication flow, and which operation kinds it performs on the account being authenticated. */
interface AuthFlow {
  /** The `[[auth_flow]]` row. */
  id: string;
  actsOn: ReadonlySet<string>;
  /** Why: the name or route that matched. */
  evidence: string;
}

/** Input of `witnesses`. */
export interface WitnessInput {
  program: Program;
  facts: Facts;
  entries: readonly EntryPoint[];
  index: CallerIndex;
  /** Configuration files that are not source (Symfony's security.yaml), by path. */
  configTexts: ReadonlyMap<string, string>;
  /** The project's own check helpers, from the base configuration's `[prover] guards`. */
  guards?: readonly GuardDeclaration[];
  /** Functions the change under proof touched: a declared guard defined (or redefined) there is not trusted. */
  changed?: ReadonlySet<string>;
  /** Files the change under proof touched: a security configuration it wrote is not trusted to discharge its own code. */
  changedPaths?: ReadonlySet<string>;
}

const EXIT = /\b(throw|return|raise|abort\w*|exit|die|redirect|send_error|finish)\b/;
const BRANCH = /\b(if|unless|elif|elseif)\b|\?|&&|\|\||(^|[^=!<>])=($|[^=])/;
const CONDITION_LINE = new RegExp(String.raw`\b(${CONDITION_KEYWORDS})\b`);

/**
 * A statement witness's reach: `until`, the end of the branch its value guards, and `blockEnd`, the end
 * of the block the check itself sits in when that block may not run (branches.ts conditionalReach).
 */
function reach(until: number | undefined, file: ProgramFile, fn: FunctionIR, line: number, name: string): { until?: number; blockEnd?: number } {
  const blockEnd = conditionalReach(file, fn, line, name);
  return { ...(until === undefined ? {} : { until }), ...(blockEnd === undefined ? {} : { blockEnd }) };
}

function add(set: WitnessSet, witness: Witness): void {
  const list = set.byFunction.get(witness.functionId);
  if (list) list.push(witness);
  else set.byFunction.set(witness.functionId, [witness]);
}

/** `PreAuthorize("hasRole('ADMIN')")` → `PreAuthorize`. */
function annotationName(text: string): string {
  return /^[\w.]+/.exec(text)?.[0] ?? text;
}

/** The nearest condition line at or above `line` (three lines up at most), or null. */
function conditionAbove(file: ProgramFile, line: number): string | null {
  // A test written one clause a line (`if (\n  requiredRoles &&\n  !requiredRoles.includes(role)\n) {`) is reached further up.
  for (let l = line; l >= Math.max(1, line - 8); l--) {
    const text = file.lines[l - 1] ?? '';
    if (!CONDITION_LINE.test(text) || (l < line - 3 && !unclosed(text))) continue;
    // `if (\n  user.email !== invitation.inviteeEmail\n) {`: a test written over several lines is read whole.
    return unclosed(text) && l < line ? file.lines.slice(l - 1, line - 1).join(' ') : text;
  }
  return null;
}

/** True when the line opens more parentheses than it closes. */
function unclosed(text: string): boolean {
  return (text.match(/\(/g)?.length ?? 0) > (text.match(/\)/g)?.length ?? 0);
}

/** The discharger row a call matches, honouring each row's line and condition filters (first row wins). */
function matchDischarger(facts: LanguageFacts, file: ProgramFile, call: CallIR): DischargerFact | null {
  const signature = callSignature(call);
  const lineText = file.lines[call.line - 1] ?? '';
  for (const row of facts.dischargers) {
    if (!row.calls.some((re) => re.test(signature))) continue;
    // A constraint inside the operation's own call may sit on a later line of the call; so may a status (`throw json(x, {\n status: 403 })`).
    const whole = row.effect === 'constrains' ? call.text : `${lineText}\n${call.text}`;
    if (row.line && !row.line.test(lineText) && !row.line.test(whole)) continue;
    if (row.condition) {
      const condition = conditionAbove(file, call.line);
      if (condition === null || !row.condition.test(condition)) continue;
    }
    return row;
  }
  return null;
}

/**
 * `if (teamMember.role !== OWNER) throwErr(NOT_REQUIRED_ROLE)`: a call to a TypeScript project helper that
 * always throws is the `throw` it makes, judged by the throw rows as `throw new Error(...)` at that line
 * (the test above it decides the kind). Only calls under a test are asked: an unconditional one refuses everyone.
 */
function throwingHelperRow(program: Program, facts: LanguageFacts, file: ProgramFile, call: CallIR): DischargerFact | null {
  if (file.factsLanguage !== 'typescript' || call.kind === 'new') return null;
  const condition = conditionAbove(file, call.line);
  if (condition === null) return null;
  const lineText = `throw new Error(${call.text})`;
  const row = throwRows(facts).find((d) => (!d.line || d.line.test(lineText)) && (!d.condition || d.condition.test(condition)));
  if (!row) return null;
  const caller = nodeAt(program, file.ir, call.line);
  return resolveCall(program, file, caller?.fn ?? null, call).targets.some((t) => alwaysThrows(program, t)) ? row : null;
}

/** The rows a `throw new Error(...)` can match, found once per facts: every call under a test asks. */
const throwRowsOf = new WeakMap<LanguageFacts, DischargerFact[]>();

function throwRows(facts: LanguageFacts): DischargerFact[] {
  let rows = throwRowsOf.get(facts);
  if (!rows) throwRowsOf.set(facts, (rows = facts.dischargers.filter((d) => d.effect === 'throws' && d.calls.some((re) => re.test('new Error')))));
  return rows;
}

/** Leading whitespace width of a line. */
function indentOf(text: string): number {
  return /^\s*/.exec(text)?.[0].length ?? 0;
}

/** Body lines of a function between its opening and closing lines, with their line numbers. */
function bodyLines(file: ProgramFile, fn: FunctionIR): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  const { first, last } = statementRange(file, fn);
  for (let line = first; line <= last; line++) {
    const text = file.lines[line - 1] ?? '';
    if (/^\s*[{}]?\s*$/.test(text)) continue;
    out.push({ line, text });
  }
  return out;
}

/** A project function that never returns normally: no `return`, and its last statement throws or aborts. */
function alwaysThrows(program: Program, ref: FunctionRef): boolean {
  const file = program.byPath.get(ref.path);
  if (!file) return false;
  const body = bodyLines(file, ref.fn);
  const last = body[body.length - 1];
  if (!last || body.some((l) => /\breturn\b/.test(l.text))) return false;
  return /^\s*(throw\b|raise\b|abort\w*\s*\(|die\b|exit\b)/.test(last.text) && indentOf(last.text) === Math.min(...body.map((l) => indentOf(l.text)));
}

/**
 * True when `line` of `fn` runs on every path that reaches the end of its body: it sits at the body's
 * outermost level and no `return` comes before it. A check nested under `if`/`switch`/`try` does not.
 */
function onEveryPath(file: ProgramFile, fn: FunctionIR, line: number): boolean {
  const body = bodyLines(file, fn);
  const own = body.find((l) => l.line === line);
  if (!own) return false;
  const outermost = Math.min(...body.map((l) => indentOf(l.text)));
  if (indentOf(own.text) !== outermost) return false;
  return !body.some((l) => l.line < line && /\breturn\b/.test(l.text));
}

/**
 * Check kinds a `switch` at the outermost level of `fn` makes on every path: each case either carries a
 * witness of the kind or throws, and a `default` exists (else an unmatched value falls through unchecked).
 */
function switchKinds(file: ProgramFile, fn: FunctionIR, list: readonly Witness[]): Set<DischargeKind> {
  const kinds = new Set<DischargeKind>();
  const body = bodyLines(file, fn);
  if (body.length === 0) return kinds;
  const outermost = Math.min(...body.map((l) => indentOf(l.text)));
  for (let i = 0; i < body.length; i++) {
    const head = body[i];
    if (!head || indentOf(head.text) !== outermost || !/^\s*switch\b/.test(head.text)) continue;
    if (body.slice(0, i).some((l) => /\breturn\b/.test(l.text))) break;
    const inside: { line: number; text: string }[] = [];
    for (let j = i + 1; j < body.length && indentOf(body[j]?.text ?? '') > outermost; j++) inside.push(body[j] ?? { line: 0, text: '' });
    const labels = inside.filter((l) => /^\s*(case\b|default\b)/.test(l.text));
    if (!labels.some((l) => /^\s*default\b/.test(l.text))) continue;
    let common: Set<DischargeKind> | null = null;
    labels.forEach((label, k) => {
      const end = labels[k + 1]?.line ?? Number.MAX_SAFE_INTEGER;
      const segment = inside.filter((l) => l.line >= label.line && l.line < end);
      const here = new Set(list.filter((w) => w.line !== null && w.line >= label.line && w.line < end).map((w) => w.kind));
      // A case that throws covers every kind; one that neither checks nor throws covers none.
      const allowed = here.size === 0 && segment.some((l) => /^\s*throw\b/.test(l.text)) ? new Set(list.map((w) => w.kind)) : here;
      common = common === null ? allowed : new Set([...common].filter((kind) => allowed.has(kind)));
    });
    for (const kind of common ?? []) kinds.add(kind);
  }
  return kinds;
}

/** Whether lines `from..to` of `fn` leave it: an exit word, or a call to a project helper that always throws. */
function leavesBetween(program: Program, file: ProgramFile, fn: FunctionIR): (from: number, to: number) => boolean {
  const byLine = callsByLine(file);
  return (from, to) => {
    for (let line = from; line <= to; line++) {
      if (EXIT.test(file.lines[line - 1] ?? '')) return true;
      for (const inner of byLine.get(line) ?? []) {
        if (resolveCall(program, file, fn, inner).targets.some((t) => alwaysThrows(program, t))) return true;
      }
    }
    return false;
  };
}

/** For the control-flow graph: whether a line of the function calls a project helper that always throws. */
export function throwsAtLine(program: Program, functionId: string): (line: number) => boolean {
  const ref = program.functions.get(functionId);
  const file = ref ? program.byPath.get(ref.path) : undefined;
  if (!ref || !file) return () => false;
  const byLine = callsByLine(file);
  return (line) => (byLine.get(line) ?? []).some((inner) => resolveCall(program, file, ref.fn, inner).targets.some((t) => alwaysThrows(program, t)));
}

const CALLS_BY_LINE = new WeakMap<ProgramFile, Map<number, CallIR[]>>();

/** A file's calls by line, built once per file. */
export function callsByLine(file: ProgramFile): Map<number, CallIR[]> {
  let map = CALLS_BY_LINE.get(file);
  if (map) return map;
  map = new Map();
  for (const call of file.ir.calls) {
    const list = map.get(call.line);
    if (list) list.push(call);
    else map.set(call.line, [call]);
  }
  CALLS_BY_LINE.set(file, map);
  return map;
}

/**
 * How the code uses a boolean check: read from the `if` or assignment around it (branches.ts); shapes
 * that reading does not know fall back to the older rule (a branch that leaves within a few lines).
 */
function actedOn(program: Program, file: ProgramFile, call: CallIR, fn: FunctionIR): BooleanUse {
  const use = booleanUse(file, fn, call.line, call.callee, leavesBetween(program, file, fn));
  if (use.kind !== 'other') return use;
  return booleanActedOn(program, file, call, fn) ? { kind: 'leaves' } : { kind: 'other' };
}

/** A boolean check protects only when the code branches on it and that branch leaves the function. */
function booleanActedOn(program: Program, file: ProgramFile, call: CallIR, fn: FunctionIR): boolean {
  const own = file.lines[call.line - 1] ?? '';
  if (/^\s*return\b/.test(own)) return false; // the value is handed to the caller, not acted on here
  const statement = statementAt(file, call.line, 4);
  if (!BRANCH.test(statement)) return false;
  for (let line = call.line; line <= Math.min(fn.endLine, call.line + 6); line++) {
    const text = line === call.line ? own.slice(own.indexOf(call.callee) + call.callee.length) : (file.lines[line - 1] ?? '');
    if (EXIT.test(text)) return true;
    // Leaving through a project helper that always throws (`$this->denyAccess()`).
    for (const inner of file.ir.calls) {
      if (inner.line !== line || inner === call) continue;
      if (resolveCall(program, file, fn, inner).targets.some((t) => alwaysThrows(program, t))) return true;
    }
  }
  return false;
}

/**
 * For a check whose result is an object with a deciding flag (`verification.verified`): the first test
 * of the variable it was assigned to must read that flag (`if (!verification)` tests nothing).
 */
function testsResult(file: ProgramFile, fn: FunctionIR, call: CallIR, tested: RegExp): boolean {
  const assigned = /^\s*(?:(?:const|let|var|final)\s+)?\$?([A-Za-z_]\w*)\s*=(?![=>])/.exec(file.lines[call.line - 1] ?? '');
  if (!assigned?.[1]) return tested.test(statementAt(file, call.line, 4));
  const variable = new RegExp(String.raw`(?<![\w$])\$?${assigned[1]}\b`);
  for (let line = call.line + 1; line <= fn.endLine; line++) {
    const text = file.lines[line - 1] ?? '';
    if (variable.test(text) && CONDITION_LINE.test(text)) return tested.test(text);
  }
  return false;
}

/** Collect every witness of the program. */
export function witnesses(input: WitnessInput): WitnessSet {
  const { program, facts } = input;
  const set: WitnessSet = { byFunction: new Map(), publicEntries: new Set(), inert: new Map(), authFlows: new Map(), guardsCalled: new Set() };
  // Functions that hand a check's boolean to their caller (`return $user->can(...)`): id → kinds.
  const predicates = new Map<string, Set<DischargeKind>>();

  // Statement witnesses: discharger calls and declared guards in function bodies.
  for (const file of program.files) {
    const languageFacts = facts[file.factsLanguage];
    for (const call of file.ir.calls) {
      const row = matchDischarger(languageFacts, file, call) ?? throwingHelperRow(program, languageFacts, file, call);
      const guards = declaredGuardsOf(input, file, call);
      if (!row && guards.length === 0) continue;
      const node = nodeAt(program, file.ir, call.line);
      if (!node) continue;
      const evidence = (call.text.split('\n')[0] ?? '').trim();
      for (const [index, guard] of guards) {
        set.guardsCalled.add(index);
        // A declared guard is trusted to end the request when it fails, unless the code tests its value.
        const use = booleanUse(file, node.fn, call.line, call.callee, leavesBetween(program, file, node.fn));
        const kind = GUARD_KINDS[guard.checks];
        if (use.kind === 'returned') addPredicate(predicates, node, kind, file, call.line);
        else if (use.kind === 'fell_through') noteInert(set, node.id, `${evidence} at line ${call.line} (a declared guard whose failure falls through)`);
        else if (use.kind === 'leaves' && caseLeftOpen(set, node.id, call.line, use, evidence)) continue;
        else add(set, { kind, scope: 'statement', functionId: node.id, line: call.line, dischargerId: `config:prover.guards.${index}`, evidence: `${evidence} (declared in [prover] guards)`, callee: call.callee, ...(use.kind === 'other' ? {} : { valueChecked: true }), ...reach(use.kind === 'branch' ? use.until : undefined, file, node.fn, call.line, call.callee), ...(guard.resource === undefined ? {} : { resource: guard.resource }) });
      }
      if (!row || row.kind === 'public' || guards.length > 0) continue;
      const fake = fakeCheckReason({ program, file, caller: node.fn, call, row, condition: conditionAbove(file, call.line) });
      if (fake !== null) {
        noteInert(set, node.id, `${evidence} at line ${call.line} (${fake})`);
        continue;
      }
      // `abort_unless($request->has('admin'), 403)` names a role and checks nothing: the assertion must refuse on the check's failure.
      if (row.effect === 'throws' && !assertionDecides(file.lines[call.line - 1] ?? '')) {
        noteInert(set, node.id, `${evidence} at line ${call.line} (an assertion that passes without the check)`);
        continue;
      }
      let until: number | undefined;
      let narrowed = '';
      if (row.effect === 'value_only') {
        const use = actedOn(program, file, call, node.fn);
        if (use.kind === 'leaves' && use.narrowedBy !== undefined) {
          const sameKind = (other: CallIR): boolean => matchDischarger(languageFacts, file, other)?.kind === row.kind;
          const complemented = complementedInFunction({ fn: node.fn, calls: file.ir.calls, call, narrowedBy: use.narrowedBy, isSameKindCheck: sameKind, useOf: (other) => actedOn(program, file, other, node.fn) });
          if (!complemented && caseLeftOpen(set, node.id, call.line, use, evidence)) continue;
          narrowed = use.narrowedBy;
        }
        if (use.kind === 'returned') addPredicate(predicates, node, row.kind, file, call.line);
        if (use.kind !== 'leaves' && use.kind !== 'branch') {
          noteInert(set, node.id, `${call.text.split('\n')[0] ?? ''} at line ${call.line} (a boolean nothing acts on)`);
          continue;
        }
        if (use.kind === 'branch') until = use.until;
        if (row.tested && !testsResult(file, node.fn, call, row.tested)) {
          noteInert(set, node.id, `${call.text.split('\n')[0] ?? ''} at line ${call.line} (its result is not tested for what decides)`);
          continue;
        }
      }
      add(set, {
        kind: row.kind,
        scope: 'statement',
        functionId: node.id,
        line: call.line,
        dischargerId: row.id,
        evidence: narrowed === '' ? evidence : `${evidence} (required where ${narrowed.replace(/\s+/g, ' ')} holds)`,
        ...(narrowed === '' ? {} : { narrowedBy: narrowed }),
        ...(row.effect === 'constrains' ? { sameLine: true } : {}),
        callee: call.callee,
        ...(row.effect === 'value_only' ? { valueChecked: true } : {}),
        ...reach(until, file, node.fn, call.line, call.callee),
      });
    }
  }

  for (const w of [...refusalWitnesses(program), ...capabilityLookups(program)]) add(set, w);
  // Functions that answer true only for a logged-in caller (guest-users.ts) are login predicates.
  for (const languageFacts of new Set(program.files.map((f) => facts[f.factsLanguage]))) {
    for (const ref of loginPredicates(program, languageFacts)) if (!predicates.has(ref.id)) predicates.set(ref.id, new Set<DischargeKind>(['authn']));
  }
  predicateWitnesses(input, set, predicates);

  // Condition witnesses: an `if` whose condition is itself the check (a credential comparison).
  for (const file of program.files) {
    const rows = facts[file.factsLanguage].dischargers.filter((d) => d.comparisons.length > 0);
    if (rows.length === 0) continue;
    file.lines.forEach((text, index) => {
      if (!CONDITION_LINE.test(text)) return;
      const row = rows.find((d) => d.comparisons.some((re) => re.test(text)));
      if (!row || row.kind === 'public') return;
      const node = nodeAt(program, file.ir, index + 1);
      if (!node) return;
      const use = comparisonUse(file, node.fn, index + 1, leavesBetween(program, file, node.fn));
      if (use.kind === 'fell_through') return noteInert(set, node.id, `${text.trim()} at line ${index + 1} (a comparison whose mismatch falls through)`);
      add(set, { kind: row.kind, scope: 'statement', functionId: node.id, line: index + 1, dischargerId: row.id, evidence: text.trim(), ...(use.kind === 'branch' ? { until: use.until } : {}) });
    });
  }

  // Refusals of an anonymous caller: `if (auth()->guest()) abort(401);`, `if (user()->isGuest()) refuse();` (guest-users.ts).
  for (const file of program.files) {
    const languageFacts = facts[file.factsLanguage];
    file.lines.forEach((text, index) => {
      const condition = /^\s*(?:}\s*)?(?:else\s*)?if\s*\((.*)\)\s*\{?\s*$/.exec(text)?.[1];
      if (condition === undefined || !anonymousCallerTest(program, languageFacts, condition)) return;
      const node = nodeAt(program, file.ir, index + 1);
      if (!node) return;
      const use = failedTestUse(file, node.fn, index + 1, leavesBetween(program, file, node.fn));
      if (use.kind !== 'leaves') return;
      add(set, { kind: 'authn', scope: 'statement', functionId: node.id, line: index + 1, dischargerId: 'prover.anonymous-caller-refused', evidence: text.trim() });
    });
  }

  // A refusal returned as a value (`if (tag?.ownerId !== userId) return { status: 401, ... }`), or a 401 call
  // under an owner comparison: the kind is the test's (ts-returned-refusals.ts).
  for (const file of program.files) {
    if (file.factsLanguage !== 'typescript' || !/\b(status\s*:\s*|status\(\s*|sendStatus\(\s*)40[134]\b/.test(file.text)) continue;
    file.lines.forEach((text, index) => {
      if (!/^\s*(?:}\s*)?(?:else\s+)?if\s*\(/.test(text)) return;
      const node = nodeAt(program, file.ir, index + 1);
      const at = node ? conditionalAt(file, node.fn, index + 1) : null;
      if (!node || !at) return;
      const arm = file.lines.slice(at.from - 1, at.to).join('\n');
      const refusal = armRefusal(arm, file.lines.slice(at.to, node.fn.endLine).join('\n'));
      const kind = refusal === null ? null : returnedRefusalKind(at.condition, refusal);
      // The test's terms are judged by returnedRefusalKind; here only that its arm leaves.
      if (kind === null || !leavesBetween(program, file, node.fn)(at.from, at.to)) return;
      add(set, { kind, scope: 'statement', functionId: node.id, line: index + 1, dischargerId: RETURNED_REFUSAL, evidence: `${text.trim()} (refused with ${refusal?.status ?? ''})` });
    });
  }

  // The logged-in user taken from a helper that returns them or nothing, and the code leaving on nothing (ownership.ts).
  for (const file of program.files) {
    for (const line of currentUserTakenOrLeft(program, facts[file.factsLanguage], file)) {
      const node = nodeAt(program, file.ir, line);
      if (node) add(set, { kind: 'authn', scope: 'statement', functionId: node.id, line, dischargerId: 'prover.current-user-helper-checked', evidence: (file.lines[line - 1] ?? '').trim() });
    }
  }

  // PHP refusals: an owner comparison with the caller is ownership where it stands; any other test a
  // helper refuses on with a 403 checks only at the helper's call sites (php-refusals.ts).
  for (const w of phpOwnerRefusals(program, facts.php)) add(set, w);
  // `laravel.abort-authn` takes any abort_if/abort_unless for a login check; a login test is left out by the reading itself.
  const readAlready = (functionId: string, from: number, to: number): boolean => (set.byFunction.get(functionId) ?? []).some((w) => w.line !== null && w.line >= from && w.line <= to && w.dischargerId !== 'laravel.abort-authn');
  const atCallSitesOnly = new Map<string, Witness[]>();
  for (const w of phpRefusingHelpers(program, facts.php, readAlready)) atCallSitesOnly.set(w.functionId, [...(atCallSitesOnly.get(w.functionId) ?? []), w]);

  // Helper summaries: a call to a function whose body checks on every path before it returns is a
  // check at the call line (a helper that checks only under a condition is not). Three rounds reach
  // helpers of helpers; the call graph's own edges bound it, so cycles add nothing new. A helper whose
  // own name a discharger row names (an override of `check_xsrf_cookie`) keeps that row's kind: its
  // call sites already carry it.
  const judged = new Set<string>();
  for (let round = 0; round < 4; round++) {
    const additions: Witness[] = [];
    for (const functionId of new Set([...set.byFunction.keys(), ...atCallSitesOnly.keys()])) {
      const list = [...(set.byFunction.get(functionId) ?? []), ...(atCallSitesOnly.get(functionId) ?? [])];
      const helper = program.functions.get(functionId);
      const helperFile = helper ? program.byPath.get(helper.path) : undefined;
      if (!helper || !helperFile) continue;
      // A check that guards one branch, or a response the helper returns (its caller goes on), is no check for the caller.
      const candidates = list.filter((w) => w.scope === 'statement' && w.kind !== 'csrf_guard' && w.dischargerId !== RETURNED_REFUSAL && !w.sameLine && w.line !== null && w.until === undefined && !/^\s*return\b/.test(helperFile.lines[w.line - 1] ?? ''));
      // A check in a block that may not run is on no path of its own; a switch's cases are judged together.
      const unconditional = candidates.filter((w) => w.blockEnd === undefined && (onEveryPath(helperFile, helper.fn, guardClauseHead(helperFile, helper.fn, w.line ?? 0)) || refusesUnlessAllowed(helperFile, helper.fn, w.line ?? 0)));
      const kinds = new Set([...unconditional.map((w) => w.kind), ...switchKinds(helperFile, helper.fn, candidates), ...ifElseKinds(helperFile, helper.fn, candidates)]);
      if (kinds.size === 0) {
        additions.push(...alternativeCallSites({ input, set, predicates, judged }, helper, helperFile, candidates));
        continue;
      }
      if (helper && namedByDischarger(facts[program.byPath.get(helper.path)?.factsLanguage ?? 'java'], helper.fn.name)) continue;
      for (const site of input.index.callers.get(functionId) ?? []) {
        for (const kind of kinds) {
          const exists = set.byFunction.get(site.callerId)?.some((w) => w.line === site.line && w.kind === kind);
          const caller = program.functions.get(site.callerId);
          const callerFile = caller ? program.byPath.get(caller.path) : undefined;
          const clipped = caller && callerFile ? reach(undefined, callerFile, caller.fn, site.line, helper.fn.name) : {};
          // Ownership the helper proves only for a logged-in caller stays so at its call sites.
          const guestOpen = unconditional.some((w) => w.kind === kind) && unconditional.every((w) => w.kind !== kind || w.guestOpen === true);
          if (!exists) additions.push({ kind, ...(guestOpen ? { guestOpen: true } : {}), scope: 'statement', functionId: site.callerId, line: site.line, dischargerId: `helper:${helper.fn.qualifiedName}`, evidence: `${helper.fn.name}() checks${guestOpen ? GUEST_OPEN_NOTE : ''}`, callee: helper.fn.name, ...clipped });
        }
      }
    }
    for (const w of additions) add(set, w);
  }

  // Decorator and class witnesses: annotations/attributes/decorators.
  const methodSecurityInert = methodSecurityReader(program);
  for (const file of program.files) {
    const languageFacts = facts[file.factsLanguage];
    const decoratorRows = languageFacts.dischargers.filter((d) => d.decorators.length > 0);
    if (decoratorRows.length === 0) continue;
    const rowFor = (text: string): DischargerFact | null => decoratorRows.find((d) => d.decorators.some((re) => re.test(text))) ?? null;
    for (const fn of file.ir.functions) {
      const ref = program.nodeOf.get(fn);
      if (!ref || ref.fn !== fn) continue;
      for (const text of fn.decorators) {
        const row = rowFor(text);
        if (!row) continue;
        const inert = methodSecurityInert(file, text);
        if (inert !== null) noteInert(set, ref.id, inert);
        else if (row.kind !== 'public' && pythonDecoratorChecksNothing(program, file, text)) noteInert(set, ref.id, `@${text} (defined in the repository as a wrapper that checks nothing)`);
        else if (row.kind === 'public') set.publicEntries.add(ref.id);
        else add(set, { kind: row.kind, scope: 'decorator', functionId: ref.id, line: null, dischargerId: row.id, evidence: `@${text}` });
      }
    }
    for (const cls of file.ir.classes) {
      for (const text of cls.decorators) {
        const row = rowFor(text);
        if (!row) continue;
        const inert = methodSecurityInert(file, text);
        for (const method of methodsOf(program, file, cls.name)) {
          if (inert !== null) {
            noteInert(set, method.id, inert);
            continue;
          }
          // A method-level @PermitAll overrides a class-level role annotation (JAX-RS); in Java so does the same
          // annotation on the method (Spring's @PreAuthorize). PHP attributes add up: Symfony checks a class
          // #[IsGranted] and a method one both.
          if (row.kind !== 'public' && method.fn.decorators.some((d) => rowFor(d)?.kind === 'public')) continue;
          if (file.language === 'java' && method.fn.decorators.some((d) => rowFor(d) !== null && annotationName(d) === annotationName(text))) continue;
          if (row.kind === 'public') set.publicEntries.add(method.id);
          else add(set, { kind: row.kind, scope: 'class', functionId: method.id, line: null, dischargerId: row.id, evidence: `@${text} on class ${cls.name}` });
        }
      }
    }
  }

  // Class hooks and framework baselines, per entry.
  for (const entry of input.entries) {
    const ref = program.functions.get(entry.functionId);
    const file = program.byPath.get(entry.path);
    if (!ref || !file) continue;
    const languageFacts = facts[file.factsLanguage];
    if (languageFacts.baselineAuthn.includes(entry.framework) && entry.access !== 'public') {
      add(set, { kind: 'authn', scope: 'baseline', functionId: entry.functionId, line: null, dischargerId: `${entry.framework}.baseline`, evidence: `${entry.framework} requires a logged-in user (baseline read permission) for this URL` });
    }
    const cls = ref.fn.className === null ? null : lookupClass(program.table, ref.fn.className, ref.path);
    if (!cls) continue;
    for (const record of superChain(program.table, cls)) {
      for (const hook of record.methods.filter((m) => languageFacts.hookMethods.includes(m.fn.name))) {
        if (hook.id === entry.functionId) continue;
        for (const w of set.byFunction.get(hook.id) ?? []) {
          if (w.scope !== 'statement' || w.kind === 'csrf_guard') continue;
          add(set, { kind: w.kind, scope: 'class', functionId: entry.functionId, line: null, dischargerId: w.dischargerId, evidence: `${record.name}.${hook.fn.name}() runs before every handler: ${w.evidence}` });
        }
      }
    }
  }

  const web = pythonWebWitnesses({ program, facts: facts.python, entries: input.entries, byFunction: set.byFunction });
  for (const w of web.witnesses) add(set, w);
  for (const [functionId, outside] of web.outsideRoute) {
    const list = set.byFunction.get(functionId) ?? [];
    set.byFunction.set(functionId, list.filter((w) => w.scope !== 'decorator' || !outside.has(w.evidence)));
  }
  for (const id of web.publicEntries) set.publicEntries.add(id);
  for (const w of djangoViewMiddlewareWitnesses(program, input.entries, set.byFunction)) add(set, w);
  for (const w of djangoDispatchWitnesses(program, input.entries, set.byFunction)) add(set, w);
  laravelRouterWitnesses(input, set);
  for (const w of jsMiddlewareWitnesses(program, facts.typescript, input.entries, set.byFunction)) add(set, w);
  const chains = springChainWitnesses(program, input.entries);
  for (const w of chains.witnesses) add(set, w);
  for (const id of chains.publicEntries) set.publicEntries.add(id);
  for (const w of nestGuardWitnesses(program, facts.typescript, input.entries, set.byFunction)) add(set, w);
  symfonyAccessControl(input, set);
  servletSecurity(input, set);
  recogniseAuthFlows(input, set);
  return set;
}

/**
 * `ctx != null && !ctx.can(x)` checks one case only: it counts when the other case was checked before
 * it. True (and the check noted as inert) when a denial is narrowed by a null test and nothing did.
 */
function caseLeftOpen(set: WitnessSet, functionId: string, line: number, use: BooleanUse, evidence: string): boolean {
  if (use.kind !== 'leaves' || use.narrowedBy === undefined || nullTestOf(use.narrowedBy) === null || checkedBefore(set, functionId, line)) return false;
  noteInert(set, functionId, `${evidence} at line ${line} (a denial only where ${use.narrowedBy} holds, and the other case is not checked)`);
  return true;
}

/** A check earlier in the function that runs on every path and is required everywhere (no branch, no narrowing). */
function checkedBefore(set: WitnessSet, functionId: string, line: number): boolean {
  return (set.byFunction.get(functionId) ?? []).some((w) => w.scope === 'statement' && w.kind !== 'csrf_guard' && w.line !== null && w.line < line && w.until === undefined && w.blockEnd === undefined && w.narrowedBy === undefined);
}

/** What the alternative-callback reading needs from the witness collection. */
interface AlternativeContext {
  input: WitnessInput;
  set: WitnessSet;
  predicates: ReadonlyMap<string, ReadonlySet<DischargeKind>>;
  /** Call sites already judged (`callerId:line`), so a later round neither repeats nor re-notes them. */
  judged: Set<string>;
}

/**
 * Call sites of a helper that checks only when its callback parameter fails (alternative-checks.ts):
 * each call whose callback returns a check is a check of the weaker of the two kinds; one whose
 * callback may answer true without a check is noted as inert.
 */
function alternativeCallSites(ctx: AlternativeContext, helper: FunctionRef, helperFile: ProgramFile, candidates: readonly Witness[]): Witness[] {
  const { program, facts } = ctx.input;
  const out: Witness[] = [];
  for (const w of candidates) {
    if (w.blockEnd === undefined || w.line === null) continue;
    const shape = alternativeShape(helperFile, helper.fn, w.line, (line) => onEveryPath(helperFile, helper.fn, line));
    if (!shape) continue;
    for (const site of ctx.input.index.callers.get(helper.id) ?? []) {
      const caller = program.functions.get(site.callerId);
      const file = caller ? program.byPath.get(caller.path) : undefined;
      const call = file ? callsByLine(file).get(site.line)?.find((c) => c.callee === helper.fn.name) : undefined;
      if (!caller || !file || !call || ctx.judged.has(`${site.callerId}:${site.line}`)) continue;
      ctx.judged.add(`${site.callerId}:${site.line}`);
      const languageFacts = facts[file.factsLanguage];
      const checkKindOf = (inner: CallIR): DischargeKind | null => {
        const row = matchDischarger(languageFacts, file, inner);
        if (row && row.kind !== 'public' && row.kind !== 'csrf_guard') return row.kind;
        return strongest(resolveCall(program, file, caller.fn, inner).targets.flatMap((t) => [...(ctx.predicates.get(t.id) ?? [])]));
      };
      const alternative = callbackCheckKind({ program, facts: languageFacts, file, call, helperName: helper.fn.name, parameter: shape.parameter, checkKindOf });
      const evidence = (call.text.split('\n')[0] ?? '').trim();
      if (alternative === null) {
        noteInert(ctx.set, site.callerId, `${evidence} at line ${site.line} (its callback may answer true without a check, and then ${helper.fn.name}() checks nothing)`);
        continue;
      }
      const kind = weaker(w.kind, alternative.kind);
      out.push({ kind, ...(kind === 'ownership_check' && alternative.guestOpen ? { guestOpen: true } : {}), scope: 'statement', functionId: site.callerId, line: site.line, dischargerId: `helper:${helper.fn.qualifiedName}`, evidence: `${helper.fn.name}() checks unless its callback's check holds${kind === 'ownership_check' && alternative.guestOpen ? GUEST_OPEN_NOTE : ''}`, callee: helper.fn.name, ...reach(undefined, file, caller.fn, site.line, helper.fn.name) });
    }
    break;
  }
  return out;
}

function noteInert(set: WitnessSet, functionId: string, text: string): void {
  const list = set.inert.get(functionId) ?? [];
  list.push(text);
  set.inert.set(functionId, list);
}

/** What a predicate may return on its other paths besides another call's answer: a denial (false, 0, null, nothing). */
const DENIES = /\breturn\s*(false|False|0|null|None|nil|undefined|''|""|\[\])?\s*;?\s*(\}\s*)*$/;
/** A returned expression that may choose another value than the check: a ternary, `?:`, a match, `x if c else y`. */
const CHOOSES = /\?(?![.\->])|\bmatch\s*\(|\bif\b[^:]*\belse\b/;

/**
 * Another path's `return` that hands on what a call answers (`return $permissions->checkAccess(...)`,
 * an overload's check), not a literal, a stored flag, request data or a value chosen by a condition.
 */
function returnsAnotherCall(text: string): boolean {
  const value = text.replace(/^.*?\breturn\b/, '');
  return /[\w$]\s*\(/.test(value) && !CHOOSES.test(value) && !REQUEST_DATA.test(value) && !/\|\||\bor\b|\?\?/.test(value);
}

/**
 * Record `functionId` as a predicate of `kind` when its value is the check returned on `checkLine`:
 * every other return denies or hands on another call's answer, and that return neither chooses another
 * value nor checks what the request names. A `return true`, a stored flag or a request value returned
 * elsewhere is a path that allows without the check. Returns whether it was recorded.
 */
function addPredicate(predicates: Map<string, Set<DischargeKind>>, ref: FunctionRef, kind: DischargeKind, file: ProgramFile, checkLine: number): boolean {
  const own = (file.lines[checkLine - 1] ?? '').replace(/^.*?\breturn\b/, '');
  if (CHOOSES.test(own) || REQUEST_DATA.test(own)) return false;
  if (bodyLines(file, ref.fn).some((l) => l.line !== checkLine && /\breturn\b/.test(l.text) && !DENIES.test(l.text) && !returnsAnotherCall(l.text))) return false;
  const kinds = predicates.get(ref.id) ?? new Set<DischargeKind>();
  kinds.add(kind);
  predicates.set(ref.id, kinds);
  return true;
}

/**
 * The `[prover] guards` declarations (with their index) that a call calls. The declaration names a
 * helper the base revision had; when the call resolves to a repository function the change wrote, or
 * to one that cannot refuse anything (no exit, no call), the name no longer stands for that helper.
 */
function declaredGuardsOf(input: WitnessInput, file: ProgramFile, call: CallIR): [number, GuardDeclaration][] {
  const callee = call.callee;
  // Most calls name no guard: a cheap test on the method name before any lookup.
  const guards = (input.guards ?? []).filter((g) => g.name === callee || g.name.endsWith(`.${callee}`) || g.name.endsWith(`::${callee}`));
  if (guards.length === 0) return [];
  const { program } = input;
  const caller = nodeAt(program, file.ir, call.line);
  const named = (input.guards ?? []).map((g, i): [number, GuardDeclaration] => [i, g]).filter(([, g]) => guards.includes(g) && callsGuard(program, file, caller, call, g.name));
  if (named.length === 0) return named;
  const targets = resolveCall(program, file, caller?.fn ?? null, call).targets;
  if (targets.some((t) => input.changed?.has(t.id) === true || !canRefuse(program, t))) return [];
  return named;
}

/** A repository function that could end a request: its body leaves somewhere or calls something. */
function canRefuse(program: Program, ref: FunctionRef): boolean {
  const file = program.byPath.get(ref.path);
  if (!file) return true;
  if (bodyLines(file, ref.fn).some((l) => EXIT.test(l.text))) return true;
  return file.ir.calls.some((c) => c.line > ref.fn.bodyStartLine && c.line < ref.fn.endLine);
}

/**
 * Predicate helpers: a call to a project function that returns a check's boolean is that check where
 * the caller acts on it (leaves when it is false, or guards a branch with it). A predicate returned
 * again makes its caller a predicate too; three rounds bound the depth, and a function already known
 * as a predicate of a kind is not revisited, so cycles end.
 */
function predicateWitnesses(input: WitnessInput, set: WitnessSet, predicates: Map<string, Set<DischargeKind>>): void {
  const { program } = input;
  let frontier = new Map(predicates);
  for (let round = 0; round < 3 && frontier.size > 0; round++) {
    const next = new Map<string, Set<DischargeKind>>();
    for (const [functionId, kinds] of frontier) {
      const predicate = program.functions.get(functionId);
      if (!predicate) continue;
      for (const site of input.index.callers.get(functionId) ?? []) {
        const caller = program.functions.get(site.callerId);
        const file = caller ? program.byPath.get(caller.path) : undefined;
        const call = file ? callsByLine(file).get(site.line)?.find((c) => c.callee === predicate.fn.name) : undefined;
        if (!caller || !file || !call) continue;
        const use = actedOn(program, file, call, caller.fn);
        for (const kind of kinds) {
          if (use.kind === 'returned') {
            if (predicates.get(caller.id)?.has(kind) || !addPredicate(predicates, caller, kind, file, site.line)) continue;
            addPredicate(next, caller, kind, file, site.line);
          } else if ((use.kind === 'leaves' && !caseLeftOpen(set, caller.id, site.line, use, `${predicate.fn.name}()`)) || use.kind === 'branch') {
            add(set, { kind, scope: 'statement', functionId: caller.id, line: site.line, dischargerId: `predicate:${predicate.fn.qualifiedName}`, evidence: `${predicate.fn.name}() returns a check`, callee: predicate.fn.name, valueChecked: true, ...reach(use.kind === 'branch' ? use.until : undefined, file, caller.fn, site.line, predicate.fn.name) });
          } else {
            noteInert(set, caller.id, `${(call.text.split('\n')[0] ?? '').trim()} at line ${site.line} (a boolean nothing acts on)`);
          }
        }
      }
    }
    frontier = next;
  }
}

/** True when some discharger row's call patterns name a function called `name` (bare or through this/self). */
function namedByDischarger(facts: LanguageFacts, name: string): boolean {
  const signatures = [name, `this.${name}`, `self.${name}`, `$this.${name}`];
  return facts.dischargers.some((d) => d.calls.some((re) => signatures.some((s) => re.test(s))));
}

/** Entries whose name or route marks an authentication flow (`[[auth_flow]]` rows). */
function recogniseAuthFlows(input: WitnessInput, set: WitnessSet): void {
  const { program } = input;
  for (const entry of input.entries) {
    const file = program.byPath.get(entry.path);
    const ref = program.functions.get(entry.functionId);
    if (!file || !ref) continue;
    for (const row of input.facts[file.factsLanguage].authFlows) {
      const byName = row.names.find((re) => re.test(entry.function));
      const byRoute = entry.route === undefined ? undefined : row.routes.find((re) => re.test(entry.route ?? ''));
      // A folder name is no proof of purpose for code the change itself writes there: only the
      // installer the base revision already had is exempt (a change cannot file its handler as one).
      const byPath = input.changed?.has(entry.functionId) === true ? undefined : row.paths.find((re) => re.test(entry.path));
      if (!byName && !byRoute && !byPath) continue;
      const actsOn = new Set(row.actsOn);
      // A role taken from the request is an escalation, not the flow's purpose.
      const body = file.lines.slice(ref.fn.startLine - 1, ref.fn.endLine).join('\n');
      if (row.escalation?.test(body)) actsOn.delete('role_admin');
      const why = byName ? `its name ${entry.function}` : byRoute ? `its route '${entry.route ?? ''}'` : `its file ${entry.path}`;
      set.authFlows.set(entry.functionId, { id: row.id, actsOn, evidence: `${why} marks an authentication flow (${row.id})` });
      break;
    }
  }
}

const RESOURCE_ABILITIES: Record<string, string> = { index: 'viewAny', show: 'view', create: 'create', store: 'create', edit: 'update', update: 'update', destroy: 'delete' };

/** The context laravel-middleware.ts judges middleware in: the statement checks already collected. */
function middlewareContext(input: WitnessInput, set: WitnessSet): JudgeContext {
  const { program } = input;
  const checksBefore: ChecksBefore = (fn, line) => {
    const file = program.byPath.get(fn.path);
    if (!file) return [];
    const list = set.byFunction.get(fn.id) ?? [];
    return list.filter((w) => w.scope === 'statement' && w.kind !== 'csrf_guard' && !w.sameLine && w.line !== null && w.blockEnd === undefined && w.line < line && onEveryPath(file, fn.fn, w.line));
  };
  return { program, facts: input.facts.php, registry: readMiddlewareRegistry(program), checksBefore };
}

/** Router witnesses for one controller method from the middleware references that cover it. */
function addMiddleware(set: WitnessSet, ctx: JudgeContext, targetId: string, refs: Iterable<string>, from: ProgramFile, where: string, routeName: string | null = null): void {
  for (const ref of refs) {
    for (const check of judgeMiddleware(ref, from, ctx)) {
      // An access list keyed by route name checks nothing on a route it does not list.
      if (check.routeAcl && !accessListNames(ctx.program, routeName)) continue;
      add(set, { kind: check.kind, scope: 'router', functionId: targetId, line: null, dischargerId: check.dischargerId, evidence: `${check.evidence} ${where}` });
    }
  }
}

/** Laravel: global, route-file, route-group, route-chained and controller-constructor middleware, and authorizeResource. */
function laravelRouterWitnesses(input: WitnessInput, set: WitnessSet): void {
  const { program } = input;
  const routeFiles = program.files.filter((f) => f.language === 'php' && isRouteFile(f.path));
  if (routeFiles.length === 0) return;
  const ctx = middlewareContext(input, set);
  for (const file of routeFiles) {
    // Group closures: the lambda a `group(function () {...})` call opens, with the group's middleware.
    const groups = routeGroups(file).map((group) => ({ start: group.start, end: group.end, refs: appliedMiddleware(group.head, file) }));
    const attached = fileMiddleware(ctx.registry, file.path);
    /** The middleware a route at `line` runs: the routes file's, global, its groups', and what its own chain names. */
    const routeMiddleware = (line: number, chain: string): Set<string> => {
      const refs = new Set<string>(attached.flatMap((a) => a.refs));
      for (const global of ctx.registry.global) for (const ref of global.refs) refs.add(ref);
      for (const group of groups) if (line >= group.start && line <= group.end) for (const n of group.refs) refs.add(n);
      for (const n of appliedMiddleware(chain, file)) refs.add(n);
      for (const match of chain.matchAll(/->can\(\s*['"]([^'"]+)['"](?:\s*,\s*['"]([^'"]+)['"])?/g)) refs.add(`can:${match[1] ?? ''}${match[2] ? `,${match[2]}` : ''}`);
      for (const match of chain.matchAll(/withoutMiddleware\(/g)) for (const n of middlewareTokens(callArguments(chain.slice(match.index), 'withoutMiddleware')?.join(',') ?? '', file)) refs.delete(n);
      return refs;
    };
    const loadedAt = attached.length > 0 ? ` (routes file loaded at ${attached.map((a) => a.evidence).join(', ')})` : '';
    // A closure route's chain is its head (`Route::middleware('auth')->get('/x', function`) and what follows its closing brace.
    for (const route of routeClosures(file)) {
      const node = program.nodeOf.get(route.fn);
      if (node) addMiddleware(set, ctx, node.id, routeMiddleware(route.line, `${route.head} ${route.tail}`), file, `on Route::${route.verb}('${route.uri}') at ${file.path}:${route.line}${loadedAt}`, routeNameIn(route.tail));
    }
    for (const site of routeSites(file)) {
      const refs = routeMiddleware(site.line, `${site.call.receiver ?? ''} ${site.statement.slice(site.statement.indexOf(site.call.callee))}`);
      const where = `on Route::${site.call.callee}('${site.uri}') at ${file.path}:${site.line}${loadedAt}`;
      for (const { method, ref } of routeTargets(program, site)) {
        for (const target of ref?.methods ?? []) {
          addMiddleware(set, ctx, target.id, refs, file, where, routeNameIn(site.statement));
          for (const check of formRequestChecks(program, input.facts.php, target)) add(set, { kind: check.kind, scope: 'decorator', functionId: target.id, line: null, dischargerId: 'laravel.form-request-authorize', evidence: check.evidence });
          controllerMiddleware(input, set, ctx, target.id, routeController(program, site), method);
        }
      }
    }
  }
}

/** `$this->middleware('x')->only([...])` and `authorizeResource` in a controller's constructor chain. */
function controllerMiddleware(input: WitnessInput, set: WitnessSet, ctx: JudgeContext, targetId: string, cls: ClassRecord | null, method: string): void {
  const { program } = input;
  if (!cls) return;
  for (const record of superChain(program.table, cls)) {
    const file = program.byPath.get(record.path);
    if (!file) continue;
    for (const hook of record.methods.filter((m) => m.fn.name === '__construct' || m.fn.name === 'middleware')) {
      for (const call of file.ir.calls) {
        if (call.line < hook.fn.startLine || call.line > hook.fn.endLine) continue;
        // A closure middleware's options follow its closing line: `})->except([...])`.
        const closure = call.callee === 'middleware' ? file.ir.functions.find((fn) => fn.isLambda && fn.startLine >= call.line && fn.startLine <= call.line + 1) : undefined;
        const statement = closure ? `${statementAt(file, call.line)}\n${statementAt(file, closure.endLine, 3)}` : statementAt(file, call.line);
        const only = /->only\(\s*(\[[^\]]*\]|['"][^'"]*['"])/.exec(statement) ?? /only\s*:\s*(\[[^\]]*\])/.exec(call.text);
        const except = /->except\(\s*(\[[^\]]*\]|['"][^'"]*['"])/.exec(statement) ?? /except\s*:\s*(\[[^\]]*\])/.exec(call.text);
        if (only?.[1] && !quotedNames(only[1]).includes(method)) continue;
        if (except?.[1] && quotedNames(except[1]).includes(method)) continue;
        if (call.callee === 'authorizeResource') {
          const ability = RESOURCE_ABILITIES[method];
          if (ability) add(set, { kind: 'path_guard', scope: 'router', functionId: targetId, line: null, dischargerId: 'laravel.authorize-resource', evidence: `authorizeResource in ${record.name}::__construct (can:${ability})` });
          continue;
        }
        const isMiddlewareCall = (call.callee === 'middleware' && (call.receiver === '$this' || call.receiver === null)) || (call.kind === 'new' && call.callee === 'Middleware');
        if (!isMiddlewareCall) continue;
        if (closure) closureMiddleware(input, set, { targetId, hookId: hook.id, closure, record: record.name });
        const first = (callArguments(call.text, call.callee) ?? [])[0] ?? '';
        addMiddleware(set, ctx, targetId, middlewareTokens(first, file), file, `in ${record.name} constructor`);
      }
    }
  }
}

/** Where a closure given to `$this->middleware(function ...)` in a constructor sits. */
interface ClosureMiddleware {
  targetId: string;
  hookId: string;
  closure: FunctionIR;
  record: string;
}

/** The checks a constructor's middleware closure makes on every path apply to the controller's actions. */
function closureMiddleware(input: WitnessInput, set: WitnessSet, at: ClosureMiddleware): void {
  const file = input.program.byPath.get(input.program.functions.get(at.hookId)?.path ?? '');
  if (!file) return;
  const ids = new Set([at.hookId, input.program.nodeOf.get(at.closure)?.id ?? at.hookId]);
  for (const id of ids) {
    for (const w of set.byFunction.get(id) ?? []) {
      if (w.scope !== 'statement' || w.kind === 'csrf_guard' || w.sameLine || w.line === null) continue;
      if (w.line <= at.closure.startLine || w.line >= at.closure.endLine || !onEveryPath(file, at.closure, w.line)) continue;
      add(set, { kind: w.kind, scope: 'router', functionId: at.targetId, line: null, dischargerId: w.dischargerId, evidence: `middleware closure in ${at.record} constructor: ${w.evidence}` });
    }
  }
}

/** One `access_control` entry of Symfony's security.yaml. */
interface AccessRule {
  path: RegExp;
  roles: string[];
  file: string;
}

/** The `access_control` entries of a security.yaml, in order (flow `{ path: ..., roles: ... }` and block forms). */
function parseAccessControl(file: string, text: string): AccessRule[] {
  const rules: AccessRule[] = [];
  const start = text.search(/^\s*access_control\s*:/m);
  if (start < 0) return rules;
  const lines = text.slice(start).split('\n').slice(1);
  let current: { path: string | null; roles: string[] } | null = null;
  const flush = (): void => {
    if (current?.path) {
      try {
        rules.push({ path: new RegExp(current.path), roles: current.roles, file });
      } catch {
        // an unreadable path regex covers nothing
      }
    }
    current = null;
  };
  for (const line of lines) {
    if (/^\S/.test(line)) break; // the next top-level key
    const item = /^\s*-\s*(.*)$/.exec(line);
    const body = item ? item[1] ?? '' : line;
    if (item) flush();
    if (item) current = { path: null, roles: [] };
    if (!current) continue;
    // A quoted path may hold braces (`'^/{_locale}/'`); `role:` is the singular spelling of `roles:`.
    const path = /path\s*:\s*(?:'([^']*)'|"([^"]*)"|([^,}\s]+))/.exec(body);
    const pathText = path?.[1] ?? path?.[2] ?? path?.[3];
    if (pathText) current.path = pathText;
    const roles = /\broles?\s*:\s*(\[[^\]]*\]|[\w,\s]+)/.exec(body);
    if (roles?.[1]) current.roles = roles[1].replace(/[[\]'"]/g, '').split(',').map((r) => r.trim()).filter((r) => r.length > 0);
  }
  flush();
  return rules;
}

/** Symfony: the first access_control entry matching a route decides its witness (or makes it public). */
function symfonyAccessControl(input: WitnessInput, set: WitnessSet): void {
  const rules: AccessRule[] = [];
  for (const [path, text] of input.configTexts) if (/(^|\/)config\/packages\/([\w-]+\/)?security\.ya?ml$/.test(path)) rules.push(...parseAccessControl(path, text));
  if (rules.length === 0) return;
  const php = input.facts.php;
  const imports = routeImports(input.configTexts);
  for (const entry of input.entries) {
    if (entry.framework !== 'symfony' || entry.route === undefined) continue;
    // access_control is written against the full path: the routes import's prefix comes first.
    const mounted = importOf(imports, entry.path);
    const route = `${mounted?.prefix ?? ''}${entry.route}`;
    const rule = rules.find((r) => r.path.test(route));
    if (!rule) continue;
    const where = mounted ? ` (route ${route}, prefix from ${mounted.evidence})` : '';
    for (const role of rule.roles) {
      const row = php.dischargers.find((d) => d.roles.some((re) => re.test(role)));
      if (!row) continue;
      if (row.kind === 'public') set.publicEntries.add(entry.functionId);
      else add(set, { kind: row.kind, scope: 'router', functionId: entry.functionId, line: null, dischargerId: row.id, evidence: `access_control ${rule.path.source} roles ${role} in ${rule.file}${where}` });
    }
  }
}

/** Servlets: the container's web.xml security constraints, for servlet entries every mapped URL of which they cover. */
function servletSecurity(input: WitnessInput, set: WitnessSet): void {
  // A web.xml the change itself writes (a constraint in a test folder's copy, say) cannot vouch for the change.
  const webXmls = [...input.configTexts].filter(([path]) => /(^|\/)WEB-INF\/web\.xml$/.test(path) && input.changedPaths?.has(path) !== true).map(([path, text]) => parseWebXml(path, text));
  if (webXmls.every((w) => w.constraints.length === 0)) return;
  for (const entry of input.entries) {
    if (entry.framework !== 'jetty') continue;
    const constraint = servletConstraint(entry, webXmls);
    if (constraint) add(set, { kind: constraint.kind, scope: 'router', functionId: entry.functionId, line: null, dischargerId: 'jetty.web-xml-security-constraint', evidence: constraint.evidence });
  }
}
