import { appendFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLayering, type LayeringResult } from './layering.js';

const repoRoot = join(import.meta.dirname, '..', '..');

describe('import layering of src/', () => {
  let real: LayeringResult;
  beforeAll(async () => {
    real = await checkLayering(repoRoot);
  });

  it('holds on the current tree', () => {
    expect(real.violations).toEqual([]);
    expect(real.modules.length).toBeGreaterThan(100);
  });

  it('sees real imports, dynamic and type-only ones included', () => {
    const cli = real.modules.find((m) => m.source === 'src/cli.ts')?.imports ?? [];
    expect(cli).toContainEqual({ resolved: 'src/commands/review.ts', types: expect.arrayContaining(['dynamic-import']) as unknown as string[] });
    expect(cli).toContainEqual({ resolved: 'src/commands/review.ts', types: expect.arrayContaining(['type-only']) as unknown as string[] });
  });
});

/**
 * A small tree with the shape of src/: every layer, each import the rules allow. Each case below plants
 * one violation into it; the tool must report exactly that.
 */
const WELL_LAYERED: Readonly<Record<string, string>> = {
  'src/bin.ts': "import { main } from './cli.js';\nvoid main();\n",
  'src/cli.ts': [
    "import type { ReviewOptions } from './commands/review.js';",
    'export async function main(options?: ReviewOptions): Promise<unknown> {',
    "  return [await import('./commands/review.js'), await import('./commands/fix.js'), await import('./commands/gate.js'), options];",
    '}',
  ].join('\n'),
  'src/errors.ts': 'export class JscrError extends Error {}\n',
  'src/io.ts': "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
  'src/commands/review.ts': "import { review } from '../review/engine.js';\nimport { render } from '../report/render.js';\nexport interface ReviewOptions { quiet: boolean }\nexport const run = [review, render];\n",
  'src/commands/fix.ts': "import { fix } from '../fix/fix.js';\nimport { run } from './review.js';\nexport const both = [fix, run];\n",
  'src/commands/gate.ts': "import { decide } from '../gate/decide.js';\nimport { shownSettings } from '../gate/settings-view.js';\nexport const gate = [decide, shownSettings];\n",
  // a gate module outside the bundle may name another part's type: type-only imports are erased
  'src/gate/settings-view.ts': "import type { Settings } from '../config/schema.js';\nexport const shownSettings = (s: Settings): string => s.failOn;\n",
  'src/config/schema.ts': 'export interface Settings { failOn: string }\n',
  'src/fix/fix.ts': "import { review } from '../review/engine.js';\nexport const fix = review;\n",
  'src/review/engine.ts': [
    "import { z } from 'zod';",
    "import { rules } from '../rules/engine.js';",
    "import { send } from '../egress/http.js';",
    "import { start } from '../policy/process.js';",
    "import { flow } from '../flow/engine.js';",
    'export const review = [z, rules, send, start, flow];',
  ].join('\n'),
  'src/report/render.ts': "import { JscrError } from '../errors.js';\nexport const render = JscrError;\n",
  'src/rules/engine.ts': "import { readFileSync } from 'node:fs';\nimport { JscrError } from '../errors.js';\nexport const rules = [readFileSync, JscrError];\n",
  'src/flow/engine.ts': "import { JscrError } from '../errors.js';\nimport { parse } from '../syntax/parser.js';\nexport const flow = [JscrError, parse];\n",
  'src/syntax/parser.ts': "export const parse = (text: string): string => text;\n",
  'src/egress/http.ts': "import { request } from 'undici';\nimport { Agent } from 'node:https';\nexport const send = [request, Agent];\n",
  'src/policy/process.ts': "import { spawn } from 'node:child_process';\nexport const start = spawn;\n",
  'src/gate/main.ts': "import { writeSync } from 'node:fs';\nimport { decide } from './decide.js';\nwriteSync(1, String(decide));\n",
  'src/gate/decide.ts': "import { profile } from '../profile/profile.js';\nimport { JscrError } from '../errors.js';\nimport { read } from '../io.js';\nexport const decide = [profile, JscrError, read];\n",
  'src/profile/profile.ts': "import { join } from 'node:path';\nimport { lex } from '../lexing/c-family.js';\nexport const profile = [join, lex];\n",
  'src/lexing/c-family.ts': "import { isIdentChar } from './chars.js';\nexport const lex = isIdentChar;\n",
  'src/lexing/chars.ts': "import { EOL } from 'node:os';\nexport const isIdentChar = (c: string): boolean => c !== EOL;\n",
  'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true }, include: ['src'] }),
};

interface PlantedCase {
  rule: string;
  /** Lines appended to existing files of the tree, or whole new files. */
  plant: Record<string, string>;
  expected: string[];
}

const PLANTED: PlantedCase[] = [
  {
    rule: 'cli-only-from-entry',
    plant: { 'src/report/render.ts': "import '../cli.js';" },
    expected: ['cli-only-from-entry: src/report/render.ts → src/cli.ts'],
  },
  {
    rule: 'libraries-not-commands',
    plant: { 'src/report/render.ts': "import '../commands/fix.js';" },
    // a library importing the glue is also always a cycle with it
    expected: ['libraries-not-commands: src/report/render.ts → src/commands/fix.ts', 'no-cycles-between-folders: src/commands → src/report → src/commands', 'no-cycles-between-folders: src/report → src/commands → src/report'],
  },
  {
    rule: 'review-engine-importers',
    plant: { 'src/report/render.ts': "import '../review/engine.js';" },
    expected: ['review-engine-importers: src/report/render.ts → src/review/engine.ts'],
  },
  {
    rule: 'gate-stays-light',
    plant: { 'src/commands/gate.ts': "import '../gate/report.js';", 'src/gate/report.ts': "import { rules } from '../rules/engine.js';\nexport const shown = rules;\n" },
    expected: ['gate-stays-light: src/gate/report.ts → src/rules/engine.ts'],
  },
  {
    rule: 'gate-bundle-closure',
    plant: { 'src/profile/profile.ts': "import 'zod';" },
    expected: [expect.stringMatching(/^gate-bundle-closure: src\/gate\/main\.ts → src\/gate\/decide\.ts → src\/profile\/profile\.ts → node_modules\/zod\//) as unknown as string],
  },
  {
    rule: 'gate-bundle-closure',
    // inside the bundle even a type from elsewhere is refused: the gate's types belong with it
    plant: { 'src/gate/decide.ts': "import type { Settings } from '../config/schema.js';\nexport type Shown = Settings;" },
    expected: ['gate-bundle-closure: src/gate/main.ts → src/gate/decide.ts → src/config/schema.ts'],
  },
  {
    rule: 'lexer-cores-stand-alone',
    plant: { 'src/lexing/chars.ts': "import { JscrError } from '../errors.js';\nexport const failure = JscrError;" },
    expected: ['lexer-cores-stand-alone: src/lexing/chars.ts → src/errors.ts'],
  },
  {
    rule: 'flow-between-rules-and-syntax',
    plant: { 'src/flow/engine.ts': "import { render } from '../report/render.js';\nexport const shown = render;" },
    expected: ['flow-between-rules-and-syntax: src/flow/engine.ts → src/report/render.ts'],
  },
  {
    rule: 'no-cycles-between-folders',
    plant: { 'src/rules/engine.ts': "import '../redact/mask.js';", 'src/redact/mask.ts': "import { rules } from '../rules/engine.js';\nexport const mask = rules;\n" },
    expected: ['no-cycles-between-folders: src/redact → src/rules → src/redact', 'no-cycles-between-folders: src/rules → src/redact → src/rules'],
  },
  {
    rule: 'no-orphans',
    plant: { 'src/leftover.ts': 'export const unused = 1;\n' },
    expected: ['no-orphans: src/leftover.ts', 'reachable-from-an-entry: src/leftover.ts'],
  },
  {
    rule: 'reachable-from-an-entry',
    plant: { 'src/unused/helper.ts': "import { JscrError } from '../errors.js';\nexport const unused = JscrError;\n" },
    expected: ['reachable-from-an-entry: src/unused/helper.ts'],
  },
  {
    rule: 'network-only-in-egress',
    plant: { 'src/rules/engine.ts': "import 'node:net';\nimport 'tls';\nimport { fetch } from 'undici';\nexport const leak = fetch;" },
    expected: [
      'network-only-in-egress: src/rules/engine.ts → net',
      expect.stringMatching(/^network-only-in-egress: src\/rules\/engine\.ts → node_modules\/undici\//) as unknown as string,
      'network-only-in-egress: src/rules/engine.ts → tls',
    ],
  },
  {
    rule: 'processes-only-in-policy',
    plant: { 'src/report/render.ts': "import { execFile } from 'child_process';\nexport const run = execFile;" },
    expected: ['processes-only-in-policy: src/report/render.ts → child_process'],
  },
  {
    rule: 'no-unresolvable',
    plant: { 'src/report/render.ts': "import './not-there.js';" },
    expected: ['no-unresolvable: src/report/render.ts → ./not-there.js'],
  },
];

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** The well-layered tree with `plant` added, in a fresh temporary folder that sees jscr's packages. */
function treeWith(plant: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'jscr-layering-'));
  made.push(root);
  // linked, as in a worktree: the rules must name packages wherever the install really lives
  symlinkSync(join(repoRoot, 'node_modules'), join(root, 'node_modules'));
  const write = (path: string, text: string, append: boolean): void => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    (append ? appendFileSync : writeFileSync)(join(root, path), text);
  };
  for (const [path, text] of Object.entries(WELL_LAYERED)) write(path, text, false);
  for (const [path, text] of Object.entries(plant)) write(path, path in WELL_LAYERED ? `\n${text}\n` : text, path in WELL_LAYERED);
  return root;
}

describe('the layering rules', () => {
  it('accept a tree with every allowed kind of import', async () => {
    expect((await checkLayering(treeWith({}))).violations).toEqual([]);
  });

  it.each(PLANTED)('catch a planted violation of $rule', async ({ plant, expected }) => {
    expect((await checkLayering(treeWith(plant))).violations).toEqual(expected);
  });

  it('each have a planted case', async () => {
    const { rules } = await checkLayering(treeWith({}));
    expect(rules).toEqual([...new Set(PLANTED.map((c) => c.rule))]);
  });
});
