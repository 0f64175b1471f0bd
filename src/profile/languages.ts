/** Which languages the change profile reads, chosen by file extension (seed: "Supported languages"). */

/** A language family the profile's lexer knows. Anything else yields the unknown profile. */
export type ProfileLanguage =
  | 'javascript'
  | 'typescript'
  | 'python'
  | 'go'
  | 'rust'
  | 'java'
  | 'kotlin'
  | 'csharp'
  | 'c'
  | 'shell'
  | 'powershell'
  | 'batch';

const BY_EXTENSION: ReadonlyMap<string, ProfileLanguage> = new Map([
  ['.js', 'javascript'],
  ['.mjs', 'javascript'],
  ['.cjs', 'javascript'],
  ['.jsx', 'javascript'],
  ['.ts', 'typescript'],
  ['.tsx', 'typescript'],
  ['.mts', 'typescript'],
  ['.cts', 'typescript'],
  ['.py', 'python'],
  ['.pyi', 'python'],
  ['.go', 'go'],
  ['.rs', 'rust'],
  ['.java', 'java'],
  ['.kt', 'kotlin'],
  ['.kts', 'kotlin'],
  ['.cs', 'csharp'],
  ['.c', 'c'],
  ['.h', 'c'],
  ['.cc', 'c'],
  ['.cpp', 'c'],
  ['.cxx', 'c'],
  ['.hpp', 'c'],
  ['.hh', 'c'],
  ['.hxx', 'c'],
  ['.sh', 'shell'],
  ['.bash', 'shell'],
  ['.zsh', 'shell'],
  ['.ps1', 'powershell'],
  ['.psm1', 'powershell'],
  ['.bat', 'batch'],
  ['.cmd', 'batch'],
]);

/** The base name of a path with either separator, lowercased. */
export function baseNameOf(path: string): string {
  let start = 0;
  for (let i = 0; i < path.length; i++) {
    const ch = path[i];
    if (ch === '/' || ch === '\\') start = i + 1;
  }
  return path.slice(start).toLowerCase();
}

/** The lowercased extension of a path's base name, with its dot, or '' when it has none. */
export function extensionOf(path: string): string {
  const base = baseNameOf(path);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot);
}

/** The profile language of a path, or null when the profile cannot read it (the unknown profile). */
export function profileLanguageFor(path: string): ProfileLanguage | null {
  return BY_EXTENSION.get(extensionOf(path)) ?? null;
}

/** The C-family languages: // and /* *\/ comments, C-like strings. */
export function isCFamily(language: ProfileLanguage): boolean {
  return language !== 'python' && language !== 'shell' && language !== 'powershell' && language !== 'batch';
}

/** JavaScript-family files where `<` may open JSX (.ts, .mts and .cts only have generics). */
export function allowsJsx(path: string): boolean {
  const ext = extensionOf(path);
  return ext === '.js' || ext === '.jsx' || ext === '.tsx' || ext === '.mjs' || ext === '.cjs';
}
