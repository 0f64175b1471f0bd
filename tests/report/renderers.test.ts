import { homedir, hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import type { ReviewReport } from '../../src/report/finding.js';
import { githubStepSummary } from '../../src/report/github.js';
import { REPORT_FORMATS, type ReportFormat } from '../../src/report/options.js';
import { render } from '../../src/report/render.js';
import { CLEAN_SENTENCE } from '../../src/report/summary.js';
import { VERSION } from '../../src/version.js';
import { expectGolden } from './golden.js';
import { RULES, cleanReport, incompleteCleanReport, reportWithFindings } from './sample-reports.js';

const EXTENSION: Record<ReportFormat, string> = { text: 'txt', json: 'json', sarif: 'sarif', markdown: 'md', github: 'github.txt' };
const plain = { color: false, rules: RULES };

describe('renderers against golden files', () => {
  for (const format of REPORT_FORMATS) {
    it(`${format}: a review with findings`, () => {
      expectGolden(`findings.${EXTENSION[format]}`, render(reportWithFindings(), format, plain));
    });
    it(`${format}: a clean review`, () => {
      expectGolden(`clean.${EXTENSION[format]}`, render(cleanReport(), format, plain));
    });
    it(`${format}: an incomplete review with no findings`, () => {
      expectGolden(`incomplete.${EXTENSION[format]}`, render(incompleteCleanReport(), format, plain));
    });
  }
  it('text with colour', () => {
    expectGolden('findings.color.txt', render(reportWithFindings(), 'text', { color: true, rules: RULES }));
  });
  it('the GitHub step summary', () => {
    expectGolden('findings.step-summary.md', githubStepSummary(reportWithFindings()));
  });
});

describe('determinism', () => {
  for (const format of REPORT_FORMATS) {
    it(`${format}: rendering twice, from separately built reports, gives the same bytes`, () => {
      expect(render(reportWithFindings(), format, plain)).toBe(render(reportWithFindings(), format, plain));
    });
  }
  it('json: the key order is fixed whatever order the report object was built in', () => {
    const report = reportWithFindings();
    const reversed = Object.fromEntries(Object.entries(report).reverse()) as ReviewReport;
    expect(render(reversed, 'json', plain)).toBe(render(report, 'json', plain));
    expect(Object.keys(JSON.parse(render(report, 'json', plain)) as object)).toEqual([
      'schema_version', 'tool', 'change', 'findings', 'rejected', 'steps', 'scanners', 'limits_reached',
      'complete', 'incomplete_reasons', 'exit_code', 'omitted', 'unused_suppressions',
    ]);
  });
  it('json: parses back to the report it was given (nothing added, nothing lost)', () => {
    const report = reportWithFindings();
    expect(JSON.parse(render(report, 'json', plain))).toEqual(JSON.parse(JSON.stringify(report)));
  });
});

describe('the clean wording', () => {
  it('a complete review with no findings says exactly the clean sentence in text', () => {
    const text = render(cleanReport(), 'text', plain);
    expect(text.split('\n')).toContain(CLEAN_SENTENCE);
    expect(CLEAN_SENTENCE).toBe('These checks, on this change, found nothing.');
  });
  for (const format of ['text', 'markdown', 'github'] as const) {
    it(`${format}: never claims the code is safe or secure`, () => {
      for (const report of [cleanReport(), incompleteCleanReport(), reportWithFindings()]) {
        expect(render(report, format, plain)).not.toMatch(/\b(safe|secure|no (security )?(issues|vulnerabilit\w*|problems))\b/i);
      }
    });
    it(`${format}: an incomplete review never uses the clean sentence and says INCOMPLETE with its reasons`, () => {
      const out = render(incompleteCleanReport(), format, plain);
      expect(out).not.toContain(CLEAN_SENTENCE);
      expect(out).toContain('INCOMPLETE');
      if (format === 'github') expect(out).toContain('model: endpoint unreachable%0Adeadline of 600 s passed before scanners ran');
      else for (const reason of incompleteCleanReport().incomplete_reasons) expect(out).toContain(reason);
    });
  }
  it('a review that found something never uses the clean sentence', () => {
    for (const format of REPORT_FORMATS) expect(render(reportWithFindings(), format, plain)).not.toContain(CLEAN_SENTENCE);
  });
});

describe('no format shows a value that was never in the report', () => {
  const machineValues = [process.cwd(), homedir(), hostname(), new Date().toISOString().slice(0, 10)].filter((v) => v.length >= 3);
  for (const format of REPORT_FORMATS) {
    it(`${format}: no machine paths, home, host name, date, or the running version (the report says 9.9.9-test)`, () => {
      for (const report of [reportWithFindings(), cleanReport(), incompleteCleanReport()]) {
        const out = render(report, format, plain);
        for (const value of machineValues) expect(out).not.toContain(value);
        if (VERSION !== '9.9.9-test') expect(out).not.toContain(VERSION);
      }
    });
  }
  it('text: every "SEVERITY rule path:line" heading is a finding of the report, and every finding has one', () => {
    const report = reportWithFindings();
    const headings = render(report, 'text', plain)
      .split('\n')
      .filter((line) => /^(CRITICAL|HIGH|MEDIUM|LOW|INFO) /.test(line));
    expect(headings).toEqual(report.findings.map((f) => `${f.severity.toUpperCase()} ${f.rule} ${f.path}:${f.line}`));
  });
  it('markdown: the table rows are exactly the findings, in order', () => {
    const report = reportWithFindings();
    const rows = render(report, 'markdown', plain)
      .split('\n')
      .filter((line) => /^\| (critical|high|medium|low|info) \|/.test(line));
    expect(rows.map((r) => r.split(' | ')[0]?.slice(2))).toEqual(report.findings.map((f) => f.severity));
    expect(rows).toHaveLength(report.findings.length);
  });
});
