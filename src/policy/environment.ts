/**
 * The environment one CLI run sees. `main` is called in-process by the end-to-end tests, many times in
 * one process with different environments (a hostile global git config, a private TMPDIR, a PATH of
 * fake scanners), so the processes jscr starts and the temporary folders it makes must follow the run's
 * `io.env`, not whatever `process.env` holds. The run's environment is bound once, at the CLI entry,
 * and read here by the process and git runners; outside a run (library tests) it is `process.env`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { tmpdir } from 'node:os';

const runs = new AsyncLocalStorage<NodeJS.ProcessEnv>();

/** Run `work` with `env` as the environment of every process and temporary folder it starts. */
export function withRunEnvironment<T>(env: NodeJS.ProcessEnv, work: () => Promise<T>): Promise<T> {
  return runs.run(env, work);
}

/** The current run's environment (the same object for the whole run), or `process.env` outside one. */
export function runEnvironment(): NodeJS.ProcessEnv {
  return runs.getStore() ?? process.env;
}

/** The folder for temporary files, chosen as `os.tmpdir()` chooses it, from the run's environment. */
export function temporaryDirectory(): string {
  const env = runs.getStore();
  if (env === undefined) return tmpdir();
  const named = [env.TMPDIR, env.TMP, env.TEMP].find((value) => value !== undefined && value.length > 0) ?? '/tmp';
  return named.length > 1 && named.endsWith('/') ? named.slice(0, -1) : named;
}
