/**
 * Where the gate keeps its state. The place may come from the user's environment or from the `[gate]`
 * table of the repository's .jscr.toml; the repository is hostile, so a place it names is used only
 * when it is plainly the gate's own: an absolute path outside the project and outside every git
 * repository (judged on the path as written and on its real location), and, when it already exists, a
 * real directory of this user that holds nothing but gate files. Anything else falls back to the
 * default with a one-line warning.
 */
import { lstatSync, readdirSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { CONFIG_FILE_NAME } from '../config-file.js';
import { isInsideDir, realLocation } from './classify.js';

/** The state directory chosen, and a warning when a configured one was refused. */
export interface StateDirChoice {
  dir: string;
  warning: string | null;
}

/** Names the gate itself creates in its state directory. */
const GATE_FILE = /^(state-[A-Za-z0-9_-]+\.json(\.tmp\..+|\.lock(\.stale\..+)?)?|metrics\.jsonl(\.1)?)$/;
/** The longest path a system takes (PATH_MAX). */
const MAX_PATH_LENGTH = 4096;
/** A directory listing this long is not a gate directory worth reading through. */
const MAX_LISTED = 10_000;

function defaultStateDir(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_STATE_HOME;
  if (xdg !== undefined && xdg.length > 0 && xdg.startsWith('/')) return join(xdg, 'jscr', 'gate');
  // node:os is loaded only when HOME is unset: loading it costs every call a couple of milliseconds
  const home = env.HOME !== undefined && env.HOME.length > 0 ? env.HOME : process.getBuiltinModule('node:os').homedir();
  return join(home, '.local', 'state', 'jscr', 'gate');
}

function exists(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/** A git directory of its own: a bare repository, or the `.git` folder of a work tree, seen from inside. */
function looksLikeGitDir(dir: string): boolean {
  return exists(join(dir, 'HEAD')) && exists(join(dir, 'objects')) && exists(join(dir, 'refs'));
}

/** Is `dir`, or any directory above it, a git work tree (holds `.git`) or a git directory? */
function insideGitRepository(dir: string): boolean {
  for (let at = dir; ; at = dirname(at)) {
    if (exists(join(at, '.git')) || looksLikeGitDir(at)) return true;
    if (dirname(at) === at) return false;
  }
}

/**
 * Why an existing directory is not this user's own real directory, or null when it is (or is not there
 * yet: the gate then creates it, private to this user). A link or another user's directory in a shared
 * place such as /tmp would let someone else choose where the gate writes.
 */
function notOwnDirReason(dir: string): string | null {
  let stat;
  try {
    stat = lstatSync(dir);
  } catch {
    return null; // not there, or not reachable: creating it will tell
  }
  if (stat.isSymbolicLink()) return 'is a symbolic link';
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) return 'belongs to another user';
  return null;
}

/** Why an existing directory is not one the gate may take over, or null when it may. */
function notOursReason(dir: string): string | null {
  const own = notOwnDirReason(dir);
  if (own !== null) return own;
  let names: string[];
  try {
    if (!lstatSync(dir).isDirectory()) return 'is not a directory';
    names = readdirSync(dir);
  } catch (error) {
    // not there yet: the gate creates it, private to this user
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? null : 'cannot be listed';
  }
  if (names.length > MAX_LISTED || names.some((name) => !GATE_FILE.test(name))) return 'holds files that are not gate state';
  return null;
}

/** Why a state directory named by the repository's configuration is refused, or null when it is fine. */
function refusalOf(value: string, projectRoot: string): string | null {
  if (!isAbsolute(value)) return 'is not an absolute path';
  // every component is looked at below: a path past the system's limit is refused before that work
  if (value.length > MAX_PATH_LENGTH) return 'is too long';
  for (const ch of value) if ((ch.codePointAt(0) ?? 0) < 0x20) return 'holds control characters';
  const dir = resolve(value);
  const real = realLocation(dir);
  if (real === null) return 'cannot be resolved';
  const realRoot = realLocation(projectRoot) ?? projectRoot;
  if ([dir, real].some((d) => isInsideDir(d, projectRoot) || isInsideDir(d, realRoot))) return 'is inside the project';
  if (insideGitRepository(dir) || insideGitRepository(real)) return 'is inside a git repository';
  return notOursReason(dir);
}

/**
 * Choose the state directory: `fromEnv` (the user's JSCR_GATE_STATE_DIR) wins and needs only to be
 * absolute and, if it exists, this user's real directory; `fromConfig` (the repository's `state_dir`)
 * must pass every check above.
 */
export function chooseStateDir(fromEnv: string | undefined, fromConfig: string | undefined, projectRoot: string, env: NodeJS.ProcessEnv): StateDirChoice {
  const fallback = (what: string, why: string): StateDirChoice => {
    const dir = defaultStateDir(env);
    return { dir, warning: `jscr gate: ${what} ${why}, so the gate keeps its state in ${dir}` };
  };
  if (fromEnv !== undefined) {
    const envValue = fromEnv.trim();
    if (envValue.length === 0) return { dir: defaultStateDir(env), warning: null };
    if (!isAbsolute(envValue)) return fallback('JSCR_GATE_STATE_DIR', 'is not an absolute path');
    const dir = resolve(envValue);
    const refusal = notOwnDirReason(dir);
    return refusal === null ? { dir, warning: null } : fallback('JSCR_GATE_STATE_DIR', refusal);
  }
  const configValue = fromConfig?.trim() ?? '';
  if (configValue.length === 0) return { dir: defaultStateDir(env), warning: null };
  const refusal = refusalOf(configValue, projectRoot);
  return refusal === null ? { dir: resolve(configValue), warning: null } : fallback(`the state_dir of ${CONFIG_FILE_NAME}`, refusal);
}
