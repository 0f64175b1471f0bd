/** Broken and hostile input: syntax errors are flagged, deep nesting degrades instead of crashing. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_DEPTH, buildIR } from '../../src/syntax/ir.js';
import { LANGUAGES, type Language } from '../../src/syntax/languages.js';
import { loadGrammars, parse } from '../../src/syntax/parser.js';

/** Broken snippets: each must set hasErrors. */
const BROKEN: { language: Language; text: string; what: string }[] = [
  { language: 'python', text: 'def f(x:\n', what: 'unterminated parameter list' },
  { language: 'javascript', text: 'function f( {\n', what: 'unterminated parameter list' },
  { language: 'typescript', text: 'let x: = ;\n', what: 'missing type' },
  { language: 'tsx', text: 'const a = <div>;\n', what: 'unclosed element' },
  { language: 'java', text: 'class A { int x = 1 }\n', what: 'only a MISSING semicolon' },
  { language: 'php', text: '<?php function f( {\n', what: 'unterminated parameter list' },
  { language: 'go', text: 'package m\nfunc main( {\n', what: 'unterminated parameter list' },
  { language: 'ruby', text: 'def f(\n', what: 'unterminated method' },
];

/** A 5,000-level nested parenthesised expression, wrapped in a call, per language. */
function deeplyNested(language: Language, levels: number): string {
  const inner = `${'('.repeat(levels)}1${')'.repeat(levels)}`;
  switch (language) {
    case 'python':
    case 'ruby':
      return `check(${inner})\n`;
    case 'java':
      return `class A { void m() { check(${inner}); } }\n`;
    case 'php':
      return `<?php check(${inner});\n`;
    case 'go':
      return `package m\nfunc main() { check(${inner}) }\n`;
    default:
      return `check(${inner});\n`;
  }
}

describe('grammar loading', () => {
  it('loads grammars requested concurrently (web-tree-sitter cannot load two at once)', async () => {
    await Promise.all([loadGrammars(['python', 'ruby']), loadGrammars(['java', 'go']), loadGrammars(LANGUAGES)]);
    for (const language of LANGUAGES) {
      const tree = await parse(language, '');
      expect(tree.rootNode.hasError).toBe(false);
      tree.delete();
    }
  });
});

describe.each(BROKEN)('hasErrors for $language: $what', ({ language, text }) => {
  it('is set', async () => {
    const ir = await buildIR(`broken.${language}`, language, text);
    expect(ir.hasErrors).toBe(true);
  });
});

describe.each([...LANGUAGES])('5,000-level nesting in %s', (language) => {
  it('yields a depth degradation, not a crash, and still sees the shallow call', async () => {
    const ir = await buildIR(`deep.${language}`, language, deeplyNested(language, 5000));
    expect(ir.degradations.length).toBeGreaterThan(0);
    expect(ir.degradations[0]).toMatch(new RegExp(`^depth_limit:${DEFAULT_MAX_DEPTH} at line \\d+$`));
    expect(ir.calls.map((c) => c.callee)).toContain('check');
  });

  it('has no degradation at a depth well inside the limit', async () => {
    const ir = await buildIR(`shallow.${language}`, language, deeplyNested(language, 100));
    expect(ir.degradations).toEqual([]);
    expect(ir.hasErrors).toBe(false);
  });
});

describe('depth limit option', () => {
  it('skips subtrees below maxDepth and says where', async () => {
    const text = 'class A:\n    def m(self):\n        return run(1)\n';
    const full = await buildIR('a.py', 'python', text);
    expect(full.functions.map((f) => f.qualifiedName)).toEqual(['A.m']);
    const cut = await buildIR('a.py', 'python', text, { maxDepth: 2 });
    expect(cut.classes.map((c) => c.name)).toEqual(['A']);
    expect(cut.functions).toEqual([]);
    expect(cut.degradations).toContain('depth_limit:2 at line 2');
  });

  it('lists at most ten depth degradations and counts the rest', async () => {
    const text = Array.from({ length: 15 }, (_, i) => `x${i} = ${'('.repeat(8)}1${')'.repeat(8)}`).join('\n');
    const ir = await buildIR('many.py', 'python', text, { maxDepth: 4 });
    expect(ir.degradations).toHaveLength(11);
    expect(ir.degradations.at(-1)).toBe('depth_limit:4 hit 5 more times');
  });
});

describe('text handling', () => {
  it('cuts call text to 200 characters and keeps non-ASCII positions right', async () => {
    const long = `é = 1\nrun("${'a'.repeat(500)}")\n`;
    const ir = await buildIR('long.py', 'python', long);
    const call = ir.calls.find((c) => c.callee === 'run');
    expect(call?.line).toBe(2);
    expect(call?.text).toHaveLength(200);
    expect(call?.text.startsWith('run("aaa')).toBe(true);
  });

  it('builds an empty IR for empty input', async () => {
    const ir = await buildIR('empty.ts', 'typescript', '');
    expect(ir).toMatchObject({ functions: [], classes: [], calls: [], imports: [], hasErrors: false, degradations: [] });
  });
});
