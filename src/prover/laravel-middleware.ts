/**
 * Laravel middleware as the application declares it. A route, a route group, a controller constructor or
 * a service provider names middleware by alias (`'auth'`, `'can:edit,post'`), by group (`'web'`), or by
 * class (`EnsureUserIsAdmin::class`, `X::class.':param'`). Aliases and groups come from the HTTP kernel
 * (`$middlewareAliases`, `$routeMiddleware`, `$middlewareGroups`, global `$middleware`) or from Laravel
 * 11's `bootstrap/app.php` (`->withMiddleware(...)`); whole route files get middleware from the provider
 * or `withRouting(...)` that loads them. A middleware class of the repository is judged by reading its
 * `handle()`: it is a check only when, before it calls `$next`, it ends the request for a missing user or
 * a failed permission test. A library class is judged by the facts rows naming it.
 */
import type { DischargerFact, LanguageFacts } from './facts.js';
import { guestFallbackHelpers } from './guest-users.js';
import { roleTestDenial } from './middleware-role-tests.js';
import { callArguments, currentUserHelpers } from './ownership.js';
import { findMethod, lookupClass, namespaceOf, superChain, type ClassRecord, type Program } from './resolution.js';
import type { DischargeKind, FunctionRef, ProgramFile } from './types.js';

/** What one middleware reference checks, with the evidence for the finding's reader. */
export interface MiddlewareCheck {
  kind: DischargeKind;
  dischargerId: string;
  evidence: string;
  /** A route-name access list's check: it holds only for a route the project's access list names. */
  routeAcl?: true;
}

/** Middleware attached to every route of a routes file, and where that was declared. */
interface FileAttachment {
  /** The routes file as written relative to the application (`routes/admin.php`). */
  suffix: string;
  refs: string[];
  evidence: string;
}

/** The application's middleware declarations, read once per run. */
export interface MiddlewareRegistry {
  /** Alias → class reference (`auth` → `\App\Http\Middleware\Authenticate::class`). */
  aliases: Map<string, { ref: string; file: ProgramFile }>;
  /** Group → member references (aliases, groups or classes). */
  groups: Map<string, { refs: string[]; file: ProgramFile }>;
  /** Middleware every route runs through (the kernel's `$middleware`, `->append(...)`). */
  global: { refs: string[]; file: ProgramFile }[];
  attachments: FileAttachment[];
}

/** Statement checks a function makes on every path before a line (supplied by the witness collector). */
export type ChecksBefore = (fn: FunctionRef, line: number) => { kind: DischargeKind; dischargerId: string; evidence: string }[];

/** Input of `judgeMiddleware`. */
export interface JudgeContext {
  program: Program;
  facts: LanguageFacts;
  registry: MiddlewareRegistry;
  checksBefore: ChecksBefore;
}

const CLASS_REF = /(\\?[A-Za-z_][\w\\]*)::class(?:\s*\.\s*['"]:([^'"]*)['"])?/y;
const STRING_REF = /['"]([^'"]+)['"]/y;

/**
 * Middleware references in an argument or array text of `file`, in order: quoted names as they are
 * (`can:edit,post`), class constants fully qualified through the file's imports (`\App\X::class`), with
 * their parameters after a colon, so that a reference means the same wherever it is judged or removed.
 */
export function middlewareTokens(text: string, file: ProgramFile): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i++) {
    CLASS_REF.lastIndex = i;
    const cls = CLASS_REF.exec(text);
    if (cls?.[1] && (i === 0 || !/[\w\\]/.test(text[i - 1] ?? ''))) {
      const qualified = `\\${qualifiedName(cls[1], file)}`;
      out.push(cls[2] ? `${qualified}::class:${cls[2]}` : `${qualified}::class`);
      i = CLASS_REF.lastIndex - 1;
      continue;
    }
    STRING_REF.lastIndex = i;
    const quoted = text[i] === "'" || text[i] === '"' ? STRING_REF.exec(text) : null;
    if (quoted?.[1]) {
      out.push(quoted[1]);
      i = STRING_REF.lastIndex - 1;
    }
  }
  return out;
}

/** Every middleware a text applies: `middleware(a, [b, C::class])` calls and `'middleware' => ...` entries. */
export function appliedMiddleware(text: string, file: ProgramFile): string[] {
  const refs: string[] = [];
  for (const match of text.matchAll(/(?<!without)(?<![\w$])[Mm]iddleware\s*\(/g)) {
    const args = callArguments(text.slice(match.index), match[0].replace(/\s*\($/, '')) ?? [];
    for (const arg of args) if (!/^\s*(only|except)\s*:/.test(arg)) refs.push(...middlewareTokens(arg, file));
  }
  for (const match of text.matchAll(/['"]middleware['"]\s*=>\s*(\[[^\]]*\]|['"][^'"]*['"]|\\?[\w\\]+::class)/g)) refs.push(...middlewareTokens(match[1] ?? '', file));
  return refs;
}

/** The text between the bracket at `open` and its match (exclusive), or null when unbalanced. */
function bracketed(text: string, open: number): string | null {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (ch === '[' || ch === '(') depth++;
    if (ch === ']' || ch === ')') {
      depth--;
      if (depth === 0) return text.slice(open + 1, i);
    }
  }
  return null;
}

/** `'key' => value` entries of an array text whose values are one reference or a list of them. */
function keyedEntries(body: string, file: ProgramFile): { key: string; refs: string[] }[] {
  const out: { key: string; refs: string[] }[] = [];
  for (const match of body.matchAll(/['"]([\w.-]+)['"]\s*=>\s*/g)) {
    const at = match.index + match[0].length;
    const value = body[at] === '[' ? bracketed(body, at) : /^[^,\]]+/.exec(body.slice(at))?.[0];
    if (value !== null && value !== undefined) out.push({ key: match[1] ?? '', refs: middlewareTokens(value, file) });
  }
  return out;
}

/** The routes file a PHP path expression names: `base_path('routes/x.php')`, `__DIR__.'/../routes/x.php'`. */
function routesFileIn(text: string): string | null {
  const match = /['"](?:[^'"]*\/)?(routes\/[\w./-]+\.php)['"]/.exec(text);
  return match?.[1] ?? null;
}

/** Read the kernel, `bootstrap/app.php` and the providers that load route files. */
export function readMiddlewareRegistry(program: Program): MiddlewareRegistry {
  const registry: MiddlewareRegistry = { aliases: new Map(), groups: new Map(), global: [], attachments: [] };
  const addGroup = (name: string, refs: string[], file: ProgramFile): void => {
    const group = registry.groups.get(name);
    if (group) group.refs.push(...refs);
    else registry.groups.set(name, { refs: [...refs], file });
  };
  for (const file of program.files) {
    if (file.language !== 'php') continue;
    const text = file.text;
    // The HTTP kernel's properties.
    for (const match of text.matchAll(/\$(middlewareAliases|routeMiddleware|middlewareGroups|middleware)\s*=\s*\[/g)) {
      const body = bracketed(text, match.index + match[0].length - 1);
      if (body === null) continue;
      if (match[1] === 'middleware') registry.global.push({ refs: middlewareTokens(body, file), file });
      else if (match[1] === 'middlewareGroups') for (const { key, refs } of keyedEntries(body, file)) addGroup(key, refs, file);
      else for (const { key, refs } of keyedEntries(body, file)) if (refs[0]) registry.aliases.set(key, { ref: refs[0], file });
    }
    // Laravel 11: `->withMiddleware(function (Middleware $middleware) { ... })` in bootstrap/app.php.
    if (/(^|\/)bootstrap\/app\.php$/.test(file.path)) readBootstrap(file, registry, addGroup);
    readRouterRegistrations(file, registry, addGroup);
    readRouteFileAttachments(file, registry);
  }
  return registry;
}

function readBootstrap(file: ProgramFile, registry: MiddlewareRegistry, addGroup: (name: string, refs: string[], file: ProgramFile) => void): void {
  const text = file.text;
  for (const match of text.matchAll(/->alias\(\s*\[/g)) {
    const body = bracketed(text, match.index + match[0].length - 1);
    for (const { key, refs } of keyedEntries(body ?? '', file)) if (refs[0]) registry.aliases.set(key, { ref: refs[0], file });
  }
  for (const match of text.matchAll(/->(web|api)\(/g)) addGroup(match[1] ?? '', middlewareTokens(bracketed(text, match.index + match[0].length - 1) ?? '', file), file);
  for (const match of text.matchAll(/->(?:group|appendToGroup|prependToGroup)\(\s*['"]([\w.-]+)['"]\s*,/g)) {
    addGroup(match[1] ?? '', middlewareTokens(bracketed(text, text.lastIndexOf('(', match.index + match[0].length)) ?? '', file), file);
  }
  for (const match of text.matchAll(/->(?:append|prepend)\(/g)) registry.global.push({ refs: middlewareTokens(bracketed(text, match.index + match[0].length - 1) ?? '', file), file });
  // `->withRouting(web: __DIR__.'/../routes/web.php', api: ...)`: the file runs in the group of that name.
  const routing = /->withRouting\(/.exec(text);
  const args = routing ? (callArguments(text.slice(routing.index), 'withRouting') ?? []) : [];
  for (const arg of args) {
    const named = /^(web|api)\s*:\s*([\s\S]+)$/.exec(arg);
    const suffix = named?.[2] ? routesFileIn(named[2]) : null;
    if (named?.[1] && suffix) registry.attachments.push({ suffix, refs: [named[1]], evidence: `withRouting(${named[1]}: ...) in ${file.path}` });
  }
}

/**
 * The router's own registration methods, which packages call from their service providers instead of
 * editing the kernel: `$router->aliasMiddleware('user', Bouncer::class)`, `->middlewareGroup('admin', [...])`,
 * `->pushMiddlewareToGroup('web', X::class)` (also through `Route::` and `app('router')`).
 */
function readRouterRegistrations(file: ProgramFile, registry: MiddlewareRegistry, addGroup: (name: string, refs: string[], file: ProgramFile) => void): void {
  const text = file.text;
  for (const match of text.matchAll(/(?:->|::)(aliasMiddleware|middlewareGroup|pushMiddlewareToGroup|prependMiddlewareToGroup)\(/g)) {
    const method = match[1] ?? '';
    const [name, value] = callArguments(text.slice(match.index), method) ?? [];
    const key = /^\s*['"]([\w.-]+)['"]\s*$/.exec(name ?? '')?.[1];
    if (!key || value === undefined) continue;
    const refs = middlewareTokens(value, file);
    if (method === 'aliasMiddleware') {
      if (refs[0]) registry.aliases.set(key, { ref: refs[0], file });
    } else addGroup(key, refs, file);
  }
}

/**
 * `Route::middleware([...])->group(base_path('routes/x.php'))`, and group closures that `require` or
 * `loadRoutesFrom` a routes file (`Route::group(['middleware' => 'auth'], function () { require ... })`).
 */
function readRouteFileAttachments(file: ProgramFile, registry: MiddlewareRegistry): void {
  for (const call of file.ir.calls) {
    if (call.callee !== 'group') continue;
    const head = `${call.receiver ?? ''} ${call.text}`;
    const direct = routesFileIn(call.text.slice(call.text.indexOf('group')));
    const closure = file.ir.functions.find((fn) => fn.isLambda && fn.startLine >= call.line && fn.startLine <= call.line + 1);
    const required: string[] = [];
    if (direct && !closure) required.push(direct);
    if (closure) {
      for (let line = closure.startLine; line <= closure.endLine; line++) {
        const text = file.lines[line - 1] ?? '';
        if (!/\b(require|require_once|include|loadRoutesFrom)\b/.test(text)) continue;
        const suffix = routesFileIn(text);
        if (suffix) required.push(suffix);
      }
    }
    const refs = appliedMiddleware(closure ? head.slice(0, Math.max(0, head.indexOf('function'))) || head : head, file);
    for (const suffix of required) registry.attachments.push({ suffix, refs, evidence: `${file.path}:${call.line}` });
  }
}

/** Middleware a routes file gets from where it is loaded (matched by its path relative to the app). */
export function fileMiddleware(registry: MiddlewareRegistry, path: string): FileAttachment[] {
  return registry.attachments.filter((a) => path === a.suffix || path.endsWith(`/${a.suffix}`));
}

/** The fully qualified name a class reference stands for in a file, through its `use` imports. */
function qualifiedName(written: string, file: ProgramFile): string {
  if (written.startsWith('\\')) return written.slice(1);
  const [first, ...rest] = written.split('\\');
  for (const imp of file.ir.imports) {
    const last = imp.module.split('\\').pop();
    if (imp.names.includes(first ?? '') || (imp.names.length === 0 && last === first)) return [imp.module.replace(/^\\/, ''), ...rest].join('\\');
  }
  const space = namespaceOf(file);
  return space ? `${space}\\${written}` : written;
}

/** The repository class a qualified name denotes, or null for a library class. */
function projectClass(program: Program, qualified: string): ClassRecord | null {
  const simple = qualified.split('\\').pop() ?? qualified;
  for (const record of program.table.get(simple) ?? []) {
    const file = program.byPath.get(record.path);
    const space = file ? namespaceOf(file) : '';
    if ((space === '' ? simple : `${space}\\${simple}`) === qualified || !qualified.includes('\\')) return record;
  }
  return null;
}

function rowFor(facts: LanguageFacts, name: string): DischargerFact | null {
  return facts.dischargers.find((d) => d.middleware.some((re) => re.test(name))) ?? null;
}

const MAX_NESTING = 6;

/** What one middleware reference (alias, group or class, with parameters) checks. */
export function judgeMiddleware(ref: string, from: ProgramFile, ctx: JudgeContext, depth = 0): MiddlewareCheck[] {
  if (depth > MAX_NESTING) return [];
  const classRef = /^(.+?)::class(?::(.*))?$/.exec(ref);
  if (classRef?.[1]) return judgeClass(qualifiedName(classRef[1], from), ref, ctx);
  const colon = ref.indexOf(':');
  const name = colon < 0 ? ref : ref.slice(0, colon);
  const group = ctx.registry.groups.get(name);
  if (group && colon < 0) return group.refs.flatMap((member) => judgeMiddleware(member, group.file, ctx, depth + 1)).map((c) => ({ ...c, evidence: `group '${name}': ${c.evidence}` }));
  const alias = ctx.registry.aliases.get(name);
  if (alias) {
    const target = /^(.+?)::class/.exec(alias.ref)?.[1];
    if (target) {
      const qualified = qualifiedName(target, alias.file);
      const judged = judgeClass(qualified, ref, ctx);
      // A library class no row names is judged by the alias's conventional name; a project class only by its code.
      if (judged.length > 0 || projectClass(ctx.program, qualified)) return judged.map((c) => ({ ...c, evidence: `'${ref}' (alias of ${qualified}): ${c.evidence}` }));
    }
  }
  const row = rowFor(ctx.facts, ref);
  return row && row.kind !== 'public' ? [{ kind: row.kind, dischargerId: row.id, evidence: `middleware '${ref}'` }] : [];
}

const judgedClasses = new WeakMap<Program, Map<string, MiddlewareCheck[]>>();

/** A middleware class: the repository's own by its `handle()`, a library one by the rows naming it. */
function judgeClass(qualified: string, ref: string, ctx: JudgeContext): MiddlewareCheck[] {
  let cache = judgedClasses.get(ctx.program);
  if (!cache) judgedClasses.set(ctx.program, (cache = new Map<string, MiddlewareCheck[]>()));
  const cached = cache.get(qualified);
  if (cached) return cached;
  cache.set(qualified, []); // a cycle of inheritance judges to nothing
  const record = projectClass(ctx.program, qualified);
  let result: MiddlewareCheck[];
  if (!record) {
    const row = rowFor(ctx.facts, qualified);
    result = row && row.kind !== 'public' ? [{ kind: row.kind, dischargerId: row.id, evidence: `${qualified}` }] : [];
  } else {
    const found = findMethod(ctx.program.table, record, 'handle', null);
    const handle = found?.methods[0];
    if (handle) result = judgeHandle(handle, ctx, record);
    else {
      // `handle` is inherited from a library base class (an app's Authenticate extending Laravel's).
      const chain = superChain(ctx.program.table, record);
      const top = chain[chain.length - 1];
      const topFile = top ? ctx.program.byPath.get(top.path) : undefined;
      result = top?.superclass && topFile ? judgeClass(qualifiedName(top.superclass, topFile), ref, ctx) : [];
    }
  }
  cache.set(qualified, result);
  return result;
}

/**
 * The checks a middleware's `handle()` makes on every path before it hands the request on with `$next`,
 * including those of its own helper methods called at its top level on the way (`$this->checkIfAuthorized($request)`).
 */
function judgeHandle(handle: FunctionRef, ctx: JudgeContext, record: ClassRecord): MiddlewareCheck[] {
  const file = ctx.program.byPath.get(handle.path);
  if (!file) return [];
  let nextLine = 0;
  for (let line = handle.fn.bodyStartLine; line <= handle.fn.endLine; line++) {
    if (/\$next\s*\(/.test(file.lines[line - 1] ?? '')) {
      nextLine = line;
      break;
    }
  }
  if (nextLine === 0) return [];
  const where = `${handle.fn.qualifiedName}()`;
  const checks: MiddlewareCheck[] = ctx.checksBefore(handle, nextLine).map((c) => ({ ...c, evidence: `${where} checks: ${c.evidence}` }));
  const login = loginBranch(ctx, file, handle, nextLine);
  if (login) checks.push({ kind: 'authn', dischargerId: 'laravel.middleware-login-test', evidence: `${where} ends the request when nobody is logged in: ${login}` });
  const role = loginBranch(ctx, file, handle, nextLine, roleTestDenial(currentUsers(ctx)));
  if (role && !checks.some((c) => c.kind === 'path_guard')) checks.push({ kind: 'path_guard', dischargerId: 'laravel.middleware-role-test', evidence: `${where} ends the request for a user without the role: ${role}` });
  const acl = [{ ref: handle, end: nextLine }, ...topLevelHelpers(ctx, file, handle, nextLine, record).map((ref) => ({ ref, end: ref.fn.endLine }))]
    .map(({ ref, end }) => ({ ref, line: routeAclLine(ctx.program.byPath.get(ref.path), ref, end) }))
    .find(({ line }) => line !== null);
  if (acl?.line && !checks.some((c) => c.kind === 'path_guard')) {
    checks.push({ kind: 'path_guard', dischargerId: 'laravel.middleware-route-acl', evidence: `${where} checks the permission its access list gives the route: ${acl.ref.fn.qualifiedName}(): ${acl.line}`, routeAcl: true });
  }
  return checks;
}

/** The current route's name, as middleware reads it to look the route up in an access list. */
const CURRENT_ROUTE_NAME = /\b(?:Route::currentRouteName\s*\(|Route::current\(\)\s*->\s*getName\s*\(|\$request->route\(\)\s*->\s*getName\s*\(|->getRouteName\s*\()/;
/** A permission check called with what the access list answers for it (`bouncer()->allow($acl->roles[Route::currentRouteName()])`). */
const PERMISSION_CALL = /(?:->|::|\b)(?:allow|authorize|hasPermission(?:To)?|checkPermission|can|denyUnless\w*)\s*\(/;

/**
 * A route-name access list (Webkul's Krayin and Bagisto: every admin route named in an ACL config, the
 * middleware asking for the permission listed under the current route's name): the line of a
 * permission call whose argument is keyed by the current route's name, in `fn` before `end`.
 */
function routeAclLine(file: ProgramFile | undefined, fn: FunctionRef, end: number): string | null {
  if (!file) return null;
  for (let line = fn.fn.bodyStartLine; line < end; line++) {
    const text = file.lines[line - 1] ?? '';
    const call = PERMISSION_CALL.exec(text);
    if (call && CURRENT_ROUTE_NAME.test(text.slice(call.index))) return text.trim();
  }
  return null;
}

/** The class's own methods `handle()` calls as a statement of its top level before `$next` (an earlier `return` ends the walk). */
function topLevelHelpers(ctx: JudgeContext, file: ProgramFile, handle: FunctionRef, nextLine: number, record: ClassRecord): FunctionRef[] {
  const out: FunctionRef[] = [];
  const first = file.lines[handle.fn.bodyStartLine] ?? '';
  const outermost = indent(first);
  for (let line = handle.fn.bodyStartLine + 1; line < nextLine; line++) {
    const text = file.lines[line - 1] ?? '';
    if (text.trim() === '' || indent(text) !== outermost) continue;
    if (/^\s*return\b/.test(text)) break;
    const call = /^\s*\$this->(\w+)\s*\(.*\)\s*;\s*$/.exec(text);
    const helper = call?.[1] ? findMethod(ctx.program.table, record, call[1], null)?.methods[0] : undefined;
    if (helper && helper.id !== handle.id) out.push(helper);
  }
  return out;
}

/** The current-user expressions of the application. A helper that answers a guest account when nobody is logged in is never empty: `!user()` tests nothing. */
function currentUsers(ctx: JudgeContext): RegExp[] {
  const guest = guestFallbackHelpers(ctx.program, ctx.facts).map((re) => re.source);
  return [...ctx.facts.currentUser, ...currentUserHelpers(ctx.program, ctx.facts).filter((re) => !guest.includes(re.source))];
}

/** Leading whitespace width. */
function indent(text: string): number {
  return /^\s*/.exec(text)?.[0].length ?? 0;
}

/**
 * An `if` at the top level of `handle()`, before `$next`, whose condition tests the logged-in user (or,
 * given `firesFor`, has a disjunct that predicate takes) and whose block ends the request (returns a
 * response, redirects, aborts or throws): the condition's text.
 */
function loginBranch(ctx: JudgeContext, file: ProgramFile, handle: FunctionRef, nextLine: number, firesFor?: (disjunct: string) => boolean): string | null {
  // A test true when nobody is logged in: the facts' login tests, or a negated or null-compared user.
  const users = currentUsers(ctx);
  const tests = [...ctx.facts.loginTests, ...users.map((re) => new RegExp(`^!\\s*(?:${re.source})`)), ...users.map((re) => new RegExp(`^(?:${re.source})\\s*===?\\s*null\\b`))];
  const fires = firesFor ?? ((part: string): boolean => tests.some((re) => re.test(part)));
  // Every disjunct of the condition is tried alone; one joined by && may not fire for an anonymous caller.
  const firesForNobody = (line: string): boolean => {
    const open = line.indexOf('(');
    const condition = bracketed(line, open) ?? '';
    return condition.split('||').some((part) => !part.includes('&&') && fires(part.trim()));
  };
  const body: { line: number; text: string }[] = [];
  for (let line = handle.fn.bodyStartLine + 1; line < handle.fn.endLine; line++) {
    const text = file.lines[line - 1] ?? '';
    if (text.trim() !== '' && text.trim() !== '{' && text.trim() !== '}') body.push({ line, text });
  }
  const outermost = Math.min(...body.map((l) => indent(l.text)));
  for (const [i, head] of body.entries()) {
    if (head.line >= nextLine) break;
    if (indent(head.text) !== outermost) continue;
    if (/^\s*return\b/.test(head.text)) break; // an earlier exit: later tests do not run on every path
    if (!/^\s*if\s*\(/.test(head.text) || !firesForNobody(head.text)) continue;
    const block = [head];
    for (const next of body.slice(i + 1)) {
      if (indent(next.text) <= outermost) break;
      block.push(next);
    }
    const ends = block.some((l) => /\b(return|throw|abort\w*|redirect)\b/.test(l.text.slice(l === head ? l.text.indexOf(')') : 0)) && !/\$next\s*\(/.test(l.text));
    if (ends) return head.text.trim();
  }
  return null;
}

/** An access-list configuration file (Krayin's and Bagisto's `Config/acl.php`): entries naming routes. */
export const ACCESS_LIST_FILE = /(^|\/)config\/[\w.-]*(?:acl|permission)[\w.-]*\.php$/i;

/** The name a route's chain gives it (`->name('admin.products.delete')`), or null. */
export function routeNameIn(chain: string): string | null {
  return /->name\(\s*['"]([\w.-]+)['"]\s*\)/.exec(chain)?.[1] ?? null;
}

/** Whether an access-list file of the program names the route: a middleware consulting the list checks only those. */
export function accessListNames(program: Program, routeName: string | null): boolean {
  if (!routeName) return false;
  const quoted = new RegExp(`['"]${routeName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}['"]`);
  return program.files.some((file) => file.language === 'php' && ACCESS_LIST_FILE.test(file.path) && quoted.test(file.text));
}

/** A project class by name, for callers outside this module (FormRequest subclasses). */
export function classNamed(program: Program, written: string, from: ProgramFile): ClassRecord | null {
  return projectClass(program, qualifiedName(written, from)) ?? lookupClass(program.table, written);
}
