/**
 * Each adapter checks its scanner's report against a schema before reading it. A stand-in scanner
 * prints a report of the wrong shape (a field missing, a wrong type, one level of nesting too many or
 * too few) with the "found issues" exit code: the scanner is `failed` with one line naming the first
 * mismatch, never a crash and never a clean run. Each table starts with a well-formed report, so the
 * stand-in is known to be read when the shape is right.
 */
import { describe, expect, it } from 'vitest';
import { bandit } from '../../src/review/scanners/bandit.js';
import { createEslintAdapter } from '../../src/review/scanners/eslint.js';
import { createSecretlintAdapter } from '../../src/review/scanners/secretlint.js';
import { shellcheck } from '../../src/review/scanners/shellcheck.js';
import type { ScannerAdapter, ScannerOutcome } from '../../src/review/scanners/types.js';
import { runJscr } from '../helpers/cli.js';
import { makeRepo } from '../helpers/repo.js';
import { fakeProgram, scan } from './harness.js';

/** A report the stand-in prints; `where` is the first mismatch the detail must name, null for a good report. */
interface ShapeCase {
  name: string;
  report: unknown;
  where: string | null;
}

interface Subject {
  scanner: 'bandit' | 'shellcheck' | 'secretlint' | 'eslint';
  /** How the detail names the report (`JSON report`, `json1 report`). */
  reportName: string;
  adapter(binDirs: string[]): ScannerAdapter;
  file: string;
  /** The rule of the one finding the well-formed report yields. */
  rule: string;
  cases: ShapeCase[];
}

const BANDIT_RESULT = {
  filename: './app.py',
  line_number: 1,
  line_range: [1],
  test_id: 'B101',
  test_name: 'assert_used',
  issue_severity: 'LOW',
  issue_confidence: 'HIGH',
  issue_text: 'Use of assert detected.',
  issue_cwe: { id: 703 },
};
const SHELLCHECK_COMMENT = { file: './run.sh', line: 1, endLine: 1, level: 'info', code: 2086, message: 'Double quote to prevent globbing.' };
const SECRETLINT_MESSAGE = { ruleId: '@secretlint/secretlint-rule-github', message: 'found a token', range: [0, 1], loc: { start: { line: 1 }, end: { line: 1 } } };
const ESLINT_MESSAGE = { ruleId: 'security/detect-eval-with-expression', severity: 2, message: 'eval with an argument', line: 1, endLine: 1 };

const without = <T extends object>(value: T, key: keyof T): Partial<T> => Object.fromEntries(Object.entries(value).filter(([k]) => k !== key)) as Partial<T>;

const SUBJECTS: Subject[] = [
  {
    scanner: 'bandit',
    reportName: 'JSON report',
    adapter: () => bandit,
    file: 'app.py',
    rule: 'bandit/B101',
    cases: [
      { name: 'a well-formed report', report: { results: [BANDIT_RESULT], errors: [] }, where: null },
      { name: 'no results list', report: { errors: [] }, where: 'results' },
      { name: 'results as an object', report: { results: { 0: BANDIT_RESULT } }, where: 'results' },
      { name: 'the report nested one level deeper', report: { report: { results: [BANDIT_RESULT] } }, where: 'results' },
      { name: 'each result wrapped in a list', report: { results: [[BANDIT_RESULT]] }, where: 'results[0]' },
      { name: 'a line number as text', report: { results: [{ ...BANDIT_RESULT, line_number: '1' }] }, where: 'results[0].line_number' },
      { name: 'line number 0', report: { results: [{ ...BANDIT_RESULT, line_number: 0 }] }, where: 'results[0].line_number' },
      { name: 'a fractional line in the range', report: { results: [{ ...BANDIT_RESULT, line_range: [1, 1.5] }] }, where: 'results[0].line_range[1]' },
      { name: 'no test id', report: { results: [without(BANDIT_RESULT, 'test_id')] }, where: 'results[0].test_id' },
      { name: 'a CWE id as text', report: { results: [{ ...BANDIT_RESULT, issue_cwe: { id: 'CWE-703' } }] }, where: 'results[0].issue_cwe.id' },
      { name: 'an error entry without its reason', report: { results: [], errors: [{ filename: './app.py' }] }, where: 'errors[0].reason' },
      { name: 'JSON null', report: null, where: '(the report)' },
    ],
  },
  {
    scanner: 'shellcheck',
    reportName: 'json1 report',
    adapter: () => shellcheck,
    file: 'run.sh',
    rule: 'shellcheck/SC2086',
    cases: [
      { name: 'a well-formed report', report: { comments: [SHELLCHECK_COMMENT] }, where: null },
      // `-f json` (not json1) prints the comments as a bare list: one level of nesting too few.
      { name: 'the comments as a bare list', report: [SHELLCHECK_COMMENT], where: '(the report)' },
      { name: 'comments null', report: { comments: null }, where: 'comments' },
      { name: 'a code as text', report: { comments: [{ ...SHELLCHECK_COMMENT, code: 'SC2086' }] }, where: 'comments[0].code' },
      { name: 'no message', report: { comments: [without(SHELLCHECK_COMMENT, 'message')] }, where: 'comments[0].message' },
      { name: 'an end line of 0', report: { comments: [{ ...SHELLCHECK_COMMENT, endLine: 0 }] }, where: 'comments[0].endLine' },
      { name: 'no file', report: { comments: [without(SHELLCHECK_COMMENT, 'file')] }, where: 'comments[0].file' },
    ],
  },
  {
    scanner: 'secretlint',
    reportName: 'JSON report',
    adapter: (dirs) => createSecretlintAdapter(dirs),
    file: 'config.js',
    rule: 'secretlint/github',
    cases: [
      { name: 'a well-formed report', report: [{ filePath: './config.js', messages: [SECRETLINT_MESSAGE] }], where: null },
      { name: 'the file list inside an object', report: { results: [{ filePath: './config.js', messages: [SECRETLINT_MESSAGE] }] }, where: '(the report)' },
      { name: 'no messages', report: [{ filePath: './config.js' }], where: '[0].messages' },
      { name: 'a range of three numbers', report: [{ filePath: './config.js', messages: [{ ...SECRETLINT_MESSAGE, range: [0, 1, 2] }] }], where: '[0].messages[0].range' },
      { name: 'a range as text', report: [{ filePath: './config.js', messages: [{ ...SECRETLINT_MESSAGE, range: '0-1' }] }], where: '[0].messages[0].range' },
      { name: 'a location without its line', report: [{ filePath: './config.js', messages: [{ ...SECRETLINT_MESSAGE, loc: { start: {}, end: { line: 1 } } }] }], where: '[0].messages[0].loc.start.line' },
      { name: 'no rule id', report: [{ filePath: './config.js', messages: [without(SECRETLINT_MESSAGE, 'ruleId')] }], where: '[0].messages[0].ruleId' },
    ],
  },
  {
    scanner: 'eslint',
    reportName: 'JSON report',
    adapter: (dirs) => createEslintAdapter(dirs),
    file: 'app.js',
    rule: 'eslint/security/detect-eval-with-expression',
    cases: [
      { name: 'a well-formed report', report: [{ filePath: './app.js', messages: [ESLINT_MESSAGE] }], where: null },
      { name: 'each file wrapped in a list', report: [[{ filePath: './app.js', messages: [ESLINT_MESSAGE] }]], where: '[0]' },
      { name: 'messages as an object', report: [{ filePath: './app.js', messages: { 0: ESLINT_MESSAGE } }], where: '[0].messages' },
      { name: 'a rule id as a number', report: [{ filePath: './app.js', messages: [{ ...ESLINT_MESSAGE, ruleId: 7 }] }], where: '[0].messages[0].ruleId' },
      { name: 'a severity as text', report: [{ filePath: './app.js', messages: [{ ...ESLINT_MESSAGE, severity: 'error' }] }], where: '[0].messages[0].severity' },
      { name: 'fatal as text', report: [{ filePath: './app.js', messages: [{ ...ESLINT_MESSAGE, fatal: 'yes' }] }], where: '[0].messages[0].fatal' },
      { name: 'no file path', report: [{ messages: [ESLINT_MESSAGE] }], where: '[0].filePath' },
    ],
  },
];

/** Run the adapter with a stand-in scanner that prints `report` as JSON and exits 1 ("found issues"). */
async function scanPrinting(subject: Subject, report: unknown): Promise<ScannerOutcome> {
  const fake = await fakeProgram(subject.scanner, `cat <<'REPORT'\n${JSON.stringify(report)}\nREPORT\nexit 1`);
  try {
    return await scan(subject.adapter([fake.dir]), { [subject.file]: 'x = 1\n' }, fake.env);
  } finally {
    await fake.remove();
  }
}

describe.each(SUBJECTS)('$scanner report schema', (subject) => {
  it.each(subject.cases)('$name', async ({ report, where }) => {
    const outcome = await scanPrinting(subject, report);
    if (where === null) {
      expect(outcome.status).toBe('ran');
      expect(outcome.findings.map((f) => [f.rule, f.path, f.line])).toEqual([[subject.rule, subject.file, 1]]);
      return;
    }
    expect(outcome.status).toBe('failed');
    expect(outcome.findings).toEqual([]);
    const prefix = `${subject.scanner} printed output that is not its ${subject.reportName} (exit code 1): ${where}: `;
    expect(outcome.detail.startsWith(prefix), outcome.detail).toBe(true);
    expect(outcome.detail.length).toBeGreaterThan(prefix.length);
    expect(outcome.detail).not.toContain('\n');
  });
});

describe('a scanner report of the wrong shape, through the CLI', () => {
  it('makes the review incomplete (exit 3) with the scanner failed and the mismatch named', async () => {
    const repo = makeRepo({ '.jscr.toml': '[scanners]\nenabled = ["bandit"]\n', 'app.py': 'x = 1\n' });
    const fake = await fakeProgram('bandit', `cat <<'REPORT'\n${JSON.stringify({ results: [{ ...BANDIT_RESULT, line_number: '1' }] })}\nREPORT\nexit 1`);
    try {
      repo.commit({ 'app.py': 'x = 2\n' });
      const result = await runJscr(['review', '--no-model', '--quiet', '--format', 'json', '--range', 'HEAD~1..HEAD'], repo.root, { PATH: fake.env.PATH });
      expect(result.code).toBe(3);
      const report = JSON.parse(result.stdout) as { complete: boolean; scanners: { name: string; status: string; detail: string }[] };
      expect(report.complete).toBe(false);
      expect(report.scanners).toContainEqual({
        name: 'bandit',
        status: 'failed',
        detail: expect.stringMatching(/^bandit printed output that is not its JSON report \(exit code 1\): results\[0\]\.line_number: /) as string,
      });
      expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
    } finally {
      await fake.remove();
      repo.cleanup();
    }
  }, 60_000);
});
