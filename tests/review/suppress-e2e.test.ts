/**
 * Suppressions end to end: matched by fingerprint (so they survive the code moving), refused when the
 * reviewed change adds them, honoured only until they expire, and listed when unused.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { makeRepo, runJscr, type TestRepo } from '../helpers/repo.js';
import { validateJsonSchema } from '../report/json-schema.js';

const repos: TestRepo[] = [];
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup();
});

interface Report {
  findings: { rule: string; path: string; line: number; fingerprint: string }[];
  suppressed: { rule: string; fingerprint: string; by: string }[];
  unused_suppressions: { entry: string; reason: string }[];
  exit_code: number;
}

async function review(r: TestRepo, range = 'HEAD~1..HEAD'): Promise<Report> {
  const out = await runJscr(['review', '--range', range, '--format', 'json'], { cwd: r.root });
  return JSON.parse(out.stdout) as Report;
}

const RISKY = 'import subprocess\nsubprocess.run(cmd, shell=True)\n';

describe('suppressions', () => {
  it('a [[suppress]] entry matches by fingerprint, and still matches after the line moves', async () => {
    const r = makeRepo({ 'calc.py': 'x = 1\n' });
    repos.push(r);
    r.commit({ 'tool.py': RISKY });
    const first = (await review(r)).findings.find((f) => f.path === 'tool.py');
    expect(first).toBeDefined();
    const fp = (first as { fingerprint: string }).fingerprint;
    // The suppression lands in the base; then the code moves down three lines.
    r.commit({ '.jscr.toml': `[[suppress]]\nrule = "jscr/python-subprocess-shell-true"\nfingerprint = "${fp}"\nreason = "runs only in the build container"\n` });
    // The risky line is rewritten with other spacing: the evidence, whitespace folded, is the same.
    r.commit({ 'tool.py': `# build helper\n\n\nimport subprocess\nsubprocess.run(cmd,   shell=True)\n` });
    const moved = await review(r, 'HEAD~1..HEAD');
    expect(moved.findings.filter((f) => f.path === 'tool.py')).toEqual([]);
    expect(moved.suppressed.map((s) => s.fingerprint)).toContain(fp);
  });

  it('an entry the reviewed change adds to .jscr.toml is reported and not honoured', async () => {
    const r = makeRepo({ 'calc.py': 'x = 1\n' });
    repos.push(r);
    r.commit({
      'tool.py': RISKY,
      '.jscr.toml': '[[suppress]]\nrule = "jscr/python-subprocess-shell-true"\nreason = "trust me"\n',
    });
    const report = await review(r);
    expect(report.findings.some((f) => f.path === 'tool.py' && f.rule === 'jscr/python-subprocess-shell-true')).toBe(true);
    expect(report.findings.some((f) => f.rule === 'jscr/review-config-changed')).toBe(true);
    expect(report.exit_code).toBe(1);
  });

  it('an inline jscr-ignore added by the change is reported and not honoured', async () => {
    const r = makeRepo({ 'calc.py': 'x = 1\n' });
    repos.push(r);
    r.commit({ 'tool.py': 'import subprocess\n# jscr-ignore: jscr/python-subprocess-shell-true reviewed\nsubprocess.run(cmd, shell=True)\n' });
    const rules = (await review(r)).findings.map((f) => f.rule);
    expect(rules).toContain('jscr/python-subprocess-shell-true');
    expect(rules).toContain('jscr/suppression-added-by-change');
  });

  it('an expired entry is not honoured, and unused entries are listed', async () => {
    const r = makeRepo({
      'calc.py': 'x = 1\n',
      '.jscr.toml': [
        '[[suppress]]',
        'rule = "jscr/python-subprocess-shell-true"',
        'reason = "temporary"',
        'expires = 2020-01-01',
        '[[suppress]]',
        'rule = "jscr/js-eval-dynamic"',
        'reason = "never matches here"',
        '',
      ].join('\n'),
    });
    repos.push(r);
    r.commit({ 'tool.py': RISKY });
    const report = await review(r);
    expect(report.findings.some((f) => f.rule === 'jscr/python-subprocess-shell-true')).toBe(true);
    expect(report.unused_suppressions.map((u) => u.reason).sort()).toEqual(['expired', 'unused']);
  });
});

describe('SARIF from the CLI', () => {
  it('validates against the SARIF 2.1.0 schema', async () => {
    const r = makeRepo({ 'calc.py': 'x = 1\n' });
    repos.push(r);
    r.commit({ 'tool.py': RISKY, 'web.js': 'el.innerHTML = req.query.html;\n' });
    const out = await runJscr(['review', '--range', 'HEAD~1..HEAD', '--format', 'sarif'], { cwd: r.root });
    expect(out.code).toBe(1);
    const schema = JSON.parse(readFileSync(new URL('../data/sarif-2.1.0.json', import.meta.url), 'utf8'));
    const sarif = JSON.parse(out.stdout);
    expect(validateJsonSchema(schema, sarif)).toEqual([]);
    expect(sarif.runs[0].results.length).toBeGreaterThanOrEqual(2);
    expect(sarif.runs[0].results[0].partialFingerprints).toBeDefined();
  });
});
