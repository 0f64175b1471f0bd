import { describe, expect, it } from 'vitest';
import { exitCodeFor, type FailOn } from '../../src/report/exit.js';
import type { Severity } from '../../src/report/finding.js';
import { finding } from './sample-reports.js';

function withSeverities(...severities: Severity[]) {
  return severities.map((severity, i) => finding({ rule: `jscr/r${i}`, path: 'a.py', line: i + 1, severity }));
}

describe('exitCodeFor (SPEC 2 precedence: 3, then 1, then 0)', () => {
  const cases: { name: string; complete: boolean; severities: Severity[]; failOn: FailOn; expected: 0 | 1 | 3 }[] = [
    { name: 'complete and nothing found', complete: true, severities: [], failOn: 'low', expected: 0 },
    { name: 'a low finding with the default fail-on low', complete: true, severities: ['low'], failOn: 'low', expected: 1 },
    { name: 'a finding exactly at fail-on', complete: true, severities: ['high'], failOn: 'high', expected: 1 },
    { name: 'a finding above fail-on', complete: true, severities: ['critical'], failOn: 'medium', expected: 1 },
    { name: 'findings only below fail-on', complete: true, severities: ['medium', 'low'], failOn: 'high', expected: 0 },
    { name: 'info never fails, even with fail-on low', complete: true, severities: ['info', 'info'], failOn: 'low', expected: 0 },
    { name: 'incomplete with no findings is never clean', complete: false, severities: [], failOn: 'low', expected: 3 },
    { name: 'incomplete beats findings', complete: false, severities: ['critical'], failOn: 'low', expected: 3 },
    { name: 'incomplete with findings below fail-on', complete: false, severities: ['low'], failOn: 'critical', expected: 3 },
  ];
  for (const c of cases) {
    it(`${c.name} → ${c.expected}`, () => {
      expect(exitCodeFor({ complete: c.complete, findings: withSeverities(...c.severities) }, c.failOn)).toBe(c.expected);
    });
  }
});
