/**
 * Check helpers that take the alternative as a callback (`checkPermissionOr('users-manage', fn () =>
 * $userId === user()->id)`): the helper runs its check only when the callback does not answer true, so
 * a call passes when the permission is held or the callback's condition holds. Such a call is a check
 * when both arms are: the helper's check leaves when it fails, and the callback given at the call site
 * returns a check (a recognised boolean check, a predicate helper, or the logged-in user compared with
 * the object's user). It guarantees the weaker of the two. A callback that may answer true without a
 * check (`fn () => true`, `a || check`) makes the call no check.
 */
import type { CallIR, FunctionIR } from '../syntax/ir-types.js';
import type { LanguageFacts } from './facts.js';
import { escape, indentOf, splitBoolean } from './branches.js';
import { mentionsGuestFallback } from './guest-users.js';
import { callArguments, currentUserHelpers } from './ownership.js';
import type { Program } from './resolution.js';
import type { DischargeKind, ProgramFile } from './types.js';

/** A helper whose check runs only when its callback parameter fails. */
export interface AlternativeHelper {
  /** The position of the callback parameter. */
  parameter: number;
  /** The line of the `if` that tests the callback. */
  testLine: number;
}

/** Weakest first: a login says least; a permission discharges every operation an ownership check does (every row that accepts ownership accepts a permission). */
const STRENGTH: readonly DischargeKind[] = ['authn', 'ownership_check', 'path_guard'];

/** The weaker of two kinds: what a check with these two arms guarantees whichever arm passed. */
export function weaker(a: DischargeKind, b: DischargeKind): DischargeKind {
  return STRENGTH.indexOf(a) <= STRENGTH.indexOf(b) ? a : b;
}

/** The strongest of several kinds a check guarantees together (authn, ownership and permission only), or null. */
export function strongest(kinds: Iterable<DischargeKind>): DischargeKind | null {
  let best: DischargeKind | null = null;
  for (const kind of kinds) if (STRENGTH.includes(kind) && (best === null || STRENGTH.indexOf(kind) > STRENGTH.indexOf(best))) best = kind;
  return best;
}

/** A condition that holds exactly when calling `name` did not answer true: `!$cb()`, `$cb() !== true`, `!cb.get()`, `!call_user_func($cb)`. */
function failedCallbackTest(condition: string, name: string): boolean {
  const n = escape(name);
  const invoked = String.raw`(?:${n}\s*(?:\.\s*(?:get|getAsBoolean|call|apply|test|invoke)\s*)?\([^()]*\)|call_user_func(?:_array)?\(\s*${n}\s*(?:,[^()]*)?\))`;
  const c = condition.trim();
  return new RegExp(String.raw`^!\s*${invoked}$`).test(c) || new RegExp(String.raw`^${invoked}\s*(?:!==?\s*true|===?\s*false)$`).test(c);
}

/**
 * The alternative shape for a check on `checkLine` of `helper`: the nearest enclosing line is an `if`
 * on the helper's outermost level whose whole condition is a failed call of one of its parameters, and
 * the check sits directly in that block with no `return` before it. `onEveryPath` says whether a line
 * of the helper runs on every path (enforcement's reading).
 */
export function alternativeShape(file: ProgramFile, helper: FunctionIR, checkLine: number, onEveryPath: (line: number) => boolean): AlternativeHelper | null {
  const own = indentOf(file.lines[checkLine - 1] ?? '');
  for (let l = checkLine - 1; l > helper.bodyStartLine; l--) {
    const text = file.lines[l - 1] ?? '';
    if (text.trim() === '' || /^\s*[{}]\s*$/.test(text)) continue;
    if (indentOf(text) >= own) {
      if (/\breturn\b/.test(text)) return null;
      continue;
    }
    const head = /^\s*if\s*\((.*)\)\s*\{?\s*$/.exec(text);
    if (!head || !onEveryPath(l)) return null;
    const parameter = helper.parameters.findIndex((p) => failedCallbackTest(head[1] ?? '', p.name));
    return parameter < 0 ? null : { parameter, testLine: l };
  }
  return null;
}

/** What a callback argument returns: the body of an arrow function, or the one `return` of a closure's block. */
function returnedExpression(argument: string): string | null {
  const arrow = /^(?:static\s+)?(?:fn\s*)?\([^()]*\)\s*(?:use\s*\([^()]*\)\s*)?(?::\s*\??\w+\s*)?(?:=>|->)\s*([\s\S]+)$/.exec(argument.trim());
  if (arrow?.[1] && !arrow[1].trimStart().startsWith('{')) return arrow[1].trim();
  const open = argument.indexOf('{');
  if (open < 0 || !/^(?:static\s+)?(?:function\b|\(|[\w$]+\s*(?:=>|->))/.test(argument.trim())) return null;
  const body = argument.slice(open + 1, argument.lastIndexOf('}'));
  const returns = [...body.matchAll(/\breturn\b([^;]*);/g)];
  // A block that does anything besides its one return may answer from elsewhere (a thrown, caught check).
  if (returns.length !== 1 || body.replace(/\breturn\b[^;]*;/, '').trim() !== '') return null;
  return (returns[0]?.[1] ?? '').trim();
}

/** How a call inside a callback is a check: the kind of the discharger row or predicate helper it calls, or null. */
export type CallCheckKind = (call: CallIR) => DischargeKind | null;

/** Where a callback argument sits, and how its calls are judged. */
export interface CallbackSite {
  program: Program;
  facts: LanguageFacts;
  file: ProgramFile;
  /** The call of the alternative helper. */
  call: CallIR;
  helperName: string;
  parameter: number;
  checkKindOf: CallCheckKind;
}

/**
 * The kind of check a callback given at a call site guarantees when it answers true: the strongest of
 * its `&&` terms that is a check (a recognised boolean or predicate call, not negated, or the logged-in
 * user compared equal with a value). Null when it may answer true without a check: a disjunction, a
 * constant, a callback passed by name, or terms none of which checks. `guestOpen`: the ownership it
 * guarantees compares with a current-user helper that answers a guest account when nobody is logged in.
 */
export function callbackCheckKind(site: CallbackSite): { kind: DischargeKind; guestOpen: boolean } | null {
  const { file, call } = site;
  const lambda = file.ir.functions.find((fn) => fn.isLambda && fn.startLine >= call.line && fn.startLine <= call.line + 2);
  const last = Math.max(call.line, lambda?.endLine ?? call.line) + 1;
  const argument = (callArguments(file.lines.slice(call.line - 1, last).join('\n'), site.helperName) ?? [])[site.parameter];
  const expression = argument === undefined ? null : returnedExpression(argument);
  if (expression === null || /\|\||\bor\b|\?\?|\?(?![.\->])/.test(expression)) return null;
  const user = [...site.facts.currentUser, ...currentUserHelpers(site.program, site.facts)];
  const inside = file.ir.calls.filter((c) => c !== call && c.line >= call.line && c.line < last);
  const kinds: DischargeKind[] = [];
  let guestOwner = false;
  let loggedInOwner = false;
  for (const term of splitBoolean(expression, '&&')) {
    if (/^(?:!|\bnot\b)/.test(term)) continue;
    const compared = /^([\s\S]+?)\s*(?:===?|\bis\b)\s*([\s\S]+)$/.exec(term);
    if (compared && !/!==?|<>/.test(term) && [compared[1] ?? '', compared[2] ?? ''].filter((side) => user.some((re) => re.test(side))).length === 1) {
      kinds.push('ownership_check');
      if (mentionsGuestFallback(site.program, site.facts, term)) guestOwner = true;
      else loggedInOwner = true;
      continue;
    }
    for (const c of inside) {
      if (!new RegExp(String.raw`(?<![\w$])${escape(c.callee)}\s*\(`).test(term)) continue;
      const kind = site.checkKindOf(c);
      if (kind) kinds.push(kind);
    }
  }
  const kind = strongest(kinds);
  return kind === null ? null : { kind, guestOpen: kind === 'ownership_check' && guestOwner && !loggedInOwner };
}
