import { describe, expect, it } from 'vitest';
import { secretFindings } from '../../src/redact/index.js';
import { fingerprint } from '../../src/report/fingerprint.js';
import { fakes, pem } from './fakes.js';

describe('secretFindings', () => {
  const text = `import os\nclient = Client(token="${fakes.githubClassic}", region="eu")\n`;

  it('reports a secret on a scanned line without ever carrying the value', () => {
    const [finding, ...rest] = secretFindings([{ path: 'app/client.py', text, scanLines: new Set([2]) }]);
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({
      rule: 'jscr/hardcoded-secret',
      source: 'rule',
      severity: 'high',
      cwe: 'CWE-798',
      path: 'app/client.py',
      line: 2,
      end_line: 2,
      evidence: 'client = Client(token="ghp_…[github-token, 40 chars]", region="eu")',
    });
    expect(JSON.stringify(finding)).not.toContain(fakes.githubClassic);
    expect(JSON.stringify(finding)).not.toContain(fakes.githubClassic.slice(4, 20));
    expect(finding!.message).toContain('ghp_…[github-token, 40 chars]');
    expect(finding!.fingerprint).toBe(fingerprint('jscr/hardcoded-secret', 'app/client.py', finding!.evidence));
  });

  it('keeps the fingerprint when the line moves', () => {
    const moved = `import os\n\n\n${text.split('\n')[1]}\n`;
    const [before] = secretFindings([{ path: 'a.py', text, scanLines: 'all' }]);
    const [after] = secretFindings([{ path: 'a.py', text: moved, scanLines: 'all' }]);
    expect(after!.line).toBe(4);
    expect(after!.fingerprint).toBe(before!.fingerprint);
  });

  it('skips secrets outside the scanned lines', () => {
    expect(secretFindings([{ path: 'a.py', text, scanLines: new Set([1]) }])).toEqual([]);
  });

  it('marks private keys and cloud keys critical, and masks every secret on the evidence line', () => {
    const keyText = `${pem('RSA ', fakes.pemBody)}\nids = ["${fakes.awsKeyId}", "${fakes.npm}"]\n`;
    const findings = secretFindings([{ path: 'deploy/key.pem', text: keyText, scanLines: 'all' }]);
    expect(findings.map((f) => [f.severity, f.line, f.end_line])).toEqual([
      ['critical', 2, 4],
      ['critical', 6, 6],
      ['high', 6, 6],
    ]);
    expect(findings[1]!.evidence).toBe('ids = ["AKIA…[aws-access-key-id, 20 chars]", "npm_…[npm-token, 40 chars]"]');
    for (const secret of [...fakes.pemBody, fakes.awsKeyId, fakes.npm]) expect(JSON.stringify(findings)).not.toContain(secret);
  });

  it('reports a multi-line key when any of its lines is in scope', () => {
    const keyText = pem('', fakes.pemBody);
    expect(secretFindings([{ path: 'k.pem', text: keyText, scanLines: new Set([3]) }])).toHaveLength(1);
  });
});

describe('secretFindings: where a generic match is a finding', () => {
  const literal = 'password = "Qw7rT9pLx2"\n';
  const onlyLine = (path: string, text: string) => secretFindings([{ path, text, scanLines: 'all' }]).map((f) => f.extra?.['secret_rule']);

  it('reports an assignment-shaped secret in program source', () => {
    expect(onlyLine('app/settings.py', literal)).toEqual(['generic-password']);
  });

  it('does not report assignment-shaped values in tests, docs and examples', () => {
    for (const path of ['tests/test_login.py', 'src/test/java/a/LoginTest.java', 'web/auth.spec.ts', 'README.md', 'docs/setup.rst', '.env.example']) {
      expect(onlyLine(path, literal), path).toEqual([]);
    }
  });

  it('still reports provider-shaped keys in tests and docs', () => {
    const text = `token = "${fakes.githubClassic}"\n`;
    expect(onlyLine('tests/test_client.py', text)).toEqual(['github-token']);
    expect(onlyLine('README.md', text)).toEqual(['github-token']);
  });

  it('treats an unquoted identifier as a variable in source code, but as a literal in config files', () => {
    const text = 'password = password1\n';
    expect(onlyLine('server/auth/__main__.py', text)).toEqual([]);
    expect(onlyLine('deploy/app.properties', text)).toEqual(['generic-password']);
  });
});

