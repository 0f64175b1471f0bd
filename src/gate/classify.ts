/** Target classification (gate-reference §2): class, sensitive, hard-linked, the class path. */
import { existsSync, lstatSync, realpathSync, statSync } from 'node:fs';
import { dirname, basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileTypeOf } from '../languages/registry.js';
import type { TargetClass } from '../profile/questions.js';

const INSTRUCTION_NAMES = new Set(['claude.md', 'agents.md', 'agent.md', 'gemini.md', 'skill.md', 'copilot-instructions.md', '.cursorrules', '.windsurfrules']);
const INSTRUCTION_DIRS = new Set(['.claude', 'agents', 'commands', 'skills', 'rules', 'hooks', '.cursor', '.codex', '.opencode']);
const PROSE_EXTENSIONS = new Set(['.md', '.mdx', '.txt', '.rst', '.adoc']);
const CONFIG_EXTENSIONS = new Set(['.json', '.jsonc', '.yaml', '.yml', '.toml', '.ini']);
const SENSITIVE_EXTENSIONS = new Set(['.pem', '.key', '.p12', '.pfx']);
const SENSITIVE_SEGMENTS = new Set(['auth', 'authn', 'authz', 'security', 'secrets', 'payment', 'payments', 'billing', 'migrations']);
const SENSITIVE_NAME_PREFIXES = ['id_rsa', 'id_ed25519', 'id_ecdsa', 'id_dsa', 'credentials', 'secrets.'];

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot);
}

/** Drop what Windows ignores at the end of a name: trailing dots and blanks, and an `:stream` suffix. */
function windowsCanonicalName(name: string): string {
  let cleaned = name;
  const colon = cleaned.indexOf(':');
  if (colon > 0) cleaned = cleaned.slice(0, colon);
  while (cleaned.length > 1 && (cleaned.endsWith('.') || cleaned.endsWith(' '))) cleaned = cleaned.slice(0, -1);
  return cleaned;
}

/** Split a class path into its lowercase segments with the last one cleaned of Windows noise. */
function segmentsOf(classPath: string): string[] {
  const segments = classPath.split('/').filter((s) => s.length > 0);
  if (segments.length > 0) segments[segments.length - 1] = windowsCanonicalName(segments[segments.length - 1] as string);
  return segments;
}

/** The class of a target, judged on its class path (lowercased, `/`-separated). First match wins. */
export function classifyTarget(classPath: string): TargetClass {
  try {
    const segments = segmentsOf(classPath);
    const name = segments[segments.length - 1] ?? '';
    const dirs = segments.slice(0, -1);
    const ext = extensionOf(name);
    if (INSTRUCTION_NAMES.has(name) || ext === '.mdc') return 'instruction';
    if ((ext === '.md' || ext === '.mdx' || ext === '.txt') && dirs.some((d) => INSTRUCTION_DIRS.has(d))) return 'instruction';
    if (ext === '.md' && name.includes('instructions') && dirs.includes('.github')) return 'instruction';

    const testPy = ext === '.py' && (name.startsWith('test_') || name.endsWith('_test.py'));
    if (name.includes('.test.') || name.includes('.spec.') || testPy || name.endsWith('_test.go')) return 'test';
    if (dirs.some((d) => d === 'tests' || d === 'test' || d === '__tests__')) return 'test';

    if (PROSE_EXTENSIONS.has(ext)) return 'prose';
    if (CONFIG_EXTENSIONS.has(ext)) return 'config';
    // `.env.ts` and the like are code: the registry knows their language.
    if ((name === '.env' || name.startsWith('.env.')) && fileTypeOf(name) === null) return 'config';
    return 'code';
  } catch {
    return 'code';
  }
}

/** Is a path (lowercased, `/`-separated, relative or absolute) sensitive by its name or segments? */
export function isSensitivePath(classPath: string): boolean {
  if (typeof classPath !== 'string' || classPath.length === 0) return true;
  const segments = segmentsOf(classPath.toLowerCase().replaceAll('\\', '/'));
  const name = segments[segments.length - 1] ?? '';
  if (SENSITIVE_EXTENSIONS.has(extensionOf(name))) return true;
  if (name === '.env' || name.startsWith('.env.') || name === '.netrc' || name === '.pgpass') return true;
  if (SENSITIVE_NAME_PREFIXES.some((prefix) => name.startsWith(prefix))) return true;
  const dirs = segments.slice(0, -1);
  if (dirs.some((d) => SENSITIVE_SEGMENTS.has(d))) return true;
  for (let i = 0; i + 1 < dirs.length; i++) if (dirs[i] === '.github' && dirs[i + 1] === 'workflows') return true;
  return false;
}

/** The real location of a path: symlinks resolved through its nearest existing ancestor. */
export function realLocation(absolutePath: string): string | null {
  let existing = absolutePath;
  const rest: string[] = [];
  for (let i = 0; i < 4096; i++) {
    try {
      return join(realpathSync(existing), ...rest);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return null;
      const parent = dirname(existing);
      if (parent === existing) return null;
      rest.unshift(basename(existing));
      existing = parent;
    }
  }
  return null;
}

/** Hard-linked: a regular file with more than one link. A new file is fine; other errors count. */
export function isHardLinked(absolutePath: string): boolean {
  try {
    let stat = lstatSync(absolutePath);
    if (stat.isSymbolicLink()) stat = statSync(absolutePath);
    if (stat.isDirectory()) return false;
    return stat.nlink > 1;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return !(code === 'ENOENT' || code === 'ENOTDIR');
  }
}

/** Does the target not exist yet (lstat ENOENT)? */
export function isNewFile(absolutePath: string): boolean {
  try {
    lstatSync(absolutePath);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

function toSlashes(path: string): string {
  return sep === '/' ? path : path.replaceAll(sep, '/');
}

/**
 * The class path: project-relative, lowercased, `/`-separated; outside the root, the absolute path.
 * A `.claude/worktrees/<name>/` prefix is dropped when that worktree really exists.
 */
export function classPathOf(absolutePath: string, projectRoot: string): string {
  const rel = relative(projectRoot, absolutePath);
  if (rel.length === 0 || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return toSlashes(absolutePath).toLowerCase();
  let path = toSlashes(rel);
  const parts = path.split('/');
  if (parts.length > 3 && parts[0] === '.claude' && parts[1] === 'worktrees' && existsSync(join(projectRoot, '.claude', 'worktrees', parts[2] as string, '.git'))) {
    path = parts.slice(3).join('/');
  }
  return path.toLowerCase();
}

/** Is `path` the directory `dir` or below it (both absolute)? */
export function isInsideDir(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel.length === 0 || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** The canonical key of a target: the absolute path with `/` separators. */
export function canonicalKey(absolutePath: string): string {
  return toSlashes(resolve(absolutePath));
}

/** Claude Code's own settings files pass: the gate must never lock the user out of fixing it. */
export function isClaudeSettings(classPath: string): boolean {
  const segments = classPath.split('/');
  const name = segments[segments.length - 1] ?? '';
  return segments[segments.length - 2] === '.claude' && name.startsWith('settings') && name.endsWith('.json');
}
