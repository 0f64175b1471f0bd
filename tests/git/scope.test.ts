/**
 * Which findings belong to a change: a finding whose span covers a changed line is the change's even
 * when its first line is old code (a model reports the whole statement).
 */
import { describe, expect, it } from 'vitest';
import { parseUnifiedDiff, touchesChangedLines } from '../../src/git/diff.js';

// Lines 1-3 of the new file are context; line 4 is the one added line; line 5 is context.
const DIFF = [
  'diff --git a/app.js b/app.js',
  'index 1111111111111111111111111111111111111111..2222222222222222222222222222222222222222 100644',
  '--- a/app.js',
  '+++ b/app.js',
  '@@ -1,4 +1,5 @@',
  ' function run(req) {',
  '   const cmd = [',
  '     "ls",',
  '+    req.query.dir,',
  '   ].join(" ");',
  '',
].join('\n');

describe('touchesChangedLines', () => {
  const file = parseUnifiedDiff(DIFF)[0];
  if (file === undefined) throw new Error('the diff did not parse');

  it('a span starting on an unchanged line that covers the changed line is in scope', () => {
    expect(touchesChangedLines(file, 2, 5)).toBe(true);
  });

  it('spans of only unchanged lines are out of scope, on either side of the change', () => {
    expect(touchesChangedLines(file, 1, 3)).toBe(false);
    expect(touchesChangedLines(file, 5, 5)).toBe(false);
  });

  it('an end before the start means the single start line', () => {
    expect(touchesChangedLines(file, 4, 0)).toBe(true);
    expect(touchesChangedLines(file, 3, 1)).toBe(false);
  });
});
