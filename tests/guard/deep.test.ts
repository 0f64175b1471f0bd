/** Deep nesting is a refusal, never a crash (seed D11): through check, and at each gate on its own. */
import { describe, expect, it } from 'vitest';
import { check } from '../../src/guard/check.js';
import { compileResult } from '../../src/guard/compile.js';
import { firstSyntaxError, treeDepthExceeds } from '../../src/guard/syntax.js';
import { parse } from '../../src/syntax/parser.js';
import { consult, fixture, propose, tempRepo } from './helpers.js';
import { testNeedingAll } from '../helpers/programs.js';

// The guard's compile check (word 13) starts python3; the README promises only Node and git.
const itPython = testNeedingAll(['python3'], 'the deep Python cases');

const chain = `    total = ${Array.from({ length: 20_000 }, () => 'user_id').join(' + ')}\n`;
const brackets = `    total = ${'('.repeat(5000)}user_id${')'.repeat(5000)}\n`;

describe('deep nesting', () => {
  itPython.each([
    ['a chain of 20,000 operands', chain],
    ['5,000 nested brackets', brackets],
  ])('refuses %s and the process survives', async (_name, replacement) => {
    const root = tempRepo({ 'sql-lookup.py': fixture('sql-lookup.py') });
    const asked = consult(root, 'sql-lookup.py', { start: 4, end: 7, line: 5, symbol: 'lookup' });
    const result = await check(asked, propose(asked, 5, 6, replacement), root);
    expect(result.refusal).toBe('replacement_too_large');
    // Still alive and still working: a normal proposal is accepted afterwards.
    const after = await check(asked, propose(asked, 5, 6, '    cursor.execute(query, ())\n'), root);
    expect(after.refusal).toBeNull();
  });

  itPython('the compile gate answers deep input with a refusal (python3 and TypeScript)', async () => {
    const deep = `x = ${'('.repeat(5000)}1${')'.repeat(5000)}\n`;
    const python = await compileResult('python', Buffer.from(deep), deep, 'deep.py', process.env);
    expect(python.ok).toBe(false);
    const js = `const x = ${'['.repeat(20_000)}1${']'.repeat(20_000)};\n`;
    const ts = await compileResult('javascript', Buffer.from(js), js, 'deep.js', process.env);
    expect(ts.ok).toBe(false);
  });

  it('the parse gate walks a tree 5,000 deep without recursion', async () => {
    const tree = await parse('python', `x = ${'('.repeat(5000)}1${')'.repeat(5000)}\n`);
    try {
      expect(firstSyntaxError(tree)).toBeNull();
      expect(treeDepthExceeds(tree, 2000)).toBe(true);
    } finally {
      tree.delete();
    }
  });
});
