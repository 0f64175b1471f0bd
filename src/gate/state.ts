/**
 * Per-session gate state (gate-reference §3): kept outside the repository, read as untrusted input,
 * written atomically (temp file + rename) and merged with whatever a concurrent writer saved.
 */
import { randomSuffix, sha256Hex } from './hash.js';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A directory gate opened by a denied new-file Write, for sibling collapse. */
export interface DirGate {
  /** Turn id of the denial, or null when there was no transcript. */
  turn: string | null;
  /** When it was opened (ms epoch). */
  at: number;
  /** The first path (sanitised) denied in that directory. */
  first: string;
  /** The denial ordinal it got. */
  ordinal: number;
}

/** Counters kept per session; merged by maximum. */
export const COUNTERS = ['denials', 'credited', 'sibling_allows', 'cap_allows', 'trivial_allows'] as const;
export type Counter = (typeof COUNTERS)[number];

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

export const MAX_CHECKED_ENTRIES = 500;
export const MAX_SPECIAL_KEYS = 50;
export const MAX_DIR_GATES = 50;
/** Idle windows: a session or transcript key, and a project-only key. */
export const SESSION_IDLE_MS = 8 * 60 * 60 * 1000;
export const PROJECT_IDLE_MS = 30 * 60 * 1000;

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export function emptyState(now: number): GateState {
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

/** Read a session's state. A missing, unreadable or malformed file is a fresh state; an expired one is deleted. */
export function loadState(location: StateLocation, now: number): GateState {
  let text: string;
  try {
    text = readFileSync(location.file, 'utf8');
  } catch {
    return emptyState(now);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return emptyState(now);
  }
  const state = validateState(parsed, now);
  if (now - state.lastActive > location.idleMs) {
    rmSync(location.file, { force: true });
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

/** Merge two states: checked is the union, counters the maximum, dir gates the newest. */
export function mergeStates(mine: GateState, theirs: GateState): GateState {
  const merged = emptyState(Math.max(mine.lastActive, theirs.lastActive));
  const checked = new Set(theirs.checked);
  for (const key of mine.checked) {
    checked.delete(key);
    checked.add(key);
  }
  merged.checked = pruneChecked([...checked]);
  for (const name of COUNTERS) merged.counters[name] = Math.max(mine.counters[name], theirs.counters[name]);
  for (const [target, a, b] of [
    [merged.denialsByClass, mine.denialsByClass, theirs.denialsByClass],
    [merged.creditedByClass, mine.creditedByClass, theirs.creditedByClass],
  ] as const) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) target[key] = Math.max(a[key] ?? 0, b[key] ?? 0);
  }
  const gates = Object.entries({ ...theirs.dirGates }).concat(Object.entries(mine.dirGates));
  const newest = new Map<string, DirGate>();
  for (const [key, gate] of gates) {
    const seen = newest.get(key);
    if (seen === undefined || gate.at >= seen.at) newest.set(key, gate);
  }
  const kept = [...newest.entries()].sort((x, y) => y[1].at - x[1].at).slice(0, MAX_DIR_GATES);
  for (const [key, gate] of kept) merged.dirGates[key] = gate;
  return merged;
}

/**
 * Save atomically, merged with the copy on disk (a concurrent hook may have written since we read).
 * Throws when the directory or file cannot be written; the caller fails open.
 */
export function saveState(location: StateLocation, state: GateState, now: number, stateDir: string): void {
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const onDisk = loadState(location, now);
  const merged = mergeStates({ ...state, lastActive: now }, onDisk);
  merged.lastActive = now;
  const temp = `${location.file}.tmp.${process.pid}.${randomSuffix()}`;
  try {
    writeFileSync(temp, serialise(merged), { mode: 0o600, flag: 'wx' });
    renameSync(temp, location.file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  Object.assign(state, merged);
}

/** Remove state files idle for more than twice their window, and temp files older than 30 minutes. */
export function pruneStale(stateDir: string, files: readonly string[], now: number): void {
  for (const name of files) {
    const isTemp = name.includes('.tmp.');
    if (!name.startsWith('state-') || (!isTemp && !name.endsWith('.json'))) continue;
    const window = isTemp ? PROJECT_IDLE_MS : name.startsWith('state-proj-') ? 2 * PROJECT_IDLE_MS : 2 * SESSION_IDLE_MS;
    try {
      const path = join(stateDir, name);
      if (now - statSync(path).mtimeMs > window) rmSync(path, { force: true });
    } catch {
      // another hook removed it first
    }
  }
}
