/** Reading a target's current text for the trivial check: safely, boundedly, never logged. */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** The largest file the trivial check reads (bytes). */
export const MAX_CONTEXT_FILE_BYTES = 1024 * 1024;

/**
 * The text of a regular file of at most 1 MiB, opened read-only and non-blocking (a FIFO cannot
 * hang the hook), with CRLF folded to LF as the Edit tool does. Null for anything else: missing,
 * unreadable, too large, a directory, FIFO or device.
 */
export function readTargetText(absolutePath: string): string | null {
  let fd: number;
  try {
    fd = openSync(absolutePath, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > MAX_CONTEXT_FILE_BYTES) return null;
    const buffer = Buffer.alloc(stat.size + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > stat.size) return null; // grew while reading
    }
    return buffer.toString('utf8', 0, length).replaceAll('\r\n', '\n');
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
