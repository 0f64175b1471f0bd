/**
 * The Markdown report fits GitHub's pull-request comment limit (65,536 characters): findings that do
 * not fit are counted by severity and rule, and the reader is sent to the JSON or SARIF report.
 */
import { describe, expect, it } from 'vitest';
import type { Finding, ReviewReport, Severity } from '../../src/report/finding.js';
import { COMMENT_MAX_CHARS, renderMarkdown } from '../../src/report/markdown.js';
import { cleanReport, finding } from './sample-reports.js';

const report = (findings: Finding[], extra: Partial<ReviewReport> = {}): ReviewReport => ({ ...cleanReport(), findings, ...extra });
const md = (r: ReviewReport): string => renderMarkdown(r, { color: false });

/** `count` findings of `rule` at `severity`, each with evidence of `evidenceChars` characters. */
function findingsOf(rule: string, severity: Severity, count: number, evidenceChars = 400): Finding[] {
  return Array.from({ length: count }, (_, i) => finding({ rule, severity, path: `src/${rule.replace('/', '-')}-${i}.js`, line: i + 1, evidence: `${'e'.repeat(evidenceChars)} ${i}` }));
}

describe('markdown within the comment limit', () => {
  it('shows a small report in full', () => {
    const findings = findingsOf('jscr/sql-string-concat', 'high', 3);
    const text = md(report(findings));
    expect(text.match(/<details>/g)).toHaveLength(3);
    expect(text).not.toContain('to fit the page');
  });

  it('keeps details for the first findings, then the table only, within the limit', () => {
    const findings = findingsOf('jscr/xss-inner-html', 'high', 300);
    const text = md(report(findings));
    expect(text.length).toBeLessThanOrEqual(COMMENT_MAX_CHARS);
    const detailed = text.match(/<details>/g)?.length ?? 0;
    expect(detailed).toBeGreaterThan(10);
    expect(detailed).toBeLessThan(300);
    for (const f of findings) expect(text).toContain(`| ${f.path.replace(/_/g, '\\_')}:${f.line} |`);
    expect(text).toContain(`Message and evidence of ${300 - detailed} findings in the table left out to fit the page; see the JSON or SARIF report.`);
  });

  it('counts the findings left out of the table by severity and rule', () => {
    const findings = [...findingsOf('jscr/a-rule', 'critical', 900, 10), ...findingsOf('jscr/b-rule', 'medium', 1500, 10), ...findingsOf('jscr/c-rule', 'low', 600, 10)];
    const text = md(report(findings));
    expect(text.length).toBeLessThanOrEqual(COMMENT_MAX_CHARS);
    const rows = text.split('\n').filter((line) => /^\| (critical|high|medium|low|info) \| jscr\/[abc]-rule \| src/.test(line)).length;
    const counted = [...text.matchAll(/^\| (\w+) \| (jscr\/[abc]-rule) \| (\d+) \|$/gm)].map((m) => ({ severity: m[1], rule: m[2], count: Number(m[3]) }));
    expect(rows).toBeGreaterThan(0);
    expect(rows + counted.reduce((n, g) => n + g.count, 0)).toBe(3000);
    // most severe first
    expect(counted.map((g) => g.severity)).toEqual([...counted.map((g) => g.severity)].sort((a, b) => ['critical', 'high', 'medium', 'low'].indexOf(a ?? '') - ['critical', 'high', 'medium', 'low'].indexOf(b ?? '')));
    expect(text).toMatch(new RegExp(`^${3000 - rows} more findings not listed here to fit the page \\(.*\\); the JSON and SARIF reports list them all\\.$`, 'm'));
  });

  it('summarises many distinct rules in a bounded table', () => {
    const findings = Array.from({ length: 5000 }, (_, i) => finding({ rule: `model/rule-${i}`, path: `src/${'d'.repeat(60)}/${i}.js`, line: 1, title: 't'.repeat(80) }));
    const text = md(report(findings));
    expect(text.length).toBeLessThanOrEqual(COMMENT_MAX_CHARS);
    expect(text).toMatch(/^\| \| \d+ more rules \| \d+ \|$/m);
  });

  it('cuts even unbounded notes at a line, and says so', () => {
    const reasons = Array.from({ length: 200 }, (_, i) => `scanner ${i}: ${'r'.repeat(1000)}`);
    const text = md(report(findingsOf('jscr/a-rule', 'high', 5), { complete: false, incomplete_reasons: reasons }));
    expect(text.length).toBeLessThanOrEqual(COMMENT_MAX_CHARS);
    expect(text.endsWith('… the rest of this report is cut to fit the page; see the JSON or SARIF report.\n')).toBe(true);
    expect(text).toContain('**INCOMPLETE:**');
  });
});
