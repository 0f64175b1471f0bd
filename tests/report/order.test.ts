import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Finding, Severity } from '../../src/report/finding.js';
import { renderJson } from '../../src/report/json.js';
import { orderFindings } from '../../src/report/order.js';
import { renderText } from '../../src/report/text.js';
import { cleanReport, finding } from './sample-reports.js';

const ALL = { minConfidence: 0, maxFindings: 1000 };

function brief(f: Finding): string {
  return `${f.severity} ${f.rule} ${f.path}:${f.line} ${f.source}`;
}

describe('orderFindings: deduplication by fingerprint', () => {
  const cases: { name: string; input: Finding[]; expected: string[]; duplicates: number }[] = [
    {
      name: 'the same finding twice is reported once',
      input: [finding({ rule: 'jscr/a', path: 'x.py', line: 3 }), finding({ rule: 'jscr/a', path: 'x.py', line: 3 })],
      expected: ['high jscr/a x.py:3 rule'],
      duplicates: 1,
    },
    {
      name: 'the same evidence moved to another line is the same finding; the more severe one is kept',
      input: [
        finding({ rule: 'jscr/a', path: 'x.py', line: 3, severity: 'medium', evidence: 'eval(x)' }),
        finding({ rule: 'jscr/a', path: 'x.py', line: 9, severity: 'critical', evidence: 'eval(x)' }),
      ],
      expected: ['critical jscr/a x.py:9 rule'],
      duplicates: 1,
    },
    {
      name: 'at equal severity the more confident one is kept',
      input: [
        finding({ rule: 'jscr/a', path: 'x.py', line: 3, confidence: 0.4, evidence: 'eval(x)' }),
        finding({ rule: 'jscr/a', path: 'x.py', line: 5, confidence: 0.8, evidence: 'eval(x)' }),
      ],
      expected: ['high jscr/a x.py:5 rule'],
      duplicates: 1,
    },
    {
      name: 'different evidence under one rule is two findings',
      input: [finding({ rule: 'jscr/a', path: 'x.py', line: 3, evidence: 'eval(x)' }), finding({ rule: 'jscr/a', path: 'x.py', line: 4, evidence: 'eval(y)' })],
      expected: ['high jscr/a x.py:3 rule', 'high jscr/a x.py:4 rule'],
      duplicates: 0,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const result = orderFindings(c.input, ALL);
      expect(result.findings.map(brief)).toEqual(c.expected);
      expect(result.duplicates).toBe(c.duplicates);
    });
  }
});

describe('orderFindings: merging the same problem reported by different sources', () => {
  const ruleFinding = finding({ rule: 'jscr/sql-string-concat', path: 'db.py', line: 12, severity: 'high', cwe: 'CWE-89', evidence: 'q = "x" + uid' });
  const modelFinding = finding({ rule: 'model/sql-injection', source: 'model', path: 'db.py', line: 12, severity: 'critical', confidence: 0.6, cwe: 'CWE-89', evidence: 'cursor.execute(q)' });

  it('keeps the most severe and records the other source in extra.also_reported_by', () => {
    const result = orderFindings([ruleFinding, modelFinding], ALL);
    expect(result.findings).toHaveLength(1);
    expect(result.duplicates).toBe(1);
    const kept = result.findings[0];
    expect(kept?.fingerprint).toBe(modelFinding.fingerprint);
    expect(kept?.extra?.also_reported_by).toEqual([{ source: 'rule', rule: 'jscr/sql-string-concat', fingerprint: ruleFinding.fingerprint }]);
  });

  it('between equally severe reports keeps the deterministic one, even when the model is more confident', () => {
    const sureModel = { ...modelFinding, severity: 'high' as Severity, confidence: 0.95 };
    const result = orderFindings([sureModel, ruleFinding], ALL);
    expect(result.findings.map((f) => f.source)).toEqual(['rule']);
    expect(result.findings[0]?.extra?.also_reported_by).toEqual([{ source: 'model', rule: 'model/sql-injection', fingerprint: modelFinding.fingerprint }]);
  });

  it('does not change the input findings', () => {
    orderFindings([ruleFinding, modelFinding], ALL);
    expect(modelFinding.extra).toBeUndefined();
  });

  const notMerged: { name: string; other: Finding }[] = [
    { name: 'another line', other: { ...modelFinding, line: 13, fingerprint: 'b'.repeat(64) } },
    { name: 'another CWE', other: { ...modelFinding, cwe: 'CWE-79', fingerprint: 'b'.repeat(64) } },
    { name: 'another path', other: { ...modelFinding, path: 'other.py', fingerprint: 'b'.repeat(64) } },
    { name: 'the same source (two rules are two findings)', other: { ...modelFinding, source: 'rule', rule: 'jscr/sql-format', fingerprint: 'b'.repeat(64) } },
    { name: 'no CWE on either', other: { ...modelFinding, cwe: null, fingerprint: 'b'.repeat(64) } },
  ];
  for (const c of notMerged) {
    it(`does not merge findings at ${c.name}`, () => {
      const base = c.name === 'no CWE on either' ? { ...ruleFinding, cwe: null } : ruleFinding;
      const result = orderFindings([base, c.other], ALL);
      expect(result.findings).toHaveLength(2);
      expect(result.duplicates).toBe(0);
    });
  }

  it('merges a model finding into the kept rule finding while two rules at the same place both stay', () => {
    const secondRule = finding({ rule: 'jscr/sql-format', path: 'db.py', line: 12, severity: 'high', confidence: 0.5, cwe: 'CWE-89', evidence: 'f"{uid}"' });
    const lowModel = { ...modelFinding, severity: 'medium' as Severity };
    const result = orderFindings([lowModel, secondRule, ruleFinding], ALL);
    expect(result.findings.map((f) => f.rule)).toEqual(['jscr/sql-format', 'jscr/sql-string-concat']);
    const concat = result.findings.find((f) => f.rule === 'jscr/sql-string-concat');
    expect(concat?.extra?.also_reported_by).toEqual([{ source: 'model', rule: 'model/sql-injection', fingerprint: modelFinding.fingerprint }]);
    expect(result.duplicates).toBe(1);
  });
});

describe('orderFindings: confidence, sorting and truncation', () => {
  it('drops findings under min confidence and counts them, before deduplication', () => {
    const confident = finding({ rule: 'jscr/a', path: 'x.py', line: 3, severity: 'high', confidence: 0.9, evidence: 'eval(x)' });
    const doubtfulButSevere = finding({ rule: 'jscr/a', path: 'x.py', line: 8, severity: 'critical', confidence: 0.2, evidence: 'eval(x)' });
    const result = orderFindings([doubtfulButSevere, confident], { minConfidence: 0.5, maxFindings: 10 });
    expect(result.findings.map(brief)).toEqual(['high jscr/a x.py:3 rule']);
    expect(result.droppedLowConfidence).toBe(1);
    expect(result.duplicates).toBe(0);
  });

  it('keeps a finding exactly at min confidence', () => {
    const result = orderFindings([finding({ rule: 'jscr/a', path: 'x.py', line: 1, confidence: 0.5 })], { minConfidence: 0.5, maxFindings: 10 });
    expect(result.findings).toHaveLength(1);
    expect(result.droppedLowConfidence).toBe(0);
  });

  it('sorts by severity, then path, then line, then rule id', () => {
    const input = [
      finding({ rule: 'jscr/b', path: 'b.py', line: 1, severity: 'low' }),
      finding({ rule: 'jscr/z', path: 'a.py', line: 10, severity: 'high' }),
      finding({ rule: 'jscr/y', path: 'a.py', line: 2, severity: 'high' }),
      finding({ rule: 'jscr/b', path: 'a.py', line: 2, severity: 'high' }),
      finding({ rule: 'jscr/a', path: 'z.py', line: 1, severity: 'critical' }),
      finding({ rule: 'jscr/a', path: 'B.py', line: 1, severity: 'high' }),
      finding({ rule: 'jscr/i', path: 'a.py', line: 1, severity: 'info' }),
    ];
    expect(orderFindings(input, ALL).findings.map(brief)).toEqual([
      'critical jscr/a z.py:1 rule',
      'high jscr/a B.py:1 rule', // code-unit order: upper case before lower case, on every locale
      'high jscr/b a.py:2 rule',
      'high jscr/y a.py:2 rule',
      'high jscr/z a.py:10 rule',
      'low jscr/b b.py:1 rule',
      'info jscr/i a.py:1 rule',
    ]);
  });

  it('truncates at max findings after sorting, keeping the most severe, and counts what it cut', () => {
    const input = [
      finding({ rule: 'jscr/l', path: 'a.py', line: 1, severity: 'low' }),
      finding({ rule: 'jscr/c', path: 'a.py', line: 2, severity: 'critical' }),
      finding({ rule: 'jscr/m', path: 'a.py', line: 3, severity: 'medium' }),
      finding({ rule: 'jscr/h', path: 'a.py', line: 4, severity: 'high' }),
    ];
    const result = orderFindings(input, { minConfidence: 0, maxFindings: 2 });
    expect(result.findings.map((f) => f.severity)).toEqual(['critical', 'high']);
    expect(result.truncated).toBe(2);
    expect(orderFindings(input, { minConfidence: 0, maxFindings: 0 }).truncated).toBe(4);
    expect(orderFindings(input, { minConfidence: 0, maxFindings: 4 }).truncated).toBe(0);
  });

  it('gives the same findings and the same JSON for any input order (property)', () => {
    const pool = [
      finding({ rule: 'jscr/a', path: 'x.py', line: 3, evidence: 'eval(x)' }),
      finding({ rule: 'jscr/a', path: 'x.py', line: 7, evidence: 'eval(x)', confidence: 0.95 }),
      finding({ rule: 'jscr/a', path: 'x.py', line: 3, evidence: 'eval(y)' }),
      finding({ rule: 'jscr/b', path: 'x.py', line: 3, severity: 'critical', cwe: 'CWE-95' }),
      finding({ rule: 'model/eval', source: 'model', path: 'x.py', line: 3, severity: 'critical', confidence: 0.9, cwe: 'CWE-95' }),
      finding({ rule: 'model/eval2', source: 'model', path: 'x.py', line: 3, severity: 'critical', confidence: 0.9, cwe: 'CWE-95' }),
      finding({ rule: 'scanner/x', source: 'scanner:bandit', path: 'x.py', line: 3, severity: 'critical', confidence: 0.9, cwe: 'CWE-95' }),
      finding({ rule: 'jscr/c', path: 'y.py', line: 1, severity: 'low', confidence: 0.1 }),
      finding({ rule: 'jscr/d', path: 'y.py', line: 1, severity: 'low' }),
    ];
    const render = (findings: Finding[]): string => {
      const result = orderFindings(findings, { minConfidence: 0.2, maxFindings: 5 });
      return renderJson({ ...cleanReport(), findings: result.findings }, { color: false }) + JSON.stringify([result.truncated, result.duplicates, result.droppedLowConfidence]);
    };
    const expected = render(pool);
    fc.assert(
      fc.property(fc.shuffledSubarray(pool, { minLength: pool.length, maxLength: pool.length }), (shuffled) => {
        expect(render(shuffled)).toBe(expected);
      }),
      { numRuns: 200 },
    );
  });
});

describe('orderFindings: merged findings are named', () => {
  const rule = finding({ rule: 'jscr/python-subprocess-shell-true', path: 'app.py', line: 7, severity: 'high', confidence: 0.8, cwe: 'CWE-78', evidence: 'subprocess.call(cmd, shell=True)' });
  const bandit = finding({ rule: 'bandit/B602', source: 'scanner:bandit', path: 'app.py', line: 7, severity: 'critical', confidence: 0.9, cwe: 'cwe-78', evidence: 'subprocess.call(cmd, shell=True)' });

  it('keeps the jscr finding over a scanner at the same line and CWE, even a more severe one, naming the scanner', () => {
    const result = orderFindings([bandit, rule], ALL);
    expect(result.findings).toHaveLength(1);
    const [kept] = result.findings;
    expect(kept?.rule).toBe('jscr/python-subprocess-shell-true');
    expect(kept?.merged).toEqual([{ rule: 'bandit/B602', source: 'scanner:bandit', line: 7, fingerprint: bandit.fingerprint }]);
    expect(kept?.extra?.also_reported_by).toEqual([{ source: 'scanner:bandit', rule: 'bandit/B602', fingerprint: bandit.fingerprint }]);
    expect(result.duplicates).toBe(1);
  });

  it('never keeps a model finding over a more severe scanner finding at the same line and CWE (the reviewed text can steer the model)', () => {
    const lowModel = finding({ rule: 'model/command-injection', source: 'model', path: 'app.py', line: 7, severity: 'low', confidence: 0.9, cwe: 'CWE-78', evidence: 'shell=True' });
    const result = orderFindings([lowModel, bandit], ALL);
    expect(result.findings.map(brief)).toEqual(['critical bandit/B602 app.py:7 scanner:bandit']);
    expect(result.findings[0]?.merged).toEqual([{ rule: 'model/command-injection', source: 'model', line: 7, fingerprint: lowModel.fingerprint }]);
    // a more severe model finding is still kept, with the scanner named as agreeing
    const criticalModel = { ...lowModel, severity: 'critical' as const };
    expect(orderFindings([bandit, criticalModel], ALL).findings.map(brief)).toEqual(['critical model/command-injection app.py:7 model']);
  });

  it('keeps a scanner finding of another CWE at the same line as its own finding', () => {
    const result = orderFindings([{ ...bandit, cwe: 'CWE-94' }, rule], ALL);
    expect(result.findings.map((f) => f.rule).sort()).toEqual(['bandit/B602', 'jscr/python-subprocess-shell-true']);
    expect(result.findings.every((f) => f.merged === undefined)).toBe(true);
  });

  it('lists every finding folded in, same-fingerprint repeats and other sources alike, and the count agrees', () => {
    const repeat = { ...rule, confidence: 0.5 };
    const model = finding({ rule: 'model/command-injection', source: 'model', path: 'app.py', line: 7, severity: 'medium', cwe: 'CWE-78', evidence: 'shell=True' });
    const result = orderFindings([model, repeat, bandit, rule], ALL);
    expect(result.findings).toHaveLength(1);
    const merged = result.findings[0]?.merged ?? [];
    expect(merged.map((m) => m.source).sort()).toEqual(['model', 'rule', 'scanner:bandit']);
    expect(merged).toHaveLength(result.duplicates);
  });

  it('the text report says which findings were merged, into which', () => {
    const result = orderFindings([bandit, rule], ALL);
    const text = renderText({ ...cleanReport(), findings: result.findings, omitted: { duplicates: result.duplicates, below_min_confidence: 0, truncated: 0 } }, { color: false });
    expect(text).toContain('1 duplicate merged: bandit/B602 (scanner:bandit, line 7) into jscr/python-subprocess-shell-true at app.py:7.');
    expect(text).toContain('  merged: bandit/B602 (scanner:bandit, line 7)');
    const json = JSON.parse(renderJson({ ...cleanReport(), findings: result.findings }, { color: false })) as { findings: { merged?: unknown }[] };
    expect(json.findings[0]?.merged).toEqual([{ rule: 'bandit/B602', source: 'scanner:bandit', line: 7, fingerprint: bandit.fingerprint }]);
  });
});
