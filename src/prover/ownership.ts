/**
 * Ownership through the current user: an operation whose receiver is the logged-in user, or a value
 * derived from it (`$user->podcasts()->detach(...)`, a collection fetched "for" the user), acts on the
 * caller's own records. The value is followed along the path: from the expressions and injected
 * parameter types the facts name (`$request->user()`, `Authenticatable $user`, `self.current_user`),
 * through local assignments and loops, and into the next hop's parameters when it is passed as an
 * argument (`$this->userService->updateUser($this->user, ...)`). Textual and intra-path only: a value is
 * "derived" when its right-hand side mentions the user at all.
 */
import { blankStrings } from './string-literals.js';
import { closing } from './branches.js';
import type { CallIR, FunctionIR } from '../syntax/ir-types.js';
import type { LanguageFacts } from './facts.js';
import { callSignature, lookupClass, superChain, type Program } from './resolution.js';
import { statementAt } from './recognisers/shared.js';
import { catchArmAt, ownedThrows } from './caught-exceptions.js';
import { walrusAssignments } from './python-walrus.js';
import { userScopedQueryset } from './django-querysets.js';
import type { OperationSite, PathRecord, ProgramFile } from './types.js';

const CONSTRUCTORS = new Set(['__construct', '__init__', 'constructor']);

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Whose an object is: the logged-in user's (`viaLogin`: it counts only once a login check dominates),
 * or the request's own without a login (a row this request created, the caller's own session, a
 * record whose secret the caller has just proved to hold).
 */
export interface Owner {
  why: string;
  viaLogin: boolean;
}

/** The names bound to an owner: parameters, locals and `$this->x`/`self.x`/`this.x` fields. */
class Bindings {
  readonly names = new Map<string, Owner>();
  /** Parameters the caller never supplied (`undefined` on this path): no one's value, so no alternative. */
  readonly absent = new Set<string>();
  /** Locals holding an object whose listed properties carry an owned value (`const where = { userId }`). */
  readonly shapes = new Map<string, Shape>();
  private patterns: { name: string; re: RegExp; owner: Owner }[] = [];
  private readonly sources: { re: RegExp; owner: (match: string) => Owner }[];

  constructor(
    readonly facts: LanguageFacts,
    helpers: readonly OwnHelper[] = [],
    /** Calls of repository functions that look a record up by the token they are given. */
    readonly tokenLookups: readonly RegExp[] = [],
    /** Calls of repository functions that throw exceptions carrying an owned record's data. */
    readonly throwing: readonly ThrowingHelper[] = [],
  ) {
    this.sources = [
      ...facts.currentUser.map((re) => ({ re, owner: (m: string): Owner => ({ why: m, viaLogin: true }) })),
      ...facts.createdObjects.map((re) => ({ re, owner: (m: string): Owner => ({ why: `${m.trim()} (a record this request created)`, viaLogin: false }) })),
      ...facts.ownSession.map((re) => ({ re, owner: (m: string): Owner => ({ why: `${m.trim()} (the caller's own session)`, viaLogin: false }) })),
      ...helpers.map((h) => ({ re: h.re, owner: (m: string): Owner => ({ why: `${m.trim()}) returns ${h.owner.why}`, viaLogin: h.owner.viaLogin }) })),
    ];
  }

  bind(name: string, owner: Owner | string): void {
    if (this.names.has(name)) return;
    const value = typeof owner === 'string' ? { why: owner, viaLogin: true } : owner;
    this.names.set(name, value);
    const bare = name.replace(/^\$/, '');
    const prefix = name.startsWith('$') ? '\\$' : '(?<![\\w$.])';
    this.patterns.push({ name, re: new RegExp(`${prefix}${escape(bare)}(?![\\w$])`), owner: value });
  }

  /** A name reassigned from something that is not the owner's no longer denotes it. */
  unbind(name: string): void {
    this.shapes.delete(name);
    if (!this.names.delete(name)) return;
    this.patterns = this.patterns.filter((p) => p.name !== name);
  }

  /** Whose `text` denotes (or derives from), or null. */
  owner(text: string): Owner | null {
    for (const { re, owner } of this.sources) {
      const match = re.exec(text);
      if (match) return owner(match[0]);
    }
    // A bound name inside a string literal (`form.get('tokenId')`) is text, not the value.
    const code = blankStrings(text, "''");
    for (const { re, owner } of this.patterns) if (re.test(code)) return owner;
    return null;
  }

  /** Where in `text` an owner (the logged-in user, the caller's session or records, a name bound to one) is named, each as [start, end). */
  references(text: string): { start: number; end: number }[] {
    const all = [...this.sources.map((s) => s.re), ...this.patterns.map((p) => p.re)];
    return all.flatMap((re) => [...text.matchAll(new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`))].map((m) => ({ start: m.index, end: m.index + m[0].length })));
  }
}

/** Criteria a lookup can meet without the user: an OR of conditions, a spread that may override the user's key. */
const SHARED_CRITERIA = /\bOR\s*:|['"]?\$or['"]?\s*:|\borWhere\w*\s*\(|\.\.\.\s*[\w$]|\bor\s*\(/;
/** Before the user in a lookup: the start of the statement (a chain on the user, or a helper called on a member chain), a criterion's key, a call's argument slot. */
const USER_VALUE_START = /(?:^\s*(?:await\s+)?(?:\$?[\w]+(?:->|\?->|::|\.|\?\.))*|[{(,[]\s*(?:['"]?[\w$.]+['"]?\s*(?::|=>)\s*)?)$/;
/** After it: its call and an accessor chain (`(request)`, `.id`, `->getId()`), then the end of that value or statement. */
const USER_VALUE_END = /^(?:\s*(?:->|\?->|\.|\?\.)\s*\w+(?:\([^()]*\))?|\s*\([^()]*\))*\s*(?:[,}\])]|;?\s*$)/;

/**
 * Whether a lookup is scoped by the user alone: the user is the chain it runs on or the whole value of
 * one of its criteria, and no OR or spread lets a row through without it. `userId: user.id ||
 * params.userId`, `params.userId ?? user.id` and `OR: [{ userId: user.id }, { public: true }]` are not.
 */
function scopedByUserAlone(rhs: string, bindings: Bindings): boolean {
  const { rest, scoped } = withoutScopedAlternatives(rhs, bindings);
  if (SHARED_CRITERIA.test(rest)) return false;
  return scoped || bindings.references(rest).some(({ start, end }) => USER_VALUE_START.test(rest.slice(0, start)) && USER_VALUE_END.test(rest.slice(pastOpenCall(rest, end))));
}

/**
 * A Prisma `OR: [...]` whose every alternative is scoped by the user alone (`OR: [{ collection: {
 * ownerId: user.id } }, { collection: { members: { some: { userId: user.id } } } }]`) lets no row
 * through without the user: the text without it, and whether one was there. An OR with any other
 * alternative (`{ public: true }`) stays, and the lookup is not scoped.
 */
function withoutScopedAlternatives(rhs: string, bindings: Bindings): { rest: string; scoped: boolean } {
  let rest = rhs;
  let scoped = false;
  for (let guard = 0; guard < 8; guard++) {
    const match = /\bOR\s*:\s*\[/.exec(rest);
    if (!match) break;
    const open = match.index + match[0].length - 1;
    const close = closing(rest, open);
    if (close < 0) break;
    const arms = callArguments(`o(${rest.slice(open + 1, close)})`, 'o') ?? [];
    if (arms.length === 0 || !arms.every((arm) => arm.trim().startsWith('{') && scopedByUserAlone(arm, bindings))) break;
    rest = `${rest.slice(0, match.index)}${rest.slice(close + 1).replace(/^\s*,/, '')}`;
    scoped = true;
  }
  return { rest, scoped };
}

/** A reference that ends inside a call's parenthesis (`requireUser(`) ends after the call. */
function pastOpenCall(text: string, end: number): number {
  if (text[end - 1] !== '(') return end;
  let depth = 1;
  for (let i = end; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i + 1;
  }
  return text.length;
}

/**
 * What an object value is known to hold: per property, the owner of its value (null: not owned). With
 * `complete`, no other property can be present (a literal, not a spread of something unknown).
 */
interface Shape {
  properties: Map<string, Owner | null>;
  complete: boolean;
}

/** The expression without what does not change its value: `await`, `as T`, `!`, `satisfies T`, outer parentheses. */
function bare(expression: string): string {
  let text = expression.trim().replace(/^await\s+/, '').replace(/\s+(as|satisfies)\s+[\w$.<>[\]|' ]+$/, '').replace(/!$/, '').trim();
  while (text.startsWith('(') && text.endsWith(')') && balanced(text.slice(1, -1))) text = text.slice(1, -1).trim();
  return text;
}

function balanced(text: string): boolean {
  let depth = 0;
  for (const ch of blankStrings(text, "''")) {
    if ('([{'.includes(ch)) depth++;
    if (')]}'.includes(ch) && --depth < 0) return false;
  }
  return depth === 0;
}

/** The top-level entries of an object literal, in order: `{ a, b: x, ...rest }`. */
type ObjectEntry = { spread: string } | { key: string; value: string };

function objectEntries(literal: string): ObjectEntry[] {
  return (callArguments(`o(${literal.trim().replace(/^\{|\}$/g, '')})`, 'o') ?? []).flatMap((entry): ObjectEntry[] => {
    const text = entry.trim();
    if (text.startsWith('...')) return [{ spread: text.slice(3) }];
    const pair = /^['"]?([\w$]+)['"]?\s*(?::\s*([\s\S]+))?$/.exec(text);
    return pair?.[1] ? [{ key: pair[1], value: pair[2] ?? pair[1] }] : [];
  });
}

/** Criteria that let rows through without the owner's key: an OR, a negation. */
const NEGATED_OR_SHARED = /\b(OR|NOT)\s*:|['"]?\$(or|not|nor)['"]?\s*:/;

/**
 * What `expression` holds when it is an object (a literal, a local bound to one, or alternatives of
 * those), or null when unknown. Alternatives are intersected (a property is owned when it is in every
 * one); an alternative made only of parameters the caller never supplied is left out. A spread of an
 * unknown value may override every property before it.
 */
function shapeOf(expression: string, bindings: Bindings): Shape | null {
  const text = bare(expression);
  const values = alternatives(text);
  if (values.length > 1) {
    const present = values.filter((v) => !isAbsent(v, bindings)).map((v) => shapeOf(v, bindings));
    if (present.length === 0 || present.some((s) => s === null)) return null;
    const shapes = present as Shape[];
    const keys = new Set(shapes.flatMap((s) => [...s.properties.keys()]));
    const properties = new Map<string, Owner | null>();
    for (const key of keys) properties.set(key, shapes.every((s) => s.properties.get(key)) ? (shapes[0]?.properties.get(key) ?? null) : null);
    return { properties, complete: shapes.every((s) => s.complete) };
  }
  if (text.startsWith('{') && text.endsWith('}')) {
    if (NEGATED_OR_SHARED.test(text)) return { properties: new Map(), complete: false };
    const shape: Shape = { properties: new Map(), complete: true };
    for (const entry of objectEntries(text)) {
      if ('spread' in entry) {
        const inner = isAbsent(entry.spread, bindings) ? { properties: new Map<string, Owner | null>(), complete: true } : shapeOf(entry.spread, bindings);
        if (inner === null) {
          shape.properties.clear();
          shape.complete = false;
        } else {
          for (const [key, owner] of inner.properties) shape.properties.set(key, owner);
          shape.complete &&= inner.complete;
        }
      } else {
        shape.properties.set(entry.key, isAbsent(entry.value, bindings) ? null : ownedWhole(entry.value, bindings));
      }
    }
    return shape;
  }
  return bindings.shapes.get(text) ?? null;
}

/** The owner of a property's value when the owned value is all of it (`user.id`, not `user.id || params.id`). */
function ownedWhole(value: string, bindings: Bindings): Owner | null {
  const text = bare(value);
  return scopedByUserAlone(`{ v: ${text} }`, bindings) ? ownerOfValue(bindings, text) : null;
}

/** A parameter the caller never supplied, or an object literal made only of such parameters. */
function isAbsent(expression: string, bindings: Bindings): boolean {
  const text = bare(expression);
  if (bindings.absent.has(text)) return true;
  if (!text.startsWith('{') || !text.endsWith('}')) return false;
  const entries = objectEntries(text);
  return entries.length > 0 && entries.every((e) => !('spread' in e) && bindings.absent.has(bare(e.value)));
}

/** The first owned property of a shape, if any. */
function ownedProperty(shape: Shape | null): Owner | null {
  for (const owner of shape?.properties.values() ?? []) if (owner) return owner;
  return null;
}

/**
 * The owner a query's `where` criterion scopes it to: `{ where: { id: sessionId } }`, `{ where }` with
 * `where` built from the owner's key, `{ where: compositeWhere }`. Null when no criterion is owned, or an
 * OR, a negation or a later spread can let other rows through.
 */
function whereOwner(statement: string, bindings: Bindings): Owner | null {
  for (const match of statement.matchAll(/([{,]\s*)where\s*(?=[:,}])/g)) {
    const rest = statement.slice(match.index + match[0].length);
    const value = rest.startsWith(':') ? (callArguments(`o(${rest.slice(1)}`, 'o') ?? [])[0] : 'where';
    const owner = value === undefined ? null : ownedProperty(shapeOf(value, bindings));
    if (owner) return owner;
  }
  return null;
}

/** A repository function whose result is owned: a call to it denotes what it returns. */
export interface OwnHelper {
  re: RegExp;
  owner: Owner;
}

/** A repository function (by its call pattern) and the exceptions it throws with owned data, by simple class name. */
interface ThrowingHelper {
  name: string;
  re: RegExp;
  exceptions: ReadonlyMap<string, Owner>;
}

const helperCache = new WeakMap<Program, Map<LanguageFacts, RegExp[]>>();
const ownHelperCache = new WeakMap<Program, Map<LanguageFacts, Helpers>>();

/** Per program and facts, a value computed once. */
export function cached<T>(cache: WeakMap<Program, Map<LanguageFacts, T>>, program: Program, facts: LanguageFacts, compute: () => T): T {
  let byFacts = cache.get(program);
  if (!byFacts) cache.set(program, (byFacts = new Map<LanguageFacts, T>()));
  const hit = byFacts.get(facts);
  if (hit !== undefined) return hit;
  const value = compute();
  byFacts.set(facts, value);
  return value;
}

/** The repository's module functions in the facts' language, with their files. */
export function* moduleFunctionsOf(program: Program, facts: LanguageFacts): Generator<{ file: ProgramFile; name: string; fn: FunctionIR }> {
  for (const [path, byName] of program.moduleFunctions) {
    const file = program.byPath.get(path);
    if (file?.factsLanguage !== facts.language) continue;
    for (const [name, refs] of byName) for (const ref of refs) if (/^\w+$/.test(name)) yield { file, name, fn: ref.fn };
  }
}

/**
 * Call patterns of the repository's own functions that return the logged-in user (a PHP helper
 * `function user() { return auth()->user() ?: User::guest(); }`): a call to one denotes that user too.
 */
export function currentUserHelpers(program: Program, facts: LanguageFacts): RegExp[] {
  return [...argumentlessUserHelpers(program, facts), ...userHelpersWithArguments(program, facts).map((h) => h.re)];
}

/** The repository's functions with a `return` of the logged-in user, as argument-less calls (`user()`). */
function argumentlessUserHelpers(program: Program, facts: LanguageFacts): RegExp[] {
  return cached(helperCache, program, facts, () => {
    const found = new Set<string>();
    // Per file, how many lines up to each one return the logged-in user: each line is read once, not
    // once per function around it (a bundled file has thousands of functions over the same lines).
    const counts = new Map<ProgramFile, number[]>();
    const userReturnsUpTo = (file: ProgramFile): number[] => {
      let upTo = counts.get(file);
      if (!upTo) {
        upTo = [0];
        for (const l of file.lines) upTo.push(upTo[upTo.length - 1]! + (/\breturn\b/.test(l) && facts.currentUser.some((re) => re.test(l)) ? 1 : 0));
        counts.set(file, upTo);
      }
      return upTo;
    };
    for (const { file, name, fn } of moduleFunctionsOf(program, facts)) {
      if (found.has(name)) continue;
      const upTo = userReturnsUpTo(file);
      const last = Math.min(fn.endLine, file.lines.length);
      if ((upTo[last] ?? 0) - (upTo[Math.max(fn.startLine - 1, 0)] ?? 0) > 0) found.add(name);
    }
    return [...found].map((name) => new RegExp(`(?<![\\w$>:.])${name}\\(\\)`));
  });
}

/**
 * The value-carrying returns of `fn` itself (not of the closures it defines), each as its returned expression.
 */
function valueReturns(file: ProgramFile, fn: FunctionIR, constants = false, guarded = false): string[] {
  const nested = file.ir.functions.filter((f) => f !== fn && f.startLine > fn.startLine && f.endLine <= fn.endLine);
  const returns: string[] = [];
  for (let line = fn.bodyStartLine; line <= fn.endLine; line++) {
    if (nested.some((f) => f.bodyStartLine < line && line <= f.endLine)) continue;
    const text = file.lines[line - 1] ?? '';
    if (/^\s*return\b/.test(text)) returns.push(balancedStatement(file, line).text.replace(/^\s*return\b/, '').replace(/;[\s\S]*$/, ''));
    else if (guarded) {
      // `if (!token) return "Sign in first.";`: a return behind a one-line guard.
      const inline = /^\s*(?:}\s*)?(?:else\s+)?(?:if\s*\(.*\)\s*|else\s+)return\b(.*)$/.exec(text);
      if (inline) returns.push((inline[1] ?? '').replace(/;[\s\S]*$/, ''));
    }
  }
  return returns.filter((r) => constantValue(r) === constants);
}

/**
 * A returned value that is the user itself, not merely something computed with them: a name bound to
 * the user or a member of one (`user`, `session?.user`), or a call of a user source (`getToken({ req })`).
 */
function returnsUser(value: string, bindings: Bindings, sources: readonly RegExp[]): boolean {
  const text = bare(value).replace(/^await\s+/, '');
  const root = /^([\w$]+)(?:\??\.[\w$]+)*$/.exec(text)?.[1];
  if (root !== undefined) return bindings.names.get(root)?.viaLogin === true;
  return sources.some((re) => new RegExp(`^(?:${re.source})`).test(text)) && ownerOfValue(bindings, text)?.viaLogin === true;
}

/**
 * Lines of `file` that take the logged-in user from a helper that returns them or nothing, and leave
 * when it returned nothing (`const user = await verifyUser({ req, res }); if (!user) return;`): a login check.
 */
export function currentUserTakenOrLeft(program: Program, facts: LanguageFacts, file: ProgramFile): number[] {
  const all = userHelpersWithArguments(program, facts);
  const helpers = all.filter((h) => h.emptyWithout);
  if (helpers.length === 0 || !helpers.some((h) => h.re.test(file.text))) return [];
  const lines: number[] = [];
  // Inside such a helper, leaving hands the caller nothing: the caller's own test is what ends the request.
  const helperBodies = file.ir.functions.filter((f) => all.some((h) => h.name === f.name));
  const calledFirst = helpers.map((h) => new RegExp(`^(?:${h.re.source})`));
  file.lines.forEach((text, index) => {
    if (helperBodies.some((f) => f.bodyStartLine <= index + 1 && index + 1 <= f.endLine)) return;
    const taken = /^\s*(?:const|let|var)\s+([\w$]+)\s*(?::[^=]+)?=\s*(?:await\s+)?(.*)$/.exec(text);
    if (!taken?.[1] || !calledFirst.some((re) => re.test(taken[2] ?? ''))) return;
    if (exitsWhenMissing(file, taken[1], balancedStatement(file, index + 1).end)) lines.push(index + 1);
  });
  return lines;
}

/**
 * Helpers that take arguments (the request) and whose every value-carrying return derives from the
 * logged-in user, the others returning nothing (`null`, a message): a Next.js `verifyUser({ req, res })`
 * that hands back the row found by the id in next-auth's JWT or null after writing a 401. A call to one
 * denotes that user. Read in rounds, so a helper of a helper counts (three levels); a name defined in
 * more than one module is not read.
 */
function userHelpersWithArguments(program: Program, facts: LanguageFacts): ArgumentUserHelper[] {
  return cached(argumentHelperCache, program, facts, () => readUserHelpersWithArguments(program, facts, argumentlessUserHelpers(program, facts)));
}

/** A helper with arguments that returns the logged-in user; `emptyWithout`: its other returns are all empty (`null`, nothing). */
interface ArgumentUserHelper {
  name: string;
  re: RegExp;
  emptyWithout: boolean;
}

const argumentHelperCache = new WeakMap<Program, Map<LanguageFacts, ArgumentUserHelper[]>>();

/** `return;`, `return null`, `return undefined`, `return false`: nothing anyone could act on. */
const EMPTY_RETURN = /^\s*(null|undefined|false)?\s*$/;

function readUserHelpersWithArguments(program: Program, facts: LanguageFacts, patterns: readonly RegExp[]): ArgumentUserHelper[] {
  const defs = new Map<string, { file: ProgramFile; fn: FunctionIR }[]>();
  for (const { file, name, fn } of moduleFunctionsOf(program, facts)) if (fn.parameters.length > 0) defs.set(name, [...(defs.get(name) ?? []), { file, fn }]);
  const known = new Set<string>();
  const found: ArgumentUserHelper[] = [];
  for (let round = 0; round < 3; round++) {
    const sources = [...facts.currentUser, ...patterns, ...found.map((h) => h.re)];
    // Only files that name a source at all are read: most of a repository never touches the user.
    const mentions = new Map<ProgramFile, boolean>();
    const named = (file: ProgramFile): boolean => {
      let hit = mentions.get(file);
      if (hit === undefined) mentions.set(file, (hit = sources.some((re) => re.test(file.text))));
      return hit;
    };
    let grew = false;
    for (const [name, candidates] of defs) {
      const only = candidates.length === 1 ? candidates[0] : undefined;
      if (!only || known.has(name) || !named(only.file)) continue;
      const values = valueReturns(only.file, only.fn, false, true);
      if (values.length === 0) continue;
      const bindings = new Bindings({ ...facts, currentUser: sources });
      propagate(only.file, only.fn, only.fn.endLine + 1, bindings, facts);
      if (!values.every((v) => returnsUser(v, bindings, sources))) continue;
      known.add(name);
      const empty = valueReturns(only.file, only.fn, true, true).every((r) => EMPTY_RETURN.test(r));
      found.push({ name, re: new RegExp(`(?<![\\w$>:.])${escape(name)}\\(`), emptyWithout: empty });
      grew = true;
    }
    if (!grew) break;
  }
  return found;
}

/** What the repository's own functions hand back: owned values, and lookups by a token parameter. */
interface Helpers {
  owned: OwnHelper[];
  /** Calls that look a record up by the token they are given, not yet checked for a miss. */
  tokenLookups: RegExp[];
  /** Functions whose exceptions carry a record they own (a token verifier's "expired"). */
  throwing: ThrowingHelper[];
}

/** A return that hands back no value of anyone's: `null`, `[]`, `['user_id' => null]`. */
function constantValue(text: string): boolean {
  const code = blankStrings(text, "''");
  return !/(?<![\w$])(?!(null|undefined|true|false)\b)[A-Za-z_$][\w$]*(?!\s*:(?!:))(?!\s*=>)/.test(code);
}

/** A call of a repository function by name: module functions, and methods whose name no other function shares. */
function helperCall(name: string): RegExp {
  return new RegExp(`(?<![\\w$])${escape(name)}\\s*\\(`);
}

/**
 * The repository's own functions whose every value-carrying `return` is owned without a login (a
 * record they created, the caller's session, a record found by the caller's token that they leave
 * without), and those that return a lookup by their token parameter. Read in rounds, so a helper of a
 * helper counts (three levels); a method counts only when no other function shares its name.
 */
function ownHelpers(program: Program, facts: LanguageFacts): Helpers {
  return cached(ownHelperCache, program, facts, () => {
    const helpers: Helpers = { owned: [], tokenLookups: [], throwing: [] };
    const byName = new Map<string, { file: ProgramFile; fn: FunctionIR }[]>();
    for (const ref of program.functions.values()) {
      const file = program.byPath.get(ref.path);
      if (file?.factsLanguage !== facts.language || !/^\w+$/.test(ref.fn.name) || CONSTRUCTORS.has(ref.fn.name)) continue;
      byName.set(ref.fn.name, [...(byName.get(ref.fn.name) ?? []), { file, fn: ref.fn }]);
    }
    const known = new Set<string>();
    const ownFacts: LanguageFacts = { ...facts, currentUser: [] };
    for (let round = 0; round < 3; round++) {
      let grew = false;
      for (const [name, defs] of byName) {
        const only = defs.length === 1 ? defs[0] : undefined;
        if (!only || known.has(name)) continue;
        const { file, fn } = only;
        const bindings = new Bindings(ownFacts, helpers.owned, helpers.tokenLookups);
        propagate(file, fn, fn.endLine + 1, bindings, ownFacts);
        const nested = file.ir.functions.filter((f) => f !== fn && f.startLine > fn.startLine && f.endLine <= fn.endLine);
        const values = valueReturns(file, fn);
        if (values.length === 0) continue;
        const wrapsSession = readsOwnSession(file, fn, facts);
        // An object handed back by a function over the caller's session is judged entry by entry.
        const wrapper = (v: string): Owner | null => (sessionWrapper(v, nested, bindings) ? { why: `${name}() wraps the caller's own session`, viaLogin: false } : null);
        const owners = values.map((v) => (wrapsSession && bare(v).startsWith('{') ? wrapper(v) : bindings.owner(v)));
        if (owners.every((o) => o !== null && !o.viaLogin)) {
          helpers.owned.push({ re: helperCall(name), owner: { why: owners[0]?.why ?? 'the request\'s own object', viaLogin: false } });
          known.add(name);
          grew = true;
        } else if (values.every((v) => tokenLookupOf(file, ownFacts, fn, v) !== null)) {
          helpers.tokenLookups.push(helperCall(name));
          known.add(name);
          grew = true;
        }
      }
      if (!grew) break;
    }
    // What their exceptions carry, read once every helper is known.
    for (const [name, defs] of byName) {
      const only = defs.length === 1 ? defs[0] : undefined;
      if (!only || !only.file.lines.slice(only.fn.bodyStartLine, only.fn.endLine).some((l) => /\b(throw|raise)\b/.test(l))) continue;
      const bindings = new Bindings(ownFacts, helpers.owned, helpers.tokenLookups);
      propagate(only.file, only.fn, only.fn.endLine + 1, bindings, ownFacts);
      const exceptions = ownedThrows(only.file, only.fn, (text) => {
        const owner = bindings.owner(text);
        return owner && !owner.viaLogin ? owner : null;
      });
      if (exceptions.size > 0) helpers.throwing.push({ name, re: helperCall(name), exceptions });
    }
    return helpers;
  });
}

/** True when `fn`'s body reads the session the caller's signed cookie names. */
function readsOwnSession(file: ProgramFile, fn: FunctionIR, facts: LanguageFacts): boolean {
  const body = file.lines.slice(fn.bodyStartLine - 1, fn.endLine).join('\n');
  return facts.ownSession.some((re) => re.test(body));
}

/**
 * An object handed back over the caller's session (`return { getClientId, commit, getHeaders: async () => ... }`):
 * every entry is a function of its own or an owned value, so nothing in it is chosen by the request.
 */
function sessionWrapper(value: string, nested: readonly FunctionIR[], bindings: Bindings): boolean {
  const text = bare(value);
  if (!text.startsWith('{') || !text.endsWith('}')) return false;
  const closure = /^(async\s+)?(function\b|(\([^)]*\)|[\w$]+)\s*(:\s*[^=]+)?=>)/;
  return objectEntries(text).every((e) => 'key' in e && (closure.test(e.value.trim()) || nested.some((f) => f.name === e.value.trim()) || bindings.names.has(bare(e.value))));
}

/**
 * The token a lookup is keyed by (`->where('token', '=', $token)->first()`), when it comes from what
 * `fn` was given: a parameter, or a local assigned from one (`const token = String(form.get('token'))`,
 * `form` from `request`), three assignments deep. Otherwise null.
 */
function tokenLookupOf(file: ProgramFile, facts: LanguageFacts, fn: FunctionIR, rhs: string): string | null {
  if (!facts.recordLookups.some((re) => re.test(rhs))) return null;
  for (const re of facts.tokenLookups) {
    const value = re.exec(rhs)?.groups?.['value'];
    if (value && fromParameters(file, fn, value)) return value;
  }
  return null;
}

/** True when `name` is a parameter of `fn` or derives from one through assignments in its body. */
function fromParameters(file: ProgramFile, fn: FunctionIR, name: string): boolean {
  const given = new Set(fn.parameters.flatMap((p) => [p.name, ...destructured(p.name).map(([, local]) => local)]));
  const mentions = (text: string): boolean => [...given].some((g) => new RegExp(`(?<![\\w$.])${escape(g)}(?![\\w$])`).test(text));
  for (let round = 0; round < 3 && !given.has(name); round++) {
    for (let line = fn.bodyStartLine; line <= fn.endLine; line++) {
      const assign = DECLARED.exec(file.lines[line - 1] ?? '');
      if (assign?.[1] && !given.has(assign[1]) && mentions((file.lines[line - 1] ?? '').slice(assign[0].length))) given.add(assign[1]);
    }
  }
  return given.has(name);
}

/**
 * The values an expression can take, split at its top level: `a || b`, `a or b`, `a ?? b`, `a ?: b`,
 * `c ? a : b` (the condition is not a value). Strings and brackets are skipped; `?->`/`?.` are not operators.
 */
export function alternatives(expression: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  let ternary = -1;
  const cut = (from: number, to: number): void => {
    parts.push(expression.slice(from, to).trim());
  };
  for (let i = 0; i < expression.length; i++) {
    const ch = expression[i] ?? '';
    if (quote) {
      if (ch === quote && expression[i - 1] !== '\\') quote = null;
      continue;
    }
    if (ch === '"' || ch === "'" || ch === '`') quote = ch;
    else if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) depth--;
    if (depth !== 0 || quote) continue;
    const two = expression.slice(i, i + 2);
    if (two === '||' || two === '??' || two === '?:') {
      cut(start, i);
      start = i + 2;
      i++;
    } else if (/^\sor\s/i.test(expression.slice(i, i + 4))) {
      cut(start, i);
      start = i + 3;
    } else if (ch === '?' && !/[-.>]/.test(expression[i + 1] ?? '')) {
      ternary = i; // the condition before it is not one of the values
      start = i + 1;
    } else if (ch === ':' && ternary >= 0 && expression[i + 1] !== ':' && expression[i - 1] !== ':') {
      cut(start, i);
      start = i + 1;
      ternary = -1;
    }
  }
  cut(start, expression.length);
  return parts.filter((p) => p.length > 0);
}

/** `[property, value]` of an object literal's top-level entries: `{ user, id: params.id }` → user→user, id→params.id. */
export function objectProperties(literal: string): [string, string][] {
  const entries = callArguments(`o(${literal.replace(/^\{|\}$/g, '')})`, 'o') ?? [];
  const out: [string, string][] = [];
  for (const entry of entries) {
    const pair = /^(\w+)\s*(?::\s*([\s\S]+))?$/.exec(entry.trim());
    if (pair?.[1]) out.push([pair[1], pair[2] ?? pair[1]]);
  }
  return out;
}

/** `[property, local name]` of a destructuring parameter: `{ user, code: c }` → user→user, code→c. */
export function destructured(name: string): [string, string][] {
  const list = /^\s*\[([^\]]*)\]\s*$/.exec(name)?.[1];
  if (list !== undefined) return list.split(',').map((n, i): [string, string] => [String(i), n.trim()]).filter(([, local]) => /^\$?\w+$/.test(local));
  if (!name.trim().startsWith('{')) return [];
  // `{ user, ...session }`: the rest is the same object less the named properties, so it has the same owner
  const rest = /\.\.\.\s*(\w+)\s*\}\s*$/.exec(name.trim())?.[1];
  return [...objectProperties(name.trim()).filter(([, local]) => /^\w+$/.test(local)), ...(rest === undefined ? [] : [['...', rest] as [string, string]])];
}

/** The arguments of the first call to `callee` in `text`, split at top-level commas. */
export function callArguments(text: string, callee: string): string[] | null {
  const at = new RegExp(`(?<![\\w$])${escape(callee)}\\s*\\(`).exec(text);
  if (!at) return null;
  const args: string[] = [];
  let depth = 0;
  let current = '';
  let quote: string | null = null;
  for (let i = at.index + at[0].length; i < text.length; i++) {
    const ch = text[i] ?? '';
    if (quote) {
      current += ch;
      if (ch === quote && text[i - 1] !== '\\') quote = null;
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    if (ch === ')' || ch === ']' || ch === '}') {
      if (depth === 0) {
        if (current.trim().length > 0) args.push(current.trim());
        return args;
      }
      depth--;
    }
    if (ch === ',' && depth === 0) {
      args.push(current.trim());
      current = '';
      continue;
    }
    current += ch;
  }
  return args;
}

/** Parameters and constructor-injected fields the framework fills with the logged-in user. */
function bindInjected(program: Program, facts: LanguageFacts, bindings: Bindings, path: string, fn: FunctionIR): void {
  const typed = (p: { type: string | null; annotations: string[] }): boolean =>
    facts.currentUserTypes.some((re) => (p.type !== null && re.test(p.type)) || p.annotations.some((a) => re.test(a)));
  for (const p of fn.parameters) if (typed(p)) bindings.bind(p.name, `${p.type ?? p.annotations.join(' ')} ${p.name} in ${fn.qualifiedName}`);
  if (fn.className === null) return;
  const cls = lookupClass(program.table, fn.className, path);
  if (!cls) return;
  for (const record of superChain(program.table, cls)) {
    for (const ctor of record.methods.filter((m) => CONSTRUCTORS.has(m.fn.name) || m.fn.name === record.name)) {
      for (const p of ctor.fn.parameters) {
        if (!typed(p)) continue;
        const bare = p.name.replace(/^\$/, '');
        const origin = `${p.type ?? p.annotations.join(' ')} ${p.name} injected into ${record.name}`;
        bindings.bind(`$this->${bare}`, origin);
        bindings.bind(`self.${bare}`, origin);
        bindings.bind(`this.${bare}`, origin);
      }
    }
  }
}

/** The key under which a hop hands the object it calls a method on to that method (`self`, `this`). */
const RECEIVER = '\0receiver';
const SELF = /^(self|this|\$this)$/;

/** True when the operation's object is the method's own `self` (`self.delete()`, `db.session.add(self)`). */
function actsOnSelf(call: CallIR): boolean {
  if (call.receiver !== null && SELF.test(call.receiver)) return true;
  return SELF.test((callArguments(call.text, call.callee) ?? [])[0] ?? '');
}

const ASSIGNMENT = /([$\w]+)\s*(?:\?\?)?=(?![=>])\s*(.+)$/;
const LOOPS = [
  /foreach\s*\((.+?)\s+as\s+(?:\$\w+\s*=>\s*)?(\$\w+)/, // PHP
  /\bfor\s+(\w+)\s+in\s+(.+):/, // Python (target first)
  /\bfor\s*\(\s*(?:const|let|var|final)?\s*(?:[\w<>.]+\s+)?([$\w]+)\s*(?::|\bof\b|\bin\b)\s*(.+)\)/, // Java, JS
];

/** The statement starting at `line` up to where its brackets close and its chain ends (at most forty lines): TypeScript may omit `;`. */
function balancedStatement(file: ProgramFile, line: number): { text: string; end: number } {
  let depth = 0;
  const out: string[] = [];
  // Forty lines: a Prisma lookup with its `where`, `OR` arms and `select` is often twenty or more.
  for (let l = line; l < line + 40 && l <= file.lines.length; l++) {
    const text = file.lines[l - 1] ?? '';
    out.push(text);
    for (const ch of blankStrings(text, '')) {
      if ('([{'.includes(ch)) depth++;
      if (')]}'.includes(ch)) depth--;
    }
    // A chain continued on the next line (`->where(...)`, `.filter(...)`) is the same statement.
    const continued = /^\s*(\?->|->|\?\.|\.)/.test(file.lines[l] ?? '');
    if (depth <= 0 && !continued) return { text: out.join('\n'), end: l };
  }
  return { text: out.join('\n'), end: line };
}

/** The id a lookup is keyed by besides the user: `id: params.callId`, `'id' => $id`, a shorthand `{ id, userId }`. */
function lookupKey(statement: string): string | null {
  const keyed = /(?:\bid|['"]id['"])\s*(?::|=>)\s*([$\w.]+(?:\[['"]?\w+['"]?\])?)/.exec(statement);
  if (keyed?.[1]) return keyed[1];
  return /[{,]\s*id\s*[,}]/.test(statement) ? 'id' : null;
}

/** True when the lines after `end` leave the function when `variable` came back empty (`if (!call) { ... return ... }`). */
function exitsWhenMissing(file: ProgramFile, variable: string, end: number): boolean {
  const v = escape(variable);
  const missing = new RegExp(`\\bif\\s*\\(\\s*(!\\s*${v}(?![\\w$])|${v}\\s*===?\\s*(null|undefined)|(null|undefined)\\s*===?\\s*${v}(?![\\w$])|is_null\\(\\s*${v}\\s*\\))\\s*\\)`);
  for (let line = end + 1; line <= Math.min(file.lines.length, end + 3); line++) {
    const head = file.lines[line - 1] ?? '';
    if (!missing.test(head)) continue;
    const own = /^\s*/.exec(head)?.[0].length ?? 0;
    for (let l = line; l <= Math.min(file.lines.length, line + 8); l++) {
      const text = file.lines[l - 1] ?? '';
      if (l > line && text.trim() !== '' && (/^\s*/.exec(text)?.[0].length ?? 0) <= own) return false;
      if (/\b(return|throw|abort\w*|redirect)\b/.test(l === line ? text.slice(text.indexOf(')')) : text)) return true;
    }
    return false;
  }
  return false;
}

/**
 * A local taken from a field of `variable` just after it (`const oldEmail = verifyToken?.identifier;`)
 * whose absence the code then leaves on (`if (!oldEmail) return ...`): the lookup's miss is tested
 * through it. The local's name, or null.
 */
function fieldTestedForMissing(file: ProgramFile, variable: string, end: number): string | null {
  const field = new RegExp(String.raw`^\s*(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*${escape(variable)}\s*\??\.\s*[\w$]+\s*;?\s*$`);
  const at = nextCodeLine(file, end);
  const local = at === null ? undefined : field.exec(file.lines[at - 1] ?? '')?.[1];
  if (at === null || local === undefined) return null;
  // The test is the next statement: nothing runs between the lookup and the leaving.
  const test = nextCodeLine(file, at);
  const testsLocal = test !== null && new RegExp(String.raw`^\s*if\s*\(\s*!\s*${escape(local)}\s*\)`).test(file.lines[test - 1] ?? '');
  return testsLocal && exitsWhenMissing(file, local, test - 1) ? local : null;
}

/** The first line after `line` (three at most) that holds code, not a blank or a comment. */
function nextCodeLine(file: ProgramFile, line: number): number | null {
  for (let l = line + 1; l <= Math.min(file.lines.length, line + 3); l++) {
    const text = (file.lines[l - 1] ?? '').trim();
    if (text !== '' && !text.startsWith('//') && !text.startsWith('#')) return l;
  }
  return null;
}

/** A record's secret verified at `line` (a possession check that dominates the operation). */
export interface PossessionCheck {
  line: number;
}

const DECLARED = /^\s*(?:(?:const|let|var|final)\s+)?(\$?[A-Za-z_]\w*)\s*(?:\?\?)?=(?![=>])/;
const DESTRUCTURED = /^\s*(?:(?:const|let|var)\s*(\{[^}]*\})|(?:(?:const|let|var)\s*)?(\[[^\]]*\]))\s*=(?![=>])\s*(.+)$/;
/** The roots of the member expressions a statement reads: `verification` of `verification.codeHash`, `$user` of `$user->password`. */
const MEMBER_ROOT = /(?<![\w$.>:])(\$?[A-Za-z_]\w*)\s*(?:\?\.|\.|->|\[)/g;

/**
 * A Python line that continues a bracketed expression begun above it (the previous code line ends in an
 * open bracket or a comma): a keyword argument of a call written over several lines (`feedback =
 * Feedback(` then `feedback=feedback_in.feedback,`) names the callee's parameter, it assigns no local.
 */
function continuesBracket(file: ProgramFile, fn: FunctionIR, line: number): boolean {
  if (file.factsLanguage !== 'python') return false;
  for (let l = line - 1; l >= fn.bodyStartLine; l--) {
    const code = blankStrings(file.lines[l - 1] ?? '', '').replace(/#.*$/, '').trimEnd();
    if (code.trim() !== '') return /[([{,]$/.test(code);
  }
  return false;
}

/**
 * Follow assignments and loops in `fn` from its body to `untilLine` (exclusive). At a possession check,
 * the records its arguments read that the function looked up (and did not take from the request as
 * they are) become the caller's own.
 */
/** A digest (hash, HMAC) computed over a token or secret: `sha256(new TextEncoder().encode(token))`, `hash('sha256', $token)`. */
const DIGEST_OF_TOKEN = /\b(sha(1|224|256|384|512)|sha3\w*|createHash|createHmac|hash(_hmac)?|digest|hmac\w*)\s*\([^;]*\b\$?\w*([Tt]oken|[Ss]ecret)\b/;

function propagate(file: ProgramFile, fn: FunctionIR, untilLine: number, bindings: Bindings, facts?: LanguageFacts, possession: readonly PossessionCheck[] = []): void {
  const lookedUp = new Set<string>();
  for (let line = fn.bodyStartLine; line < untilLine && line <= fn.endLine; line++) {
    const text = file.lines[line - 1] ?? '';
    for (const [i, re] of LOOPS.entries()) {
      const m = re.exec(text);
      if (!m) continue;
      const [source, target] = i === 0 ? [m[1], m[2]] : i === 1 ? [m[2], m[1]] : [m[2], m[1]];
      if (source && target) {
        const owner = bindings.owner(source);
        if (owner) bindings.bind(target, owner);
      }
    }
    const destructuring = DESTRUCTURED.exec(text);
    const pattern = destructuring?.[1] ?? destructuring?.[2];
    if (pattern && destructuring?.[3]) {
      // `const { verification, code } = await createVerification(...)`, `[$id, $at] = explode(...)`: each local takes the value's owner.
      const rhs = balancedStatement(file, line).text.slice(text.indexOf(destructuring[3]));
      const owner = ownerOfValue(bindings, rhs);
      const looked = facts?.recordLookups.some((re) => re.test(rhs)) === true;
      for (const [, local] of destructured(pattern)) {
        if (owner) bindings.bind(local, owner);
        if (looked) lookedUp.add(local);
      }
    }
    const assign = ASSIGNMENT.exec(text);
    if (assign?.[1] && assign[2] && !destructuring && !/^\s*(if|elif|while|return)\b/.test(text) && !continuesBracket(file, fn, line)) {
      // A lookup written over several lines is read whole: its user constraint may sit on a later line.
      const statement = balancedStatement(file, line);
      const rhs = statement.text.slice(statement.text.indexOf(assign[2]));
      // Every value the right-hand side can take must come from the user (`find($id) ?? ...` does not), and
      // when it is a lookup, the user alone must scope it (no OR, no spread, no request value beside it);
      // a plain value handed on (`session.get('id')`, a helper's answer) keeps its owner.
      const lookup = facts?.recordLookups.some((re) => re.test(rhs)) === true;
      const scopedWhere = lookup ? whereOwner(rhs, bindings) : null;
      const declared = DECLARED.exec(text)?.[1] === assign[1];
      // A digest of the token the caller presents (`sessionId = sha256(token)`): only its holder can name the row it keys.
      const digest = declared && !lookup && DIGEST_OF_TOKEN.test(rhs.replace(/;[\s\S]*$/, '')) ? { why: `${assign[1]}, a digest of the token the caller presents (line ${line})`, viaLogin: false } : null;
      const owner = (!lookup || scopedByUserAlone(rhs, bindings) ? (ownerOfValue(bindings, rhs) ?? scopedWhere) : scopedWhere) ?? digest;
      const shape = declared ? shapeOf(rhs.replace(/;[\s\S]*$/, ''), bindings) : null;
      if (declared && facts && [...facts.recordLookups, ...facts.possessedLookups].some((re) => re.test(rhs))) lookedUp.add(assign[1]);
      const byToken = declared && owner === null && (tokenLookupOf(file, facts ?? bindings.facts, fn, rhs) !== null || bindings.tokenLookups.some((re) => re.test(rhs)));
      const field = byToken ? fieldTestedForMissing(file, assign[1], statement.end) : null;
      if (byToken && (exitsWhenMissing(file, assign[1], statement.end) || field !== null)) {
        // Found by the token the request holds, and the code leaves when none matches: possession.
        const found: Owner = { why: `${assign[1]}, found by the caller's token at line ${line} (the code leaves when none matches)`, viaLogin: false };
        bindings.bind(assign[1], found);
        if (field !== null) bindings.bind(field, found);
      } else if (owner) {
        bindings.bind(assign[1], owner);
        // A lookup scoped by the user that leaves when nothing came back proves its key is the user's too.
        const key = lookupKey(rhs);
        if (key && exitsWhenMissing(file, assign[1], statement.end)) bindings.bind(key, { why: `${key}, found for ${owner.why} in the lookup at line ${line}`, viaLogin: owner.viaLogin });
      } else if (declared) {
        bindings.unbind(assign[1]); // `id = params.id` after `id = created.id`: the request's value now
      }
      if (shape && ownedProperty(shape)) bindings.shapes.set(assign[1], shape);
    }
    if (file.factsLanguage === 'python' && text.includes(':=')) bindWalrus(file, line, bindings, facts);
    if (bindings.throwing.length > 0 && /\b(catch|except)\b/.test(text)) bindCaught(file, fn, line, bindings);
    if (possession.some((p) => p.line === line)) {
      for (const match of balancedStatement(file, line).text.matchAll(MEMBER_ROOT)) {
        const root = match[1] ?? '';
        if (lookedUp.has(root)) bindings.bind(root, { why: `${root}, whose stored secret was verified at line ${line}`, viaLogin: false });
      }
    }
  }
}

/** `if (found := lookup scoped by the user):` binds `found` as `found = lookup` on its own line would. */
function bindWalrus(file: ProgramFile, line: number, bindings: Bindings, facts: LanguageFacts | undefined): void {
  const first = (file.lines[line - 1] ?? '').length;
  // The statement from this line on, for a value written over the next lines; a name on a later line is read there.
  for (const { name, value, at } of walrusAssignments(balancedStatement(file, line).text)) {
    if (at >= first) continue;
    const lookup = facts?.recordLookups.some((re) => re.test(value)) === true;
    const scopedWhere = lookup ? whereOwner(value, bindings) : null;
    const owner = !lookup || scopedByUserAlone(value, bindings) ? (ownerOfValue(bindings, value) ?? scopedWhere) : scopedWhere;
    if (owner) bindings.bind(name, owner);
  }
}

/**
 * A catch arm on `line` whose `try` calls a function that throws every caught class with an owned
 * record's data (a token verifier's "expired" exception): the caught variable carries that record.
 */
function bindCaught(file: ProgramFile, fn: FunctionIR, line: number, bindings: Bindings): void {
  const arm = catchArmAt(file, fn, line);
  if (!arm || arm.variable === '') return;
  const body = file.lines.slice(arm.tryFrom - 1, arm.tryTo).join('\n');
  for (const helper of bindings.throwing) {
    const owners = arm.types.map((t) => helper.exceptions.get(t));
    const first = owners[0];
    if (!first || owners.some((o) => o === undefined) || !helper.re.test(body)) continue;
    bindings.bind(arm.variable, { why: `${arm.variable}, thrown by ${helper.name}() with ${first.why}`, viaLogin: false });
    return;
  }
}

/** The functions of `file` that `fn` is nested in, outermost first. */
function enclosing(file: ProgramFile, fn: FunctionIR): FunctionIR[] {
  return file.ir.functions.filter((f) => f !== fn && f.startLine <= fn.startLine && f.endLine >= fn.endLine && (f.startLine < fn.startLine || f.endLine > fn.endLine)).sort((a, b) => a.startLine - b.startLine);
}

/** Whose every value the right-hand side can take is (`find($id) ?? ...` is nobody's), or null. */
function ownerOfValue(bindings: Bindings, rhs: string): Owner | null {
  const values = alternatives(rhs.replace(/;[\s\S]*$/, '')).filter((v) => !isAbsent(v, bindings));
  if (values.length === 0 || !values.every((v) => bindings.owner(v) !== null)) return null;
  return values.map((v) => bindings.owner(v)).find((o) => o !== null) ?? null;
}

/** A call's plain arguments: the ones that can name the object acted on (not object or array literals, strings or named data). */
function objectArguments(call: CallIR): string[] {
  return (callArguments(call.text, call.callee) ?? []).filter((arg) => !/^[[{'"`]/.test(arg) && !/^\w+\s*:(?!:)/.test(arg));
}

/** The operation row's `queued_by` patterns: calls whose argument it writes (Doctrine's persist/remove before flush). */
function queuedBy(facts: LanguageFacts, op: OperationSite): RegExp[] {
  return facts.operations.find((o) => o.id === op.operationId)?.queuedBy ?? [];
}

/**
 * Whose the object an operation acts on is: its receiver (`$user->tokens()->delete()`), a plain
 * argument (`$em->remove($bookmark)`, `db.update(userTable, user.id, {...})`), or, for a write of queued
 * changes (`flush()`), every object queued before it in the same function.
 */
function operatedObjectOwner(file: ProgramFile, fn: FunctionIR, call: CallIR, bindings: Bindings, queued: readonly RegExp[]): Owner | null {
  if (call.receiver) {
    const owner = bindings.owner(call.receiver);
    if (owner) return owner;
  }
  for (const arg of objectArguments(call)) {
    const owner = bindings.owner(arg);
    if (owner) return owner;
  }
  // A query write scoped by its `where` criterion: `delete({ where: { id: sessionId } })`.
  const statement = balancedStatement(file, call.line).text;
  const scoped = whereOwner(statement.slice(Math.max(0, statement.indexOf(call.callee))), bindings);
  if (scoped) return scoped;
  if (queued.length === 0 || objectArguments(call).length > 0) return null;
  const before = file.ir.calls.filter((c) => c.line >= fn.bodyStartLine && c.line < call.line && queued.some((re) => re.test(callSignature(c))));
  if (before.length === 0) return null;
  let owner: Owner | null = null;
  for (const queuedCall of before) {
    const first = objectArguments(queuedCall)[0];
    owner = first === undefined ? null : bindings.owner(first);
    if (!owner) return null;
  }
  return owner;
}

/**
 * Whose the object the operation acts on is, along the path: the logged-in user's (or derived from
 * them), a record created on the path, the caller's own session, or a record whose secret a possession
 * check (`possession`: function id → the checks that dominate the operation there) verified. Null
 * when it is nobody's in particular.
 */
export function operatedOwner(program: Program, facts: LanguageFacts, path: PathRecord, op: OperationSite, possession: ReadonlyMap<string, readonly PossessionCheck[]> = new Map()): Owner | null {
  if (facts.currentUser.length + facts.currentUserTypes.length + facts.createdObjects.length + facts.ownSession.length === 0 && possession.size === 0) return null;
  const own = ownHelpers(program, facts);
  const helpers: OwnHelper[] = [...currentUserHelpers(program, facts).map((re) => ({ re, owner: { why: 'the logged-in user', viaLogin: true } })), ...own.owned];
  let passed = new Map<number | string, Owner>();
  /** Per argument position, the properties an object argument names (what it does not name is undefined). */
  let supplied = new Map<number, Set<string>>();
  /** The previous hop's function and what it had bound when it made the call. */
  let caller: { path: string; fn: FunctionIR; bindings: Bindings } | null = null;
  for (const [i, hop] of path.hops.entries()) {
    const ref = program.functions.get(hop.functionId);
    const file = ref ? program.byPath.get(ref.path) : undefined;
    if (!ref || !file) return null;
    const bindings = new Bindings(facts, helpers, own.tokenLookups, own.throwing);
    if (caller && caller.path === ref.path && enclosing(file, ref.fn).includes(caller.fn)) {
      // A closure called by the function it is written in sees that call's values (`deactivate()` reading
      // the `user` its outer function was handed), unless a parameter of its own shadows the name.
      const shadowed = new Set(ref.fn.parameters.map((p) => p.name));
      for (const [name, owner] of caller.bindings.names) if (!shadowed.has(name)) bindings.bind(name, owner);
    }
    bindInjected(program, facts, bindings, ref.path, ref.fn);
    const scoped = userScopedQueryset(program, facts, ref);
    if (scoped) for (const name of ['self.get_object', 'self.object']) bindings.bind(name, scoped);
    // A method called on an owned object (`ticket.save_to_db()` on the ticket this request built) acts
    // on it as `self`; only `self` itself, not what the method derives from it (everything mentions `self`).
    const receiver = passed.get(RECEIVER) ?? null;
    ref.fn.parameters.forEach((p, index) => {
      const owner = passed.get(index) ?? passed.get(p.name.replace(/^\$/, ''));
      if (owner) bindings.bind(p.name, owner);
      // A destructured parameter `{ user, code }` takes the properties of an object argument by name;
      // one the caller's object never names is undefined on this path.
      const keys = supplied.get(index);
      for (const [property, local] of destructured(p.name)) {
        const fromProperty = passed.get(`.${property}`);
        if (fromProperty) bindings.bind(local, fromProperty);
        else if (keys && !keys.has(property)) bindings.absent.add(local);
      }
    });
    const isLast = i === path.hops.length - 1;
    const until = isLast ? op.line : hop.callLine ?? ref.fn.endLine;
    // A closure sees what the functions around it bound before it (`const getId = () => session.get('id')`).
    for (const outer of enclosing(file, ref.fn)) propagate(file, outer, ref.fn.startLine, bindings, facts);
    propagate(file, ref.fn, until, bindings, facts, possession.get(hop.functionId));
    if (isLast) {
      // The operation's own call: on its line, matching its row (a chain's inner `DB::table(...)` shares the line).
      const row = facts.operations.find((o) => o.id === op.operationId);
      const onLine = file.ir.calls.filter((c) => c.line === op.line);
      const call = onLine.find((c) => row?.calls.some((re) => re.test(callSignature(c))) === true) ?? onLine.find((c) => c.text === op.call) ?? onLine[0];
      if (!call) return null;
      return operatedObjectOwner(file, ref.fn, call, bindings, queuedBy(facts, op)) ?? (receiver && actsOnSelf(call) ? receiver : null);
    }
    caller = { path: ref.path, fn: ref.fn, bindings };
    // Hand the owned values to the next hop's parameters, by position or by name.
    const next = path.hops[i + 1] ? program.functions.get(path.hops[i + 1]?.functionId ?? '') : undefined;
    if (!next || hop.callLine === null) return null;
    const args = callArguments(statementAt(file, hop.callLine, 6), next.fn.name) ?? [];
    passed = new Map();
    supplied = new Map();
    const called = new RegExp(`([$\\w.]+?)\\s*(?:\\?->|->|\\?\\.|\\.)\\s*${escape(next.fn.name)}\\s*\\(`).exec(statementAt(file, hop.callLine, 6))?.[1];
    const calledOwner = called === undefined ? null : SELF.test(called) ? receiver : ownerOfValue(bindings, called);
    if (calledOwner) passed.set(RECEIVER, calledOwner);
    args.forEach((arg, index) => {
      // An object argument `{ user, code }` (or a local holding one) hands over each property an owned
      // value flows into; a spread of something unknown is not read.
      const shape = shapeOf(arg, bindings);
      if (shape) {
        for (const [property, owner] of shape.properties) if (owner) passed.set(`.${property}`, owner);
        if (shape.complete || arg.trim().startsWith('{')) supplied.set(index, new Set([...shape.properties.keys(), ...objectEntries(bare(arg)).flatMap((e) => ('key' in e ? [e.key] : []))]));
      }
      if (arg.startsWith('{')) return;
      const named = /^(\w+)\s*[:=](?![:=])\s*(.+)$/s.exec(arg);
      const owner = ownerOfValue(bindings, named?.[2] ?? arg);
      if (!owner) return;
      if (named?.[1]) passed.set(named[1], owner);
      else passed.set(index, owner);
    });
  }
  return null;
}
