/**
 * A change to an Express or Koa route's registration (`router.put(['/', '/:id'], checkPermission('x'),
 * controller.update)`) changes what guards its handler, though no line of the handler moves: the
 * handler is a touched function of the change, like one whose body changed. The registration is the
 * statement from its `registeredBy` line through its last middleware and the handler's name. Other
 * frameworks' route files keep their own reading (only the functions the change touched).
 */
import type { EntryPoint } from './types.js';

/** Entries whose registration statement holds a touched line. */
export function registrationTouched(entries: Iterable<EntryPoint>, lines: ReadonlyMap<string, ReadonlySet<number>>): string[] {
  const out: string[] = [];
  for (const entry of entries) {
    if (entry.framework !== 'express' || entry.registeredBy === undefined) continue;
    const at = /^(.*):(\d+)-(\d+)$/.exec(entry.registeredBy);
    const touched = at ? lines.get(at[1] ?? '') : undefined;
    if (!at || !touched) continue;
    for (let line = Number(at[2]); line <= Number(at[3]); line++) {
      if (touched.has(line)) {
        out.push(entry.functionId);
        break;
      }
    }
  }
  return out;
}
