/** The languages the guard checks (SPEC 5: word 2), by file extension. */
import type { Language } from '../syntax/languages.js';

/** A language the guard can compile, parse and read imports of. */
export type GuardLanguage = 'python' | 'javascript' | 'typescript';

interface GuardLanguageInfo {
  language: GuardLanguage;
  /** The tree-sitter grammar for this extension (`.tsx` needs its own). */
  grammar: Language;
}

const BY_EXTENSION: Record<string, GuardLanguageInfo> = {
  '.py': { language: 'python', grammar: 'python' },
  '.js': { language: 'javascript', grammar: 'javascript' },
  '.mjs': { language: 'javascript', grammar: 'javascript' },
  '.cjs': { language: 'javascript', grammar: 'javascript' },
  '.jsx': { language: 'javascript', grammar: 'javascript' },
  '.ts': { language: 'typescript', grammar: 'typescript' },
  '.mts': { language: 'typescript', grammar: 'typescript' },
  '.cts': { language: 'typescript', grammar: 'typescript' },
  '.tsx': { language: 'typescript', grammar: 'tsx' },
};

/** The extensions the guard accepts, for messages and docs. */
export const GUARD_EXTENSIONS = Object.keys(BY_EXTENSION);

/** The guard's view of a path's language, or null when the guard does not check that kind of file. */
export function guardLanguageForPath(path: string): GuardLanguageInfo | null {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  if (dot <= slash + 1) return null; // no extension, or a dot file such as `.py`
  return BY_EXTENSION[path.slice(dot)] ?? null;
}
