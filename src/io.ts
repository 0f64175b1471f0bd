/**
 * What a command may touch of the process: streams, environment and working directory, passed in so
 * the core never calls process.exit or console and the tests can capture everything; and the one way
 * to read a file the user names on the command line.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
export interface CommandIO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
}

/** The longest delay Node's timers take (2^31 - 1 ms, about 24.8 days); a longer one fires at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/** A delay a timer honours: at most MAX_TIMER_MS, at least 1 ms (a non-number or overflow is not "now"). */
export function timerDelay(ms: number): number {
  if (Number.isNaN(ms)) return 1;
  return Math.min(MAX_TIMER_MS, Math.max(1, ms));
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

/** What a path turned out to be, in words, for one-line refusals. */
export function describeFileKind(info: Stats): string {
  if (info.isFile()) return 'a regular file';
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** Why a bounded read found no bytes: the code for callers that branch, the phrase for messages. */
export type ReadRefusal = 'missing' | 'not-regular' | 'too-large' | 'unreadable';

/** The bytes of a regular file, or why it was not read (`problem` is one phrase, to follow the path in a message). */
export type RegularFileRead = { ok: true; bytes: Buffer } | { ok: false; reason: ReadRefusal; problem: string };

/**
 * The one reader of files jscr does not trust to be what they claim: a regular file of at most
 * `maxBytes`, nothing else. A FIFO would block forever and `/dev/zero` never ends, so the kind is
 * checked before opening (opening some devices has effects of its own) and again on the descriptor,
 * which is opened non-blocking so a FIFO swapped in between cannot hang the read either. With
 * `followLinks: false` a symbolic link is refused as not regular (O_NOFOLLOW), never followed.
 */
export function readBoundedFile(path: string, maxBytes: number, options: { followLinks: boolean }): RegularFileRead {
  const refuse = (reason: ReadRefusal, problem: string): RegularFileRead => ({ ok: false, reason, problem });
  const kindRefusal = (info: Stats): RegularFileRead => refuse('not-regular', `is ${info.isSymbolicLink() ? 'a symbolic link' : describeFileKind(info)}, not a regular file`);
  const failed = (error: unknown): RegularFileRead => {
    const code = errnoCode(error);
    const reason = code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : code === 'ELOOP' ? 'not-regular' : 'unreadable';
    return refuse(reason, `cannot be read (${code})`);
  };
  let fd: number;
  try {
    const before = options.followLinks ? statSync(path) : lstatSync(path);
    if (!before.isFile()) return kindRefusal(before);
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY | (options.followLinks ? 0 : constants.O_NOFOLLOW));
  } catch (error) {
    return failed(error);
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return kindRefusal(info);
    if (info.size > maxBytes) return refuse('too-large', `is larger than ${maxBytes} bytes`);
    // Read to the end rather than trusting the size: /proc files say 0, a file may grow while read.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(Math.min(64 * 1024, maxBytes - total + 1));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      total += read;
      if (total > maxBytes) return refuse('too-large', `is larger than ${maxBytes} bytes`);
      chunks.push(chunk.subarray(0, read));
    }
    return { ok: true, bytes: Buffer.concat(chunks, total) };
  } catch (error) {
    return failed(error);
  } finally {
    closeSync(fd);
  }
}

/** A file the user names on the command line (`--config`, `guard` inputs, `--file-text`); links are followed. */
export function readRegularFile(path: string, maxBytes: number): RegularFileRead {
  return readBoundedFile(path, maxBytes, { followLinks: true });
}

/** `ENOENT`, `EACCES`...: the errno name of a failed system call, or its message. */
export function errnoCode(error: unknown): string {
  if (error instanceof Error && 'code' in error && typeof error.code === 'string') return error.code;
  return error instanceof Error ? error.message.split('\n')[0] ?? '' : String(error);
}
