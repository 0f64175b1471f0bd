/** Reading a small file the gate does not trust, without following a link or blocking on a FIFO. */
import { readBoundedFile, type ReadRefusal } from '../io.js';

/** What a guarded read found: the bytes, or why there are none. */
export type GuardedRead = Buffer | ReadRefusal;

/** The bytes of a regular file of at most `maxBytes`; a symbolic link reads as `not-regular`. */
export function readGuarded(path: string, maxBytes: number): GuardedRead {
  const read = readBoundedFile(path, maxBytes, { followLinks: false });
  return read.ok ? read.bytes : read.reason;
}
