/**
 * The only way jscr starts a process. A fixed allowlist of program names; arguments are always an
 * array and no shell is ever involved, so nothing in a repository can smuggle in a command.
 */
import { spawn } from 'node:child_process';
import { existsSync, realpathSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, sep } from 'node:path';
import { JscrError } from '../errors.js';
import { timerDelay } from '../io.js';
import { killOnExit } from './cleanup.js';
import { runEnvironment, untrustedFolders } from './environment.js';

/** Programs jscr may start: git, python3 (the guard's compile check) and the external scanners. */
export const ALLOWED_PROGRAMS = ['git', 'python3', 'bandit', 'shellcheck', 'secretlint', 'eslint', 'semgrep', 'gitleaks'] as const;
export type AllowedProgram = (typeof ALLOWED_PROGRAMS)[number];

/** Thrown when code asks to start anything that is not on the allowlist. */
export class ProcessNotAllowedError extends JscrError {
  readonly exitCode = 2;
  constructor(readonly program: string) {
    super(`refusing to start "${program}": not on jscr's process allowlist`);
  }
}

export function assertProgramAllowed(program: string): asserts program is AllowedProgram {
  if (!(ALLOWED_PROGRAMS as readonly string[]).includes(program)) throw new ProcessNotAllowedError(program);
}

export interface RunOptions {
  cwd: string;
  /** Kill the process (SIGKILL) after this many milliseconds. */
  timeoutMs: number;
  /** Written to the child's stdin, then closed. */
  input?: string | Buffer;
  /** Environment; defaults to the current run's (src/policy/environment.ts). */
  env?: NodeJS.ProcessEnv;
  /** Extra directories searched first for the program (e.g. node_modules/.bin for npm-installed scanners). */
  searchPath?: string[];
  /** Stop collecting output past this many bytes per stream (the process still runs to the end). */
  maxOutputBytes?: number;
}

export interface RunResult {
  /** Exit code, or null when killed by a signal. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  /** The same output as bytes, for binary-safe readers such as `git cat-file --batch`. */
  stdoutBytes: Buffer;
  stderr: string;
  timedOut: boolean;
  /** True when stdout went past `maxOutputBytes` and was cut: the output is not the program's whole answer. */
  stdoutCut: boolean;
  /** Set when the process could not be started at all (ENOENT, EACCES). */
  spawnError: string | null;
}

/** The absolute path of an allowed program on PATH (plus `searchPath` first), or null if not installed. */
export function locateProgram(program: AllowedProgram, env: NodeJS.ProcessEnv = runEnvironment(), searchPath: string[] = []): string | null {
  const dirs = [...searchPath, ...(env.PATH ?? '').split(delimiter).filter(trustedPathEntry)].filter((d) => d.length > 0);
  for (const dir of dirs) {
    const candidate = join(dir, program);
    try {
      if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
    } catch {
      // unreadable directory on PATH: try the next one
    }
  }
  return null;
}

/**
 * A PATH entry a program may come from: absolute (a relative one, `.` or `node_modules/.bin`, means the
 * current folder, usually the reviewed repository) and not inside a folder the reviewed repository
 * controls: a change that commits `node_modules/.bin/git` must not be what jscr runs as git.
 */
function trustedPathEntry(dir: string): boolean {
  if (!isAbsolute(dir)) return false;
  const untrusted = untrustedFolders();
  if (untrusted.length === 0) return true;
  let real: string;
  try {
    real = realpathSync(dir);
  } catch {
    return false; // a missing folder holds no program
  }
  return !untrusted.some((folder) => real === folder || real.startsWith(folder.endsWith(sep) ? folder : folder + sep));
}

/** Start an allowed program with an argument vector, never a shell; collect its output. */
export function runProgram(program: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
  assertProgramAllowed(program);
  // git reads the reviewed repository's configuration, which can name programs: it starts only
  // through the hardened runner in src/policy/git.ts, which neutralises them.
  if (program === 'git') throw new ProcessNotAllowedError('git (outside src/policy/git.ts, the hardened git runner)');
  const env = options.env ?? runEnvironment();
  const executable = locateProgram(program, env, options.searchPath);
  // Never the bare name: spawn would search PATH itself, relative and repository entries included.
  if (executable === null) return Promise.resolve(notStarted(`${program} is not installed or not on PATH (outside the reviewed repository)`));
  return spawnCollected(executable, args, env, options);
}

/**
 * The git executable with exactly the environment given. Only src/policy/git.ts may call this (the
 * egress audit checks it): everything else goes through that module's hardened runner.
 */
export function runGitExecutable(executable: string, args: readonly string[], options: RunOptions & { env: NodeJS.ProcessEnv }): Promise<RunResult> {
  return spawnCollected(executable, args, options.env, options);
}

/**
 * The second, explicit entry point: a program the user named on jscr's own command line (`jscr fix
 * --verify "CMD"`), already split into an argument vector. Never anything read from a repository, a
 * configuration file or a model: the user typed it, so it is theirs to run, with their PATH, and
 * still without a shell. An empty vector is refused.
 */
export function runUserCommand(argv: readonly string[], options: RunOptions): Promise<RunResult> {
  const [program, ...args] = argv;
  if (program === undefined || program === '') throw new ProcessNotAllowedError('(an empty command)');
  return spawnCollected(program, args, options.env ?? runEnvironment(), options);
}

/** The result of a program that was never started, as a spawn that could not find it reports it. */
function notStarted(why: string): RunResult {
  return { code: null, signal: null, stdout: '', stdoutBytes: Buffer.alloc(0), stderr: why, timedOut: false, stdoutCut: false, spawnError: 'ENOENT' };
}

function spawnCollected(executable: string, args: readonly string[], env: NodeJS.ProcessEnv, options: RunOptions): Promise<RunResult> {
  const limit = options.maxOutputBytes ?? 64 * 1024 * 1024;
  return new Promise((resolve) => {
    // Its own process group, so a timeout or an interrupted jscr kills the program's children too.
    const child = spawn(executable, args, { cwd: options.cwd, env, shell: false, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    const forget = child.pid === undefined ? () => undefined : killOnExit(child.pid);
    const killGroup = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let timedOut = false;
    let spawnError: string | null = null;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timerDelay(options.timeoutMs));
    child.stdout.on('data', (b: Buffer) => {
      if (outBytes < limit) out.push(b);
      outBytes += b.length;
    });
    child.stderr.on('data', (b: Buffer) => {
      if (errBytes < limit) err.push(b);
      errBytes += b.length;
    });
    child.on('error', (e: NodeJS.ErrnoException) => {
      spawnError = e.code ?? e.message;
    });
    child.on('exit', () => {
      // A killed child's own children (a wrapper script's subprocess) can keep the pipes open for as
      // long as they live; after a timeout stop waiting for them so the deadline is a real deadline.
      if (timedOut) {
        child.stdout.destroy();
        child.stderr.destroy();
      }
    });
    child.stdin.on('error', () => {
      // the child may exit before reading its input; that is its answer, not our failure
    });
    child.stdin.end(options.input ?? '');
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      forget();
      const stdoutBytes = Buffer.concat(out);
      resolve({
        code,
        signal,
        stdout: stdoutBytes.toString('utf8'),
        stdoutBytes,
        stderr: Buffer.concat(err).toString('utf8'),
        timedOut,
        stdoutCut: outBytes > stdoutBytes.length,
        spawnError,
      });
    });
  });
}
