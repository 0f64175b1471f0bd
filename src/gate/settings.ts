/**
 * The gate's settings: environment variables, then a `[gate]` table of `<root>/.jscr.toml` read by a
 * tiny reader for that one table (the gate's bundle carries no TOML parser). The environment wins.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_FILE_NAME, MAX_CONFIG_BYTES } from '../config-file.js';
import { readGuarded } from './saferead.js';
import { GATE_SETTINGS, type GateSettingKey, type GateSettingKind } from './settings-table.js';
import { chooseStateDir } from './statedir.js';

/** Every setting the gate reads, after validation. */
export interface GateSettings {
  /** False when JSCR_GATE is off, 0, false, disabled or disable. */
  enabled: boolean;
  /** Directory of per-session state and metrics, never inside the repository. */
  stateDir: string;
  /** Project-relative (or absolute) globs whose targets pass without a check. */
  exemptGlobs: string[];
  /** Full denials before the one-line form (default 3; 0 condenses from the first). */
  fullDenials: number;
  /** First-touch denials per session before touches pass unchecked; null for no cap. */
  maxDenials: number | null;
  /** Append decision metrics (codes only) to metrics.jsonl in the state directory. */
  metrics: boolean;
  /** Ask external-contract after data-schema (opt-in). */
  externalContract: boolean;
  /** Warnings about malformed values, one line each, for stderr. */
  warnings: string[];
}

type TableValue = string | number | boolean | string[];

const TRUE_WORDS = new Set(['1', 'true', 'on', 'enabled', 'enable', 'yes']);
const OFF_WORDS = new Set(['0', 'false', 'off', 'disabled', 'disable']);

/** True for the words that switch the gate off, in `[gate] enabled` and in JSCR_GATE alike. */
export function isOffWord(value: string): boolean {
  return OFF_WORDS.has(value.trim().toLowerCase());
}

/** The `[gate]` table's keys and the environment variables that override them. */
const SETTING_KEYS = Object.fromEntries(Object.entries(GATE_SETTINGS).map(([key, setting]) => [key, setting.env])) as {
  readonly [K in GateSettingKey]: (typeof GATE_SETTINGS)[K]['env'];
};

function parseBasicString(text: string): { value: string; rest: string } | null {
  const quote = text[0];
  if (quote !== '"' && quote !== "'") return null;
  let value = '';
  for (let i = 1; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === quote) return { value, rest: text.slice(i + 1).trim() };
    if (ch === '\\' && quote === '"') {
      const next = text[i + 1];
      value += next === 'n' ? '\n' : next === 't' ? '\t' : (next ?? '');
      i++;
      continue;
    }
    value += ch;
  }
  return null;
}

function parseValue(text: string): TableValue | null {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text.startsWith('"') || text.startsWith("'")) {
    const parsed = parseBasicString(text);
    return parsed !== null && (parsed.rest === '' || parsed.rest.startsWith('#')) ? parsed.value : null;
  }
  if (text.startsWith('[')) {
    const items: string[] = [];
    let rest = text.slice(1).trim();
    while (!rest.startsWith(']')) {
      const parsed = parseBasicString(rest);
      if (parsed === null) return null;
      items.push(parsed.value);
      rest = parsed.rest.startsWith(',') ? parsed.rest.slice(1).trim() : parsed.rest;
    }
    return items;
  }
  let end = 0;
  while (end < text.length && text[end] !== ' ' && text[end] !== '#') end++;
  const word = text.slice(0, end);
  let digits = true;
  for (const ch of word) if (ch < '0' || ch > '9') digits = false;
  return digits && word.length > 0 ? Number(word) : null;
}

/**
 * The `[gate]` table of a .jscr.toml text: one-line `key = value` entries with strings, integers,
 * booleans and one-line string arrays. Anything else in the table is reported, not guessed.
 */
function readGateTable(toml: string): { values: Map<string, TableValue>; problems: string[] } {
  const values = new Map<string, TableValue>();
  const problems: string[] = [];
  let inGate = false;
  for (const [index, rawLine] of toml.split('\n').entries()) {
    const line = rawLine.trim();
    if (line.startsWith('[')) {
      inGate = line === '[gate]' || line.startsWith('[gate]') && line.slice(6).trim().startsWith('#');
      continue;
    }
    if (!inGate || line.length === 0 || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    const key = eq < 0 ? '' : line.slice(0, eq).trim();
    const value = eq < 0 ? null : parseValue(line.slice(eq + 1).trim());
    if (!Object.hasOwn(GATE_SETTINGS, key) || value === null) {
      // Named by its key only when that reads as a setting's name: any other text of the line (a
      // pasted token, say) is the repository's and is never echoed.
      problems.push(`[gate] entry not understood: ${/^[a-z][a-z0-9_]{0,39}$/.test(key) ? key : `line ${index + 1} of .jscr.toml`}`);
      continue;
    }
    const kind = GATE_SETTINGS[key as GateSettingKey].kind;
    if (!isOfKind(kind, value)) {
      // The same file must mean the same to the gate and to `jscr review` (whose schema refuses it).
      const shown = Array.isArray(value) ? '(an array)' : shownValue(String(value));
      problems.push(`[gate] ${key} = ${shown} is not ${KIND_WORDS[kind]}`);
      continue;
    }
    values.set(key, value);
  }
  return { values, problems };
}

const KIND_WORDS: Record<GateSettingKind, string> = {
  boolean: 'true or false',
  count: 'a whole number',
  path: 'a non-empty string',
  globs: 'a list of globs or a comma-separated string',
};

/** Whether a value of the file is of its key's kind (the environment's text is judged per setting below). */
function isOfKind(kind: GateSettingKind, value: TableValue): boolean {
  switch (kind) {
    case 'boolean':
      return typeof value === 'boolean';
    case 'count':
      return typeof value === 'number';
    case 'path':
      return typeof value === 'string' && value.length > 0;
    case 'globs':
      return typeof value === 'string' || Array.isArray(value);
  }
}

/** Whole digits, a safe integer, nothing else (not parseInt: 3oops, 3.9, +3, -1 and 0x3 are malformed). */
function parseCount(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed.length === 0) return null;
  for (const ch of trimmed) if (ch < '0' || ch > '9') return null;
  const value = Number(trimmed);
  return Number.isSafeInteger(value) ? value : null;
}

/**
 * A malformed setting's value as a warning shows it: quoted when it is short and plain (a typo such as
 * "3x"), otherwise only its length, so a token pasted into the wrong place is never echoed.
 */
function shownValue(text: string): string {
  return /^[\w.+-]{1,12}$/.test(text) ? `"${text}"` : `(a value of ${text.length} characters)`;
}

/** The most exempt globs used. */
const MAX_EXEMPT_GLOBS = 256;

/** Why a .jscr.toml that is there was not read (never through a link, from a FIFO, or over 1 MiB). */
const CONFIG_REFUSALS = { 'not-regular': 'is a symbolic link or not a regular file', 'too-large': 'is larger than 1 MiB', unreadable: 'cannot be read' } as const;

/** Resolve the settings from the environment and the project's `.jscr.toml` (if any). */
export function loadSettings(env: NodeJS.ProcessEnv, projectRoot: string): GateSettings {
  const warnings: string[] = [];
  let table = new Map<string, TableValue>();
  // existsSync first: a missing file (the usual case) then costs no thrown error with its stack.
  // A symbolic link could lead out of the repository or to a device: it is not followed.
  const file = join(projectRoot, CONFIG_FILE_NAME);
  const config = existsSync(file) ? readGuarded(file, MAX_CONFIG_BYTES) : 'missing';
  if (Buffer.isBuffer(config)) {
    const read = readGateTable(config.toString('utf8'));
    table = read.values;
    // one line however many entries are wrong: a hostile file must not flood the agent's stderr
    const [first] = read.problems;
    if (first !== undefined) warnings.push(`jscr gate: .jscr.toml ${first}${read.problems.length > 1 ? ` (and ${read.problems.length - 1} more)` : ''}`);
  } else if (config !== 'missing') warnings.push(`jscr gate: .jscr.toml ${CONFIG_REFUSALS[config]}; its [gate] table is ignored`);
  const pick = (key: keyof typeof SETTING_KEYS): TableValue | undefined => {
    const fromEnv = env[SETTING_KEYS[key]];
    if (fromEnv !== undefined) return fromEnv;
    return table.get(key);
  };
  const asText = (value: TableValue | undefined): string | undefined =>
    value === undefined ? undefined : Array.isArray(value) ? value.join(',') : String(value);

  const enabledValue = asText(pick('enabled'));
  const enabled = enabledValue === undefined ? GATE_SETTINGS.enabled.default : !isOffWord(enabledValue);

  const configStateDir = table.get('state_dir');
  const stateDirChoice = chooseStateDir(env[SETTING_KEYS.state_dir], configStateDir === undefined ? undefined : asText(configStateDir), projectRoot, env);
  if (stateDirChoice.warning !== null) warnings.push(stateDirChoice.warning);
  const stateDir = stateDirChoice.dir;

  const globsValue = asText(pick('exempt_globs')) ?? GATE_SETTINGS.exempt_globs.default.join(',');
  const allGlobs = globsValue
    .split(',')
    .map((g) => g.trim().toLowerCase().replaceAll('\\', '/'))
    .filter((g) => g.length > 0 && g.length <= 256);
  // every target is matched against every glob: a list this long is a hostile file, not a setting
  if (allGlobs.length > MAX_EXEMPT_GLOBS) warnings.push(`jscr gate: ${SETTING_KEYS.exempt_globs} has ${allGlobs.length} globs; only the first ${MAX_EXEMPT_GLOBS} are used`);
  const exemptGlobs = allGlobs.slice(0, MAX_EXEMPT_GLOBS);

  let fullDenials: number = GATE_SETTINGS.full_denials.default;
  const fullValue = asText(pick('full_denials'));
  if (fullValue !== undefined) {
    const parsed = parseCount(fullValue);
    if (parsed === null) warnings.push(`jscr gate: ${SETTING_KEYS.full_denials}=${shownValue(fullValue)} is not a whole number; using ${fullDenials}`);
    else fullDenials = parsed;
  }

  let maxDenials: number | null = GATE_SETTINGS.max_denials.default;
  const maxValue = asText(pick('max_denials'));
  if (maxValue !== undefined) {
    maxDenials = parseCount(maxValue);
    if (maxDenials === null) warnings.push(`jscr gate: ${SETTING_KEYS.max_denials}=${shownValue(maxValue)} is not a whole number; denials are not capped`);
  }

  const truthy = (key: 'metrics' | 'external_contract_question'): boolean => {
    const text = asText(pick(key));
    return text === undefined ? GATE_SETTINGS[key].default : TRUE_WORDS.has(text.trim().toLowerCase());
  };
  return {
    enabled,
    stateDir,
    exemptGlobs,
    fullDenials,
    maxDenials,
    metrics: truthy('metrics'),
    externalContract: truthy('external_contract_question'),
    warnings,
  };
}
