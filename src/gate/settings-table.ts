/**
 * The `[gate]` settings as one table: each key of the table in .jscr.toml, the environment variable
 * that wins over it, the kind of value it takes and its default. The gate's small reader
 * (settings.ts, which must not load a TOML library or zod) and the zod schema of the whole file
 * (config/schema.ts) both read their keys and defaults from here, and tests/gate/settings-table.test.ts
 * checks that the two read every well-formed value alike. Pure data: the gate bundle imports it.
 */

/**
 * `boolean`: true/false in the file (on/off words in the environment); `count`: a whole number, 0 or
 * more; `path`: a non-empty string; `globs`: a list of strings, or one comma-separated string.
 */
export type GateSettingKind = 'boolean' | 'count' | 'path' | 'globs';

export interface GateSetting {
  /** The environment variable that wins over the file. */
  env: string;
  kind: GateSettingKind;
  /** The value when neither the environment nor the file sets it; null means "none" (no cap, the default place). */
  default: boolean | number | null | readonly string[];
}

export const GATE_SETTINGS = {
  enabled: { env: 'JSCR_GATE', kind: 'boolean', default: true },
  state_dir: { env: 'JSCR_GATE_STATE_DIR', kind: 'path', default: null },
  exempt_globs: { env: 'JSCR_GATE_EXEMPT_GLOBS', kind: 'globs', default: [] },
  full_denials: { env: 'JSCR_GATE_FULL_DENIALS', kind: 'count', default: 3 },
  max_denials: { env: 'JSCR_GATE_MAX_DENIALS', kind: 'count', default: null },
  metrics: { env: 'JSCR_GATE_METRICS', kind: 'boolean', default: false },
  external_contract_question: { env: 'JSCR_GATE_EXTERNAL_CONTRACT_QUESTION', kind: 'boolean', default: false },
} as const satisfies Record<string, GateSetting>;

export type GateSettingKey = keyof typeof GATE_SETTINGS;
