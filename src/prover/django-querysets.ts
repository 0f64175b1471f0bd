/**
 * A Django class view whose `get_queryset()` keeps only the logged-in user's rows
 * (`return super().get_queryset().filter(user=self.request.user)`): `self.get_object()` looks the
 * object up in that queryset and answers 404 for anyone else's, so the object it returns, and
 * `self.object` that the generic views set from it, are the caller's own (framework reference 13).
 * Read from the class's chain inside the repository; the library's own `get_queryset` filters nothing.
 */
import type { LanguageFacts } from './facts.js';
import { pythonBases } from './python-class-policies.js';
import { lookupClass, type Program } from './resolution.js';
import type { FunctionRef } from './types.js';

/** Why the handler's `self.get_object()` is the logged-in user's, or null. */
export function userScopedQueryset(program: Program, facts: LanguageFacts, ref: FunctionRef): string | null {
  return ref.fn.className === null ? null : userScopedQuerysetOf(program, facts, ref.fn.className, ref.path);
}

/** Why the objects `self.get_object()` of class `className` (declared in `path`) returns are the logged-in user's, or null. */
export function userScopedQuerysetOf(program: Program, facts: LanguageFacts, className: string, path: string): string | null {
  if (!path.endsWith('.py')) return null;
  const cls = lookupClass(program.table, className, path);
  if (!cls) return null;
  for (const record of pythonBases(program, cls)) {
    const override = (program.byName.get('get_queryset') ?? []).find((f) => f.path === record.path && f.fn.qualifiedName === `${record.name}.get_queryset`);
    if (!override) continue;
    const lines = program.byPath.get(override.path)?.lines ?? [];
    const returns = lines.slice(override.fn.bodyStartLine - 1, override.fn.endLine).filter((l) => /^\s*return\b/.test(l));
    // Every return filters by the user: one unfiltered branch hands out anybody's rows.
    const scoped = returns.length > 0 && returns.every((l) => /\.filter\(/.test(l) && facts.currentUser.some((re) => re.test(l)));
    return scoped ? `${record.name}.get_queryset() keeps the logged-in user's rows` : null;
  }
  return null;
}

