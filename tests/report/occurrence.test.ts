/** Version 2 fingerprints: each copy of a line is its own finding, and the value survives moves and edits elsewhere. */
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/report/finding.js';
import { makeFinding } from '../../src/report/fingerprint.js';
import { placeOccurrences, type OccurrenceFile } from '../../src/report/occurrence.js';
import { orderFindings } from '../../src/report/order.js';

const SINK = 'cursor.execute("SELECT * FROM t WHERE id = " + request.args["id"])';

function at(path: string, line: number, evidence = SINK, rule = 'jscr/sql-string-concat'): Finding {
  return makeFinding({ rule, source: 'rule', severity: 'high', confidence: 0.8, path, line, end_line: line, title: 't', message: 'm', evidence, cwe: 'CWE-89' });
}

/** A file of `lines` with functions given as [name, first line, last line]. */
function file(lines: string[], functions: [string, number, number][] = []): OccurrenceFile {
  return { text: `${lines.join('\n')}\n`, scopes: functions.map(([qualifiedName, startLine, endLine]) => ({ qualifiedName, startLine, endLine })) };
}

function lineOf(f: OccurrenceFile, text: string, nth = 0): number {
  const lines = f.text.split('\n');
  let seen = 0;
  for (let i = 0; i < lines.length; i++) if (lines[i]?.trim() === text && seen++ === nth) return i + 1;
  throw new Error(`no ${text}`);
}

const TWO_COPIES = file(['def show(request):', `    ${SINK}`, '    log("x")', `    ${SINK}`, '    return 1'], [['show', 1, 5]]);

describe('placeOccurrences', () => {
  it('gives two copies of one line in one function two fingerprints (one v1), so ordering keeps both', () => {
    const placed = placeOccurrences([at('app.py', 4), at('app.py', 2)], new Map([['app.py', TWO_COPIES]]));
    expect(placed.map((f) => f.occurrence)).toEqual([{ scope: 'show', index: 1 }, { scope: 'show', index: 0 }]);
    expect(placed[0]?.fingerprint).not.toBe(placed[1]?.fingerprint);
    expect(placed[0]?.fingerprint_v1).toBe(placed[1]?.fingerprint_v1);
    expect(placed[0]?.id).toBe(placed[0]?.fingerprint.slice(0, 12));
    expect(orderFindings(placed, { minConfidence: 0, maxFindings: 10 }).findings).toHaveLength(2);
  });

  it('keeps each copy its fingerprint when lines are added above and inside the function elsewhere', () => {
    const before = placeOccurrences([at('app.py', 2), at('app.py', 4)], new Map([['app.py', TWO_COPIES]]));
    const moved = file(['import os', '', 'def show(request):', '    user = request.user', `    ${SINK}`, '    log("x")', '    log("y")', `    ${SINK}`, '    return 1'], [['show', 3, 9]]);
    const after = placeOccurrences([at('app.py', lineOf(moved, SINK, 1)), at('app.py', lineOf(moved, SINK, 0))], new Map([['app.py', moved]]));
    expect(after.map((f) => f.fingerprint).sort()).toEqual(before.map((f) => f.fingerprint).sort());
  });

  it('counts copies in their own function: the same line in two functions is the first in each', () => {
    const two = file(['def a():', `    ${SINK}`, 'def b():', `    ${SINK}`], [['a', 1, 2], ['b', 3, 4]]);
    const placed = placeOccurrences([at('app.py', 2), at('app.py', 4)], new Map([['app.py', two]]));
    expect(placed.map((f) => f.occurrence)).toEqual([{ scope: 'a', index: 0 }, { scope: 'b', index: 0 }]);
    expect(placed[0]?.fingerprint).not.toBe(placed[1]?.fingerprint);
  });

  it('counts a copy even when the earlier copy has no finding in this review (out of scope, or suppressed)', () => {
    const [only] = placeOccurrences([at('app.py', 4)], new Map([['app.py', TWO_COPIES]]));
    expect(only?.occurrence).toEqual({ scope: 'show', index: 1 });
  });

  it('uses the innermost function, and a synthetic lambda name without its line number', () => {
    const nested = file(['class Api:', '  def get(self):', '    cb = lambda: 1', `    ${SINK}`], [['Api.get', 2, 4], ['Api.get.<lambda@L3>', 3, 3]]);
    const [inMethod] = placeOccurrences([at('api.py', 4)], new Map([['api.py', nested]]));
    expect(inMethod?.occurrence).toEqual({ scope: 'Api.get', index: 0 });
    const shifted = file(['', 'cb = lambda: (', `    ${SINK})`], [['<lambda@L2>', 2, 3]]);
    const [inLambda] = placeOccurrences([at('api.py', 3)], new Map([['api.py', shifted]]));
    expect(inLambda?.occurrence).toEqual({ scope: '<lambda>', index: 0 });
  });

  it('counts within the file when there are no functions, matching whole spans of several lines', () => {
    const script = file(['run:', '  curl $URL |', '    sh', 'again:', '  curl $URL |', '    bash', 'more:', '  curl $URL |', '    sh']);
    const span = (line: number): Finding => ({ ...at('ci.yml', line, '  curl $URL |\n    sh', 'jscr/curl-pipe-shell'), end_line: line + 1 });
    const placed = placeOccurrences([span(2), span(8)], new Map([['ci.yml', script]]));
    // line 5 starts the same way but its span differs, so line 8 is the second copy, not the third
    expect(placed.map((f) => f.occurrence)).toEqual([{ scope: '', index: 0 }, { scope: '', index: 1 }]);
  });

  it('without the file text counts among the findings, in line order, whatever the input order', () => {
    const placed = placeOccurrences([at('elsewhere.py', 30), at('elsewhere.py', 10), at('elsewhere.py', 0, 'file')], new Map());
    expect(placed.map((f) => f.occurrence)).toEqual([{ scope: '', index: 1 }, { scope: '', index: 0 }, { scope: '', index: 0 }]);
  });

  it('without the file text, findings on one line (a prover operation reached from several entries) are one occurrence, merged', () => {
    const placed = placeOccurrences([at('lib/session.ts', 101), at('lib/session.ts', 101), at('lib/session.ts', 120), at('lib/session.ts', 101)], new Map());
    expect(placed.map((f) => f.occurrence?.index)).toEqual([0, 0, 1, 0]);
    expect(orderFindings(placed, { minConfidence: 0, maxFindings: 10 }).findings.map((f) => f.line)).toEqual([101, 120]);
  });

  it('gives one finding reported twice on the same line (two sources of one rule id) one fingerprint, so it is merged', () => {
    const placed = placeOccurrences([at('app.py', 2), { ...at('app.py', 2), confidence: 0.5 }], new Map([['app.py', TWO_COPIES]]));
    expect(placed[0]?.fingerprint).toBe(placed[1]?.fingerprint);
    expect(orderFindings(placed, { minConfidence: 0, maxFindings: 10 }).findings).toHaveLength(1);
  });
});
