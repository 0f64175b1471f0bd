/**
 * A per-session lock around the state's read-modify-write, so that concurrent hook calls (an agent's
 * parallel batch) never lose each other's updates. The lock is a file created with O_EXCL holding the
 * owner's pid and a nonce. It is short-lived (one small read and one rename) and the wait for it is
 * bounded: a caller that cannot get it in time gives up and the gate fails open. A lock whose owner is
 * gone (no such pid) or that is older than LOCK_STALE_MS is broken by the next caller.
 */
import { closeSync, constants, lstatSync, linkSync, openSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { readGuarded } from './saferead.js';
import { randomSuffix } from './hash.js';

/** How long a call waits for one holder to release the lock before failing open. */
export const LOCK_WAIT_MS = 2000;
/**
 * While the lock keeps changing hands (a burst of calls queued behind each other on a loaded machine,
 * where fifty calls can take seconds just to start) a call waits on, but never longer than this many
 * times the wait for one holder in all: 4 s, inside the 5 s a coding agent's hook is usually given, so
 * the gate itself decides to fail open rather than being killed.
 */
const LOCK_WAIT_ROUNDS = 2;
/** A lock older than this is left over (the hold is a few milliseconds), whoever its owner claims to be. */
const LOCK_STALE_MS = 5000;
/**
 * A lock with no owner written in it yet is a caller between its create and its write, a few microseconds
 * apart; one still empty after this long belongs to a caller killed in between and is left over.
 */
const EMPTY_LOCK_STALE_MS = 250;

/** A lock this process holds. */
export interface HeldLock {
  path: string;
  token: string;
}

export function lockPathFor(stateFile: string): string {
  return `${stateFile}.lock`;
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** A lock file's text, never following a link nor blocking on a FIFO; null if it is not a small regular file. */
function readLockText(path: string): string | null {
  const bytes = readGuarded(path, 128);
  return Buffer.isBuffer(bytes) ? bytes.toString('latin1') : null;
}

function ownerIsGone(text: string): boolean {
  const pid = Number(text.split(' ')[0]);
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  // our own pid on a lock we do not hold is a leftover of an earlier process that had this pid
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Break a left-over lock. It is renamed to a unique name first, so of several callers that judged it
 * stale only one moves it; if what was moved is not the lock we judged (another caller broke it and
 * took a fresh one in between), it is put back.
 */
function breakLock(path: string, judged: { ino: number; text: string | null }): void {
  // Look once more right before moving it: the lock judged may have been released and a fresh one
  // taken since (its owner then exited, which is what made it look abandoned).
  try {
    if (lstatSync(path).ino !== judged.ino || readLockText(path) !== judged.text) return;
  } catch {
    return;
  }
  const aside = `${path}.stale.${process.pid}.${randomSuffix()}`;
  try {
    renameSync(path, aside);
  } catch {
    return; // someone else broke it first
  }
  let moved: { ino: number; text: string | null } | null = null;
  try {
    moved = { ino: lstatSync(aside).ino, text: readLockText(aside) };
  } catch {
    moved = null;
  }
  if (moved !== null && (moved.ino !== judged.ino || moved.text !== judged.text)) {
    try {
      linkSync(aside, path);
    } catch {
      // a third caller holds the lock now; the one we moved will see at release that it is not its own
    }
  }
  try {
    rmSync(aside, { force: true });
  } catch {
    // a directory planted as the lock stays aside; the stale-file sweep does not touch it either
  }
}

/**
 * Take the lock; null when one holder kept it for `waitMs`, or when it was not had within
 * LOCK_WAIT_ROUNDS × `waitMs` in all.
 */
export function acquireLock(path: string, waitMs = LOCK_WAIT_MS): HeldLock | null {
  const token = `${process.pid} ${randomSuffix()}\n`;
  const started = Date.now();
  let holder: string | null = null;
  let holderSeen = started;
  let pause = 1;
  for (;;) {
    try {
      const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
      try {
        writeSync(fd, token);
      } catch (error) {
        closeSync(fd);
        rmSync(path, { force: true });
        throw error;
      }
      closeSync(fd);
      return { path, token };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let retryNow = false;
    try {
      const stat = lstatSync(path);
      const text = stat.isFile() ? readLockText(path) : null;
      const seen = `${stat.ino}:${text ?? ''}`;
      if (seen !== holder) {
        holder = seen;
        holderSeen = Date.now();
      }
      const age = Math.abs(Date.now() - stat.mtimeMs);
      const emptyAndOld = text === '' && age > EMPTY_LOCK_STALE_MS;
      if (!stat.isFile() || age > LOCK_STALE_MS || emptyAndOld || (text !== null && ownerIsGone(text))) {
        breakLock(path, { ino: stat.ino, text });
        retryNow = true;
      }
    } catch {
      retryNow = true; // released between our open and our look
    }
    // every path back to the top passes the deadlines: a lock that cannot be broken never hangs the call
    const now = Date.now();
    if (now - holderSeen >= waitMs || now - started >= LOCK_WAIT_ROUNDS * waitMs) return null;
    if (retryNow) continue;
    // jitter keeps a crowd of waiters from waking in step
    sleep(pause + Math.random() * pause);
    pause = Math.min(pause * 2, 16);
  }
}

/** Is the lock still ours? (Checked before the state is written: a lock broken as stale is not.) */
export function stillHeld(lock: HeldLock): boolean {
  return readLockText(lock.path) === lock.token;
}

/** Release a lock we hold; a lock that is no longer ours (broken as stale) is left alone. */
export function releaseLock(lock: HeldLock): void {
  if (!stillHeld(lock)) return;
  try {
    unlinkSync(lock.path);
  } catch {
    // already gone
  }
}
