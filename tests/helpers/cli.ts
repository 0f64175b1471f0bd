/**
 * The built CLI (node bin/jscr) as a child process, for end-to-end tests.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** bin/jscr at the repository root; it loads dist/jscr.mjs, so build first (`node tools/build.mjs`). */
export const JSCR_BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'jscr');

/** What one CLI run left behind. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Run the CLI in `cwd` with NO_COLOR=1 and `env` over this process's environment. Asynchronous so a
 * scripted server living in the test's own event loop can still answer the CLI.
 */
export function runJscr(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [JSCR_BIN, ...args], { cwd, env: { ...process.env, NO_COLOR: '1', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
