/**
 * Hostile input for the front ends: token soup never makes lowering throw, every function the syntax
 * IR sees has its flow function, and nesting past the bounds degrades with a named reason.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildIR } from '../../src/syntax/ir.js';
import type { Language } from '../../src/syntax/languages.js';
import { comparableName, lower, type LoweredLanguage } from './lower-helpers.js';

/** Tokens of each language, mixed at random: keywords, brackets, strings with holes, operators. */
const TOKENS: Record<LoweredLanguage, string[]> = {
  python: ['def', 'f', '(', ')', ':', '\n', '    ', 'lambda', 'x', 'class', 'C', 'return', 'if', 'else', 'elif', 'for', 'in', 'with', 'as', 'try', 'except', 'match', 'case', '=', '+=', ':=', ',', '*', '**', '[', ']', '{', '}', 'f"{x}"', '"s"', '@d', 'import', 'from', 'yield', 'await', '.', 'not', 'and', '1'],
  javascript: ['function', 'f', '(', ')', '{', '}', '=>', 'x', 'class', 'C', 'return', 'if', 'else', 'for', 'of', 'in', 'const', 'let', '=', '+=', ',', '...', '[', ']', '`a${x}b`', "'s'", 'new', 'switch', 'case', 'default', ':', ';', 'try', 'catch', 'import', 'require', '.', '?.', '\n', 'async', 'await'],
  typescript: ['function', 'f', '(', ')', '{', '}', '=>', 'x', ':', 'string', 'as', '!', '<', '>', 'class', 'C', 'implements', 'return', 'const', '=', ',', '...', '`${x}`', '@D()', 'private', 'interface', 'type', ';', '\n', 'enum'],
  tsx: ['function', 'f', '(', ')', '{', '}', '=>', 'x', '<div', '>', '</div>', '/>', '{x}', 'const', '=', 'return', ';', '\n', 'props', '.'],
  php: ['<?php ', 'function', 'f', '(', ')', '{', '}', '$x', '$_GET', '[', ']', '=', '.=', '.', '"a $x {$y->z}"', "'s'", 'fn', '=>', 'use', 'class', 'C', 'public', 'return', 'if', 'elseif', 'else', 'foreach', 'as', 'match', 'list', ',', ';', '->', '::', 'new', 'echo', '`ls $x`', '\n', '?>', '<<<EOT\na\nEOT\n'],
  go: ['package main\n', 'func', 'f', '(', ')', '{', '}', 'x', ':=', '=', ',', 'r', '*http.Request', 'string', 'return', 'if', 'else', 'for', 'range', 'switch', 'case', 'default', ':', 'type', 'T', 'struct', 'map[string]string', '"s"', '`raw`', '.', '\n', 'go', 'defer', '...', ';', 'fallthrough'],
};

/** Whole functions mixed into the soup, so nested and broken functions come up often. */
const FUNCTIONS: Record<LoweredLanguage, string[]> = {
  python: ['def g(a):\n    return a\n', 'lambda y: y', 'class K:\n    def m(self): pass\n'],
  javascript: ['function g(a) { return a; }', '(a) => a', 'class K { m() {} }', '{ m() {} }'],
  typescript: ['function g(a: string): string { return a; }', '(a) => a', 'class K { m() {} }'],
  tsx: ['function g(a) { return <b>{a}</b>; }', '(a) => a'],
  php: ['function g($a) { return $a; }', 'fn($a) => $a', 'function ($a) use ($x) { }', 'class K { function m() {} }'],
  go: ['func g(a string) string { return a }\n', 'func(a int) {}', 'func (s *T) M() {}\n'],
};

const LANGUAGES = Object.keys(TOKENS) as LoweredLanguage[];

/** Every syntax-IR function, by comparable qualified name and last line, as a multiset. */
function functionKeys(functions: ReadonlyArray<{ qualifiedName: string; endLine: number }>): string[] {
  return functions.map((f) => `${comparableName(f.qualifiedName)}@${f.endLine}`).sort();
}

describe.each(LANGUAGES)('token soup in %s', (language) => {
  it('never throws and returns every function the syntax IR sees', async () => {
    let functionsSeen = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof({ arbitrary: fc.constantFrom(...TOKENS[language]), weight: 3 }, { arbitrary: fc.constantFrom(...FUNCTIONS[language]), weight: 1 }), { maxLength: 60 }), fc.constantFrom(' ', '', '\n'), async (tokens, separator) => {
        // PHP code only starts after its open tag; the tag is in the soup too.
        const source = (language === 'php' ? '<?php ' : '') + tokens.join(separator);
        const file = await lower(language, source);
        const ir = await buildIR(`soup.${language}`, language as Language, source);
        const flowKeys = functionKeys(file.functions.filter((f) => f.qualifiedName !== '<module>'));
        expect(flowKeys).toEqual(functionKeys(ir.functions));
        functionsSeen += ir.functions.length;
        expect(new Set(file.functions.map((f) => f.qualifiedName)).size).toBe(file.functions.length);
        expect(file.functions[0]?.qualifiedName).toBe('<module>');
      }),
      { numRuns: 150 },
    );
    // The property is only worth something if the soup holds functions.
    expect(functionsSeen).toBeGreaterThan(50);
  });
});

/** One call whose argument nests `levels` deep around `value`, on line 2 of a file, per language. */
function deeplyNested(language: LoweredLanguage, levels: number, value?: string): string {
  const inner = (item: string): string => `${'('.repeat(levels)}${value ?? item}${')'.repeat(levels)}`;
  switch (language) {
    case 'python':
      return `def f(x):\n    return run(${inner('x')})\n`;
    case 'php':
      return `<?php\nfunction f($x) { return run(${inner('$x')}); }\n`;
    case 'go':
      return `package m\nfunc f(x string) { run(${inner('x')}) }\n`;
    default:
      return `// deep\nfunction f(x) { return run(${inner('x')}); }\n`;
  }
}

describe.each(LANGUAGES)('deep nesting in %s', (language) => {
  it('stops lowering at the depth bound, says where, and keeps the outer call', async () => {
    const file = await lower(language, deeplyNested(language, 3000));
    expect(file.degradations.length).toBeGreaterThan(0);
    expect(file.degradations[0]).toMatch(/^depth_limit:\d+ at line 2 in f$/);
    expect(JSON.stringify(file.functions.find((f) => f.qualifiedName === 'f')?.body)).toContain('"callee":"run"');
  });

  it('lowers ordinary nesting without a degradation', async () => {
    const file = await lower(language, deeplyNested(language, 50));
    expect(file.degradations).toEqual([]);
  });

  it('finds functions written inside a subtree past the depth bound', async () => {
    const lambda = language === 'python' ? 'lambda y: y' : language === 'php' ? 'fn($y) => $y' : language === 'go' ? 'func(y string) string { return y }' : '(y) => y';
    const source = deeplyNested(language, 300, lambda);
    const file = await lower(language, source);
    const ir = await buildIR(`deep.${language}`, language as Language, source);
    expect(ir.functions.length).toBe(2);
    expect(functionKeys(file.functions.filter((f) => f.qualifiedName !== '<module>'))).toEqual(functionKeys(ir.functions));
  });
});
