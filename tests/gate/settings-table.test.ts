/**
 * The gate's small `[gate]` reader and the zod schema of .jscr.toml read their keys and defaults from
 * one table (src/gate/settings-table.ts). These cases, generated from the table's kinds, show that a
 * value either side accepts means the same to the other, and that a value of the wrong kind is refused
 * by both (the gate warns and keeps the default), so the two cannot drift apart unseen.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultConfig, parseConfigText } from '../../src/config/index.js';
import { ConfigError } from '../../src/errors.js';
import { loadSettings, type GateSettings } from '../../src/gate/settings.js';
import { GATE_SETTINGS, type GateSettingKey, type GateSettingKind } from '../../src/gate/settings-table.js';

const temp = mkdtempSync(join(tmpdir(), 'jscr-gate-table-'));
const home = join(temp, 'home');
const project = join(temp, 'project');
const stateOutside = join(temp, 'state-outside');
mkdirSync(project);
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** The gate's field for each key of the table (a new key fails to compile here until it is added). */
const GATE_FIELD: { [K in GateSettingKey]: (settings: GateSettings) => unknown } = {
  enabled: (s) => s.enabled,
  state_dir: (s) => s.stateDir,
  exempt_globs: (s) => s.exemptGlobs,
  full_denials: (s) => s.fullDenials,
  max_denials: (s) => s.maxDenials,
  metrics: (s) => s.metrics,
  external_contract_question: (s) => s.externalContract,
};

/** Well-formed values of each kind as TOML, with the value the config schema gives them. */
const GOOD: Record<GateSettingKind, [toml: string, value: unknown][]> = {
  boolean: [['true', true], ['false', false]],
  count: [['0', 0], ['7', 7], ['12', 12]],
  path: [[JSON.stringify(stateOutside), stateOutside]],
  globs: [['["docs/**", "*.MD"]', ['docs/**', '*.MD']], ['"docs/**, *.md"', ['docs/**', '*.md']]],
};

/** Values of the wrong kind: the schema refuses them, and the gate must not take them either. */
const WRONG: Record<GateSettingKind, string[]> = {
  boolean: ['3', '"off"', '["yes"]'],
  count: ['-1', '2.5', '"5"', 'true', '["1"]'],
  path: ['""', '3', 'true'],
  globs: ['3', 'true'],
};

/** What the gate reads from the project's .jscr.toml, with no environment setting but HOME. */
function gateReads(toml: string): GateSettings {
  writeFileSync(join(project, '.jscr.toml'), toml);
  return loadSettings({ HOME: home }, project);
}

/** The gate's reading of a value the schema gave: globs are matched without regard to case. */
function asTheGateHoldsIt(kind: GateSettingKind, value: unknown): unknown {
  return kind === 'globs' && Array.isArray(value) ? value.map((glob) => String(glob).toLowerCase()) : value;
}

const keys = Object.keys(GATE_SETTINGS) as GateSettingKey[];

describe('the [gate] table', () => {
  it('is the schema\'s [gate] table, key for key, with the same defaults', () => {
    const defaults = defaultConfig().gate as Record<string, unknown>;
    expect(Object.keys(defaults).sort()).toEqual([...keys].sort());
    for (const key of keys) expect(defaults[key], key).toEqual(GATE_SETTINGS[key].default);
  });

  it('gives each key its own JSCR_GATE environment variable', () => {
    const names = keys.map((key) => GATE_SETTINGS[key].env);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^JSCR_GATE(_[A-Z]+)*$/);
  });

  it('gives the gate the same defaults when nothing is set', () => {
    const settings = gateReads('[review]\nfail_on = "low"\n');
    for (const key of keys) {
      const expected = GATE_SETTINGS[key].default;
      // null for the state directory means "the default place", which the gate spells out
      if (key === 'state_dir') expect(settings.stateDir).toBe(join(home, '.local', 'state', 'jscr', 'gate'));
      else expect(GATE_FIELD[key](settings), key).toEqual(expected);
    }
    expect(settings.warnings).toEqual([]);
  });

  describe.each(keys)('%s', (key) => {
    const { kind } = GATE_SETTINGS[key];
    it.each(GOOD[kind])(`reads ${key} = %s the same way as the schema`, (toml, value) => {
      const text = `[gate]\n${key} = ${toml}\n`;
      expect(parseConfigText(text, 'x.toml').gate[key]).toEqual(value);
      const settings = gateReads(text);
      expect(settings.warnings).toEqual([]);
      expect(GATE_FIELD[key](settings)).toEqual(asTheGateHoldsIt(kind, value));
    });

    it.each(WRONG[kind])(`refuses ${key} = %s on both sides`, (toml) => {
      const text = `[gate]\n${key} = ${toml}\n`;
      expect(() => parseConfigText(text, 'x.toml')).toThrow(ConfigError);
      expect(() => parseConfigText(text, 'x.toml')).toThrow(`gate.${key}`);
      const settings = gateReads(text);
      expect(settings.warnings.join('\n')).toContain(key);
      const fallback = gateReads('');
      expect(GATE_FIELD[key](settings)).toEqual(GATE_FIELD[key](fallback));
    });
  });
});
