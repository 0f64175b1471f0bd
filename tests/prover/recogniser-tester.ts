/**
 * A RecogniserTester: table-driven cases for one recogniser, in the manner of typescript-eslint's
 * RuleTester. `positive` cases name every entry the recogniser must find (function and line); `negative`
 * cases must yield none. The harness refuses a positive case without expectations, an unknown recogniser
 * id and duplicate case names, so a table cannot silently test nothing.
 */
import { describe, expect, it } from 'vitest';
import { loadFacts } from '../../src/prover/facts.js';
import { isProverConfig } from '../../src/prover/prove.js';
import { RECOGNISERS } from '../../src/prover/recognisers/index.js';
import { buildProgram, type Program } from '../../src/prover/resolution.js';
import type { EntryPoint, ProgramFile } from '../../src/prover/types.js';
import { buildIR } from '../../src/syntax/ir.js';
import { fileTypeOf } from '../../src/languages/registry.js';
import { languageForPath } from '../../src/syntax/languages.js';
import { loadGrammars } from '../../src/syntax/parser.js';

interface ExpectedEntry {
  /** Qualified name, e.g. `DescriptorImpl.doTestConnection`. */
  function: string;
  line: number;
  kind?: string;
  access?: 'public' | 'protected';
}

interface PositiveCase {
  name: string;
  files: Record<string, string>;
  entries: ExpectedEntry[];
  /** Unresolved counts the recogniser must report (e.g. registration_unresolved). */
  unresolved?: Record<string, number>;
}

interface NegativeCase {
  name: string;
  files: Record<string, string>;
  unresolved?: Record<string, number>;
}

export interface RecogniserTable {
  positive: PositiveCase[];
  negative: NegativeCase[];
}

/** Parse a file map into a program, as proveChange would. */
export async function programOf(files: Record<string, string>): Promise<Program> {
  const out: ProgramFile[] = [];
  const languages = Object.keys(files).map((p) => languageForPath(p)).filter((l) => l !== null);
  await loadGrammars(languages);
  for (const [path, text] of Object.entries(files)) {
    const language = languageForPath(path);
    if (language === null) continue;
    const factsLanguage = fileTypeOf(path)?.facts;
    if (!factsLanguage) continue;
    out.push({ path, text, language, factsLanguage, ir: await buildIR(path, language, text), lines: text.split('\n') });
  }
  return buildProgram(out);
}

/** Run one recogniser over every file of a program. */
async function recogniseWith(id: string, files: Record<string, string>): Promise<{ entries: EntryPoint[]; unresolved: Record<string, number> }> {
  const recogniser = RECOGNISERS.find((r) => r.id === id);
  if (!recogniser) throw new Error(`unknown recogniser id ${id}`);
  const facts = await loadFacts();
  const program = await programOf(files);
  const configTexts = new Map(Object.entries(files).filter(([path]) => isProverConfig(path)));
  const entries: EntryPoint[] = [];
  const unresolved: Record<string, number> = {};
  for (const file of program.files) {
    if (!recogniser.languages.includes(file.factsLanguage)) continue;
    const found = recogniser.recognise(file, { program, facts, configTexts });
    entries.push(...found.entries);
    for (const [k, v] of Object.entries(found.unresolved)) unresolved[k] = (unresolved[k] ?? 0) + v;
  }
  return { entries, unresolved };
}

/** Check the table itself before running it. */
export function validateTable(id: string, table: RecogniserTable): void {
  if (!RECOGNISERS.some((r) => r.id === id)) throw new Error(`RecogniserTester: unknown recogniser id ${id}`);
  const names = new Set<string>();
  for (const c of [...table.positive, ...table.negative]) {
    if (names.has(c.name)) throw new Error(`RecogniserTester: duplicate case ${c.name}`);
    names.add(c.name);
  }
  for (const c of table.positive) {
    if (c.entries.length === 0) throw new Error(`RecogniserTester: positive case ${c.name} expects no entry; make it negative or name its entries`);
  }
  if (table.positive.length === 0 || table.negative.length === 0) throw new Error(`RecogniserTester: ${id} needs positive and negative cases`);
}

/** Register the vitest cases of a table. */
export function runRecogniserTable(id: string, table: RecogniserTable): void {
  describe(`recogniser ${id}`, () => {
    it('has a well-formed table', () => {
      expect(() => validateTable(id, table)).not.toThrow();
    });
    for (const c of table.positive) {
      it(`finds: ${c.name}`, async () => {
        const { entries, unresolved } = await recogniseWith(id, c.files);
        const got = entries.map((e) => ({ function: e.function, line: e.line })).sort((a, b) => a.line - b.line || a.function.localeCompare(b.function));
        const want = c.entries.map((e) => ({ function: e.function, line: e.line })).sort((a, b) => a.line - b.line || a.function.localeCompare(b.function));
        expect(got).toEqual(want);
        for (const e of c.entries) {
          const entry = entries.find((x) => x.function === e.function && x.line === e.line);
          expect(entry?.framework).toBe(id);
          expect(entry?.evidence.length).toBeGreaterThan(0);
          if (e.kind) expect(entry?.kind).toBe(e.kind);
          if (e.access) expect(entry?.access).toBe(e.access);
        }
        if (c.unresolved) expect(unresolved).toEqual(c.unresolved);
      });
    }
    for (const c of table.negative) {
      it(`ignores: ${c.name}`, async () => {
        const { entries, unresolved } = await recogniseWith(id, c.files);
        expect(entries).toEqual([]);
        if (c.unresolved) expect(unresolved).toEqual(c.unresolved);
      });
    }
  });
}
