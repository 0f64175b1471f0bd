/**
 * The one way jscr runs git (docs/adr/0009-how-git-is-run.md). The reviewed repository's configuration
 * (its .git/config, includes, worktree config) and attributes can name programs that git would start:
 * filters, an fsmonitor hook, diff drivers, hooks, credential helpers, transports for a lazy fetch. Every
 * git process started here has each of those neutralised, so none of them can ever run:
 *   - a fixed set of overrides, and one per program-naming key the effective configuration holds
 *     (listed once per directory with `git config --list -z`), passed as GIT_CONFIG_COUNT pairs, which
 *     git reads after every file and which need no quoting of odd subsection names;
 *   - `--no-pager` always, and `--no-ext-diff --no-textconv` on every diff;
 *   - an environment without the caller's GIT_* variables (GIT_EXTERNAL_DIFF, GIT_DIR, GIT_CONFIG_*, ...),
 *     askpass programs or pagers;
 *   - only read-only subcommands, and `diff` (which refreshes the index even with GIT_OPTIONAL_LOCKS=0)
 *     against a private copy of the index, so nothing under .git is ever written.
 */
import { copyFile, mkdtemp, rm, stat, utimes } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { GitError, oneLine } from '../errors.js';
import { removeOnExit } from './cleanup.js';
import { runEnvironment, temporaryDirectory } from './environment.js';
import { locateProgram, runGitExecutable } from './process.js';
import { splitNulRecords } from '../repo-path.js';

/** The message SPEC's fault table expects when git cannot be started. */
export const GIT_MISSING = 'git is not installed or not on PATH';

/** True when a git executable is on PATH. */
export function gitAvailable(): boolean {
  return locateProgram('git', runEnvironment()) !== null;
}

export interface GitCall {
  /** Written to git's stdin (bytes are passed through unchanged). */
  input?: string | Buffer;
  timeoutMs?: number;
  maxOutputBytes?: number;
  /**
   * Output-shaping settings (`core.quotePath`, `diff.noprefix`, ...). They are applied before the
   * neutralising overrides, so a setting can never bring back a program. Never pass `-c` in args.
   */
  settings?: readonly (readonly [string, string])[];
  /** Take output cut at `maxOutputBytes` as its first bytes (a caller that wants only a file's head). */
  acceptCut?: boolean;
  /**
   * Leave the repository's own `core.hooksPath` in force, so `rev-parse --git-path hooks` says where its
   * hooks live (`jscr init --pre-push`). Only for `rev-parse`, which never runs a hook.
   */
  revealHooksPath?: boolean;
}

export interface GitOutput {
  /** 0, or another exit code the caller asked to accept. */
  code: number;
  stdout: Buffer;
  stderr: string;
}

const DEFAULT_TIMEOUT_MS = 120_000;
const DEFAULT_MAX_OUTPUT = 512 * 1024 * 1024;

/**
 * Subcommands jscr uses, all of which only read. `config` is limited to listing and `hash-object` to
 * hashing without writing, below.
 */
const READ_ONLY_SUBCOMMANDS = new Set(['rev-parse', 'diff', 'ls-files', 'ls-tree', 'cat-file', 'grep', 'merge-base', 'hash-object', 'config', 'rev-list', 'version']);

/** Overrides that hold in every repository. Values git reads as "nothing to run" (verified with git 2.39). */
const FIXED_OVERRIDES: readonly (readonly [string, string])[] = [
  ['core.fsmonitor', 'false'],
  // No hook can be found below /dev/null, whatever the repository sets.
  ['core.hooksPath', '/dev/null'],
  // No transport at all, so a partial clone's lazy fetch cannot start ssh, upload-pack or a remote helper.
  ['protocol.allow', 'never'],
  // The caller's global config may allow these by name (a per-protocol policy beats protocol.allow).
  ...['ext', 'fd', 'file', 'git', 'ssh', 'http', 'https'].map((name): [string, string] => [`protocol.${name}.allow`, 'never']),
  ['core.sshCommand', ''],
  ['core.askPass', ''],
  ['credential.helper', ''],
  ['core.alternateRefsCommand', ''],
  ['uploadpack.packObjectsHook', ''],
  ['gpg.program', ''],
  ['gpg.openpgp.program', ''],
  ['gpg.x509.program', ''],
  ['gpg.ssh.program', ''],
  ['gpg.ssh.defaultKeyCommand', ''],
  ['submodule.recurse', 'false'],
  ['diff.ignoreSubmodules', 'dirty'],
  ['core.splitIndex', 'false'],
  ['core.untrackedCache', 'false'],
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
];

/**
 * Keys with a driver or URL subsection that name a program, and the value that disables each. Diff
 * drivers are not here: an empty `textconv` or `command` is run as "" and fails, so they are turned off
 * by `--no-ext-diff --no-textconv`, which every diff gets. Nor are a remote's programs (`uploadpack`,
 * `vcs`, `proxy`): git keeps the first of several values there, so an override cannot win; no
 * transport runs at all (`protocol.allow=never`), which is what keeps them from running.
 */
const PER_SUBSECTION: readonly { pattern: RegExp; overrides: (subsection: string) => [string, string][] }[] = [
  { pattern: /^filter\.(.+)\.(clean|smudge|process|required)$/s, overrides: (d) => [[`filter.${d}.clean`, ''], [`filter.${d}.smudge`, ''], [`filter.${d}.process`, ''], [`filter.${d}.required`, 'false']] },
  { pattern: /^merge\.(.+)\.driver$/s, overrides: (d) => [[`merge.${d}.driver`, '']] },
  { pattern: /^credential\.(.+)\.helper$/s, overrides: (u) => [[`credential.${u}.helper`, '']] },
  { pattern: /^gpg\.(.+)\.program$/s, overrides: (f) => [[`gpg.${f}.program`, '']] },
  // A per-protocol policy beats protocol.allow, so `protocol.ext.allow=always` would let a lazy fetch run
  // the `ext::` transport's shell command; each named protocol is banned again by name.
  { pattern: /^protocol\.(.+)\.allow$/s, overrides: (p) => [[`protocol.${p}.allow`, 'never']] },
];

/** The caller's variables git would read; everything else of the environment passes unchanged. */
const KEPT_GIT_VARIABLES = new Set(['GIT_CONFIG_NOSYSTEM', 'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM']);
const DROPPED_VARIABLES = new Set(['SSH_ASKPASS', 'PAGER', 'EDITOR', 'VISUAL']);

function baseEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (name.startsWith('GIT_') && !KEPT_GIT_VARIABLES.has(name)) continue;
    if (DROPPED_VARIABLES.has(name)) continue;
    out[name] = value;
  }
  return {
    ...out,
    // review never writes to the repository, not even git's own bookkeeping.
    GIT_OPTIONAL_LOCKS: '0',
    GIT_TERMINAL_PROMPT: '0',
    // Content is what the objects hold, never what a refs/replace/ entry substitutes.
    GIT_NO_REPLACE_OBJECTS: '1',
  };
}

function withOverrides(env: NodeJS.ProcessEnv, overrides: readonly (readonly [string, string])[]): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env, GIT_CONFIG_COUNT: String(overrides.length) };
  overrides.forEach(([key, value], i) => {
    out[`GIT_CONFIG_KEY_${i}`] = key;
    out[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return out;
}

/** Program-naming keys in `git config --list -z` output (`key\nvalue\0` records), as overrides. */
function overridesForConfig(listing: Buffer): [string, string][] {
  const out = new Map<string, string>();
  for (const record of splitNulRecords(listing)) {
    const newline = record.indexOf(0x0a);
    const keyBytes = newline < 0 ? record : record.subarray(0, newline);
    const key = keyBytes.toString('latin1');
    for (const rule of PER_SUBSECTION) {
      const match = rule.pattern.exec(key);
      if (!match) continue;
      let subsection: string;
      try {
        subsection = new TextDecoder('utf-8', { fatal: true }).decode(keyBytes).replace(rule.pattern, '$1');
      } catch {
        // An environment variable cannot carry these bytes, so the key could not be overridden.
        throw new GitError(`the repository's git configuration names a program under a key that is not UTF-8 (${JSON.stringify(key)}); jscr will not run git there`);
      }
      for (const [k, v] of rule.overrides(subsection)) out.set(k, v);
    }
  }
  return [...out.entries()];
}

type Overrides = readonly (readonly [string, string])[];

/**
 * Per run environment, per directory: the overrides for the configuration git sees there. Keyed by the
 * run's environment object so a second in-process run (another HOME, another repository written at the
 * same path) lists the configuration again instead of trusting the first run's answer.
 */
const overridesByRun = new WeakMap<NodeJS.ProcessEnv, Map<string, Promise<Overrides>>>();

async function overridesFor(executable: string, cwd: string, runEnv: NodeJS.ProcessEnv): Promise<Overrides> {
  let overridesByDirectory = overridesByRun.get(runEnv);
  if (overridesByDirectory === undefined) overridesByRun.set(runEnv, (overridesByDirectory = new Map<string, Promise<Overrides>>()));
  const env = baseEnvironment(runEnv);
  let pending = overridesByDirectory.get(cwd);
  if (pending === undefined) {
    pending = (async () => {
      const listed = await runGitExecutable(executable, ['--no-pager', 'config', '--list', '-z'], {
        cwd,
        env: withOverrides(env, FIXED_OVERRIDES),
        timeoutMs: DEFAULT_TIMEOUT_MS,
        maxOutputBytes: 64 * 1024 * 1024,
      });
      if (listed.spawnError !== null) throw new GitError(GIT_MISSING);
      // Exit 1 is an empty listing; anything else is a configuration git itself cannot read.
      if (listed.code !== 0 && listed.code !== 1) throw failure('config', listed.stderr, listed.code);
      if (listed.stdoutCut) throw new GitError('git config --list printed more than jscr reads; refusing to run git there');
      return [...FIXED_OVERRIDES, ...overridesForConfig(listed.stdoutBytes)];
    })();
    overridesByDirectory.set(cwd, pending);
    const cache = overridesByDirectory;
    pending.catch(() => cache.delete(cwd));
  }
  return pending;
}

/** Lines of git's message kept for the user; hints and warnings only pad it. */
const GIT_MESSAGE_LINES = 4;
const GIT_MESSAGE_CHARS = 600;

/**
 * What git said on stderr, as one line: its distinct error lines in order (`error: ...; fatal: ...`),
 * without `hint:` and `warning:` lines, bounded. Null when git said nothing else.
 */
export function gitMessage(stderr: string): string | null {
  const lines = [...new Set(stderr.split('\n').map((l) => l.trim()))].filter((l) => l.length > 0 && !/^(hint|warning):/.test(l)).slice(0, GIT_MESSAGE_LINES);
  if (lines.length === 0) return null;
  const said = oneLine(lines.join('; '));
  return said.length > GIT_MESSAGE_CHARS ? `${said.slice(0, GIT_MESSAGE_CHARS)}...` : said;
}

function failure(subcommand: string, stderr: string, code: number | null): GitError {
  const said = gitMessage(stderr);
  // protocol.allow=never stops a partial clone's lazy fetch; say what is missing rather than "transport not allowed".
  if (/from promisor remote|transport '[^']*' not allowed/.test(stderr)) {
    return new GitError(`git ${subcommand} failed: an object is missing from this partial clone, and jscr never fetches; fetch it first (or clone without --filter)`, said);
  }
  return said === null ? new GitError(`git ${subcommand} failed: exit code ${String(code)}`) : new GitError(`git ${subcommand} failed`, said);
}

/** Flags every call of a subcommand gets: diff drivers and textconv programs never run. */
const FORCED_FLAGS = new Map<string, readonly string[]>([
  ['diff', ['--no-ext-diff', '--no-textconv']],
  ['grep', ['--no-textconv']],
]);

/** Global options a caller may put before the subcommand; none of them takes a value. */
const GLOBAL_FLAGS = new Set(['--literal-pathspecs', '--no-optional-locks']);

/** The subcommand's index in `args`, after checking it only reads. */
function refuseWrites(args: readonly string[]): number {
  let at = 0;
  while (at < args.length && GLOBAL_FLAGS.has(args[at] as string)) at++;
  const subcommand = args[at] ?? '';
  if (!READ_ONLY_SUBCOMMANDS.has(subcommand)) throw new GitError(`jscr does not run "git ${subcommand}" (only read-only git commands, without -c or -C)`);
  const rest = args.slice(at + 1);
  if (subcommand === 'config' && !rest.some((a) => a === '--list' || a.startsWith('--get'))) throw new GitError('jscr runs "git config" only to read');
  if (subcommand === 'hash-object' && rest.some((a) => a === '-w' || a === '--stdin-paths' || a.startsWith('--path'))) {
    throw new GitError('jscr runs "git hash-object" only without writing or filters');
  }
  return at;
}

/**
 * A copy of the repository's index in a private folder: `git diff` against the working tree refreshes
 * and rewrites the index it reads, whatever GIT_OPTIONAL_LOCKS says, so it gets this one.
 */
async function privateIndex(executable: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ path: string; original: string; remove: () => Promise<void> }> {
  const located = await runGitExecutable(executable, ['--no-pager', 'rev-parse', '--git-path', 'index'], { cwd, env, timeoutMs: DEFAULT_TIMEOUT_MS });
  if (located.code !== 0) throw failure('rev-parse', located.stderr, located.code);
  const named = located.stdout.replace(/\n$/, '');
  const original = isAbsolute(named) ? named : resolve(cwd, named);
  const folder = await mkdtemp(join(temporaryDirectory(), 'jscr-index-'));
  const forget = removeOnExit(folder);
  const copy = join(folder, 'index');
  try {
    // git trusts an entry's cached stat data only when the file is older than the index (its racy-git
    // check reads the index file's mtime): the copy keeps that time, or a file rewritten in the same
    // second at the same size would look unchanged. Read first, so a later rewrite only adds doubt.
    const written = await stat(original);
    await copyFile(original, copy);
    await utimes(copy, written.atime, written.mtime);
  } catch {
    // No index yet (a fresh repository): git reads a missing index file as an empty one.
  }
  return {
    path: copy,
    original,
    remove: async () => {
      await rm(folder, { recursive: true, force: true });
      forget();
    },
  };
}

/**
 * Run git in `cwd` with the repository's programs neutralised. A non-zero exit is a GitError naming
 * git's own reason unless the code is in `acceptCodes` (such as 1 for a `grep` that found nothing).
 */
export async function runGit(cwd: string, args: readonly string[], call: GitCall = {}, acceptCodes: readonly number[] = [0]): Promise<GitOutput> {
  const executable = locateProgram('git', runEnvironment());
  if (executable === null) throw new GitError(GIT_MISSING);
  const at = refuseWrites(args);
  const subcommand = args[at] as string;
  const runEnv = runEnvironment();
  const env = baseEnvironment(runEnv);
  if (call.revealHooksPath === true && subcommand !== 'rev-parse') throw new GitError('jscr reveals core.hooksPath only to git rev-parse');
  const neutralising = (await overridesFor(executable, cwd, runEnv)).filter(([key]) => call.revealHooksPath !== true || key !== 'core.hooksPath');
  const overrides = [...(call.settings ?? []), ...neutralising];
  const flags = FORCED_FLAGS.get(subcommand) ?? [];
  const argv = ['--no-pager', ...args.slice(0, at + 1), ...flags, ...args.slice(at + 1)];
  const index = subcommand === 'diff' ? await privateIndex(executable, cwd, withOverrides(env, overrides)) : null;
  try {
    const result = await runGitExecutable(executable, argv, {
      cwd,
      env: withOverrides(index === null ? env : { ...env, GIT_INDEX_FILE: index.path }, overrides),
      timeoutMs: call.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxOutputBytes: call.maxOutputBytes ?? DEFAULT_MAX_OUTPUT,
      ...(call.input === undefined ? {} : { input: call.input }),
    });
    if (result.spawnError !== null) throw new GitError(result.spawnError === 'ENOENT' ? GIT_MISSING : `git could not be started (${result.spawnError})`);
    if (result.timedOut) throw new GitError(`git ${subcommand} did not finish within ${Math.round((call.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)} s`);
    if (result.stdoutCut && call.acceptCut !== true) throw new GitError(`git ${subcommand} printed more than ${call.maxOutputBytes ?? DEFAULT_MAX_OUTPUT} bytes; jscr does not read a cut answer`);
    // git names the index it read; that is the repository's own, not the private copy it was given.
    if (result.code === null || !acceptCodes.includes(result.code)) throw failure(subcommand, index === null ? result.stderr : result.stderr.split(index.path).join(index.original), result.code);
    return { code: result.code, stdout: result.stdoutBytes, stderr: result.stderr };
  } finally {
    await index?.remove();
  }
}

/** `runGit`'s standard output as UTF-8 text (for ids and ASCII answers; paths are read as bytes). */
export async function gitText(cwd: string, args: readonly string[], call: GitCall = {}, acceptCodes: readonly number[] = [0]): Promise<string> {
  return (await runGit(cwd, args, call, acceptCodes)).stdout.toString('utf8');
}
