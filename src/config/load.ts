/**
 * Reading `.jscr.toml`: TOML text → zod schema → the fully defaulted JscrConfig. Every failure is a
 * ConfigError naming the file, the dotted key path and what was expected, in one line (SPEC 3).
 */
import { resolve } from 'node:path';
import { CONFIG_FILE_NAME, MAX_CONFIG_BYTES } from '../config-file.js';
import { loadDataFile } from '../data-file/load.js';
import { ConfigError } from '../errors.js';
import { readRegularFile } from '../io.js';
import { openBoundary } from '../policy/paths.js';
import { configSchema, type JscrConfig } from './schema.js';

export { CONFIG_FILE_NAME };

/** Every key at its default, as if no file existed. */
export function defaultConfig(): JscrConfig {
  return configSchema.parse({});
}

/** Parse and validate configuration text; `source` names it in errors (a path, or `A:.jscr.toml`). */
export function parseConfigText(text: string, source: string): JscrConfig {
  return loadDataFile({ file: source, text, kind: 'config', schema: configSchema, normalise: (config) => config });
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
