/**
 * PHP refusals read by what they do: an authorization exception thrown (`throw new
 * AuthorizationException`, `AccessDeniedHttpException`, `AccessDeniedException`, `HttpException(403)`)
 * or a 403 abort (`abort(403)`, `abort_if(..., 403)`, `abort_unless(..., 403)`) on a failed test.
 *
 * Two readings, both by the test the refusal answers:
 *
 * - An owner id compared with the logged-in user's (`$token->user_id !== Auth::id()`, `!==
 *   $request->user()->id`, `->isNot($request->user())`, `!== $this->user()->getKey()` with a
 *   base-controller accessor around `Auth::user()`) is an ownership check bound to that record, in the
 *   function that refuses, as TypeScript's returned refusals are (ts-returned-refusals.ts, ADR 0073).
 *   A comparison with request data, or one narrowed by another `&&` term, is none.
 * - Any other test answered by such a refusal at a helper's top level (`if (! $this->store->has($org,
 *   $p)) throw new AuthorizationException;`) makes the helper a permission check at its call sites,
 *   whatever the test is called: the exception's name says what it refuses. It is never a check in the
 *   refusing function itself (an action that writes `if ($x) abort(403)` checks only what `$x` names),
 *   and a refusal under another condition (`&&`, a nested block), or one decided by request data, is none.
 *   enforcement.ts's helper summaries carry these witnesses to the call sites.
 */
import { conditionalAt, indentOf, REQUEST_DATA, splitBoolean } from './branches.js';
import { blankStrings } from './string-literals.js';
import type { LanguageFacts } from './facts.js';
import { callArguments, currentUserHelpers } from './ownership.js';
import { refusesUnlessAllowed } from './final-refusals.js';
import { anonymousCallerTest } from './guest-users.js';
import { lookupClass, superChain, type Program } from './resolution.js';
import type { FunctionIR } from '../syntax/ir-types.js';
import type { ProgramFile, Witness } from './types.js';

export const PHP_OWNER_REFUSAL = 'php.owner-refusal';
export const PHP_REFUSING_HELPER = 'php.refusing-helper';

const FORBIDDEN = String.raw`(?:403|Response::HTTP_FORBIDDEN|SymfonyResponse::HTTP_FORBIDDEN)`;
const NOT_FOUND = String.raw`(?:404|Response::HTTP_NOT_FOUND|SymfonyResponse::HTTP_NOT_FOUND)`;
const QUALIFIED = String.raw`\\?(?:[\w\\]*\\)?`;
/** A statement refusing a known caller. */
const REFUSAL = new RegExp(String.raw`(?:^\s*|[{;]\s*)(?:throw\s+new\s+${QUALIFIED}(?:AuthorizationException|AccessDenied(?:Http)?Exception|\w*Forbidden\w*Exception)\b|throw\s+new\s+${QUALIFIED}HttpException\s*\(\s*${FORBIDDEN}\b|abort\s*\(\s*${FORBIDDEN}\b)`);
/** "Not found or not yours": a 404 counts only under an owner comparison. */
const NOT_FOUND_REFUSAL = new RegExp(String.raw`(?:^\s*|[{;]\s*)(?:throw\s+new\s+${QUALIFIED}(?:NotFoundHttpException|ModelNotFoundException)\b|throw\s+new\s+${QUALIFIED}HttpException\s*\(\s*${NOT_FOUND}\b|abort\s*\(\s*${NOT_FOUND}\b)`);
const ASSERTION = new RegExp(String.raw`^\s*(abort_if|abort_unless)\s*\(`);
const IF_LINE = /^\s*(?:\}\s*)?(?:else\s*)?if\s*\(/;

/** A refusal and the test it answers, in one function. */
interface RefusalSite {
  /** The `if` (or assertion) line: where the check is. */
  line: number;
  /** The last line the refusal's statement covers. */
  end: number;
  /** The test as written; `allowing` when the refusal happens on its failure (`abort_unless`). */
  condition: string;
  allowing: boolean;
  /** 403 or 404. */
  notFoundOnly: boolean;
  evidence: string;
  /** A refusal at the end of the function reached only when no earlier test let the caller through. */
  final?: boolean;
  /** An `else if`: it refuses only where the tests before it failed. */
  chained?: boolean;
}

function refusalIn(text: string): 'forbidden' | 'not_found' | null {
  if (REFUSAL.test(text)) return 'forbidden';
  return NOT_FOUND_REFUSAL.test(text) ? 'not_found' : null;
}

/** The refusals of `fn` (not of the closures it holds), with their tests. */
function refusalSites(file: ProgramFile, fn: FunctionIR): RefusalSite[] {
  const out: RefusalSite[] = [];
  const nested = file.ir.functions.filter((f) => f !== fn && f.startLine > fn.startLine && f.endLine <= fn.endLine);
  for (let line = fn.bodyStartLine; line <= fn.endLine; line++) {
    if (nested.some((f) => f.startLine <= line && line <= f.endLine)) continue;
    const text = file.lines[line - 1] ?? '';
    const asserted = ASSERTION.exec(text);
    if (asserted?.[1]) {
      const statement = file.lines.slice(line - 1, Math.min(fn.endLine, line + 5)).join('\n');
      const args = callArguments(statement, asserted[1]) ?? [];
      const status = args[1]?.trim() ?? '';
      const forbidden = new RegExp(`^${FORBIDDEN}$`).test(status);
      if (args[0] === undefined || (!forbidden && !new RegExp(`^${NOT_FOUND}$`).test(status))) continue;
      out.push({ line, end: line, condition: args[0], allowing: asserted[1] === 'abort_unless', notFoundOnly: !forbidden, evidence: text.trim() });
      continue;
    }
    if (IF_LINE.test(text)) {
      const at = conditionalAt(file, fn, line);
      if (!at) continue;
      const arm = armStatements(file, line, at);
      const top = Math.min(...arm.map((s) => s.indent));
      // The arm's own refusal, at its top level (after a log line, say): a refusal nested under another test refuses only there.
      const refusing = arm.find((s) => s.indent === top && refusalIn(s.text) !== null);
      if (!refusing) continue;
      const chained = /^\s*(?:\}\s*)?else/.test(text);
      out.push({ line, end: at.to, condition: at.condition, allowing: false, notFoundOnly: refusalIn(refusing.text) === 'not_found', evidence: `${text.trim()} ${refusing.text.trim()}`, ...(chained ? { chained } : {}) });
      continue;
    }
    if (refusalIn(text) === 'forbidden' && refusesUnlessAllowed(file, fn, line)) out.push({ line, end: line, condition: '', allowing: false, notFoundOnly: false, evidence: text.trim(), final: true });
  }
  return out;
}

/** The statements of an `if`'s arm, the refusal on the `if` line itself included (`if (x) abort(403);`). */
function armStatements(file: ProgramFile, line: number, at: { condition: string; from: number; to: number }): { text: string; indent: number }[] {
  const out: { text: string; indent: number }[] = [];
  for (let l = at.from; l <= at.to; l++) {
    let text = file.lines[l - 1] ?? '';
    if (l === line) {
      const after = text.indexOf(at.condition);
      text = after < 0 ? '' : text.slice(after + at.condition.length).replace(/^\s*\)\s*\{?/, '');
      if (text.trim() === '') continue;
      out.push({ text, indent: Number.MAX_SAFE_INTEGER });
      continue;
    }
    if (/^\s*[{}]?\s*$/.test(text)) continue;
    out.push({ text, indent: indentOf(text) });
  }
  // A statement on the `if` line is the whole arm.
  const top = out[0];
  if (top && top.indent === Number.MAX_SAFE_INTEGER) top.indent = 0;
  return out;
}

/** What denotes the logged-in user in one function: the facts' expressions, project helpers, accessors, locals. */
interface CallerForms {
  user: RegExp[];
  /** Bare names of locals and parameters holding the user. */
  locals: Set<string>;
}

const accessorCache = new WeakMap<Program, Map<string, Set<string>>>();

/** Methods of a class (and its parents) with no parameters whose every return is the logged-in user (`$this->user()`). */
function userAccessors(program: Program, facts: LanguageFacts, className: string, path: string): Set<string> {
  let byClass = accessorCache.get(program);
  if (!byClass) accessorCache.set(program, (byClass = new Map<string, Set<string>>()));
  const key = `${path}\0${className}`;
  const hit = byClass.get(key);
  if (hit) return hit;
  const found = new Set<string>();
  byClass.set(key, found);
  const cls = lookupClass(program.table, className, path);
  for (const record of cls ? superChain(program.table, cls) : []) {
    for (const method of record.methods) {
      const file = program.byPath.get(method.path);
      if (!file || method.fn.parameters.length > 0) continue;
      const body = file.lines.slice(method.fn.bodyStartLine - 1, method.fn.endLine);
      const locals = new Set<string>();
      const isUser = (expression: string): boolean => facts.currentUser.some((re) => new RegExp(`^(?:${re.source})$`).test(expression.trim()));
      for (const l of body) {
        const assigned = /^\s*\$(\w+)\s*=\s*(.+?);/.exec(l);
        if (assigned?.[1] && assigned[2] && isUser(assigned[2])) locals.add(assigned[1]);
      }
      const returns = body.flatMap((l) => /^\s*return\s+(.+?);/.exec(l)?.[1] ?? []);
      if (returns.length > 0 && returns.every((r) => isUser(r) || locals.has(/^\$(\w+)$/.exec(r.trim())?.[1] ?? ''))) found.add(method.fn.name);
    }
  }
  return found;
}

function callerForms(program: Program, facts: LanguageFacts, file: ProgramFile, fn: FunctionIR, before: number): CallerForms {
  const accessors = fn.className === null ? new Set<string>() : userAccessors(program, facts, fn.className, file.path);
  const user = [...facts.currentUser, ...currentUserHelpers(program, facts), ...[...accessors].map((name) => new RegExp(String.raw`\$this->${name}\(\)`))];
  const locals = new Set<string>();
  for (const p of fn.parameters) if (p.type !== null && facts.currentUserTypes.some((re) => re.test(p.type ?? ''))) locals.add(p.name.replace(/^\$/, ''));
  for (let l = fn.bodyStartLine; l < before; l++) {
    const assigned = /^\s*\$(\w+)\s*=\s*(.+?);/.exec(file.lines[l - 1] ?? '');
    if (assigned?.[1] && assigned[2] && user.some((re) => new RegExp(`^(?:${re.source})$`).test(assigned[2]?.trim() ?? ''))) locals.add(assigned[1]);
  }
  return { user, locals };
}

/** The logged-in user itself: one of its expressions, or a local holding it. */
function denotesCaller(expression: string, forms: CallerForms): boolean {
  const text = expression.trim();
  const local = /^\$(\w+)$/.exec(text)?.[1];
  if (local !== undefined) return forms.locals.has(local);
  return forms.user.some((re) => new RegExp(`^(?:${re.source})$`).test(text));
}

/** The caller's id: `Auth::id()`, `auth()->id()`, or the user's `->id` / `->getKey()` / `->getAuthIdentifier()`. */
function callerId(expression: string, forms: CallerForms): boolean {
  const text = expression.trim().replace(/^\((?:int|string)\)\s*/, '');
  if (/^(?:\\?Auth::|auth\(\)->)(?:guard\([^()]*\)->)?id\(\)$/.test(text)) return true;
  const member = /^(.+?)(?:\?->|->)(?:id|getKey\(\)|getAuthIdentifier\(\))$/.exec(text);
  return member?.[1] !== undefined && denotesCaller(member[1], forms);
}

/** A record's owner id (`$token->user_id`, `$post->author->id`, `$user->getKey()`): the record's bare name. */
function recordOwnerId(expression: string): string | null {
  const text = expression.trim().replace(/^\((?:int|string)\)\s*/, '');
  if (REQUEST_DATA.test(text)) return null;
  const m = /^\$(\w+)(?:(?:\?->|->)\w+)*(?:\?->|->)(?:\w*_id|\w*Id|id|getKey\(\))$/.exec(text);
  return m?.[1] !== undefined && m[1] !== 'this' ? m[1] : null;
}

/** A record itself (`$token`, `$token->user`): its bare name. */
function recordItself(expression: string): string | null {
  const m = /^\$(\w+)(?:(?:\?->|->)\w+)*$/.exec(expression.trim());
  return m?.[1] !== undefined && m[1] !== 'this' ? m[1] : null;
}

/** The record a term compares with the caller, when the term holds exactly when the caller is not its owner (`mismatch`) or is (`match`). */
function comparedRecord(term: string, forms: CallerForms, mismatch: boolean): string | null {
  let text = term.trim();
  while (/^\((.*)\)$/s.test(text)) text = text.slice(1, -1).trim();
  const negated = /^!\s*(?!=)/.test(text);
  if (negated) text = text.replace(/^!\s*/, '').replace(/^\((.*)\)$/s, '$1').trim();
  const comparison = /^([\s\S]+?)\s*(!==|!=|===|==)\s*([\s\S]+)$/.exec(text);
  if (comparison && !/&&|\|\|/.test(text)) {
    const differs = comparison[2]?.startsWith('!') !== negated;
    if (differs !== mismatch) return null;
    const [left, right] = [comparison[1] ?? '', comparison[3] ?? ''];
    if (callerId(right, forms)) return recordOwnerId(left);
    if (callerId(left, forms)) return recordOwnerId(right);
    return null;
  }
  // `$token->user->isNot($request->user())`, `! $request->user()->is($token->user)`.
  const model = /^([\s\S]+?)->(is|isNot)\(([\s\S]*)\)$/.exec(text);
  if (!model) return null;
  if (((model[2] === 'isNot') !== negated) !== mismatch) return null;
  const [subject, argument] = [model[1] ?? '', model[3] ?? ''];
  if (denotesCaller(argument, forms)) return recordItself(subject);
  if (denotesCaller(subject, forms)) return recordItself(argument);
  return null;
}

/** A test true when nobody is logged in: `! $user`, `$user === null`, `is_null(Auth::user())` of a caller form (an accessor's own guard). */
function callerMissing(condition: string, forms: CallerForms): boolean {
  const text = condition.trim();
  const tested = /^!\s*(.+)$/.exec(text)?.[1] ?? /^(.+?)\s*===?\s*null$/.exec(text)?.[1] ?? /^null\s*===?\s*(.+)$/.exec(text)?.[1] ?? /^is_null\((.+)\)$/.exec(text)?.[1];
  return tested !== undefined && denotesCaller(tested, forms);
}

/** A permit the caller lacks (`! $user->isAdmin()`, `! $request->user()->can('x')`): another way a refusal lets a caller through. */
const LACKED_PERMIT = /^!\s*[\w$\\:]+(?:(?:->|::)\w+)*(?:\([^()]*\))?(?:->\w+\([^()]*\))*$/;

/**
 * The record whose ownership a refusal proves, or null. A refusal on `mismatch || other` refuses every
 * non-owner; `mismatch && ! permit` every non-owner without the permit; `mismatch && $x->public` lets
 * non-owners through wherever `$x->public` is false, which proves nothing.
 */
function ownedRecord(site: RefusalSite, forms: CallerForms): string | null {
  if (REQUEST_DATA.test(site.condition)) return null;
  if (site.allowing) {
    if (splitBoolean(site.condition, '||').length > 1) return null;
    for (const term of splitBoolean(site.condition, '&&')) {
      const record = comparedRecord(term, forms, false);
      if (record !== null) return record;
    }
    return null;
  }
  for (const disjunct of splitBoolean(site.condition, '||')) {
    const terms = splitBoolean(disjunct.replace(/^\s*\((.*)\)\s*$/s, '$1'), '&&');
    const owners = terms.map((t) => comparedRecord(t, forms, true));
    const owner = owners.find((o) => o !== null);
    if (owner !== undefined && owner !== null && owners.filter((o) => o !== null).length === 1 && terms.every((t, i) => owners[i] !== null || LACKED_PERMIT.test(t.trim()))) return owner;
  }
  return null;
}

type PhpRefusal = { file: ProgramFile; fn: FunctionIR; id: string; site: RefusalSite };

const refusalCache = new WeakMap<Program, PhpRefusal[]>();

/**
 * Whether a test reads anything beyond literals and the helper's own parameters: the store, the user,
 * a call (`! $this->store->has($org, $p)`). `if (false)`, `if (1 === 2)` or `if ($permission ===
 * 'never')` refuse nobody the callers can reach, so a hostile change cannot make a check of them.
 */
function testsState(condition: string, fn: FunctionIR): boolean {
  const parameters = new Set(fn.parameters.map((p) => p.name.replace(/^\$/, '')));
  const code = blankStrings(condition, "''");
  const variables = [...code.matchAll(/\$(\w+)/g)].map((m) => m[1] ?? '');
  return variables.some((v) => !parameters.has(v)) || /[\w)\]]\s*\(|::/.test(code);
}

/** PHP functions with a refusal in them, read once per program (both readings below use them). */
function phpRefusals(program: Program): PhpRefusal[] {
  const known = refusalCache.get(program);
  if (known) return known;
  const out: PhpRefusal[] = [];
  for (const file of program.files) {
    if (file.factsLanguage !== 'php' || !/\b(throw|abort(?:_if|_unless)?)\b/.test(file.text)) continue;
    for (const fn of file.ir.functions) {
      const ref = program.nodeOf.get(fn);
      if (!ref || ref.fn !== fn) continue;
      for (const site of refusalSites(file, fn)) out.push({ file, fn, id: ref.id, site });
    }
  }
  refusalCache.set(program, out);
  return out;
}

/** Ownership checks: a refusal answering an owner comparison with the logged-in user, bound to the record. */
export function phpOwnerRefusals(program: Program, facts: LanguageFacts): Witness[] {
  const out: Witness[] = [];
  for (const { file, fn, id, site } of phpRefusals(program)) {
    if (site.final) continue;
    const record = ownedRecord(site, callerForms(program, facts, file, fn, site.line));
    if (record !== null) out.push({ kind: 'ownership_check', scope: 'statement', functionId: id, line: site.line, dischargerId: PHP_OWNER_REFUSAL, evidence: site.evidence, resource: record });
  }
  return out;
}

/**
 * Refusals that make their function a permission check for its callers: a 403 or authorization
 * exception answering a test no other reading judged (`has` function witnesses tell which lines were),
 * at the function's top level (the helper summaries require that), not narrowed by `&&` nor decided by
 * request data. Returned apart from the function's own witnesses: they check nothing where they stand.
 * `judged` says which lines another reading already took; `laravel.abort-authn` reads every
 * `abort_unless` as a login check, so the caller does not count it (a login test is left out here).
 */
export function phpRefusingHelpers(program: Program, facts: LanguageFacts, judged: (functionId: string, from: number, to: number) => boolean): Witness[] {
  const out: Witness[] = [];
  for (const { file, fn, id, site } of phpRefusals(program)) {
    if (site.notFoundOnly || site.chained === true || REQUEST_DATA.test(site.condition) || judged(id, site.line, site.end)) continue;
    // A refusal of whoever is not logged in is a login check, read as one already.
    const refusedWhen = site.allowing ? `!${site.condition.trim()}` : site.condition;
    if (anonymousCallerTest(program, facts, refusedWhen) || callerMissing(refusedWhen, callerForms(program, facts, file, fn, site.line))) continue;
    if (splitBoolean(site.condition, site.allowing ? '||' : '&&').length > 1) continue;
    if (!testsState(site.condition, fn)) continue;
    out.push({ kind: 'path_guard', scope: 'statement', functionId: id, line: site.line, dischargerId: PHP_REFUSING_HELPER, evidence: site.evidence });
  }
  return out;
}
