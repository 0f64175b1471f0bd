/**
 * What a project's own DRF permission class checks, read from its body rather than its name: Tandoor's
 * `CustomIsUser.has_permission` returns `has_group_permission(request.user, ['user'])` (a role), and
 * `CustomIsOwner.has_object_permission` returns `is_object_owner(request.user, obj)` (the object against
 * the caller). DRF runs `has_permission` before every handler and `has_object_permission` in
 * `get_object()`, so the first is a check on the request and the second one on the object the URL picks
 * (retrieve, update, destroy).
 *
 * The classes combine as DRF does: the list and `&` need all of them (every check counts), `|` needs one
 * (only what each alternative proves counts), `~` inverts (nothing counts). A method with any return that
 * is no test (`return True`) proves nothing; `return False` refuses and is passed over. A class of the
 * library, or one the repository does not define, is left to the name rows of python.toml.
 */
import type { LanguageFacts } from './facts.js';
import { closing, splitTopLevel } from './branches.js';
import { depthOf } from './python-refusal-flags.js';
import { pythonBases } from './python-class-policies.js';
import { lookupClass, type Program } from './resolution.js';
import type { DischargeKind, FunctionRef } from './types.js';

/** What a `permission_classes` value proves for the request and for the object `get_object()` returns. */
export interface PermissionClassChecks {
  request: ReadonlySet<DischargeKind>;
  object: ReadonlySet<DischargeKind>;
  /** The classes read, for the evidence. */
  classes: readonly string[];
}

type Kinds = Set<DischargeKind>;

/** What each kind of test is about, for the evidence. */
export const KIND_WORDS: Readonly<Record<DischargeKind, string>> = { authn: 'a login', path_guard: 'a role or group', ownership_check: 'the object against the caller', csrf_guard: 'a CSRF token', public: 'nothing' };

/** Weakest first. */
const STRENGTH: readonly DischargeKind[] = ['authn', 'ownership_check', 'path_guard'];
const ROLE = /\bgroups?\b|admin|staff|superuser|role|perm|has_|moderator|privileg/i;
const LOGIN = /\bis_authenticated\b|\bis_anonymous\b/;
const COMPARES = /==|!=|\bin\b|\bis\b|\.filter\(|\.exists\(/;
const MAX_DEPTH = 2;

/** The checks of `text` (`permission_classes = [A & B, (C | D)]`), read in the file that declares it. */
export function permissionClassChecks(program: Program, facts: LanguageFacts, text: string, path: string): PermissionClassChecks | null {
  const value = text.replace(/^[^=]*=/, '').trim();
  const list = /^[[(]([\s\S]*)[\])]$/.exec(value)?.[1];
  if (list === undefined) return null;
  const classes: string[] = [];
  const reader = (name: string): Judged | null => {
    const judged = judgeClass(program, facts, name, path);
    if (judged) classes.push(name);
    return judged;
  };
  const terms = splitTopLevel(list, ',').filter((t) => t.trim() !== '');
  const judged = terms.map((term) => parse(term, reader));
  const request = union(judged.map((j) => j.request));
  const object = union(judged.map((j) => j.object));
  if (classes.length === 0) return null;
  return { request, object, classes };
}

interface Judged {
  request: Kinds;
  object: Kinds;
}

const NOTHING = (): Judged => ({ request: new Set(), object: new Set() });

/** `a | b` proves what both do; `a & b` what either does; `~a` nothing; a name what its class does. */
function parse(expression: string, reader: (name: string) => Judged | null): Judged {
  const text = stripParens(expression.trim());
  const alternatives = splitTopLevel(text, '|');
  if (alternatives.length > 1) {
    const each = alternatives.map((a) => parse(a, reader));
    return { request: intersect(each.map((e) => e.request)), object: intersect(each.map((e) => e.object)) };
  }
  const all = splitTopLevel(text, '&');
  if (all.length > 1) {
    const each = all.map((a) => parse(a, reader));
    return { request: union(each.map((e) => e.request)), object: union(each.map((e) => e.object)) };
  }
  const name = /^(?:[A-Za-z_]\w*\.)*([A-Za-z_]\w*)(?:\(\s*\))?$/.exec(text)?.[1];
  return name === undefined ? NOTHING() : (reader(name) ?? NOTHING());
}

/** `(a | b)` without the parentheses that wrap it whole (not those of `(a) | (b)`). */
function stripParens(text: string): string {
  let out = text;
  while (out.startsWith('(') && closing(out, 0) === out.length - 1) out = out.slice(1, -1).trim();
  return out;
}

function union(sets: readonly ReadonlySet<DischargeKind>[]): Kinds {
  return new Set(sets.flatMap((s) => [...s]));
}

/** The kinds every alternative proves; any check at all is a login (an owner or a group test passes no anonymous caller). */
function intersect(sets: readonly ReadonlySet<DischargeKind>[]): Kinds {
  const strongest = sets.map((s) => Math.max(-1, ...[...s].map((k) => STRENGTH.indexOf(k))));
  return new Set(STRENGTH.filter((kind, at) => sets.every((s, i) => s.has(kind) || (at === 0 && (strongest[i] ?? -1) >= 0))));
}

/** A repository permission class: its nearest `has_permission` and `has_object_permission`, judged. */
function judgeClass(program: Program, facts: LanguageFacts, name: string, path: string): Judged | null {
  const cls = lookupClass(program.table, name, path);
  if (!cls?.path.endsWith('.py')) return null;
  const chain = pythonBases(program, cls);
  const method = (wanted: string): FunctionRef | null => chain.flatMap((r) => r.methods).find((m) => m.fn.name === wanted) ?? null;
  const request = method('has_permission');
  const object = method('has_object_permission');
  if (!request && !object) return null;
  return { request: request ? returnedKinds(program, facts, request, 0) : new Set(), object: object ? returnedKinds(program, facts, object, 0) : new Set() };
}

/**
 * The kinds every non-refusing return of `ref` proves. `user` and `object` are the names the caller and
 * the record go by in it: `request.user` and the third parameter in the class, a helper's parameters
 * given them at the call.
 */
function returnedKinds(program: Program, facts: LanguageFacts, ref: FunctionRef, depth: number, names?: { user: RegExp; object: string | null }): Kinds {
  const lines = program.byPath.get(ref.path)?.lines ?? [];
  const user = names?.user ?? new RegExp(facts.currentUser.map((re) => re.source).join('|'));
  const object = names ? names.object : (ref.fn.parameters.filter((p) => p.name !== 'self')[2]?.name ?? null);
  const kinds: Kinds[] = [];
  for (let line = ref.fn.bodyStartLine; line <= ref.fn.endLine; line++) {
    const match = /^\s*return\b(.*)$/.exec(lines[line - 1] ?? '');
    if (!match) continue;
    let text = match[1] ?? '';
    for (let next = line + 1; next <= ref.fn.endLine && depthOf(text) > 0; next++) text += ` ${(lines[next - 1] ?? '').trim()}`;
    text = text.replace(/#.*$/, '').trim();
    if (/^(False|None)?$/.test(text)) continue;
    kinds.push(testKinds(program, facts, ref, text, user, object, depth));
  }
  if (kinds.length === 0) return new Set();
  return intersect(kinds);
}

/** What one returned test proves: its own words, and those of a repository helper it hands the caller to. */
function testKinds(program: Program, facts: LanguageFacts, ref: FunctionRef, text: string, user: RegExp, object: string | null, depth: number): Kinds {
  const test = stripParens(text.trim());
  const again = (part: string): Kinds => testKinds(program, facts, ref, part, user, object, depth);
  // `a or b`: only what both prove (either one lets the request through); `a and b`: what each proves.
  const alternatives = splitTopLevel(test, ' or ');
  if (alternatives.length > 1) return intersect(alternatives.map(again));
  const parts = splitTopLevel(test, ' and ');
  if (parts.length > 1) return union(parts.map(again));
  const out: Kinds = new Set();
  if (/^not\b/.test(test) || !user.test(test)) return out;
  if (object !== null && new RegExp(String.raw`\b${object}\b`).test(test) && COMPARES.test(test)) out.add('ownership_check');
  else if (ROLE.test(test)) out.add('path_guard');
  else if (LOGIN.test(test)) out.add('authn');
  for (const kind of helperKinds(program, facts, ref, test, user, object, depth)) out.add(kind);
  return out;
}

/** A repository helper called with the caller (`is_object_owner(request.user, obj)`): its returns, with its parameters renamed. */
function helperKinds(program: Program, facts: LanguageFacts, ref: FunctionRef, test: string, user: RegExp, object: string | null, depth: number): Kinds {
  const call = /^([A-Za-z_]\w*)\((.*)\)$/.exec(test);
  if (!call || depth >= MAX_DEPTH) return new Set();
  const helpers = (program.byName.get(call[1] ?? '') ?? []).filter((f) => f.path.endsWith('.py') && f.fn.className === null);
  const helper = helpers.find((f) => f.path === ref.path) ?? (helpers.length === 1 ? helpers[0] : undefined);
  if (!helper) return new Set();
  const args = splitTopLevel(call[2] ?? '', ',');
  const params = helper.fn.parameters.map((p) => p.name);
  const userParam = params[args.findIndex((a) => user.test(a))];
  if (userParam === undefined) return new Set();
  const objectParam = object === null ? undefined : params[args.findIndex((a) => a === object)];
  return returnedKinds(program, facts, helper, depth + 1, { user: new RegExp(String.raw`\b${userParam}\b`), object: objectParam ?? null });
}
