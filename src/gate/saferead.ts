/** Reading a small file the gate does not trust, without following a link or blocking on a FIFO. */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** What a guarded read found: the bytes, or why there are none. */
export type GuardedRead = Buffer | 'missing' | 'not-regular' | 'too-large' | 'unreadable';

/**
 * The bytes of a regular file of at most `maxBytes`. The file is opened with O_NOFOLLOW (a symbolic link
 * is not followed: it reads as `not-regular`) and O_NONBLOCK (a FIFO cannot hang the call), and checked
 * with fstat on the opened descriptor, so what is read is what was checked.
 */
export function readGuarded(path: string, maxBytes: number): GuardedRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : code === 'ELOOP' ? 'not-regular' : 'unreadable';
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return 'not-regular';
    if (stat.size > maxBytes) return 'too-large';
    const buffer = Buffer.alloc(stat.size);
    let length = 0;
    while (length < buffer.length) {
      const n = readSync(fd, buffer, length, buffer.length - length, length);
      if (n === 0) break;
      length += n;
    }
    return buffer.subarray(0, length);
  } catch {
    return 'unreadable';
  } finally {
    closeSync(fd);
  }
}
