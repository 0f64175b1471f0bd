/**
 * The gate's own entry point (dist/gate.cjs): no commander, no engine, no tree-sitter, and CommonJS so
 * that an agent's every edit does not pay for Node's ES-module loader (see docs/adr/0001). Input and
 * output use plain synchronous file-descriptor calls: setting up process.stdin and process.stdout as
 * streams costs several milliseconds on every call.
 */
import { readSync, writeSync } from 'node:fs';
import { decideGate } from './decide.js';
import { MAX_INPUT_BYTES } from './gate.js';

/** Read all of stdin, refusing more than `max` bytes. */
function readStdin(max: number): Buffer | 'too_large' {
  const chunks: Buffer[] = [];
  let total = 0;
  const chunk = Buffer.allocUnsafe(64 * 1024);
  for (;;) {
    let n: number;
    try {
      n = readSync(0, chunk, 0, chunk.length, null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        // a non-blocking pipe with nothing yet: wait a moment rather than spin a core
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
        continue;
      }
      if (code === 'EOF') break;
      throw error;
    }
    if (n === 0) break;
    total += n;
    if (total > max) return 'too_large';
    chunks.push(Buffer.from(chunk.subarray(0, n)));
  }
  return Buffer.concat(chunks);
}

/** Write all of a string to a file descriptor (writeSync may write less than asked on a pipe). */
function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset);
}

let code = 0;
try {
  const outcome = decideGate(readStdin(MAX_INPUT_BYTES), process.env, process.cwd());
  for (const line of outcome.stderr) writeAll(2, `${line}\n`);
  if (outcome.stdout.length > 0) writeAll(1, outcome.stdout);
  code = outcome.exitCode;
} catch (error) {
  // Reading stdin itself failed: say so in one line; the hook runner treats exit 2 as a block.
  writeAll(2, `jscr gate: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}\n`);
  code = 2;
}
process.exitCode = code;
