/** The languages the guard checks (SPEC 5: word 2), by file extension (a view of the language registry). */
import { fileTypeOf, guardExtensions, type Grammar, type GuardLanguage } from '../languages/registry.js';

export type { GuardLanguage } from '../languages/registry.js';

interface GuardLanguageInfo {
  language: GuardLanguage;
  /** The tree-sitter grammar for this extension (`.tsx` needs its own). */
  grammar: Grammar;
}

/** The extensions the guard accepts, for messages and docs. */
export const GUARD_EXTENSIONS = guardExtensions();

/** The guard's view of a path's language, or null when the guard does not check that kind of file. */
export function guardLanguageForPath(path: string): GuardLanguageInfo | null {
  const type = fileTypeOf(path);
  if (type === null || type.guard === null || type.grammar === null) return null;
  return { language: type.guard, grammar: type.grammar };
}
