import { describe, expect, it } from 'vitest';
import { fileKind, loadBuiltinRules, runRules, type RuleTarget } from '../../src/rules/engine.js';
import { languageForPath } from '../../src/syntax/languages.js';

const rules = await loadBuiltinRules();

function target(path: string, text: string, scanLines: RuleTarget['scanLines']): RuleTarget {
  return { path, language: languageForPath(path), kind: fileKind(path, text), text, scanLines };
}

describe('runRules', () => {
  const code = ['import subprocess', 'subprocess.run(f"ls {a}", shell=True)', 'x = 1', 'subprocess.run(f"ls {b}", shell=True)', 'r = requests.get(url, verify=False)', ''].join('\n');

  it('reports only on scanned lines, for pattern and query rules alike', async () => {
    const all = (await runRules({ files: [target('app/run.py', code, 'all')], rules })).findings;
    expect(all.map((f) => [f.rule, f.line])).toEqual([
      ['jscr/python-subprocess-shell-true', 2],
      ['jscr/python-subprocess-shell-true', 4],
      ['jscr/python-tls-verify-false', 5],
    ]);
    const some = (await runRules({ files: [target('app/run.py', code, new Set([4, 3]))], rules })).findings;
    expect(some.map((f) => [f.rule, f.line])).toEqual([['jscr/python-subprocess-shell-true', 4]]);
    expect((await runRules({ files: [target('app/run.py', code, new Set())], rules })).findings).toEqual([]);
  });

  it('fills in the finding from the rule, with the line as evidence', async () => {
    const [finding] = (await runRules({ files: [target('app/run.py', code, new Set([5]))], rules })).findings;
    expect(finding).toMatchObject({
      rule: 'jscr/python-tls-verify-false',
      source: 'rule',
      severity: 'high',
      cwe: 'CWE-295',
      path: 'app/run.py',
      line: 5,
      end_line: 5,
      evidence: 'r = requests.get(url, verify=False)',
    });
    expect(finding?.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(finding?.id).toBe(finding?.fingerprint.slice(0, 12));
  });

  it('keeps the fingerprint when the same code moves to another line', async () => {
    const moved = `# a new comment\n\n${code}`;
    const before = (await runRules({ files: [target('app/run.py', code, new Set([5]))], rules })).findings;
    const after = (await runRules({ files: [target('app/run.py', moved, new Set([7]))], rules })).findings;
    expect(after[0]?.line).toBe(7);
    expect(after[0]?.fingerprint).toBe(before[0]?.fingerprint);
  });

  it('counts lines as git does with CRLF endings, and trims trailing whitespace from evidence', async () => {
    const crlf = 'a = 1\r\nr = requests.get(url, verify=False)   \r\n';
    const [finding] = (await runRules({ files: [target('client.py', crlf, 'all')], rules })).findings;
    expect(finding?.line).toBe(2);
    expect(finding?.evidence).toBe('r = requests.get(url, verify=False)');
  });

  it('finds a pattern hidden far along a very long (minified) line', async () => {
    const long = `${'var a=1;'.repeat(5000)}agent=new https.Agent({rejectUnauthorized:false});\n`;
    const findings = (await runRules({ files: [target('dist/app.min.js', long, 'all')], rules })).findings;
    expect(findings.map((f) => f.rule)).toContain('jscr/js-tls-reject-unauthorized-false');
    expect(findings[0]?.evidence.length).toBeLessThanOrEqual(401);
  });

  it('skips files no rule applies to', async () => {
    expect((await runRules({ files: [target('notes.txt', 'verify=False\n', 'all')], rules })).findings).toEqual([]);
  });
});

describe('fileKind', () => {
  it.each([
    ['scripts/build.sh', '', 'shell'],
    ['tools/run', '#!/usr/bin/env bash\necho hi\n', 'shell'],
    ['tools/run', '#!/bin/sh\n', 'shell'],
    ['tools/run.py', '#!/usr/bin/env python3\n', null],
    ['Dockerfile', '', 'dockerfile'],
    ['services/api/Dockerfile.prod', '', 'dockerfile'],
    ['Containerfile', '', 'dockerfile'],
    ['images/api.dockerfile', '', 'dockerfile'],
    ['.github/workflows/ci.yml', '', 'github-actions'],
    ['.github/workflows/release.yaml', '', 'github-actions'],
    ['docs/.github/workflows/ci.yml', '', null],
    ['config.yml', '', null],
  ])('%s is %s', (path, text, kind) => {
    expect(fileKind(path, text)).toBe(kind);
  });
});
