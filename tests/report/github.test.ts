import { describe, expect, it } from 'vitest';
import type { Finding, ReviewReport, Severity } from '../../src/report/finding.js';
import { escapeCommandData, escapeCommandProperty } from '../../src/report/escape.js';
import { githubStepSummary, renderGithub } from '../../src/report/github.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { cleanReport, finding } from './sample-reports.js';

function manyFindings(counts: Partial<Record<Severity, number>>): Finding[] {
  const out: Finding[] = [];
  for (const [severity, count] of Object.entries(counts) as [Severity, number][]) {
    for (let i = 0; i < count; i++) out.push(finding({ rule: `jscr/${severity}-${i}`, path: `src/${severity}.py`, line: i + 1, severity }));
  }
  return out;
}

function annotations(output: string, level: string): string[] {
  return output.split('\n').filter((line) => line.startsWith(`::${level} `) || line.startsWith(`::${level}::`));
}

const report = (findings: Finding[], extra: Partial<ReviewReport> = {}): ReviewReport => ({ ...cleanReport(), findings, ...extra });

describe('github annotations within GitHub per-step limits', () => {
  it('25 highs → 10 errors and one line saying 15 more exist', () => {
    const out = renderGithub(report(manyFindings({ high: 25 })), { color: false });
    expect(annotations(out, 'error')).toHaveLength(10);
    const moreLines = out.split('\n').filter((line) => /^15 more findings are not shown/.test(line));
    expect(moreLines).toHaveLength(1);
    // the ten shown are the first ten in report order
    expect(annotations(out, 'error').map((l) => /title=HIGH (jscr\/high-\d+)/.exec(l)?.[1])).toEqual(
      Array.from({ length: 10 }, (_, i) => `jscr/high-${i}`),
    );
  });

  const limitCases: { counts: Partial<Record<Severity, number>>; errors: number; warnings: number; notices: number; more: number }[] = [
    { counts: { critical: 4, high: 4 }, errors: 8, warnings: 0, notices: 0, more: 0 },
    { counts: { critical: 6, high: 6, medium: 3 }, errors: 10, warnings: 3, notices: 0, more: 2 },
    { counts: { medium: 12, low: 6, info: 6 }, errors: 0, warnings: 10, notices: 10, more: 4 },
    { counts: { critical: 10, medium: 10, low: 10 }, errors: 10, warnings: 10, notices: 10, more: 0 },
  ];
  for (const c of limitCases) {
    it(`${JSON.stringify(c.counts)} → ${c.errors} errors, ${c.warnings} warnings, ${c.notices} notices, ${c.more} more`, () => {
      const out = renderGithub(report(manyFindings(c.counts)), { color: false });
      expect(annotations(out, 'error')).toHaveLength(c.errors);
      expect(annotations(out, 'warning')).toHaveLength(c.warnings);
      expect(annotations(out, 'notice')).toHaveLength(c.notices);
      if (c.more > 0) expect(out).toMatch(new RegExp(`^${c.more} more finding`, 'm'));
      else expect(out).not.toMatch(/more findings? (is|are) not shown/);
    });
  }

  it('criticals take error slots before highs whatever the input order', () => {
    const findings = [...manyFindings({ high: 10 }), ...manyFindings({ critical: 3 })];
    const errors = annotations(renderGithub(report(findings), { color: false }), 'error');
    expect(errors.slice(0, 3).every((l) => l.includes('title=CRITICAL'))).toBe(true);
    expect(errors).toHaveLength(10);
  });

  it('an incomplete review takes one error slot with its reasons', () => {
    const out = renderGithub(report(manyFindings({ high: 12 }), { complete: false, incomplete_reasons: ['model: unreachable'], exit_code: 3 }), { color: false });
    const errors = annotations(out, 'error');
    expect(errors).toHaveLength(10);
    expect(errors[0]).toBe('::error title=jscr review INCOMPLETE::This review did not run everything it was meant to run:%0Amodel: unreachable');
    expect(out).toMatch(/^3 more findings are not shown/m);
  });
});

describe('workflow command escaping', () => {
  it('escapes data: %, CR, LF', () => {
    expect(escapeCommandData('100% done\nnext\rline')).toBe('100%25 done%0Anext\\x0dline');
    expect(escapeCommandData('a\r\nb')).toBe('a%0Ab');
  });
  it('escapes properties: also : and ,', () => {
    expect(escapeCommandProperty('a,b:c%d\ne')).toBe('a%2Cb%3Ac%25d%0Ae');
  });
  it('a finding cannot inject a workflow command or break the annotation', () => {
    const hostile = finding({
      rule: 'jscr/x',
      path: 'dir,line=1/evil::x.py',
      line: 2,
      title: 'T\n::set-env name=X::1',
      message: 'first\n::add-mask::secret\n%0A\u001b]0;title\u0007',
    });
    const out = renderGithub(report([hostile]), { color: false });
    const lines = out.split('\n').filter((l) => l.length > 0);
    expect(lines).toHaveLength(2); // one annotation, one summary line
    expect(lines[0]).toBe(
      '::error file=dir%2Cline=1/evil%3A%3Ax.py,line=2,endLine=2,title=HIGH jscr/x%3A T%0A\\%3A%3Aset-env name=X%3A%3A1::first%0A\\::add-mask::secret%0A%250A\\x1b]0;title\\x07',
    );
  });
  it('line numbers are at least 1 and endLine is never before line', () => {
    const out = renderGithub(report([finding({ rule: 'jscr/x', path: 'a.py', line: 0, end_line: 0 })]), { color: false });
    expect(out).toContain('file=a.py,line=1,endLine=1,');
  });
});

describe('github output when nothing was found, and the step summary', () => {
  it('a clean review is one plain line with the clean sentence and no annotation', () => {
    const out = renderGithub(cleanReport(), { color: false });
    expect(out).toBe('jscr: These checks, on this change, found nothing. Reviewed: range base111..head222 (5 files).\n');
  });
  it('the step summary lists every finding, beyond the annotation limit', () => {
    const findings = manyFindings({ high: 25 });
    const summary = githubStepSummary(report(findings));
    expect(summary).toBe(renderMarkdown(report(findings), { color: false }));
    for (const f of findings) expect(summary).toContain(`| high | ${f.rule} |`);
  });
});

describe('step summary size', () => {
  it('stays under GitHub’s 1 MiB step-summary limit and says what it left out', async () => {
    const { STEP_SUMMARY_MAX_BYTES } = await import('../../src/report/github.js');
    const big = Array.from({ length: 300 }, (_, i) =>
      finding({ rule: `jscr/r${i}`, path: `src/f${i}.py`, line: 1, evidence: `${'x'.repeat(5000)} ${i}` }),
    );
    const summary = githubStepSummary(report(big));
    expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(STEP_SUMMARY_MAX_BYTES);
    expect(summary).toContain('| high | jscr/r299 |');
    // as many findings in full as fit, the rest in the table only, and that said
    expect(summary).toContain('<summary><strong>HIGH</strong> jscr/r0 at src/f0.py:1');
    expect(summary).not.toContain('jscr/r299 at src/f299.py');
    expect(summary).toMatch(/^Message and evidence of \d+ findings in the table left out to fit the page/m);

    const huge = Array.from({ length: 12000 }, (_, i) => finding({ rule: `jscr/r${i}`, path: `src/${'d'.repeat(80)}/f${i}.py`, line: 1, title: 't'.repeat(60) }));
    const cut = githubStepSummary(report(huge));
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(STEP_SUMMARY_MAX_BYTES);
    expect(cut).toMatch(/^\d+ more findings not listed here to fit the page/m);
  });
});
