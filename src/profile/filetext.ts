/** Reading a target's current text for the trivial check: safely, boundedly, never logged. */
import { readRegularFile } from '../io.js';

/** The largest file the trivial check reads (bytes). */
const MAX_CONTEXT_FILE_BYTES = 1024 * 1024;

/**
 * The text of a regular file of at most 1 MiB (a FIFO or device is never opened for reading, so it
 * cannot hang the hook), with CRLF folded to LF as the Edit tool does; otherwise why not.
 */
export function readTargetFile(absolutePath: string): { ok: true; text: string } | { ok: false; problem: string } {
  const read = readRegularFile(absolutePath, MAX_CONTEXT_FILE_BYTES);
  return read.ok ? { ok: true, text: read.bytes.toString('utf8').replaceAll('\r\n', '\n') } : read;
}

/** `readTargetFile`'s text, or null for anything else: missing, unreadable, too large, a directory, FIFO or device. */
export function readTargetText(absolutePath: string): string | null {
  const read = readTargetFile(absolutePath);
  return read.ok ? read.text : null;
}
