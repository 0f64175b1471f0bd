/** The languages jscr parses with tree-sitter, and how file names map to them. */

export const LANGUAGES = ['python', 'javascript', 'typescript', 'tsx', 'java', 'php', 'go', 'ruby'] as const;
export type Language = (typeof LANGUAGES)[number];

const BY_EXTENSION: Record<string, Language> = {
  '.py': 'python',
  '.pyi': 'python',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'javascript',
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'tsx',
  '.java': 'java',
  '.php': 'php',
  '.go': 'go',
  '.rb': 'ruby',
};

/** The tree-sitter language for a path, or null when jscr does not parse that kind of file. */
export function languageForPath(path: string): Language | null {
  const dot = path.lastIndexOf('.');
  if (dot < 0 || dot < path.lastIndexOf('/')) return null;
  return BY_EXTENSION[path.slice(dot).toLowerCase()] ?? null;
}
