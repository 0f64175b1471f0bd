/**
 * External scanners inside a real review: their findings are held to `review.scope` like the built-in
 * rules, and a file a scanner could not parse is not reviewed by it (status `partial`, exit 3).
 * Real git repositories, the real scanners (.ci/run installs them; JSCR_REQUIRE_SCANNERS=1 there).
 */
import { describe, expect } from 'vitest';
import { reposRemovedAfterEach, runJscr } from '../helpers/repo.js';
import { realScannerTests } from './harness.js';

const repo = reposRemovedAfterEach();
const needs = realScannerTests(['bandit', 'shellcheck', 'eslint']);

interface Report {
  findings: { rule: string; path: string; line: number; source: string; merged?: { rule: string; source: string; line: number }[] }[];
  scanners: { name: string; status: string; detail: string; not_analysed?: { path: string; reason: string }[] }[];
  complete: boolean;
  incomplete_reasons: string[];
  exit_code: number;
}

async function reviewHead(root: string, extraArgs: string[] = []): Promise<{ code: number; report: Report }> {
  const out = await runJscr(['review', '--commit', 'HEAD', '--no-model', '--format', 'json', ...extraArgs], { cwd: root });
  return { code: out.code, report: JSON.parse(out.stdout) as Report };
}

/** What the scanner reported, standing alone or merged into a jscr finding on its line. */
function scannerRules(report: Report, scanner: string): string[] {
  const all = report.findings.flatMap((f) => [f, ...(f.merged ?? []).map((m) => ({ ...m, path: f.path }))]);
  return all.filter((f) => f.source === `scanner:${scanner}`).map((f) => `${f.rule}@${f.path}:${f.line}`).sort();
}

const config = (scanner: string, scope = 'changed-lines'): string => `[scanners]\nenabled = ["${scanner}"]\n[review]\nscope = "${scope}"\n`;

// pickle and yaml loads bandit reports (B403, B301, B506): present before the change, never touched by it
const LOADERS_PY = ['import pickle', 'import yaml', '', '', 'def load(blob, text):', '    data = pickle.loads(blob)', '    return data, yaml.load(text)', ''].join('\n');
const APPENDED_PY = `${LOADERS_PY}\n\ndef run(cmd):\n    import subprocess\n    return subprocess.call(cmd, shell=True)\n`;

describe('scanner findings follow review.scope', () => {
  needs.bandit('bandit: appending a function reports only what is on the appended lines', async () => {
    const r = repo({ '.jscr.toml': config('bandit'), 'app/loaders.py': LOADERS_PY });
    r.commit({ 'app/loaders.py': APPENDED_PY });
    const { code, report } = await reviewHead(r.root);
    expect(report.scanners.find((s) => s.name === 'bandit')?.status).toBe('ran');
    const bandit = scannerRules(report, 'bandit');
    expect(bandit.some((f) => f.startsWith('bandit/B602@app/loaders.py:12'))).toBe(true);
    expect(bandit.filter((f) => /B301|B506|B403/.test(f))).toEqual([]);
    expect(report.scanners.find((s) => s.name === 'bandit')?.detail).toMatch(/outside the reviewed lines/);
    expect(code).toBe(1);
  });

  needs.bandit('bandit: with review.scope = "changed-files" the untouched lines of the changed file count too', async () => {
    const r = repo({ '.jscr.toml': config('bandit', 'changed-files'), 'app/loaders.py': LOADERS_PY });
    r.commit({ 'app/loaders.py': APPENDED_PY });
    const { report } = await reviewHead(r.root);
    const bandit = scannerRules(report, 'bandit').map((f) => f.split('@')[0]);
    expect(bandit).toEqual(expect.arrayContaining(['bandit/B301', 'bandit/B506', 'bandit/B602']));
  });

  needs.shellcheck('shellcheck: an unquoted variable on an untouched line is not reported; one on an added line is', async () => {
    const before = '#!/bin/sh\nrm -rf $1/build\n';
    const r = repo({ '.jscr.toml': config('shellcheck'), 'clean.sh': before });
    r.commit({ 'clean.sh': `${before}echo finished\ncp $2 /tmp/out\n` });
    const { report } = await reviewHead(r.root);
    expect(scannerRules(report, 'shellcheck')).toEqual(['shellcheck/SC2086@clean.sh:4']);
  });

  needs.eslint('eslint: an eval on an untouched line is not reported; one on an added line is', async () => {
    const before = 'function a(x) {\n  return eval(x);\n}\n';
    const r = repo({ '.jscr.toml': config('eslint'), 'lib/run.js': before });
    r.commit({ 'lib/run.js': `${before}\nfunction b(y) {\n  return eval(y + 1);\n}\n` });
    const { report } = await reviewHead(r.root);
    expect(scannerRules(report, 'eslint')).toEqual(['eslint/security/detect-eval-with-expression@lib/run.js:6']);
  });
});

describe('a file a scanner cannot parse is not reviewed by it', () => {
  const cases = [
    { scanner: 'bandit', test: needs.bandit, good: ['ok.py', 'def add(a, b):\n    return a + b\n'], bad: ['broken.py', 'def broken(:\n    pass\n'] },
    { scanner: 'shellcheck', test: needs.shellcheck, good: ['ok.sh', '#!/bin/sh\necho "$1"\n'], bad: ['broken.sh', '#!/bin/sh\nif [ "$1" = x ]; then\n  rm -rf "$1"\n'] },
    { scanner: 'eslint', test: needs.eslint, good: ['ok.js', 'export const add = (a, b) => a + b;\n'], bad: ['broken.js', 'function (x {\n  return eval(x);\n'] },
  ] as const;
  for (const { scanner, test, good, bad } of cases) {
    test(`${scanner}: status partial, the file listed, the review incomplete (exit 3)`, async () => {
      const r = repo({ '.jscr.toml': config(scanner) });
      r.commit({ [good[0]]: good[1], [bad[0]]: bad[1] });
      const { code, report } = await reviewHead(r.root);
      const record = report.scanners.find((s) => s.name === scanner);
      expect(record?.status).toBe('partial');
      expect(record?.not_analysed?.map((u) => u.path)).toEqual([bad[0]]);
      expect(record?.not_analysed?.[0]?.reason.length).toBeGreaterThan(0);
      expect(record?.detail).toContain(`could not analyse 1 file(s): ${bad[0]}`);
      expect(report.complete).toBe(false);
      expect(report.incomplete_reasons.join(' ')).toContain(bad[0]);
      expect(code).toBe(3);
      expect(report.exit_code).toBe(3);
      const text = await runJscr(['review', '--commit', 'HEAD', '--no-model'], { cwd: r.root });
      expect(text.stdout).toContain('Did not run, or ran in part:');
      expect(text.stdout).toContain(`scanner ${scanner}: partial (`);
      expect(text.stdout).toContain(' INCOMPLETE ');
    });
  }

  needs.shellcheck('shellcheck: a parse error that does not stop the analysis (a carriage return) leaves the file analysed', async () => {
    const r = repo({ '.jscr.toml': config('shellcheck') });
    r.commit({ 'crlf.sh': '#!/bin/sh\necho "$1"\r\necho done\n' });
    const { report } = await reviewHead(r.root);
    expect(report.scanners.find((s) => s.name === 'shellcheck')?.status).toBe('ran');
  });
});

describe('a scanner agreeing with a jscr rule', () => {
  needs.bandit('bandit B602 on the line of jscr\'s shell=True finding (both CWE-78) is merged into it and named', async () => {
    const r = repo({ '.jscr.toml': config('bandit'), 'app/run.py': 'import subprocess\n' });
    r.commit({ 'app/run.py': 'import subprocess\n\n\ndef run(name):\n    return subprocess.call("tar -czf " + name, shell=True)\n' });
    const out = await runJscr(['review', '--commit', 'HEAD', '--no-model', '--format', 'json'], { cwd: r.root });
    const report = JSON.parse(out.stdout) as { findings: { rule: string; line: number; merged?: { rule: string; source: string; line: number }[]; extra?: { also_reported_by?: { rule: string }[] } }[] };
    const onLine = report.findings.filter((f) => f.line === 5);
    expect(onLine.map((f) => f.rule)).toEqual(['jscr/python-subprocess-shell-true']);
    expect(onLine[0]?.merged).toEqual([expect.objectContaining({ rule: 'bandit/B602', source: 'scanner:bandit', line: 5 })]);
    expect(onLine[0]?.extra?.also_reported_by?.map((a) => a.rule)).toEqual(['bandit/B602']);
    const text = await runJscr(['review', '--commit', 'HEAD', '--no-model'], { cwd: r.root });
    expect(text.stdout).toMatch(/duplicates? merged: .*bandit\/B602 \(scanner:bandit, line 5\) into jscr\/python-subprocess-shell-true at app\/run\.py:5/);
  });
});
