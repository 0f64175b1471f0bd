/**
 * The file's declared-permission norm: when every other entry of a file declares a permission on
 * itself (`@admins_only` on each Resource of an admin statistics package, `@needs_scope(...)` on each
 * handler), an entry of that file that declares nothing and reads stored records is most likely the one
 * the author forgot (CTFd's user statistics answered anyone, pull request #1276). Reads are harmless in
 * general, so a handler-named row with `sibling_norm = true` makes the handler an obligation only under
 * that norm, and its `body` says what the handler must read. An entry with any check of its own (a
 * login, a permission, an ownership test, a public declaration) is not under the norm: its author
 * thought about access and chose. Application-wide hooks and baselines are no check of its own.
 */
import type { Program } from './resolution.js';
import type { EntryPoint, FunctionRef, ProgramFile, Witness } from './types.js';

/** Fewest other entries in the file that must all declare a permission for the norm to hold. */
const MIN_SIBLINGS = 2;

/**
 * Frameworks whose handlers are controller methods of any name (Laravel): the norm is the class's, among
 * its handlers that read records the way the entry does (the row's `body`), and a check in the body
 * (`$this->authorize('view', Model::class)`) is how they declare one. Not Symfony: on Mautic's head the
 * same norm reported eight actions whose checks it does not read (`isGranted([...], 'RETURN_ARRAY')`)
 * or that are helpers of checked actions. A controller has more handlers than a view has verbs, and one of them may be left open by choice
 * or by the same mistake (a form partial beside the forgotten page): three in four of them, at least
 * three, must check.
 */
const CONTROLLER_FRAMEWORKS: ReadonlySet<string> = new Set(['laravel']);
const MIN_CLASS_SIBLINGS = 3;
const CLASS_NORM_SHARE = 0.75;

/** The request methods of class-based handlers (Flask-RESTful resources, method views, Tornado and Django views). */
export const VERBS: ReadonlySet<string> = new Set(['get', 'post', 'put', 'patch', 'delete']);

/** True when some line of the handler's body matches. */
export function bodyMatches(file: ProgramFile, ref: FunctionRef, body: RegExp): boolean {
  for (let line = ref.fn.bodyStartLine; line <= ref.fn.endLine; line++) if (body.test(file.lines[line - 1] ?? '')) return true;
  return false;
}

/**
 * True when the entry, a verb method, checks nothing itself and every other method of that verb in its
 * file (at least two; else in its file's folder, at least two) declares a permission.
 */
export function fileDeclaresPermissions(program: Program, entries: ReadonlyMap<string, EntryPoint>, byFunction: ReadonlyMap<string, Witness[]>, entry: EntryPoint, body: RegExp | null = null): boolean {
  const own = byFunction.get(entry.functionId) ?? [];
  // An application-wide hook (a banned-user refusal in `app.before_request`) covers every view: no choice of this one.
  if (own.some((w) => w.kind !== 'csrf_guard' && w.scope !== 'router' && w.scope !== 'baseline')) return false;
  if (CONTROLLER_FRAMEWORKS.has(entry.framework)) return classChecksPermissions(program, entries, byFunction, entry, body);
  // Only verb methods, compared with the same verb: a public listing beside admin-only writes (`get`
  // open, `post`/`patch`/`delete` behind `@admins_only`) is ordinary REST, not a forgotten check.
  const verb = program.functions.get(entry.functionId)?.fn.name ?? '';
  if (!VERBS.has(verb)) return false;
  const others = [...entries.values()].filter((other) => other.functionId !== entry.functionId && program.functions.get(other.functionId)?.fn.name === verb);
  // A module of one or two resources (CTFd's statistics/users.py) shares its norm with its package.
  let siblings = others.filter((other) => other.path === entry.path);
  if (siblings.length < MIN_SIBLINGS) siblings = others.filter((other) => directoryOf(other.path) === directoryOf(entry.path));
  if (siblings.length < MIN_SIBLINGS) return false;
  return siblings.every((other) => (byFunction.get(other.functionId) ?? []).some((w) => (w.scope === 'decorator' || w.scope === 'class') && w.kind === 'path_guard'));
}

function directoryOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/') + 1);
}

/** True when three in four of the other handlers of the entry's controller class reading as it does (at least three) check a permission of their own. */
function classChecksPermissions(program: Program, entries: ReadonlyMap<string, EntryPoint>, byFunction: ReadonlyMap<string, Witness[]>, entry: EntryPoint, body: RegExp | null): boolean {
  const className = program.functions.get(entry.functionId)?.fn.className;
  const file = program.byPath.get(entry.path);
  if (!className || !file) return false;
  const siblings = [...entries.values()].filter((other) => {
    if (other.functionId === entry.functionId || other.path !== entry.path) return false;
    const ref = program.functions.get(other.functionId);
    return ref?.fn.className === className && (body === null || bodyMatches(file, ref, body));
  });
  const checking = siblings.filter((other) => (byFunction.get(other.functionId) ?? []).some((w) => w.kind === 'path_guard' && w.scope !== 'router' && w.scope !== 'baseline'));
  return checking.length >= MIN_CLASS_SIBLINGS && checking.length >= CLASS_NORM_SHARE * siblings.length;
}
