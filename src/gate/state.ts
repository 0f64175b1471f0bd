/**
 * Per-session gate state (gate-reference §3): kept outside the repository, read as untrusted input,
 * changed only under the session's lock (so concurrent hook calls lose nothing) and written atomically
 * (temp file + rename).
 */
import { randomSuffix, sha256Hex } from './hash.js';
import { acquireLock, LOCK_WAIT_MS, lockPathFor, releaseLock, stillHeld, type HeldLock } from './lock.js';
import { lstatSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readGuarded } from './saferead.js';
import { join } from 'node:path';

/** A directory gate opened by a denied new-file Write, for sibling collapse. */
interface DirGate {
  /** Turn id of the denial, or null when there was no transcript. */
  turn: string | null;
  /** When it was opened (ms epoch). */
  at: number;
  /** The first path (sanitised) denied in that directory. */
  first: string;
  /** The denial ordinal it got. */
  ordinal: number;
}

/** Counters kept per session. */
const COUNTERS = ['denials', 'credited', 'sibling_allows', 'cap_allows', 'trivial_allows'] as const;
type Counter = (typeof COUNTERS)[number];

/** One session's state. */
export interface GateState {
  /** Keys of targets already checked (canonical file keys and `__subagent__…` keys). */
  checked: string[];
  /** Last write (ms epoch). */
  lastActive: number;
  counters: Record<Counter, number>;
  denialsByClass: Record<string, number>;
  creditedByClass: Record<string, number>;
  /** `<class>\u0000<real dir>` → gate. */
  dirGates: Record<string, DirGate>;
}

const MAX_CHECKED_ENTRIES = 500;
const MAX_SPECIAL_KEYS = 50;
const MAX_DIR_GATES = 50;
/** Idle windows: a session or transcript key, and a project-only key. */
const SESSION_IDLE_MS = 8 * 60 * 60 * 1000;
const PROJECT_IDLE_MS = 30 * 60 * 1000;

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function emptyState(now: number): GateState {
  return {
    checked: [],
    lastActive: now,
    counters: { denials: 0, credited: 0, sibling_allows: 0, cap_allows: 0, trivial_allows: 0 },
    denialsByClass: Object.create(null) as Record<string, number>,
    creditedByClass: Object.create(null) as Record<string, number>,
    dirGates: Object.create(null) as Record<string, DirGate>,
  };
}


/** Where a session's state lives, and how long it may sit idle. */
export interface StateLocation {
  file: string;
  idleMs: number;
  /** The session key (file-name safe). */
  key: string;
}

/** The session key: the session id, else the transcript, else the project (gate-reference §3). */
export function stateLocation(stateDir: string, sessionId: string | null, transcriptPath: string | null, projectRoot: string): StateLocation {
  let key: string;
  let idleMs = SESSION_IDLE_MS;
  if (sessionId !== null && sessionId.length > 0) {
    let safe = '';
    for (const ch of sessionId) safe += /^[A-Za-z0-9_-]$/.test(ch) ? ch : '_';
    key = safe.length <= 64 ? safe : `sid-${sha256Hex(sessionId).slice(0, 24)}`;
  } else if (transcriptPath !== null && transcriptPath.length > 0) {
    key = `tx-${sha256Hex(transcriptPath).slice(0, 24)}`;
  } else {
    key = `proj-${sha256Hex(projectRoot).slice(0, 24)}`;
    idleMs = PROJECT_IDLE_MS;
  }
  return { file: join(stateDir, `state-${key}.json`), idleMs, key };
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : 0;
}

function countMap(value: unknown): Record<string, number> {
  const map = Object.create(null) as Record<string, number>;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return map;
  for (const [key, raw] of Object.entries(value)) {
    if (FORBIDDEN_KEYS.has(key) || key.length > 32) continue;
    const n = count(raw);
    if (n > 0) map[key] = n;
  }
  return map;
}

/** Validate a parsed state file: anything of the wrong shape is dropped, counters clamp to ≥ 0. */
export function validateState(raw: unknown, now: number): GateState {
  const state = emptyState(now);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return state;
  const record = raw as Record<string, unknown>;
  if (Array.isArray(record.checked)) {
    state.checked = record.checked.filter((k): k is string => typeof k === 'string' && k.length > 0 && k.length <= 4096 && !FORBIDDEN_KEYS.has(k));
  }
  // a last write in the future would keep the session from ever expiring
  state.lastActive = Math.min(count(record.last_active) || now, now);
  const counters = typeof record.counters === 'object' && record.counters !== null ? (record.counters as Record<string, unknown>) : {};
  for (const name of COUNTERS) state.counters[name] = count(counters[name]);
  state.denialsByClass = countMap(record.denials_by_class);
  state.creditedByClass = countMap(record.credited_by_class);
  if (typeof record.dir_gates === 'object' && record.dir_gates !== null && !Array.isArray(record.dir_gates)) {
    for (const [key, gate] of Object.entries(record.dir_gates as Record<string, unknown>)) {
      if (FORBIDDEN_KEYS.has(key) || typeof gate !== 'object' || gate === null) continue;
      const g = gate as Record<string, unknown>;
      const turn = typeof g.turn === 'string' && g.turn.length <= 128 ? g.turn : g.turn === null ? null : undefined;
      if (turn === undefined || typeof g.first !== 'string' || count(g.at) === 0 || count(g.ordinal) < 1) continue;
      state.dirGates[key] = { turn, at: count(g.at), first: g.first.slice(0, 500), ordinal: count(g.ordinal) };
    }
  }
  return state;
}

function serialise(state: GateState): string {
  return `${JSON.stringify(
    {
      checked: state.checked,
      last_active: state.lastActive,
      counters: state.counters,
      denials_by_class: state.denialsByClass,
      credited_by_class: state.creditedByClass,
      dir_gates: state.dirGates,
    },
    null,
    2,
  )}\n`;
}

/** The largest state file read: far above what 500 checked paths and 50 directory gates take. */
const MAX_STATE_BYTES = 4 * 1024 * 1024;

/**
 * Read a session's state. A missing, unreadable or malformed file is a fresh state. An expired one is
 * a fresh state too, and is deleted when `holdingLock` (without the lock, the delete could remove a
 * state another call has just written).
 */
export function loadState(location: StateLocation, now: number, holdingLock = false): GateState {
  // A FIFO, device, link or huge file put in place of the state reads as no state (the next save
  // replaces it), never as a hang or as another file's content.
  const bytes = readGuarded(location.file, MAX_STATE_BYTES);
  if (!Buffer.isBuffer(bytes)) return emptyState(now);
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    return emptyState(now);
  }
  const state = validateState(parsed, now);
  if (now - state.lastActive > location.idleMs) {
    if (holdingLock) rmSync(location.file, { force: true });
    return emptyState(now);
  }
  return state;
}

function pruneChecked(keys: string[]): string[] {
  if (keys.length <= MAX_CHECKED_ENTRIES) return keys;
  const special = keys.filter((k) => k.startsWith('__')).slice(-MAX_SPECIAL_KEYS);
  const files = keys.filter((k) => !k.startsWith('__'));
  return [...special, ...files.slice(-(MAX_CHECKED_ENTRIES - special.length))];
}

/** Write a state atomically: a new temp file (O_EXCL, so never through a planted link) renamed over the old. */
function writeState(location: StateLocation, state: GateState, now: number): void {
  state.lastActive = now;
  state.checked = pruneChecked(state.checked);
  const gates = Object.entries(state.dirGates).sort((x, y) => y[1].at - x[1].at);
  if (gates.length > MAX_DIR_GATES) {
    state.dirGates = Object.create(null) as Record<string, DirGate>;
    for (const [key, gate] of gates.slice(0, MAX_DIR_GATES)) state.dirGates[key] = gate;
  }
  const temp = `${location.file}.tmp.${process.pid}.${randomSuffix()}`;
  try {
    writeFileSync(temp, serialise(state), { mode: 0o600, flag: 'wx' });
    renameSync(temp, location.file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** What an update under the lock came to. */
export type StateUpdate<T> =
  | { ok: true; value: T; state: GateState }
  /** `locked`: another call held the lock for the whole wait; `unwritable`: the directory or file could not be written. */
  | { ok: false; why: 'locked' | 'unwritable' };

/**
 * Read-modify-write of a session's state under its lock: `update` sees the freshest state on disk and
 * changes it in place; it returns its value and whether anything changed (only then is the file
 * written). Concurrent calls are serialised, so no update is lost. Never throws.
 */
export function updateState<T>(
  location: StateLocation,
  stateDir: string,
  now: number,
  update: (state: GateState) => { value: T; changed: boolean },
  waitMs = LOCK_WAIT_MS,
): StateUpdate<T> {
  try {
    mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  } catch {
    return { ok: false, why: 'unwritable' };
  }
  // A lock broken under us (judged stale by a caller that saw its owner slow to start) is noticed
  // before the write; the update is then done again on the state as the new holder leaves it.
  for (let attempt = 0; attempt < 3; attempt++) {
    let lock: HeldLock | null;
    try {
      lock = acquireLock(lockPathFor(location.file), waitMs);
    } catch {
      return { ok: false, why: 'unwritable' };
    }
    if (lock === null) return { ok: false, why: 'locked' };
    try {
      const state = loadState(location, now, true);
      const { value, changed } = update(state);
      if (!stillHeld(lock)) continue;
      if (changed) writeState(location, state, now);
      return { ok: true, value, state };
    } catch {
      return { ok: false, why: 'unwritable' };
    } finally {
      releaseLock(lock);
    }
  }
  return { ok: false, why: 'locked' };
}

/**
 * Remove state files idle for more than twice their window, and temp files, left-over locks and broken
 * locks older than 30 minutes (a live lock is held for milliseconds).
 */
export function pruneStale(stateDir: string, files: readonly string[], now: number): void {
  for (const name of files) {
    const isLeftover = name.includes('.tmp.') || name.endsWith('.json.lock') || name.includes('.json.lock.stale.');
    if (!name.startsWith('state-') || (!isLeftover && !name.endsWith('.json'))) continue;
    const window = isLeftover ? PROJECT_IDLE_MS : name.startsWith('state-proj-') ? 2 * PROJECT_IDLE_MS : 2 * SESSION_IDLE_MS;
    try {
      const path = join(stateDir, name);
      const stat = lstatSync(path);
      if (!stat.isDirectory() && now - stat.mtimeMs > window) rmSync(path, { force: true });
    } catch {
      // another hook removed it first
    }
  }
}
