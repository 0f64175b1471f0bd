/**
 * The environment one CLI run sees. `main` is called in-process by the end-to-end tests, many times in
 * one process with different environments (a hostile global git config, a private TMPDIR, a PATH of
 * fake scanners), so the processes jscr starts and the temporary folders it makes must follow the run's
 * `io.env`, not whatever `process.env` holds. The run's environment is bound once, at the CLI entry,
 * and read here by the process and git runners; outside a run (library tests) it is `process.env`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { tmpdir } from 'node:os';

interface RunState {
  env: NodeJS.ProcessEnv;
  /** Folders a reviewed repository controls (real paths): no program is ever taken from PATH there. */
  untrusted: string[];
}

const runs = new AsyncLocalStorage<RunState>();
/** Outside a run (library tests), the untrusted folders of the process. */
const outsideRun: string[] = [];

/** Run `work` with `env` as the environment of every process and temporary folder it starts. */
export function withRunEnvironment<T>(env: NodeJS.ProcessEnv, work: () => Promise<T>): Promise<T> {
  return runs.run({ env, untrusted: [] }, work);
}

/** The current run's environment (the same object for the whole run), or `process.env` outside one. */
export function runEnvironment(): NodeJS.ProcessEnv {
  return runs.getStore()?.env ?? process.env;
}

/**
 * Mark a folder (a real path) as the reviewed repository's: its files are the change's, so a PATH
 * entry inside it (`node_modules/.bin`, which npx and npm scripts put first) never supplies git or a
 * scanner. src/policy/process.ts asks `untrustedFolders` when it looks a program up.
 */
export function untrustFolder(realFolder: string): void {
  const list = runs.getStore()?.untrusted ?? outsideRun;
  if (!list.includes(realFolder)) list.push(realFolder);
}

/** The folders marked with `untrustFolder` in this run. */
export function untrustedFolders(): readonly string[] {
  return runs.getStore()?.untrusted ?? outsideRun;
}

/** The folder for temporary files, chosen as `os.tmpdir()` chooses it, from the run's environment. */
export function temporaryDirectory(): string {
  const env = runs.getStore()?.env;
  if (env === undefined) return tmpdir();
  const named = [env.TMPDIR, env.TMP, env.TEMP].find((value) => value !== undefined && value.length > 0) ?? '/tmp';
  return named.length > 1 && named.endsWith('/') ? named.slice(0, -1) : named;
}
