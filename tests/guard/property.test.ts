/**
 * Property (issue 6): for random proposals against random Python files, an accepted proposal's result
 * compiles under python3 and differs from the file only in the lines of its range.
 */
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { check } from '../../src/guard/check.js';
import { splitLines } from '../../src/guard/lines.js';
import { consult, propose, tempRepo } from './helpers.js';
import { testNeedingAll } from '../helpers/programs.js';

// The property compiles every accepted proposal with python3; the README promises only Node and git.
const itPython = testNeedingAll(['python3'], 'the property of accepted Python proposals');

const names = ['alpha', 'beta', 'gamma'];
const fileLine = fc.oneof(
  fc.tuple(fc.constantFrom(...names), fc.integer({ min: 0, max: 99 })).map(([n, v]) => `${n} = ${v}\n`),
  fc.constantFrom('\n', '# a comment\n', 'alpha = len("x")\n', 'beta = [1, 2]\n'),
);
// Replacement lines: many are fine, some are broken, some reach out of the question.
const replacementLine = fc.oneof(
  fc.tuple(fc.constantFrom(...names, 'delta'), fc.integer({ min: 0, max: 9 })).map(([n, v]) => `${n} = ${v}\n`),
  fc.constantFrom('delta = alpha + 1\n', 'gamma = (\n', 'if alpha:\n', '    beta = 1\n', 'import os\n', 'eval("1")\n', 'x = "unclosed\n', 'beta = beta \\\n', '@decorate\n', '\n', 'alpha = "\u001b"\n', 'beta = str(gamma)\n'),
);

function compiles(bytes: Buffer): boolean {
  const run = spawnSync('python3', ['-c', 'import sys; compile(sys.stdin.buffer.read(), "t.py", "exec")'], { input: bytes });
  return run.status === 0;
}

describe('property: accepted proposals', () => {
  itPython('compile under python3 and change only the lines of their range', async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fileLine, { minLength: 1, maxLength: 12 }),
        fc.array(replacementLine, { minLength: 0, maxLength: 4 }),
        fc.nat(),
        fc.nat(),
        async (lines, replacementLines, a, b) => {
          const text = `alpha = 1\nbeta = 2\ngamma = 3\n${lines.join('')}`;
          const root = tempRepo({ 'module.py': text });
          const count = splitLines(text).length;
          const start = 1 + (a % count);
          const end = start + (b % (count - start + 1));
          const asked = consult(root, 'module.py', { start: 1, end: count, line: start, symbol: 'module' });
          const result = await check(asked, propose(asked, start, end, replacementLines.join('')), root);
          if (result.refusal !== null) return;
          accepted++;
          const bytes = result.resultBytes ?? Buffer.alloc(0);
          expect(compiles(bytes)).toBe(true);
          const before = splitLines(text);
          const after = splitLines(bytes.toString('utf8'));
          expect(after.slice(0, start - 1)).toEqual(before.slice(0, start - 1));
          const tail = before.length - end;
          expect(after.slice(after.length - tail)).toEqual(before.slice(end));
          expect(after.slice(start - 1, after.length - tail).join('')).toBe(replacementLines.join(''));
        },
      ),
      { numRuns: 40 },
    );
    expect(accepted).toBeGreaterThan(0);
  }, 300_000);
});
