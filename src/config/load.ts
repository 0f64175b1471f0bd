/**
 * Reading `.jscr.toml`: TOML text → zod schema → the fully defaulted JscrConfig. Every failure is a
 * ConfigError naming the file, the dotted key path and what was expected, in one line (SPEC 3).
 */
import { resolve } from 'node:path';
import TOML from '@iarna/toml';
import type { z } from 'zod';
import { CONFIG_FILE_NAME } from '../config-file.js';
import { ConfigError, oneLine } from '../errors.js';
import { readRegularFile } from '../io.js';
import { openBoundary } from '../policy/paths.js';
import { configFileSchema, configSchema, type JscrConfig } from './schema.js';

export { CONFIG_FILE_NAME };

/** A configuration file is a few KiB; refuse anything absurd rather than parse it. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/** Every key at its default, as if no file existed. */
export function defaultConfig(): JscrConfig {
  return configSchema.parse({});
}

/** Parse and validate configuration text; `source` names it in errors (a path, or `A:.jscr.toml`). */
export function parseConfigText(text: string, source: string): JscrConfig {
  let raw: unknown;
  try {
    raw = TOML.parse(text);
  } catch (error) {
    throw tomlSyntaxError(error, source, text);
  }
  const result = configSchema.safeParse(raw);
  if (result.success) return result.data;
  const [first, ...rest] = result.error.issues;
  if (first === undefined) throw new ConfigError(source, null, 'invalid configuration');
  const { keyPath, expected } = describeIssue(first, raw);
  const more = rest.length > 0 ? ` (and ${rest.length} more problem${rest.length === 1 ? '' : 's'})` : '';
  throw new ConfigError(source, keyPath, oneLine(expected) + more);
}

/** Where the configuration comes from, strongest first (SPEC 3). */
export interface LoadConfigOptions {
  /** The repository's root directory. */
  repoRoot: string;
  /** `--config FILE`: wins over everything; an unreadable file is a ConfigError. Relative to the working directory. */
  configPath?: string;
  /**
   * `.jscr.toml` as read from the base revision of a range (so a change cannot weaken its own review);
   * null when the base has no such file (defaults apply); undefined when there is no base revision.
   */
  baseText?: { text: string; source: string } | null;
}

/** The configuration in force and the file it came from (null when every key is at its default). */
export interface LoadedConfig {
  config: JscrConfig;
  source: string | null;
}

export async function loadConfig(opts: LoadConfigOptions): Promise<LoadedConfig> {
  if (opts.configPath !== undefined) {
    const path = resolve(opts.configPath);
    const read = readRegularFile(path, MAX_CONFIG_BYTES);
    if (!read.ok) throw new ConfigError(path, null, read.problem);
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(read.bytes);
    } catch {
      throw new ConfigError(path, null, 'is not valid UTF-8 text (TOML must be UTF-8)');
    }
    return { config: parseConfigText(text, path), source: path };
  }
  if (opts.baseText === null) {
    // The base revision has no .jscr.toml: defaults, whatever the working tree holds.
    return { config: defaultConfig(), source: null };
  }
  if (opts.baseText !== undefined) {
    return { config: parseConfigText(opts.baseText.text, opts.baseText.source), source: opts.baseText.source };
  }
  // The file at the root is a repository file: read it through path admission, never through a symlink.
  const boundary = await openBoundary(opts.repoRoot, { followSymlinks: false });
  const outcome = await boundary.readFile(CONFIG_FILE_NAME, { maxBytes: MAX_CONFIG_BYTES });
  const source = `${boundary.root}/${CONFIG_FILE_NAME}`;
  if (!outcome.ok) {
    if (outcome.reason === 'not_found') return { config: defaultConfig(), source: null };
    throw new ConfigError(source, null, `cannot read the file: ${outcome.detail}`);
  }
  if (outcome.text === null) throw new ConfigError(source, null, 'expected UTF-8 text, found binary content');
  return { config: parseConfigText(outcome.text, source), source };
}

function tomlSyntaxError(error: unknown, source: string, text: string): ConfigError {
  if (error instanceof Error) {
    const located = error as Error & { line?: unknown; col?: unknown };
    // @iarna/toml reports 0-based line and column; its message repeats them with a code frame we drop.
    const reason = error.message.split('\n')[0]?.replace(/ at row \d+, col \d+, pos \d+:?$/, '') ?? 'syntax error';
    if (typeof located.line === 'number' && typeof located.col === 'number') {
      return new ConfigError(source, null, `line ${located.line + 1}, column ${located.col + 1}: invalid TOML: ${reason}`);
    }
    const line = lineOfUnlocatedError(text, error.message);
    return new ConfigError(source, null, `${line === null ? '' : `line ${line}: `}invalid TOML: ${reason}`);
  }
  return new ConfigError(source, null, 'invalid TOML');
}

/**
 * Some @iarna/toml errors (an impossible date such as 2025-13-01) carry no position. Find the line by
 * parsing ever longer prefixes of the text: the first prefix failing with the same bare error ends on it.
 */
function lineOfUnlocatedError(text: string, message: string): number | null {
  const lines = text.split('\n');
  const limit = Math.min(lines.length, 2000);
  for (let count = 1; count <= limit; count++) {
    try {
      TOML.parse(lines.slice(0, count).join('\n'));
    } catch (error) {
      if (error instanceof Error && error.message === message && (error as { line?: unknown }).line === undefined) return count;
    }
  }
  return null;
}

/** `suppress[0].reason` from `['suppress', 0, 'reason']`. */
export function dottedPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

function describeIssue(issue: z.core.$ZodIssue, raw: unknown): { keyPath: string | null; expected: string } {
  const path = issue.path;
  switch (issue.code) {
    case 'unrecognized_keys': {
      const key = issue.keys[0] ?? '';
      const allowed = allowedKeysAt(path);
      const hint = allowed.length > 0 ? `; expected one of: ${allowed.join(', ')}` : '';
      return { keyPath: dottedPath([...path, key]), expected: `unknown key${hint}` };
    }
    case 'invalid_type': {
      const found = valueAt(raw, path);
      if (found.present === false) return { keyPath: dottedPath(path), expected: `required: expected ${issue.expected}` };
      return { keyPath: dottedPath(path), expected: `expected ${issue.expected}, found ${describeValue(found.value)}` };
    }
    case 'invalid_value': {
      const options = issue.values.map((v) => JSON.stringify(v));
      const expected = options.length === 1 ? `expected ${options[0] ?? ''}` : `expected one of ${options.join(', ')}`;
      const found = valueAt(raw, path);
      return { keyPath: dottedPath(path), expected: found.present ? `${expected}, found ${describeValue(found.value)}` : expected };
    }
    case 'invalid_union': {
      // Our only union is `expires`; every branch carries the same readable message.
      const inner = issue.errors.flat().find((e) => e.code !== 'invalid_type');
      return { keyPath: dottedPath(path), expected: inner?.message ?? 'expected a date YYYY-MM-DD' };
    }
    default:
      return { keyPath: dottedPath(path), expected: issue.message.replace(/^(Too small|Too big|Invalid input): /, '') };
  }
}

function valueAt(raw: unknown, path: readonly PropertyKey[]): { present: true; value: unknown } | { present: false } {
  let current: unknown = raw;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return { present: false };
    if (!Object.prototype.hasOwnProperty.call(current, segment)) return { present: false };
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return { present: true, value: current };
}

function describeValue(value: unknown): string {
  if (typeof value === 'bigint') return 'an integer too large to represent';
  if (value instanceof Date) return 'a date';
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'a table';
  if (typeof value === 'string') return `string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${String(value)}`;
  return typeof value;
}

/** The keys the schema allows at a path, for "unknown key" messages. */
function allowedKeysAt(path: readonly PropertyKey[]): string[] {
  let schema: z.core.$ZodType | undefined = unwrap(configFileSchema);
  for (const segment of path) {
    if (schema === undefined) return [];
    const def: z.core.$ZodTypeDef = schema._zod.def;
    if (typeof segment === 'number' && def.type === 'array') schema = unwrap((def as z.core.$ZodArrayDef).element);
    else if (typeof segment === 'string' && def.type === 'object') {
      const inner: z.core.$ZodType | undefined = (def as z.core.$ZodObjectDef).shape[segment];
      schema = inner === undefined ? undefined : unwrap(inner);
    } else return [];
  }
  if (schema === undefined || schema._zod.def.type !== 'object') return [];
  return Object.keys((schema._zod.def as z.core.$ZodObjectDef).shape);
}

function unwrap(schema: z.core.$ZodType): z.core.$ZodType {
  let current = schema;
  for (;;) {
    const def: z.core.$ZodTypeDef = current._zod.def;
    if (def.type === 'default' || def.type === 'prefault' || def.type === 'optional' || def.type === 'nullable') {
      current = (def as z.core.$ZodDefaultDef).innerType;
    } else if (def.type === 'pipe') {
      current = (def as z.core.$ZodPipeDef).in;
    } else return current;
  }
}
