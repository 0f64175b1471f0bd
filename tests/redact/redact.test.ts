import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectSecrets, redact, RedactionCounter } from '../../src/redact/index.js';
import { fakes, pem } from './fakes.js';

describe('redact', () => {
  it('replaces the value and keeps the identifier around it', () => {
    const result = redact('password = "hunter2xyz"\nconst t = process.env.GITHUB_TOKEN;\n');
    expect(result.text).toBe('password = "[REDACTED:generic-password#1]"\nconst t = process.env.GITHUB_TOKEN;\n');
    expect(result.replacements).toEqual([{ rule: 'generic-password', marker: '[REDACTED:generic-password#1]', line: 1 }]);
    expect(result.values).toBe(1);
  });

  it('numbers markers across files when the counter is shared', () => {
    const counter = new RedactionCounter();
    const first = redact(`a = "${fakes.githubClassic}"\nb = "${fakes.npm}"\n`, counter);
    const second = redact(`key: ${fakes.stripeLive}\n`, counter);
    expect(first.replacements.map((r) => r.marker)).toEqual(['[REDACTED:github-token#1]', '[REDACTED:npm-token#2]']);
    expect(second.text).toBe('key: [REDACTED:stripe-live-key#3]\n');
    expect(counter.total).toBe(3);
  });

  it('keeps line structure for a private key: one marker per body line, headers visible', () => {
    const text = `const key = \`\n${pem('EC ', fakes.pemBody)}\n\`;\nuse(key);\n`;
    const result = redact(text);
    expect(result.joinedLines).toBe(false);
    expect(result.text.split('\n')).toHaveLength(text.split('\n').length);
    expect(result.text).toBe(
      'const key = `\n-----BEGIN EC PRIVATE KEY-----\n[REDACTED:private-key#1]\n[REDACTED:private-key#2]\n' +
        '[REDACTED:private-key#3]\n-----END EC PRIVATE KEY-----\n`;\nuse(key);\n',
    );
    expect(result.replacements.map((r) => r.line)).toEqual([3, 4, 5]);
    expect(result.values).toBe(1);
  });

  it('keeps the indentation of an indented key body (YAML block scalar)', () => {
    const text = `tls:\n  key: |\n    ${pem('', fakes.pemBody).split('\n').join('\n    ')}\n`;
    const lines = redact(text).text.split('\n');
    expect(lines[3]).toBe('    [REDACTED:private-key#1]');
    expect(lines[4]).toBe('    [REDACTED:private-key#2]');
  });

  it('returns text without secrets unchanged', () => {
    const text = 'const token = process.env.TOKEN;\npassword = "<password>"\n';
    expect(redact(text)).toEqual({ text, replacements: [], values: 0, joinedLines: false });
  });

  it('property: redaction keeps the line count and leaves no detected value behind', () => {
    const secrets = [fakes.githubClassic, fakes.awsKeyId, fakes.jwt, fakes.anthropic, 'hunter2xyz'];
    const filler = fc.constantFrom('x = 1', '', '// comment', '  return y;', 'password = os.environ["P"]', 'ü ß İ');
    const line = fc.oneof(
      filler,
      fc.constantFrom(...secrets).map((secret) => `password = "${secret}"`),
      // Provider tokens are recognised by shape alone; a plain word needs a password-like name.
      fc.constantFrom(...secrets.slice(0, 4)).map((secret) => `auth(${JSON.stringify(secret)})`),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), fc.constantFrom('\n', '\r\n'), (lines, eol) => {
        const text = lines.join(eol);
        const result = redact(text);
        expect(result.text.split('\n')).toHaveLength(text.split('\n').length);
        expect(detectSecrets(result.text)).toEqual([]);
        for (const secret of secrets) expect(result.text).not.toContain(secret);
      }),
      { numRuns: 300 },
    );
  });
});
