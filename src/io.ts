/**
 * What a command may touch of the process: streams, environment and working directory, passed in so
 * the core never calls process.exit or console and the tests can capture everything.
 */
export interface CommandIO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
}

/** SPEC 2: 0 clean, 1 findings, 2 could not run, 3 incomplete. */
export type ExitCode = 0 | 1 | 2 | 3;

/** Read all of stdin (or any readable) as bytes, refusing more than `maxBytes`. */
export async function readAll(stream: NodeJS.ReadableStream, maxBytes: number): Promise<Buffer | 'too_large'> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    total += buf.length;
    if (total > maxBytes) return 'too_large';
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

/** The real process's streams and environment, for the CLI entry points. */
export function processIO(): CommandIO {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    stderrIsTTY: Boolean(process.stderr.isTTY),
  };
}
