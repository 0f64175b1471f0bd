/**
 * Property: the text query rules see (comments inside argument lists blanked) is the same as a walk
 * over every node of the tree would make it, for every grammar jscr loads. The fast search looks up
 * only the places where a comment can begin, so a comment syntax it does not know would show here.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES, type Language } from '../../src/syntax/languages.js';
import { loadGrammars, parse, parseForQueries } from '../../src/syntax/parser.js';

/** Blank every comment whose parent is an argument list, found by visiting every node. */
async function blankedByFullWalk(language: Language, text: string): Promise<string> {
  const tree = await parse(language, text);
  try {
    const chars = text.split('');
    const visit = (node: NonNullable<typeof tree.rootNode>): void => {
      if (['comment', 'line_comment', 'block_comment'].includes(node.type) && /argument/.test(node.parent?.type ?? '')) {
        for (let at = node.startIndex; at < node.endIndex; at++) if (chars[at] !== '\n' && chars[at] !== '\r') chars[at] = ' ';
      }
      for (const child of node.children) if (child) visit(child);
    };
    visit(tree.rootNode);
    return chars.join('');
  } finally {
    tree.delete();
  }
}

/** The text the tree was parsed from; outside the root node's range (leading blanks) it is the input's. */
async function blankedForQueries(language: Language, text: string): Promise<string> {
  const tree = await parseForQueries(language, text);
  try {
    const root = tree.rootNode;
    return text.slice(0, root.startIndex) + root.text + text.slice(root.endIndex);
  } finally {
    tree.delete();
  }
}

/** Pieces of code per family: calls, strings and regexes holding comment markers, and comments of every kind. */
const COMMON = ['f(', 'g(a, ', ')', ', ', 'x', ' ', '\n', '(', '"#"', "'//'", '"/*"', '"=begin"', '1', ')\n', 'a/b', '/'];
const PIECES: Record<Language, string[]> = {
  python: [...COMMON, '# c\n', '#\n', '  # tail\n', '"""# doc"""', 'f"{x}#"', 'def h(a):\n    ', 'os.system(', 'r"#"'],
  javascript: [...COMMON, '// c\n', '/* c */', '/** d */', '/re\\/x/g', '`${a /* t */}`', '`// no`', '#!x\n', 'obj.#p', '<!-- h\n', '/*/ x */'],
  typescript: [...COMMON, '// c\n', '/* c */', 'let v: T = ', '<T>(', '/re/', '`${b}`'],
  tsx: [...COMMON, '// c\n', '/* c */', '<div>{/* j */}</div>', 'h(<a/>, ', '`//`'],
  java: [...COMMON, '// c\n', '/* c */', '/** d */', 'class A { void m() { ', ' } }', '@A(/* p */)', 'new B('],
  php: ['<?php\n', ...COMMON, '# c\n', '// c\n', '/* c */', '#[Attr]\n', '$v', '"$a # b"', '?>\n<p># no</p>\n<?php '],
  go: [...COMMON, '// c\n', '/* c */', 'package p\n', 'func m() { ', ' }', '`raw //`'],
  ruby: [...COMMON, '# c\n', '\n=begin\nblock\n=end\n', '"#{y}"', 'def m(a)\n', 'end\n', '%w(# x)', 'puts '],
};

/** Where calls are statements in languages that need a file around them. */
const WRAP: Partial<Record<Language, [string, string]>> = {
  php: ['<?php\n', ''],
  go: ['package p\nfunc m() {\n', '\n}\n'],
  java: ['class A { void m() {\n', '\n} }\n'],
};

beforeAll(async () => {
  await loadGrammars(LANGUAGES);
}, 60_000);

describe('comments inside argument lists are blanked as a full walk of the tree would', () => {
  it.each(LANGUAGES)('%s', async (language) => {
    const pieces = PIECES[language];
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 30 }), async (parts) => {
        const [before, after] = WRAP[language] ?? ['', ''];
        const text = `${before}${parts.join('')}${after}`;
        expect(await blankedForQueries(language, text)).toBe(await blankedByFullWalk(language, text));
      }),
      { numRuns: 300, seed: 12 },
    );
  });

  it('blanks a comment that hides a call\'s first argument, and nothing else', async () => {
    const text = 'os.system(  # note\n    "rm -rf " + y)  # after\nx = "# kept"\n';
    expect(await blankedForQueries('python', text)).toBe('os.system(        \n    "rm -rf " + y)  # after\nx = "# kept"\n');
  });
});
