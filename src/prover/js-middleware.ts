/**
 * Middleware of JavaScript entries (tRPC procedure builders and `.use(...)`, Express route and
 * `router.use` middleware, Next.js page wrappers), judged by what it does. A middleware of the
 * repository checks when it refuses the request somewhere in its body (a statement check of the
 * discharger rows: a thrown `TRPCError`, a 401/403 answer, an own check helper) or when it hands the
 * request on only under a test (`if (req.isAuthenticated()) return next()`); the kind is the check's
 * (a login, a permission). A builder adds the middleware its own definition chains. Only a name the
 * repository does not define (a library's `ensureLoggedIn`) is read by name, through the discharger rows'
 * `middleware` patterns. The witnesses cover the handler (router scope).
 */
import type { LanguageFacts } from './facts.js';
import type { FunctionIR } from '../syntax/ir-types.js';
import { guardClauseHead, indentOf } from './branches.js';
import { refusalSwallowed } from './caught-refusals.js';
import { definingFile, moduleConstantLine, moduleStatement, namedFunction, withoutComments } from './recognisers/js-handlers.js';
import type { Program } from './resolution.js';
import type { DischargeKind, EntryPoint, MiddlewareUse, ProgramFile, Witness } from './types.js';

/** What a middleware proved, with where it came from. */
interface MiddlewareCheck {
  kind: DischargeKind;
  dischargerId: string;
  evidence: string;
}

/** Hands the request on only when a test holds: `if (test) return next()`, `return test ? next() : ...`. */
const GATED_NEXT = /\bif\s*\((?<test>[^\n]*?)\)\s*\{?\s*(?:return\s+)?(?:await\s+)?next\s*\(|\breturn\s+(?<ternary>[^\n?]+?)\s*\?\s*next\s*\(/;
const ROLE_TEST = /admin|[Rr]ole|[Pp]ermission|[Pp]rivilege|[Ss]cope|[Ss]taff|[Ss]uperuser|[Oo]wner|\bcan[A-Z(]|[Aa]llowed|[Aa]ccess/;
const LOGIN_TEST = /[Uu]ser|[Ss]ession|[Aa]uthenticated|[Ll]ogged|[Tt]oken|\bauth/;
/** Builders every tRPC procedure starts from: no middleware of their own. */
const BASE_BUILDER = /^(t|trpc|tRPC)$/;
const MAX_DEPTH = 4;

/** Router witnesses for every entry that names middleware. */
export function jsMiddlewareWitnesses(program: Program, facts: LanguageFacts, entries: readonly EntryPoint[], statementWitnesses: ReadonlyMap<string, readonly Witness[]>): Witness[] {
  const out: Witness[] = [];
  const memo = new Map<string, MiddlewareCheck[]>();
  for (const entry of entries) {
    for (const use of entry.middleware ?? []) {
      const key = `${use.path}:${use.text}:${use.functionId ?? ''}`;
      let checks = memo.get(key);
      if (!checks) memo.set(key, (checks = judge(program, facts, statementWitnesses, use, 0, new Set())));
      for (const check of checks) {
        out.push({ kind: check.kind, scope: 'router', functionId: entry.functionId, line: null, dischargerId: check.dischargerId, evidence: `middleware ${use.text} (${use.path}:${use.line}): ${check.evidence}` });
      }
    }
  }
  return out;
}

function judge(program: Program, facts: LanguageFacts, statementWitnesses: ReadonlyMap<string, readonly Witness[]>, use: MiddlewareUse, depth: number, visited: Set<string>): MiddlewareCheck[] {
  const from = program.byPath.get(use.path);
  if (!from || depth > MAX_DEPTH) return [];
  if (use.functionId !== undefined) return checksOfFunction(program, statementWitnesses, use.functionId);
  // `requireRole('admin')` names the factory; `passport.authenticate('jwt')` a library.
  const name = /^\s*([A-Za-z_$][\w$.]*)/.exec(use.text)?.[1] ?? '';
  const bare = name.split('.')[0] ?? name;
  if (BASE_BUILDER.test(bare) || visited.has(`${use.path}:${name}`)) return [];
  visited.add(`${use.path}:${name}`);
  const home = name.includes('.') ? null : definingFile(program, from, name);
  const line = home ? moduleConstantLine(home, name) : null;
  if (home && line !== null) {
    const statement = moduleStatement(home, line);
    const checks: MiddlewareCheck[] = [];
    // The definition's own middleware: the builder it starts from and each `.use(...)` it chains.
    const chain = withoutComments(statement.text.replace(/^[^=]*=\s*/, ''));
    const root = /^\s*([A-Za-z_$][\w$]*)/.exec(chain)?.[1];
    if (use.role === 'builder' && root && root !== name) checks.push(...judge(program, facts, statementWitnesses, { text: root, path: home.path, line, role: 'builder' }, depth + 1, visited));
    for (const match of chain.matchAll(/\.\s*use\s*\(\s*([A-Za-z_$][\w$.]*)?/g)) {
      const useLine = line + (statement.text.slice(0, statement.text.indexOf(match[0])).match(/\n/g)?.length ?? 0);
      if (match[1] !== undefined) checks.push(...judge(program, facts, statementWitnesses, { text: match[1], path: home.path, line: useLine, role: 'middleware' }, depth + 1, visited));
    }
    // Its own code: every function written inside the statement (the middleware body, a factory's returned closure).
    // The statement reading stops after 200 lines; the function the constant holds ends where its syntax does (dub's withWorkspace: 470 lines).
    const end = Math.max(statement.endLine, ...home.ir.functions.filter((f) => f.startLine === line).map((f) => f.endLine));
    for (const ref of functionsWithin(program, home, line, end)) checks.push(...checksOfFunction(program, statementWitnesses, ref.id));
    checks.push(...gatedNext(home, line, end));
    return dedupe(checks);
  }
  const fn = namedFunction(program, from, name);
  if (fn) {
    const file = program.byPath.get(fn.path);
    // A factory (`export default function auth(options) { return async function authMiddleware(ctx, next) {...} }`) checks in the closure it returns.
    const within = file ? functionsWithin(program, file, fn.fn.startLine, fn.fn.endLine) : [{ id: fn.id }];
    return dedupe([...within.flatMap((ref) => checksOfFunction(program, statementWitnesses, ref.id)), ...(file ? gatedNext(file, fn.fn.startLine, fn.fn.endLine) : [])]);
  }
  // Not the repository's: a library middleware, read by name.
  const row = facts.dischargers.find((d) => d.middleware.some((re) => re.test(name)));
  return row && row.kind !== 'public' && row.kind !== 'csrf_guard' ? [{ kind: row.kind, dischargerId: row.id, evidence: `${name} (${row.description})` }] : [];
}

/** The checks a function's body makes that end the request: statement witnesses that guard no single branch. */
function checksOfFunction(program: Program, statementWitnesses: ReadonlyMap<string, readonly Witness[]>, functionId: string): MiddlewareCheck[] {
  const ref = program.functions.get(functionId);
  const file = ref ? program.byPath.get(ref.path) : undefined;
  // A check nested in a block that runs only for some requests (`if (has('projectId', input)) {...}`) guards those only.
  const refusals = (statementWitnesses.get(functionId) ?? [])
    .filter((w) => w.scope === 'statement' && w.until === undefined && !w.sameLine && (w.kind === 'authn' || w.kind === 'path_guard' || w.kind === 'ownership_check'))
    // A refusal thrown in a `try` whose `catch` hands the request on anyway refuses nobody.
    .filter((w) => !ref || !file || w.line === null || !refusalSwallowed(file, ref.fn, w.line));
  const out: MiddlewareCheck[] = refusals
    .filter((w) => !ref || !file || w.line === null || !underBranch(file, ref.fn, refusalHead(file, ref.fn, w.line)) || everyArmRefuses(file, ref.fn, w.line, refusals.filter((o) => o.kind === w.kind).map((o) => o.line ?? 0)))
    .map((w) => ({ kind: w.kind, dischargerId: w.dischargerId, evidence: w.evidence }));
  if (ref && file) out.push(...gatedNext(file, ref.fn.startLine, ref.fn.endLine));
  return out;
}

/** `if (req.isAuthenticated()) return next();` between two lines: a check of the kind its test names. */
function gatedNext(file: ProgramFile, from: number, to: number): MiddlewareCheck[] {
  const text = file.lines.slice(from - 1, to).join('\n');
  const match = GATED_NEXT.exec(text);
  const test = match?.groups?.test ?? match?.groups?.ternary;
  // `if (!req.user) return next()` hands anonymous callers on: no check.
  if (!match || test === undefined || test.trim().startsWith('!')) return [];
  const kind: DischargeKind | null = ROLE_TEST.test(test) ? 'path_guard' : LOGIN_TEST.test(test) ? 'authn' : null;
  return kind === null ? [] : [{ kind, dischargerId: 'js.gated-next', evidence: `next() only when ${test.trim()}` }];
}

/** The `if` a refusal is the arm of (`if (!ok) {` above `return res.status(403)...`), else the refusal's own line. */
function refusalHead(file: ProgramFile, fn: FunctionIR, line: number): number {
  const own = guardClauseHead(file, fn, line);
  if (own !== line) return own;
  const indent = indentOf(file.lines[line - 1] ?? '');
  for (let l = line - 1; l >= Math.max(fn.startLine, line - 4); l--) {
    const text = file.lines[l - 1] ?? '';
    if (text.trim() === '' || indentOf(text) >= indent) continue;
    return /^\s*(?:\}\s*)?if\b/.test(text) && !/\belse\b/.test(text) ? l : line;
  }
  return line;
}

/**
 * True when the block holding `line` is the arm of a branch or a loop that falls through to the rest of
 * the middleware: requests that skip the arm reach `next()` unchecked. An arm that hands the request on
 * itself (`if (apiToken) { ...check...; return next({ ctx }) }`) is one way in of several, each checked.
 */
function underBranch(file: ProgramFile, fn: FunctionIR, line: number): boolean {
  const indent = indentOf(file.lines[line - 1] ?? '');
  for (let l = line - 1; l >= fn.startLine; l--) {
    const text = file.lines[l - 1] ?? '';
    if (text.trim() === '' || indentOf(text) >= indent) continue;
    if (!/^\s*(?:\}\s*)?(?:if|else|for|while|switch|case|default)\b/.test(text)) return false;
    for (let k = l + 1; k <= fn.endLine; k++) {
      const inner = file.lines[k - 1] ?? '';
      if (inner.trim() !== '' && indentOf(inner) <= indentOf(text)) break;
      if (k > line && /\breturn\b/.test(inner)) return false;
    }
    return true;
  }
  return false;
}

/**
 * True when the refusal at `line` guards one arm of an `if` / `else if` / `else` chain that ends in an
 * `else`, and every arm refuses alike at its own top level (or throws outright): each way in is checked
 * (dub's `withSession`: an API key looked up in one arm, the session cookie in the other, each refused
 * with 401). A chain without a final `else` lets the remaining requests through unchecked.
 */
function everyArmRefuses(file: ProgramFile, fn: FunctionIR, line: number, sameKind: readonly number[]): boolean {
  const armOf = (at: number): number | null => enclosingHeader(file, fn, refusalHead(file, fn, at));
  const header = armOf(line);
  if (header === null) return false;
  const arms = chainArms(file, fn, header);
  if (arms === null) return false;
  return arms.every((arm) => sameKind.some((l) => l > arm.start && l <= arm.end && armOf(l) === arm.start) || /^\s*throw\b/.test(firstBodyLine(file, arm)));
}

/** The line of the block header directly above `line` (the first line indented less), else null. */
function enclosingHeader(file: ProgramFile, fn: FunctionIR, line: number): number | null {
  const indent = indentOf(file.lines[line - 1] ?? '');
  for (let l = line - 1; l >= fn.startLine; l--) {
    const text = file.lines[l - 1] ?? '';
    if (text.trim() !== '' && indentOf(text) < indent) return l;
  }
  return null;
}

/** The arms (header line to last line) of the `if` chain whose arm starts at `header`, when the chain ends in a plain `else`. */
function chainArms(file: ProgramFile, fn: FunctionIR, header: number): { start: number; end: number }[] | null {
  const text = (l: number): string => file.lines[l - 1] ?? '';
  const indent = indentOf(text(header));
  let first = header;
  while (/^\s*\}?\s*else\b/.test(text(first))) {
    let l = first - 1;
    while (l > fn.startLine && (text(l).trim() === '' || indentOf(text(l)) > indent)) l--;
    if (indentOf(text(l)) !== indent || !/^\s*(\}\s*else\s+)?if\b/.test(text(l))) return null;
    first = l;
  }
  if (!/^\s*if\b/.test(text(first))) return null;
  const arms: { start: number; end: number }[] = [];
  let start = first;
  for (let l = first + 1; l <= fn.endLine + 1; l++) {
    const t = text(l);
    if (l <= fn.endLine && (t.trim() === '' || indentOf(t) > indent)) continue;
    arms.push({ start, end: l - 1 });
    if (l > fn.endLine || indentOf(t) < indent || !/^\s*\}\s*else\b/.test(t)) {
      // The last arm must be a plain `else` (its own line or `} else {`).
      const last = text(arms[arms.length - 1]?.start ?? first);
      return /\belse\s*\{?\s*$/.test(last) ? arms : null;
    }
    start = l;
  }
  return null;
}

function firstBodyLine(file: ProgramFile, arm: { start: number; end: number }): string {
  for (let l = arm.start + 1; l <= arm.end; l++) if ((file.lines[l - 1] ?? '').trim() !== '') return file.lines[l - 1] ?? '';
  return '';
}

function functionsWithin(program: Program, file: ProgramFile, from: number, to: number): { id: string }[] {
  const ids = new Set<string>();
  for (const fn of file.ir.functions) {
    if (fn.startLine < from || fn.endLine > to) continue;
    const ref = program.nodeOf.get(fn);
    if (ref) ids.add(ref.id);
  }
  return [...ids].map((id) => ({ id }));
}

function dedupe(checks: MiddlewareCheck[]): MiddlewareCheck[] {
  const seen = new Set<string>();
  return checks.filter((c) => {
    const key = `${c.kind}:${c.evidence}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
