/**
 * The controller's object-check norm (ADR 0050). A permission that names no object
 * (`@PreAuthorize("@ss.hasPermi('system:user:edit')")`) is authority over every object, unless the
 * project itself reasons per object: when a handler of the same class passes the object the request
 * chose to an object check of the project (`userService.checkUserDataScope(userId)` in `getInfo`), the
 * application's access model is per object (a data scope, a tenant, an owner), and a sibling handler
 * that changes an object of the same kind the request chose, with no object check on its path, is the
 * one its author forgot (RuoYi's data scope fixes; every fork of it carries the same helpers).
 *
 * An object check is a repository function with a parameter, that reads the logged-in user (directly
 * or a few calls down: `SecurityUtils.getUserId()` → `getLoginUser()` → the security context) and
 * throws. A helper that tests only the object (`checkUserAllowed(user)`: not the super administrator)
 * is none. The kind of object is the word the sibling's argument names (`userId`, `user.getUserId()`:
 * `user`); the handler acts on one when a parameter is named for it or typed by it (`SysUser user`),
 * and changes an existing one when it is mapped to PUT, PATCH or DELETE or takes it from the URL path
 * (a POST that creates an object is not under the norm). Textual, like resource-binding.ts.
 */
import type { CallIR, FunctionIR } from '../syntax/ir-types.js';
import type { Facts, LanguageFacts } from './facts.js';
import { callArguments } from './ownership.js';
import { rootVariable, type UnboundResource } from './resource-binding.js';
import { resolveCall, type Program } from './resolution.js';
import type { EntryPoint, FunctionRef, OperationSite, PathRecord, ProgramFile } from './types.js';

/** How many calls below a helper the read of the logged-in user may sit. */
const MAX_DEPTH = 4;
const THROWS = /\bthrow\s+new\b/;
/** Handler parameters that are the framework's, never the object the request names. */
const FRAMEWORK_TYPES = /^(HttpServlet(Request|Response)|ServletRequest|ServletResponse|Model|ModelMap|BindingResult|Principal|Authentication|MultipartFile|Pageable|Sort|Locale|HttpSession)$/;
/** A mapping that changes an existing object. */
const CHANGES_EXISTING = /^(PutMapping|PatchMapping|DeleteMapping)\b|RequestMethod\.(PUT|PATCH|DELETE)\b/;

/** One object check a handler of the class makes: the helper, the kind of object, where. */
interface ClassCheck {
  helper: FunctionRef;
  word: string;
  sibling: string;
}

const readsUserMemo = new WeakMap<Program, Map<string, boolean>>();
const normMemo = new WeakMap<Program, Map<string, ClassCheck[]>>();

function memoOf<T>(store: WeakMap<Program, Map<string, T>>, program: Program): Map<string, T> {
  let map = store.get(program);
  if (!map) store.set(program, (map = new Map<string, T>()));
  return map;
}

function bodyLines(file: ProgramFile, fn: FunctionIR): string[] {
  return file.lines.slice(fn.bodyStartLine - 1, fn.endLine);
}

function callsIn(file: ProgramFile, fn: FunctionIR, before = Infinity): CallIR[] {
  return file.ir.calls.filter((c) => c.line >= fn.bodyStartLine && c.line <= fn.endLine && c.line < before);
}

/** True when the function reads the logged-in user, itself or through repository calls a few levels down. */
function readsCurrentUser(program: Program, facts: LanguageFacts, ref: FunctionRef, depth: number): boolean {
  const memo = memoOf(readsUserMemo, program);
  const known = memo.get(ref.id);
  if (known !== undefined) return known;
  memo.set(ref.id, false);
  const file = program.byPath.get(ref.path);
  if (!file) return false;
  let reads = bodyLines(file, ref.fn).some((line) => facts.currentUser.some((re) => re.test(line)));
  if (!reads && depth < MAX_DEPTH) {
    reads = callsIn(file, ref.fn).some((call) => resolveCall(program, file, ref.fn, call).targets.some((t) => t.id !== ref.id && readsCurrentUser(program, facts, t, depth + 1)));
  }
  memo.set(ref.id, reads);
  return reads;
}

/** An object check: a repository function with a parameter that reads the logged-in user and throws. */
export function isObjectCheck(program: Program, facts: LanguageFacts, ref: FunctionRef): boolean {
  const file = program.byPath.get(ref.path);
  if (!file || ref.fn.parameters.length === 0) return false;
  if (!bodyLines(file, ref.fn).some((line) => THROWS.test(line))) return false;
  return readsCurrentUser(program, facts, ref, 0);
}

/** The kind of object an argument names: `userId`, `userIds`, `user.getUserId()` → `user`; '' for a bare `id`. */
export function objectWord(argument: string): string {
  const names = [...argument.matchAll(/[A-Za-z_]\w*/g)].map((m) => m[0]);
  const last = names[names.length - 1] ?? '';
  return last.replace(/^get(?=[A-Z])/, '').replace(/(Ids?|Keys?|List)$/, '').toLowerCase();
}

/** The object checks the handler makes on what the request chose (an argument rooted at one of its parameters). */
function objectChecksOf(program: Program, facts: LanguageFacts, ref: FunctionRef): ClassCheck[] {
  const file = program.byPath.get(ref.path);
  if (!file) return [];
  const parameters = new Set(ref.fn.parameters.map((p) => p.name));
  const out: ClassCheck[] = [];
  for (const call of callsIn(file, ref.fn)) {
    const args = callArguments(call.text, call.callee) ?? [];
    const chosen = args.filter((a) => {
      const root = rootVariable(a);
      return root !== null && parameters.has(root);
    });
    if (chosen.length === 0) continue;
    for (const target of resolveCall(program, file, ref.fn, call).targets) {
      if (!isObjectCheck(program, facts, target)) continue;
      for (const argument of chosen) {
        const word = objectWord(argument);
        if (word !== '') out.push({ helper: target, word, sibling: ref.fn.qualifiedName });
      }
    }
  }
  return out;
}

/** The object checks the other handlers of the entry's class make (computed once per class). */
function classChecks(program: Program, facts: LanguageFacts, entries: ReadonlyMap<string, EntryPoint>, entry: EntryPoint): ClassCheck[] {
  const own = program.functions.get(entry.functionId);
  const className = own?.fn.className;
  if (!own || !className) return [];
  const key = `${entry.path}\0${className}`;
  const memo = memoOf(normMemo, program);
  let all = memo.get(key);
  if (!all) {
    all = [];
    for (const other of entries.values()) {
      const ref = program.functions.get(other.functionId);
      if (other.path !== entry.path || ref?.fn.className !== className) continue;
      all.push(...objectChecksOf(program, facts, ref));
    }
    memo.set(key, all);
  }
  return all.filter((c) => c.sibling !== own.fn.qualifiedName);
}

/** True when a hop of the path calls an object check before it moves on (or before the operation). */
function pathChecksObject(program: Program, facts: LanguageFacts, path: PathRecord, op: OperationSite): boolean {
  return path.hops.some((hop, i) => {
    const ref = program.functions.get(hop.functionId);
    const file = ref ? program.byPath.get(ref.path) : undefined;
    if (!ref || !file) return false;
    const bound = i === path.hops.length - 1 ? op.line : (hop.callLine ?? 0);
    return callsIn(file, ref.fn, bound).some((call) => resolveCall(program, file, ref.fn, call).targets.some((t) => isObjectCheck(program, facts, t)));
  });
}

function capitalised(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** The handler's parameter naming an existing object of kind `word` that it changes, or null. */
function changedObject(ref: FunctionRef, word: string, facts: LanguageFacts): string | null {
  const changes = ref.fn.decorators.some((d) => CHANGES_EXISTING.test(d));
  const typed = new RegExp(`(^|[a-z0-9_.])${capitalised(word)}(\\[\\])?$`);
  for (const p of ref.fn.parameters) {
    const type = (p.type ?? '').replace(/<.*$/s, '').trim();
    if (FRAMEWORK_TYPES.test(type.replace(/^.*\./, ''))) continue;
    if (facts.currentUserTypes.some((re) => p.annotations.some((a) => re.test(a)) || re.test(type))) continue;
    const named = new RegExp(`^${word}(Ids?|Keys?)?$`, 'i').test(p.name);
    if (!named && !typed.test(type)) continue;
    if (changes || p.annotations.some((a) => /^PathVariable\b/.test(a))) return p.name;
  }
  return null;
}

/**
 * For an operation on an object a permission naming no object let through: the unchecked object when
 * the entry's class is under the object-check norm and this path makes no object check; else null.
 */
export function objectCheckNorm(program: Program, facts: LanguageFacts | undefined, entries: ReadonlyMap<string, EntryPoint>, entry: EntryPoint, path: PathRecord, op: OperationSite): UnboundResource | null {
  if (!facts || op.handlerNamed || !op.requires.includes('ownership_check')) return null;
  const ref = program.functions.get(entry.functionId);
  if (!ref) return null;
  const checks = classChecks(program, facts, entries, entry);
  if (checks.length === 0) return null;
  for (const check of checks) {
    const variable = changedObject(ref, check.word, facts);
    if (variable === null) continue;
    if (pathChecksObject(program, facts, path, op)) return null;
    return {
      variable,
      sentence: `\`${variable}\` is the ${check.word} the request chose for ${op.call.replace(/\s+/g, ' ').slice(0, 80)}; ${check.sibling} checks a ${check.word} it is given with ${check.helper.fn.qualifiedName}() (the project checks objects one by one), and no such check is on this path: the permission before it names no object.`,
    };
  }
  return null;
}

/** Most lines an accessor of the logged-in user spans (a getter, a cast, a try around it). */
const ACCESSOR_LINES = 12;

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The project's own accessors of the logged-in user, as current-user patterns: a short Java method
 * with no parameter that returns what the security context holds, a few calls down
 * (`SecurityUtils.getUserId()`, a base controller's `getLoginUser()`). A static one is matched on its
 * class (`SecurityUtils.getUserId()`), an instance one only as a bare call (`getUserId()`, inherited
 * from the base controller), never on another receiver (`user.getUserId()` is that user's id).
 */
export function projectCurrentUserPatterns(program: Program, facts: LanguageFacts): RegExp[] {
  const out: RegExp[] = [];
  for (const file of program.files) {
    if (file.factsLanguage !== 'java') continue;
    for (const fn of file.ir.functions) {
      if (fn.parameters.length > 0 || fn.className === null || fn.isLambda || fn.endLine - fn.startLine > ACCESSOR_LINES) continue;
      if (!bodyLines(file, fn).some((line) => /\breturn\b/.test(line))) continue;
      const ref = program.nodeOf.get(fn);
      if (!ref || ref.fn !== fn || !readsCurrentUser(program, facts, ref, 0)) continue;
      const name = escaped(fn.name);
      out.push(fn.modifiers.includes('static') ? new RegExp(`\\b${escaped(fn.className)}\\.${name}\\(\\)`) : new RegExp(`(?<![\\w.])${name}\\(\\)`));
    }
  }
  return out;
}

/** The facts with the project's own accessors of the logged-in user added to Java's current-user patterns. */
export function withProjectCurrentUser(program: Program, facts: Facts): Facts {
  const patterns = projectCurrentUserPatterns(program, facts.java);
  if (patterns.length === 0) return facts;
  return { ...facts, java: { ...facts.java, currentUser: [...facts.java.currentUser, ...patterns] } };
}
