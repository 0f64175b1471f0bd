/** Each external scanner for real: a positive and a negative case, on files written to a temp root. */
import { describe, expect, it } from 'vitest';
import { bandit } from '../../src/review/scanners/bandit.js';
import { eslint } from '../../src/review/scanners/eslint.js';
import { secretlint, SECRET_MARKER } from '../../src/review/scanners/secretlint.js';
import { shellcheck } from '../../src/review/scanners/shellcheck.js';
import type { ScannerOutcome } from '../../src/review/scanners/types.js';
import { fixture, realScannerTests, scan } from './harness.js';

const needs = realScannerTests(['bandit', 'shellcheck', 'eslint', 'secretlint']);

function ran(outcome: ScannerOutcome): Extract<ScannerOutcome, { status: 'ran' }> {
  if (outcome.status !== 'ran') throw new Error(`expected the scanner to run, got ${outcome.status}: ${outcome.detail}`);
  return outcome;
}

describe('bandit', () => {
  needs.bandit('reports shell=True with its rule id, line and source, even under # nosec', async () => {
    const outcome = ran(await scan(bandit, { 'svc/report.py': await fixture('bandit', 'shell-true-call.py') }));
    const b602 = outcome.findings.find((f) => f.rule === 'bandit/B602');
    expect(b602).toMatchObject({
      source: 'scanner:bandit',
      path: 'svc/report.py',
      line: 5,
      severity: 'high',
      evidence: '    return subprocess.call(user_command, shell=True)  # nosec',
    });
    expect(b602?.fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  needs.bandit('finds nothing in plain arithmetic', async () => {
    const outcome = ran(await scan(bandit, { 'pricing.py': await fixture('bandit', 'pure-arithmetic.py') }));
    expect(outcome.findings).toEqual([]);
  });

  needs.bandit('a file it could not parse makes the outcome partial, naming the file; the others are still scanned', async () => {
    const outcome = await scan(bandit, { 'broken.py': await fixture('bandit', 'syntax-error.py'), 'svc/report.py': await fixture('bandit', 'shell-true-call.py') });
    if (outcome.status !== 'partial') throw new Error(`expected partial, got ${outcome.status}: ${outcome.detail}`);
    expect(outcome.unanalysed.map((u) => u.path)).toEqual(['broken.py']);
    expect(outcome.detail).toContain('could not analyse 1 file(s): broken.py');
    expect(outcome.findings.map((f) => f.rule)).toContain('bandit/B602');
  });

  it('takes only Python files', () => {
    expect(bandit.filesFor(['a.py', 'b.js', 'c/PY.PY', 'd.pyc', 'py'])).toEqual(['a.py', 'c/PY.PY']);
  });
});

describe('shellcheck', () => {
  needs.shellcheck('reports an unquoted variable as SC2086 on its line', async () => {
    const outcome = ran(await scan(shellcheck, { 'scripts/clean.sh': await fixture('shellcheck', 'unquoted-variable-rm.sh') }));
    expect(outcome.findings).toHaveLength(1);
    expect(outcome.findings[0]).toMatchObject({
      rule: 'shellcheck/SC2086',
      source: 'scanner:shellcheck',
      path: 'scripts/clean.sh',
      line: 3,
      evidence: 'rm -rf $1/build',
    });
  });

  needs.shellcheck('finds nothing in the quoted version', async () => {
    const outcome = ran(await scan(shellcheck, { 'scripts/clean.sh': await fixture('shellcheck', 'quoted-variable-rm.sh') }));
    expect(outcome.findings).toEqual([]);
  });

  needs.shellcheck('ignores a .shellcheckrc in the scanned tree', async () => {
    const outcome = ran(
      await scan(shellcheck, {
        '.shellcheckrc': 'disable=SC2086\n',
        'clean.sh': await fixture('shellcheck', 'unquoted-variable-rm.sh'),
      }),
    );
    expect(outcome.findings.map((f) => f.rule)).toEqual(['shellcheck/SC2086']);
  });

  needs.shellcheck('scans a file whose name starts with a dash as a file', async () => {
    const outcome = ran(await scan(shellcheck, { '-x.sh': await fixture('shellcheck', 'unquoted-variable-rm.sh') }));
    expect(outcome.findings[0]?.path).toBe('-x.sh');
  });
});

describe('eslint with eslint-plugin-security', () => {
  needs.eslint('reports eval of request data, and an added eslint-disable comment does not hide it', async () => {
    const outcome = ran(await scan(eslint, { 'api/handler.js': await fixture('eslint', 'eval-request-body.js') }));
    expect(outcome.findings).toHaveLength(1);
    expect(outcome.findings[0]).toMatchObject({
      rule: 'eslint/security/detect-eval-with-expression',
      source: 'scanner:eslint',
      path: 'api/handler.js',
      line: 4,
      evidence: '  return eval(expression);',
    });
  });

  needs.eslint('reads JSX', async () => {
    const outcome = ran(await scan(eslint, { 'ui/Widget.jsx': await fixture('eslint', 'widget.jsx') }));
    expect(outcome.findings.map((f) => [f.rule, f.line])).toEqual([['eslint/security/detect-eval-with-expression', 1]]);
  });

  needs.eslint('finds nothing in a plain function, and ignores the repository own eslint config', async () => {
    const outcome = ran(
      await scan(eslint, {
        'eslint.config.mjs': 'throw new Error("the reviewed repository config must not load");\n',
        'pricing.js': await fixture('eslint', 'sum-prices.js'),
      }),
    );
    expect(outcome.findings).toEqual([]);
  });

  it('takes JavaScript files, not TypeScript', () => {
    expect(eslint.filesFor(['a.js', 'b.mjs', 'c.cjs', 'd.jsx', 'e.ts', 'f.tsx', 'g.py'])).toEqual(['a.js', 'b.mjs', 'c.cjs', 'd.jsx']);
  });
});

describe('secretlint', () => {
  // Built at run time so no token-shaped string is committed to the repository.
  const token = `ghp_${'wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO'}${'0pINUx'}`;

  needs.secretlint('reports a GitHub token without ever carrying its value', async () => {
    const source = `export const client = {\n  token: "${token}",\n};\n`;
    const outcome = ran(await scan(secretlint, { 'config/client.js': source }));
    expect(outcome.findings).toHaveLength(1);
    const [finding] = outcome.findings;
    expect(finding).toMatchObject({ rule: 'secretlint/github', source: 'scanner:secretlint', path: 'config/client.js', line: 2, cwe: 'CWE-798' });
    expect(finding?.evidence).toBe(`  token: "${SECRET_MARKER}",`);
    expect(JSON.stringify(outcome)).not.toContain(token);
    expect(JSON.stringify(outcome)).not.toContain(token.slice(4, 20));
  });

  needs.secretlint('finds nothing in settings read from the environment', async () => {
    const outcome = ran(await scan(secretlint, { 'settings.js': await fixture('secretlint', 'settings-from-env.js') }));
    expect(outcome.findings).toEqual([]);
  });
});
