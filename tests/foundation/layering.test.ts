import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkLayering, collectImports, findUnitCycle, type ImportEdge, type ModuleImports } from './layering.js';

const srcDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src');

/** A synthetic module: `imports` as `target` strings; `node:` names are built-ins, bare names packages. */
function mod(module: string, ...targets: string[]): ModuleImports {
  const imports: ImportEdge[] = targets.map((raw, index) => {
    const typeOnly = raw.startsWith('type ');
    const target = typeOnly ? raw.slice(5) : raw;
    const kind = target.startsWith('node:') ? 'builtin' : target.endsWith('.ts') ? 'internal' : 'package';
    return { target, kind, typeOnly, line: index + 1 };
  });
  return { module, imports };
}

describe('import layering of src/', () => {
  it('holds on the current tree', () => {
    const modules = collectImports(srcDir);
    expect(modules.length).toBeGreaterThan(5);
    expect(checkLayering(modules)).toEqual([]);
  });

  it('reads real imports, dynamic ones included', () => {
    const cli = collectImports(srcDir).find((m) => m.module === 'cli.ts');
    expect(cli?.imports.some((edge) => edge.target === 'review/command.ts' && edge.kind === 'internal')).toBe(true);
  });
});

describe('the layering checker', () => {
  it('accepts a well-layered set', () => {
    expect(checkLayering([
      mod('cli.ts', 'review/command.ts', 'fix/command.ts', 'errors.ts', 'commander'),
      mod('fix/command.ts', 'review/engine.ts'),
      mod('review/engine.ts', 'rules/interpret.ts', 'config/load.ts'),
      mod('rules/interpret.ts', 'syntax/parser.ts', 'errors.ts'),
      mod('gate/main.ts', 'gate/command.ts', 'profile/comparable.ts', 'io.ts', 'errors.ts', 'node:fs', 'type config/schema.ts'),
    ])).toEqual([]);
  });

  it('refuses a library importing the review engine or the CLI', () => {
    expect(checkLayering([mod('prover/prove.ts', 'review/engine.ts', 'cli.ts')])).toEqual([
      'prover/prove.ts:1: imports review/engine.ts; only src/cli.ts and src/fix/ may import the review engine',
      'prover/prove.ts:2: imports src/cli.ts; only the entry point src/bin.ts may import the CLI',
    ]);
  });

  it('keeps the gate light: no packages and no other parts of src/ at run time', () => {
    expect(checkLayering([mod('gate/state.ts', 'zod', 'config/load.ts', 'node:path', 'profile/comparable.ts')])).toEqual([
      'gate/state.ts:1: the gate imports zod; it may import only src/gate, src/profile, src/lexing, src/errors.ts, src/io.ts and node built-ins',
      'gate/state.ts:2: the gate imports config/load.ts; it may import only src/gate, src/profile, src/lexing, src/errors.ts, src/io.ts and node built-ins',
    ]);
  });

  it('keeps the lexer cores to themselves: no packages, built-ins or other parts of src/', () => {
    expect(checkLayering([mod('lexing/shell.ts', 'lexing/chars.ts', 'profile/text.ts', 'node:fs', 'typescript', 'type profile/languages.ts')])).toEqual([
      'lexing/shell.ts:2: the lexer cores import profile/text.ts; they may import only each other',
      'lexing/shell.ts:3: the lexer cores import node:fs; they may import only each other',
      'lexing/shell.ts:4: the lexer cores import typescript; they may import only each other',
    ]);
  });

  it('reports a cycle between top-level folders, naming it', () => {
    const modules = [mod('rules/a.ts', 'redact/b.ts'), mod('redact/b.ts', 'report/c.ts'), mod('report/c.ts', 'rules/d.ts'), mod('rules/d.ts')];
    expect(findUnitCycle(modules)).toEqual(['redact', 'report', 'rules', 'redact']);
    expect(checkLayering(modules)).toEqual(['import cycle between top-level parts of src/: redact → report → rules → redact']);
  });

  it('does not count imports inside one folder as a cycle', () => {
    expect(findUnitCycle([mod('prover/a.ts', 'prover/b.ts'), mod('prover/b.ts', 'prover/a.ts')])).toBeNull();
  });
});
