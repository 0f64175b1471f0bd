/**
 * The CLI for end-to-end tests. `runJscr` calls `main` (src/cli.ts) in this process with captured
 * streams, so a test pays neither Node's start-up nor loading the bundle and its grammars again; what
 * is under test is the same argument parsing, commands and exit codes. `runJscrBinary` spawns the built
 * `node bin/jscr`, for the few tests about the program itself (its exit, its signals, its descriptors).
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli.js';

/** bin/jscr at the repository root; it loads dist/jscr.mjs, so build first (`node tools/build.mjs`). */
export const JSCR_BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'jscr');

/** What one CLI run left behind. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** NO_COLOR=1 and `env` over this process's environment; an `undefined` value removes the variable, as for a child. */
export function cliEnvironment(env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const merged: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries({ ...process.env, NO_COLOR: '1', ...env })) {
    if (value !== undefined) merged[name] = value;
  }
  return merged;
}

/** A stream that keeps what is written to it, decoded as UTF-8 once at the end (a character may span writes). */
class CapturedStream extends Writable {
  private readonly chunks: Buffer[] = [];

  override _write(chunk: Buffer | string, encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk);
    done();
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

/** What a run reads on stdin, and how long a test waits for it. */
export interface RunExtras {
  stdin?: string | Buffer;
  /** Past this, the run counts as hung: code -1 and a line on stderr, as a killed child would give. */
  timeoutMs?: number;
}

/**
 * Run the CLI in-process in `cwd` with `cliEnvironment(env)`, stdin empty unless given, and neither
 * stream a terminal. Asynchronous, so a scripted server living in the test's own event loop can answer.
 */
export async function runJscr(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}, extras: RunExtras = {}): Promise<CliRun> {
  const stdout = new CapturedStream();
  const stderr = new CapturedStream();
  const stdin = extras.stdin ?? '';
  const run = main(args, {
    stdout,
    stderr,
    stdin: Readable.from(stdin.length === 0 ? [] : [Buffer.from(stdin)]),
    env: cliEnvironment(env),
    cwd,
    stdoutIsTTY: false,
    stderrIsTTY: false,
  });
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<-1>((resolve) => {
    if (extras.timeoutMs !== undefined) timer = setTimeout(() => resolve(-1), extras.timeoutMs);
  });
  try {
    const code = await Promise.race([run, hung]);
    if (code === -1) stderr.write(`(test helper: jscr ${args.join(' ')} did not finish within ${String(extras.timeoutMs)} ms)\n`);
    return { code, stdout: stdout.text(), stderr: stderr.text() };
  } finally {
    clearTimeout(timer);
  }
}

/** The same run through the built binary, `node bin/jscr`, as a child process. */
export function runJscrBinary(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}, stdin: string | Buffer = ''): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [JSCR_BIN, ...args], { cwd, env: cliEnvironment(env) });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.on('error', () => undefined); // a child that exits before reading its input
    child.stdin.end(stdin);
  });
}
