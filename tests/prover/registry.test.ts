import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RECOGNISERS, SUPPORT_MODULES } from '../../src/prover/recognisers/index.js';
import { validateTable } from './recogniser-tester.js';

const root = join(import.meta.dirname, '..', '..');

describe('recogniser registry', () => {
  it('lists every module of src/prover/recognisers and each has a fixture table', () => {
    const modules = readdirSync(join(root, 'src/prover/recognisers'))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => f.slice(0, -3))
      .filter((m) => !(SUPPORT_MODULES as readonly string[]).includes(m))
      .sort();
    expect(RECOGNISERS.map((r) => r.id).sort()).toEqual(modules);
    const tables = readdirSync(join(root, 'tests/prover/recognisers')).map((f) => f.replace(/\.test\.ts$/, ''));
    for (const id of modules) expect(tables).toContain(id);
  });

  it('refuses a table with an unknown id, a duplicate case or a positive case expecting nothing', () => {
    const file = { 'a.py': 'x = 1\n' };
    expect(() => validateTable('nosuch', { positive: [{ name: 'a', files: file, entries: [{ function: 'f', line: 1 }] }], negative: [{ name: 'b', files: file }] })).toThrow(/unknown recogniser/);
    expect(() => validateTable('tornado', { positive: [{ name: 'a', files: file, entries: [{ function: 'f', line: 1 }] }], negative: [{ name: 'a', files: file }] })).toThrow(/duplicate/);
    expect(() => validateTable('tornado', { positive: [{ name: 'a', files: file, entries: [] }], negative: [{ name: 'b', files: file }] })).toThrow(/expects no entry/);
  });
});

describe('the frameworks a not-proven run names', () => {
  it('names every recogniser of the registry, so the message never leaves out a framework jscr reads', async () => {
    const { FRAMEWORK_NAMES } = await import('../../src/prover/render.js');
    expect(Object.keys(FRAMEWORK_NAMES).sort()).toEqual(RECOGNISERS.map((r) => r.id).sort());
  });
});
