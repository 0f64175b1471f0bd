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
import { middlewarePaths, middlewareMethods } from './django-view-middleware.js';
import { REQUEST_ATTRIBUTE_SET } from './python-request-principals.js';

const HOOKS: ReadonlySet<string> = new Set(['__call__', 'process_request', 'process_view']);
/** Values the client chooses: a request keyed by one of them is no lookup of the caller's own record. */
const REQUEST_DATA = /\brequest\.(GET|POST|META|headers|COOKIES|body|data|query_params|FILES|session)\b/;
const USER = /\brequest\.user\b/;

/** The `request.<name>` the registered middleware sets from a lookup keyed by the logged-in user. */
export function middlewareRequestPrincipals(program: Program): Set<string> {
  const out = new Set<string>();
  for (const dotted of middlewarePaths(program)) {
    for (const { file, fn } of middlewareMethods(program, dotted, HOOKS)) {
      for (const line of file.lines.slice(fn.fn.bodyStartLine - 1, fn.fn.endLine)) {
        const [, name, value = ''] = REQUEST_ATTRIBUTE_SET.exec(line) ?? [];
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
