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
 * logged-in user, never from request data (a header, a parameter, the body). The lookup may go through a
 * local of the same method (Tandoor: `user_space = request.user.userspace_set.filter(active=True).first()`,
 * then `request.space = user_space.space`): a local counts when one of its assignments reads the user and
 * none reads request data, directly or through another local.
 */
import type { Facts } from './facts.js';
import type { Program } from './resolution.js';
import { middlewarePaths, middlewareMethods } from './django-view-middleware.js';
import { REQUEST_ATTRIBUTE_SET } from './python-request-principals.js';

const HOOKS: ReadonlySet<string> = new Set(['__call__', 'process_request', 'process_view']);
/** Values the client chooses: a request keyed by one of them is no lookup of the caller's own record. */
const REQUEST_DATA = /\brequest\.(GET|POST|META|headers|COOKIES|body|data|query_params|FILES|session)\b/;
const USER = /\brequest\.user\b/;
/** `name = value` (an annotation allowed), not `==` nor an attribute or item target. */
const LOCAL_SET = /^\s*([a-z_]\w*)\s*(?::[^=]+)?=(?!=)\s*(.+)$/;

interface Sources {
  readonly user: ReadonlySet<string>;
  readonly data: ReadonlySet<string>;
}

const readsAny = (value: string, names: ReadonlySet<string>): boolean => [...names].some((name) => new RegExp(String.raw`(?<![\w.])${name}\b`).test(value));

/** The method's locals that hold a lookup keyed by the logged-in user, and those request data reaches. */
function localSources(lines: readonly string[]): Sources {
  const sets = lines.flatMap((line) => {
    const [, name, value] = LOCAL_SET.exec(line) ?? [];
    return name && value ? [{ name, value }] : [];
  });
  const user = new Set<string>();
  const data = new Set<string>();
  // Each round adds a name or stops, so this ends within the number of assignments.
  for (let changed = true; changed; ) {
    changed = false;
    for (const { name, value } of sets) {
      const into = !data.has(name) && (REQUEST_DATA.test(value) || readsAny(value, data)) ? data : !user.has(name) && (USER.test(value) || readsAny(value, user)) ? user : null;
      if (!into) continue;
      into.add(name);
      changed = true;
    }
  }
  return { user: new Set([...user].filter((name) => !data.has(name))), data };
}

function keyedByUser(value: string, locals: Sources): boolean {
  return (USER.test(value) || readsAny(value, locals.user)) && !REQUEST_DATA.test(value) && !readsAny(value, locals.data);
}

/** The `request.<name>` the registered middleware sets from a lookup keyed by the logged-in user. */
export function middlewareRequestPrincipals(program: Program): Set<string> {
  const out = new Set<string>();
  for (const dotted of middlewarePaths(program)) {
    for (const { file, fn } of middlewareMethods(program, dotted, HOOKS)) {
      const body = file.lines.slice(fn.fn.bodyStartLine - 1, fn.fn.endLine);
      const locals = localSources(body);
      for (const line of body) {
        const [, name, value = ''] = REQUEST_ATTRIBUTE_SET.exec(line) ?? [];
        if (name && name !== 'user' && keyedByUser(value, locals)) out.add(name);
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
