/**
 * Prover degradations are values; the reports print each as the line it has always been, and only some
 * kinds leave a run incomplete. The literal lines are what `jscr prove` and the review print.
 */
import { describe, expect, it } from 'vitest';
import { degradationText, incompleteDegradationLines, leavesIncomplete, type Degradation } from '../../src/prover/degradation.js';

const cases: [Degradation, string, boolean][] = [
  [{ kind: 'deadline_before_parse', path: 'app/a.py' }, 'error: app/a.py: the review deadline passed before it was parsed', true],
  [{ kind: 'parse_stopped', path: 'app/b.py', limitSeconds: 20 }, 'error: app/b.py: parsing stopped at its time limit (the review deadline or 20 s per file)', true],
  [{ kind: 'parse_error', path: 'app/c.py' }, 'parse_error app/c.py: the parse had errors; what parsed is still proved', false],
  [{ kind: 'exception', path: 'app/d.py', errorName: 'TypeError', message: 'x is undefined' }, 'error:TypeError app/d.py: x is undefined', true],
  [{ kind: 'unreadable', path: 'app/e.py', detail: 'git could not read the object in full' }, 'unreadable app/e.py: git could not read the object in full', true],
  [{ kind: 'not_read', path: 'app/f.py', reason: 'too_large', detail: '9 bytes, larger than 8' }, 'skipped_too_large app/f.py: 9 bytes, larger than 8', false],
  [{ kind: 'respelled_name', path: 'app/g.py', name: { code: 'folded_name', detail: 'the name on line 3 is "os" to Python' } }, 'folded_name app/g.py: the name on line 3 is "os" to Python', true],
];

describe('prover degradations', () => {
  it.each(cases)('%j prints as its line and says whether the run is incomplete', (degradation, line, incomplete) => {
    expect(degradationText(degradation)).toBe(line);
    expect(leavesIncomplete(degradation)).toBe(incomplete);
  });

  it('lists the incomplete ones, in order, as lines', () => {
    expect(incompleteDegradationLines(cases.map(([d]) => d))).toEqual(cases.filter(([, , incomplete]) => incomplete).map(([, line]) => line));
  });
});
