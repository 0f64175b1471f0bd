/**
 * Exception classes a Python repository derives from a framework's refusal: `class
 * HTTP403Forbidden(HTTPException)` with `super().__init__(status_code=403)`, `class
 * NotOwner(PermissionDenied)`. Raising one ends the request with 401 or 403 as raising the framework's
 * own class does, so `raise exc.HTTP403Forbidden()` under a test is a refusal. A subclass for another
 * status (`HTTP404NotFound`) refuses nothing.
 */
import { ancestorNames, lookupClass, type Program } from './resolution.js';

/** Framework exceptions that refuse by themselves, and those whose status says whether they do. */
const REFUSING_BASES = /^(PermissionDenied|NotAuthenticated|AuthenticationFailed|Forbidden|Unauthorized)$/;
const STATUS_BASES = /^(HTTPException|HTTPError|APIException)$/;
/** `raise Name(...)` or `raise module.Name(...)`: the class raised. */
const RAISED_CLASS = /^\s*raise\s+(?:[A-Za-z_]\w*\.)*([A-Z]\w*)\s*\(/;

const byProgram = new WeakMap<Program, Map<string, '401' | '403' | null | undefined>>();

/** The refusal status a repository exception class stands for (null: it refuses with no status told), or undefined when it is none. */
function refusalStatus(program: Program, name: string, near: string): '401' | '403' | null | undefined {
  const cls = lookupClass(program.table, name, near);
  if (cls === null) return undefined;
  const bases = [...ancestorNames(program.table, cls)].map((b) => b.split('.').pop() ?? b);
  const home = program.byPath.get(cls.path);
  const own = home?.ir.classes.find((c) => c.name === cls.name);
  const body = home && own ? home.lines.slice(own.startLine - 1, own.endLine).join('\n') : '';
  const status = /status(?:_code)?\s*=\s*(?:status\.HTTP_)?(40[13])\b/.exec(body)?.[1] ?? /(?:^|_)(40[13])(?:_|[A-Z]|$)/.exec(name)?.[1];
  if (status === '401' || status === '403') return bases.some((b) => STATUS_BASES.test(b) || REFUSING_BASES.test(b)) ? status : undefined;
  if (/status(?:_code)?\s*=/.test(body)) return undefined;
  return bases.some((b) => REFUSING_BASES.test(b)) ? null : undefined;
}

/** For a `raise` line of a repository exception class that refuses: its status ('401', '403' or null); undefined otherwise. */
export function raisedRefusal(program: Program, path: string, text: string): '401' | '403' | null | undefined {
  const name = RAISED_CLASS.exec(text)?.[1];
  if (name === undefined) return undefined;
  let cache = byProgram.get(program);
  if (!cache) byProgram.set(program, (cache = new Map<string, '401' | '403' | null | undefined>()));
  const key = `${path}:${name}`;
  if (!cache.has(key)) cache.set(key, refusalStatus(program, name, path));
  return cache.get(key);
}
