/**
 * Property: a change the profile calls trivial leaves the code unchanged once a real parser
 * (tree-sitter) removes the comments. It must never call a code change trivial.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Node } from 'web-tree-sitter';
import { loadGrammars, parse } from '../../src/syntax/parser.js';
import { profileChange } from '../../src/profile/profile.js';

/** The tree without comments: node types and leaf texts, in order. Null when the parse has errors. */
async function codeSignature(language: 'python' | 'javascript', text: string): Promise<string | null> {
  const tree = await parse(language, text);
  try {
    if (tree.rootNode.hasError) return null;
    const parts: string[] = [];
    const walk = (node: Node, isRoot = false): void => {
      if (node.type === 'comment') return;
      if (node.childCount === 0 && !isRoot) {
        parts.push(`${node.type}:${node.text}`);
        return;
      }
      parts.push(`(${node.type}`);
      for (const child of node.children) if (child) walk(child);
      parts.push(')');
    };
    walk(tree.rootNode, true);
    return parts.join(' ');
  } finally {
    tree.delete();
  }
}

const PYTHON_TOKENS = [
  'x = 1', 'def f(a):', '    return a', '# note', '# noqa', '  # tail', '"s # t"', "'q'", ' ', '  ', '\n', '\n', '\n',
  'if x:', '    pass', 'y=2', 'y = 2', '"""doc"""', 'f"{x}"', '#', '\t', '\\', 'z = [1,', ' 2]', '    # inner', '# type: int',
];
const JS_TOKENS = [
  'let x = 1;', 'function f(a) {', '  return a;', '}', '// note', ' /* block */', '/* multi\nline */', '"s // t"', "'q'",
  ' ', '  ', '\n', '\n', '\n', 'if (x) {', 'y=2;', 'y = 2;', '`t`', '/', '<b', '// eslint-disable-line', '\t', 'a\n', '++b;',
];

interface Scenario {
  file: string;
  oldString: string;
  newString: string;
}

function scenario(tokens: readonly string[]): fc.Arbitrary<Scenario> {
  const token = fc.constantFrom(...tokens);
  const commentish = fc.constantFrom(...tokens.filter((t) => t.includes('#') || t.includes('//') || t.includes('/*') || t.trim() === ''));
  return fc
    .record({
      parts: fc.array(token, { minLength: 2, maxLength: 24 }),
      start: fc.nat(),
      length: fc.integer({ min: 1, max: 4 }),
      // mostly comment and blank replacements, so that trivial verdicts are common
      replacement: fc.oneof({ weight: 3, arbitrary: fc.array(commentish, { maxLength: 3 }) }, { weight: 1, arbitrary: fc.array(token, { maxLength: 3 }) }),
      keepOld: fc.boolean(),
    })
    .map(({ parts, start, length, replacement, keepOld }) => {
      const from = start % parts.length;
      const to = Math.min(parts.length, from + length);
      const oldString = parts.slice(from, to).join('');
      const inserted = replacement.join('');
      const newString = keepOld ? `${oldString}${inserted}` : inserted;
      return { file: parts.join(''), oldString, newString };
    });
}

async function checkProperty(language: 'python' | 'javascript', path: string, tokens: readonly string[]): Promise<number> {
  let trivialSeen = 0;
  await fc.assert(
    fc.asyncProperty(scenario(tokens), async ({ file, oldString, newString }) => {
      const profile = profileChange({ kind: 'edit', path, fileText: file, edits: [{ oldString, newString }] });
      if (!profile.trivial) return;
      trivialSeen++;
      const at = file.indexOf(oldString);
      const after = file.slice(0, at) + newString + file.slice(at + oldString.length);
      const before = await codeSignature(language, file);
      if (before === null) return; // a file tree-sitter cannot parse cleanly says nothing either way
      expect(await codeSignature(language, after)).toBe(before);
    }),
    { numRuns: 1000, seed: 20240611 },
  );
  return trivialSeen;
}

describe('trivial implies unchanged code (tree-sitter)', () => {
  beforeAll(async () => {
    await loadGrammars(['python', 'javascript']);
  });
  it('Python', async () => {
    expect(await checkProperty('python', 'mod.py', PYTHON_TOKENS)).toBeGreaterThan(50);
  });
  it('JavaScript', async () => {
    expect(await checkProperty('javascript', 'mod.js', JS_TOKENS)).toBeGreaterThan(50);
  });
});
