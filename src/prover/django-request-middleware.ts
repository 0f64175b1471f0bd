/**
 * The caller's own record put on the request by the project's own Django middleware: healthchecks'
 * `TeamAccessMiddleware.__call__` sets `request.profile = Profile.objects.for_user(request.user)` and
 * is listed in `settings.MIDDLEWARE`, so Django runs it before every view and `request.profile` is the
 * logged-in user's profile there, like `request.user` itself: a write to it acts on the caller's own
 * record (ADR 0074).
 *
 * A name counts only when the middleware is really registered (a dotted path in a `MIDDLEWARE` or
 * `MIDDLEWARE_CLASSES` list of the repository, resolved to a class of the repository) and its
 * `__call__`/`process_request`/`process_view` assigns `request.<name>` from a lookup keyed by the
 * logged-in user, never from request data (a header, a parameter, the body).
 */
import type { Facts } from './facts.js';
import type { Program } from './resolution.js';
import type { ProgramFile } from './types.js';

const REGISTRATION = /\bMIDDLEWARE(?:_CLASSES)?\s*(?:\+?=|\.append\(|\.insert\(|\.extend\()/g;
const DOTTED = /["']([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)["']/g;
const HOOKS = new Set(['__call__', 'process_request', 'process_view']);
const ASSIGNED = /^\s*request\.([a-z_]\w*)\s*=(?!=)\s*(.+)$/;
/** Values the client chooses: a request keyed by one of them is no lookup of the caller's own record. */
const REQUEST_DATA = /\brequest\.(GET|POST|META|headers|COOKIES|body|data|query_params|FILES|session)\b/;
const USER = /\brequest\.user\b/;

/** The dotted middleware paths the repository's settings register. */
function registeredMiddleware(program: Program): Set<string> {
  const out = new Set<string>();
  for (const file of program.files) {
    if (file.factsLanguage !== 'python') continue;
    for (const match of file.text.matchAll(REGISTRATION)) {
      const rest = file.text.slice((match.index ?? 0) + match[0].length);
      // The registered list or call ends at the first closing bracket or parenthesis (paths hold none).
      const end = rest.search(/[\])]/);
      for (const dotted of (end < 0 ? rest : rest.slice(0, end)).matchAll(DOTTED)) if (dotted[1]) out.add(dotted[1]);
    }
  }
  return out;
}

/** The repository file a dotted module path names (`hc/accounts/middleware.py` or its package). */
function moduleFile(program: Program, modulePath: string): ProgramFile | undefined {
  const base = modulePath.replace(/\./g, '/');
  return program.files.find(
    (file) => file.factsLanguage === 'python' && [`${base}.py`, `${base}/__init__.py`].some((tail) => file.path === tail || file.path.endsWith(`/${tail}`)),
  );
}

/** The `request.<name>` the registered middleware sets from a lookup keyed by the logged-in user. */
export function middlewareRequestPrincipals(program: Program): Set<string> {
  const out = new Set<string>();
  for (const dotted of registeredMiddleware(program)) {
    const cut = dotted.lastIndexOf('.');
    const file = moduleFile(program, dotted.slice(0, cut));
    const className = dotted.slice(cut + 1);
    for (const fn of file?.ir.functions ?? []) {
      if (!file || fn.className !== className || !HOOKS.has(fn.name)) continue;
      for (const line of file.lines.slice(fn.bodyStartLine - 1, fn.endLine)) {
        const match = ASSIGNED.exec(line);
        const [name, value] = [match?.[1], match?.[2] ?? ''];
        if (name && name !== 'user' && USER.test(value) && !REQUEST_DATA.test(value)) out.add(name);
      }
    }
  }
  return out;
}

/** The facts with the registered middleware's `request.<name>` added to Python's current-user patterns. */
export function withMiddlewarePrincipals(program: Program, facts: Facts): Facts {
  const names = [...middlewareRequestPrincipals(program)];
  if (names.length === 0) return facts;
  const patterns = names.map((name) => new RegExp(String.raw`\brequest\.${name}\b`));
  return { ...facts, python: { ...facts.python, currentUser: [...facts.python.currentUser, ...patterns] } };
}
