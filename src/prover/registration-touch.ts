/**
 * A change to a route's registration changes what guards its handler, though no line of the handler
 * moves: the handler is a touched function of the change, like one whose body changed.
 * - Express or Koa (`router.put(['/', '/:id'], checkPermission('x'), controller.update)`): the
 *   statement from its `registeredBy` line through its last middleware and the handler's name.
 * - Laravel: the head of a route group enclosing the route (`Route::group(['middleware' => [...]],
 *   function () {`, `Route::middleware(...)->group(`), and the route's own statement when it names
 *   middleware (`->middleware(...)`, `->can(...)`): that is where a role or permission middleware is
 *   added or dropped for every route the group declares. A route line that names none (a renamed URI)
 *   keeps the reading of other route files: only the functions the change touched.
 */
import { routeGroups } from './recognisers/laravel.js';
import { statementAt } from './recognisers/shared.js';
import type { EntryPoint, ProgramFile } from './types.js';

type TouchedLines = ReadonlyMap<string, ReadonlySet<number>>;

/** Entries whose registration holds a touched line. */
export function registrationTouched(entries: Iterable<EntryPoint>, lines: TouchedLines, fileAt: (path: string) => ProgramFile | undefined): string[] {
  const out: string[] = [];
  const groupsOf = new Map<string, ReturnType<typeof routeGroups>>();
  for (const entry of entries) {
    if (entry.registeredBy === undefined) continue;
    if (entry.framework === 'express' ? expressTouched(entry.registeredBy, lines) : entry.framework === 'laravel' && laravelTouched(entry.registeredBy, lines, fileAt, groupsOf)) out.push(entry.functionId);
  }
  return out;
}

function expressTouched(registeredBy: string, lines: TouchedLines): boolean {
  const at = /^(.*):(\d+)-(\d+)$/.exec(registeredBy);
  const touched = at ? lines.get(at[1] ?? '') : undefined;
  if (!at || !touched) return false;
  return anyTouched(touched, Number(at[2]), Number(at[3]));
}

function laravelTouched(registeredBy: string, lines: TouchedLines, fileAt: (path: string) => ProgramFile | undefined, groupsOf: Map<string, ReturnType<typeof routeGroups>>): boolean {
  const at = /^(.*):(\d+)$/.exec(registeredBy);
  const path = at?.[1] ?? '';
  const touched = lines.get(path);
  const file = fileAt(path);
  if (!at || !touched || !file) return false;
  const line = Number(at[2]);
  if (touched.has(line) && /->(middleware|can|withoutMiddleware)\(/.test(statementAt(file, line))) return true;
  let groups = groupsOf.get(path);
  if (!groups) groupsOf.set(path, (groups = routeGroups(file)));
  return groups.some((group) => line >= group.start && line <= group.end && anyTouched(touched, group.headLine, group.start));
}

function anyTouched(touched: ReadonlySet<number>, from: number, to: number): boolean {
  for (let line = from; line <= to; line++) if (touched.has(line)) return true;
  return false;
}
