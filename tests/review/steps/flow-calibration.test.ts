/**
 * The calibration table (rules/calibration/pattern-by-flow.toml) and the one function that applies it:
 * each origin of the value at a sink gives its family's action, a finding with no flow sink of its
 * family on its line is left to ADR 0021's rule, and the table refuses a CWE claimed twice.
 */
import { describe, expect, it } from 'vitest';
import type { SinkEvidence } from '../../../src/flow/index.js';
import type { Finding } from '../../../src/report/finding.js';
import { makeFinding } from '../../../src/report/fingerprint.js';
import { weighByFlow } from '../../../src/review/steps/flow-calibration.js';
import type { FlowRun } from '../../../src/review/steps/flow.js';
import { builtinCalibration, parseCalibration } from '../../../src/rules/flow-calibration.js';

function patternFinding(cwe: string, line: number, severity: Finding['severity'] = 'high'): Finding {
  return makeFinding({ rule: 'jscr/example-sink', source: 'rule', severity, confidence: 0.8, path: 'src/app.js', line, end_line: line, title: 't', message: 'Use the safe API.', evidence: 'sink(x)', cwe });
}

function run(evidence: SinkEvidence[]): FlowRun {
  return { limits: [], supersedes: new Map(), evidence: new Map([['src/app.js', evidence]]) };
}

describe('the calibration table', () => {
  it('lists every family flow models, each CWE once', () => {
    const table = builtinCalibration();
    expect([...new Set([...table.values()].map((f) => f.id))].sort()).toEqual(['code-evaluation', 'command', 'deserialisation', 'header', 'ldap', 'markup', 'path', 'redirect', 'sql', 'xpath']);
    expect(table.get('CWE-79')?.actions).toEqual({ own: 'drop', symbolic: 'low', unseen: 'keep' });
    expect(table.get('CWE-78')?.actions).toEqual({ own: 'drop', symbolic: 'low', unseen: 'drop' });
  });

  it('refuses a CWE in two families and an unknown action, naming the line', () => {
    const twice = ['[[family]]', 'id = "a"', 'cwes = ["CWE-78"]', 'own = "drop"', 'symbolic = "low"', 'unseen = "keep"', '[[family]]', 'id = "b"', 'cwes = ["CWE-78"]', 'own = "drop"', 'symbolic = "low"', 'unseen = "keep"'].join('\n');
    expect(() => parseCalibration(twice, 'table.toml')).toThrow(/table\.toml: line 9: family\[1\]\.cwes\[0\]: duplicate CWE CWE-78/);
    expect(() => parseCalibration(twice.replace('own = "drop"', 'own = "hide"'), 'table.toml')).toThrow(/family\[0\]\.own/);
  });
});

describe('weighing a pattern finding by flow evidence', () => {
  const cases: Array<{ name: string; cwe: string; origin: SinkEvidence['origin']; expected: 'dropped' | Finding['severity'] }> = [
    { name: 'own data at a command sink', cwe: 'CWE-78', origin: 'own', expected: 'dropped' },
    { name: 'a parameter at a command sink', cwe: 'CWE-78', origin: 'symbolic', expected: 'low' },
    { name: 'a field at a DOM sink', cwe: 'CWE-79', origin: 'symbolic', expected: 'low' },
    { name: 'own data at a DOM sink', cwe: 'CWE-79', origin: 'own', expected: 'dropped' },
    { name: 'a fetched document at a DOM sink', cwe: 'CWE-79', origin: 'unseen', expected: 'high' },
    { name: 'the command line at a command sink', cwe: 'CWE-78', origin: 'untracked', expected: 'high' },
    { name: 'outside data at a DOM sink (flow reports it; markup is never superseded)', cwe: 'CWE-79', origin: 'outside', expected: 'high' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const weighed = weighByFlow(run([{ lines: [9, 10], cwe: c.cwe, origin: c.origin, names: ['parameter `cmd` of `run`'] }]), patternFinding(c.cwe, 10));
      expect(weighed === null ? 'dropped' : weighed.severity).toBe(c.expected);
    });
  }

  it('says what to check, keeps the fingerprint, and takes the strongest origin on the line', () => {
    const finding = patternFinding('CWE-78', 10);
    const low = weighByFlow(run([{ lines: [10], cwe: 'CWE-78', origin: 'symbolic', names: ['parameter `cmd` of `run`'] }, { lines: [10], cwe: 'CWE-78', origin: 'own', names: [] }]), finding);
    expect(low?.message).toBe('Data flow saw no outside input reach this in the file. The value comes from parameter `cmd` of `run`. Check what the callers of the function pass; if none of it can come from a user, this is safe. Use the safe API.');
    expect(low?.fingerprint).toBe(finding.fingerprint);
    const kept = weighByFlow(run([{ lines: [10], cwe: 'CWE-78', origin: 'symbolic', names: [] }, { lines: [10], cwe: 'CWE-78', origin: 'untracked', names: [] }]), finding);
    expect(kept?.severity).toBe('high');
  });

  it('leaves a finding alone where flow saw no sink of its family on its line', () => {
    const finding = patternFinding('CWE-78', 10);
    expect(weighByFlow(run([{ lines: [12], cwe: 'CWE-78', origin: 'own', names: [] }]), finding)).toBe(finding);
    expect(weighByFlow(run([{ lines: [10], cwe: 'CWE-89', origin: 'own', names: [] }]), finding)).toBe(finding);
    const unmodelled = patternFinding('CWE-798', 10);
    expect(weighByFlow(run([{ lines: [10], cwe: 'CWE-798', origin: 'own', names: [] }]), unmodelled)).toBe(unmodelled);
  });
});
