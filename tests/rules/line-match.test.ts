/**
 * The per-file matcher works out `inside_block` and `unless_later` once per file. These properties
 * check it against the plain per-line definitions (walk up the indentation; look at every later
 * line) on random indented files, so the faster form cannot drift from what the rules mean.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLineMatcher, type PatternJob } from '../../src/rules/line-match.js';

const BLOCK = /^\s*run:/;
const LATER = /cleanup/;

function job(extra: Partial<PatternJob>): PatternJob {
  return { pattern: { source: 'curl', flags: '' }, notPattern: null, unlessLater: null, insideBlock: null, requiresInFile: null, safeValues: [], ...extra };
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** The definition: the line matches the block regex, or some line it is indented under does. */
function insideBlockByWalk(lines: string[], index: number): boolean {
  const line = lines[index] ?? '';
  if (BLOCK.test(line)) return true;
  let indent = indentOf(line);
  for (let i = index - 1; i >= 0 && indent > 0; i--) {
    const candidate = lines[i] ?? '';
    if (candidate.trim() === '') continue;
    if (indentOf(candidate) >= indent) continue;
    if (BLOCK.test(candidate)) return true;
    indent = indentOf(candidate);
  }
  return false;
}

const lineArb = fc.tuple(fc.integer({ min: 0, max: 6 }), fc.constantFrom('run: x', 'curl a', 'name: y', '', 'cleanup', '- curl b')).map(([indent, body]) => ' '.repeat(indent) + body);
const request = (text: string) => ({ text, ruleIndexes: [0], scan: null, maxHitsPerRule: 10_000, stopAt: Date.now() + 60_000 });

describe('createLineMatcher', () => {
  it('inside_block agrees with walking up the indentation from each line', () => {
    const match = createLineMatcher([job({ insideBlock: { source: BLOCK.source, flags: '' } })]);
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 40 }), (lines) => {
        const expected = lines.flatMap((line, i) => (/curl/.test(line) && insideBlockByWalk(lines, i) ? [i + 1] : []));
        expect(match(request(lines.join('\n'))).hits.map(([, line]) => line)).toEqual(expected);
      }),
    );
  });

  it('unless_later agrees with looking at every later line', () => {
    const match = createLineMatcher([job({ unlessLater: { source: LATER.source, flags: '' } })]);
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 40 }), (lines) => {
        const expected = lines.flatMap((line, i) => (/curl/.test(line) && !lines.slice(i + 1).some((next) => LATER.test(next)) ? [i + 1] : []));
        expect(match(request(lines.join('\n'))).hits.map(([, line]) => line)).toEqual(expected);
      }),
    );
  });

  it('stops at stopAt and says it did not finish', () => {
    const match = createLineMatcher([job({})]);
    const result = match({ ...request('curl a\n'.repeat(100)), stopAt: Date.now() - 1 });
    expect(result.finished).toBe(false);
  });
});
