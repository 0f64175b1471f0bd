import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { maskError, maskReport, redact, RedactionCounter, scanSecrets, SecretBook, secretFindings } from '../../src/redact/index.js';
import { redactionStep } from '../../src/review/steps/redaction.js';
import { body, fakes, pem } from './fakes.js';

/** A 27-line PEM key body, as in the attack: 64-character lines. */
const keyLines = Array.from({ length: 27 }, (_, i) => body(64, 100 + i));
const keyFile = `# deploy key\nKEY = """\n${pem('RSA ', keyLines)}\n"""\n`;

describe('SecretBook: a value found anywhere is masked everywhere', () => {
  it('masks a remembered value in text from another rule, another file or a message', () => {
    const book = new SecretBook();
    book.scan('a.py', `password = "Qw7kZp29xT"\n`);
    const masked = book.mask('connect(user, "Qw7kZp29xT") failed');
    expect(masked).not.toContain('Qw7kZp29xT');
    expect(masked).toContain('[generic-password, 10 chars]');
  });

  it('masks each line of a multi-line value on its own, without the BEGIN and END lines', () => {
    const book = new SecretBook();
    book.scan('deploy.py', keyFile);
    const middle = `${keyLines[13]}\n${keyLines[14]}`;
    const masked = book.mask(middle);
    for (const line of keyLines) expect(masked).not.toContain(line);
    expect(masked.split('\n')).toHaveLength(2);
  });

  it('masks a value cut by an evidence window or a length limit', () => {
    const book = new SecretBook();
    book.scan('c.js', `const t = "${fakes.githubClassic}";\n`);
    const tail = fakes.githubClassic.slice(20);
    const head = fakes.githubClassic.slice(0, 14);
    expect(book.mask(`…${tail}"; run()`)).not.toContain(tail);
    expect(book.mask(`scanner crashed: ${head}`)).not.toContain(head);
  });

  it('masks secret shapes in text from a file it never scanned (defence in depth)', () => {
    const book = new SecretBook();
    const shapes = [fakes.githubClassic, fakes.awsKeyId, fakes.slackBot, fakes.jwt, ...fakes.pemBody];
    const text = `a ${fakes.githubClassic} b ${fakes.awsKeyId} c ${fakes.slackBot} d ${fakes.jwt}\n${pem('', fakes.pemBody)}`;
    const masked = book.mask(text);
    for (const secret of shapes) expect(masked).not.toContain(secret);
    expect(masked).toContain('-----BEGIN PRIVATE KEY-----');
  });

  it('shows rule, length and a short prefix; a short value gets a shorter prefix', () => {
    const book = new SecretBook();
    expect(book.mask(`x ${fakes.githubClassic}`)).toBe('x ghp_…[github-token, 40 chars]');
    book.learn({ rule: 'secretlint-basicauth', value: 'Zx9wq7' });
    expect(book.mask('auth Zx9wq7')).toBe('auth Z…[secretlint-basicauth, 6 chars]');
  });

  it('is idempotent: masked text masks to itself', () => {
    const book = new SecretBook();
    book.scan('a.py', `password = "Qw7kZp29xT"\ntoken = "${fakes.githubClassic}"\n`);
    const once = book.mask(`password = "Qw7kZp29xT" and ${fakes.githubClassic} and ${fakes.jwt}`);
    expect(book.mask(once)).toBe(once);
  });

  it('matches a short value only as a whole word, so it never eats part of a hash', () => {
    const book = new SecretBook();
    book.learn({ rule: 'generic-password', value: 'ab12' });
    expect(book.mask('fingerprint 9ab12f00')).toBe('fingerprint 9ab12f00');
    expect(book.mask('login ab12 now')).not.toContain('ab12');
  });

  it('knows values handed in by a scanner', () => {
    const book = new SecretBook();
    book.learn({ rule: 'secretlint-privatekey', value: 'plainword-but-secret-2024' });
    expect(book.mask('x = plainword-but-secret-2024')).not.toContain('plainword-but-secret-2024');
  });

  it('masks a text shown before with a value learned since (a scanner reports after the first masking)', () => {
    const book = new SecretBook();
    const line = 'retry with plainword-but-secret-2024 later';
    expect(book.mask(line)).toBe(line);
    book.learn({ rule: 'secretlint-privatekey', value: 'plainword-but-secret-2024' });
    expect(book.mask(line)).not.toContain('plainword-but-secret-2024');
    const call = 'connect(user, "Zq8vLm31Rt") failed';
    expect(book.mask(call)).toBe(call);
    book.scan('later.py', 'password = "Zq8vLm31Rt"\n');
    expect(book.mask(call)).not.toContain('Zq8vLm31Rt');
  });
});

describe('maskReport: the one pass over a report', () => {
  it('masks every string at any depth, including fields added later, but not vocabulary fields', () => {
    const book = new SecretBook();
    book.scan('a.py', `password = "failed"\n`);
    const report = {
      steps: [{ name: 'scanners', status: 'failed', detail: `bandit crashed: ${fakes.githubClassic}` }],
      findings: [{ evidence: `os.system("curl -H 'Authorization: token ${fakes.githubClassic}' " + x)`, extra: { deep: [{ later: fakes.npm }] } }],
      some_new_field: `login failed`,
    };
    const masked = maskReport(report, book);
    const json = JSON.stringify(masked);
    expect(json).not.toContain(fakes.githubClassic);
    expect(json).not.toContain(fakes.npm);
    expect(masked.steps[0]?.status).toBe('failed');
    expect(masked.some_new_field).not.toContain('failed');
  });

  it('clips every finding\'s evidence, whatever made it, and keeps its fingerprint', () => {
    const long = `x = [${'7,'.repeat(700_000)}] # ${fakes.githubClassic}`;
    const report = {
      findings: [
        { source: 'scanner', fingerprint: 'f1', evidence: long },
        { source: 'model', fingerprint: 'f2', evidence: Array.from({ length: 60 }, (_, i) => `line ${i}`).join('\n') },
        { source: 'rule', fingerprint: 'f3', evidence: 'short' },
      ],
    };
    const masked = maskReport(report, new SecretBook());
    expect(long.length).toBeGreaterThan(1_400_000);
    expect(masked.findings[0]!.evidence.length).toBeLessThanOrEqual(401);
    expect(masked.findings[0]!.evidence.endsWith('…')).toBe(true);
    expect(masked.findings[0]!.fingerprint).toBe('f1');
    expect(masked.findings[1]!.evidence.split('\n')).toHaveLength(21);
    expect(masked.findings[1]!.evidence).toContain('… (40 more lines)');
    expect(masked.findings[2]!.evidence).toBe('short');
    expect(JSON.stringify(masked).length).toBeLessThan(2_000);
  });

  it('masks an error message in place, keeping its class', () => {
    const error = maskError(new InputError(`bad revision '${fakes.githubClassic}..HEAD'`));
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).not.toContain(fakes.githubClassic);
  });
});

describe('redaction with whole-file knowledge', () => {
  it('masks a segment holding only body lines 14-15 of a key, which the detector alone cannot see', () => {
    const segment = `${keyLines[13]}\n${keyLines[14]}`;
    expect(redact(segment).values).toBe(0); // no BEGIN/END: the segment alone holds no detectable secret
    const book = new SecretBook();
    book.scan('deploy.py', keyFile);
    const result = redact(segment, new RedactionCounter(), book);
    expect(result.text).toBe('[REDACTED:private-key#1]\n[REDACTED:private-key#2]');
  });

  it('keeps the +/-/space mark of a diff line and replaces what follows', () => {
    const book = new SecretBook();
    book.scan('deploy.py', keyFile);
    const hunk = `@@ -14,2 +14,2 @@\n-${keyLines[13]}\n+${keyLines[14]}\n ${keyLines[15]}`;
    const result = redact(hunk, new RedactionCounter(), book, { lineMarks: true });
    expect(result.text.split('\n').map((line) => line.slice(0, 1))).toEqual(['@', '-', '+', ' ']);
    for (const line of keyLines) expect(result.text).not.toContain(line);
  });

  it('the redaction step detects on whole files first, then masks each segment', () => {
    const outcome = redactionStep({
      material: [{ path: 'deploy.py', text: `@@ -16,2 +16,2 @@\n-${keyLines[13]}\n+${keyLines[14]}`, kind: 'hunk' }],
      files: [{ path: 'deploy.py', text: keyFile }],
      blockOnSecret: false,
      modelConfigured: true,
    });
    const sent = outcome.material?.[0]?.text ?? '';
    for (const line of keyLines) expect(sent).not.toContain(line);
    expect(outcome.secretsFound).toBeGreaterThan(0);
    expect(outcome.withheld).toEqual([]);
  });
});

describe('bounded detection on crafted files (the finding is still produced)', () => {
  const SIZE = 2 * 1024 * 1024;
  const repeat = (unit: string): string => unit.repeat(Math.ceil(SIZE / unit.length));

  it.each([
    ['a 2 MB line of password=Xy9', repeat('password=Xy9'), 'generic-password'],
    ['2 MB of BEGIN PRIVATE KEY headers', repeat('-----BEGIN PRIVATE KEY-----A'), 'private-key'],
    ['2 MB of whole PEM blocks', repeat(`${pem('', fakes.pemBody)}\n`), 'private-key'],
  ])('%s: reports findings, stops at the cap and says so', (_name, text, rule) => {
    const book = new SecretBook();
    const findings = secretFindings([{ path: 'big.txt', text, scanLines: 'all' }], book);
    expect(findings.length).toBe(book.rules.maxMatchesPerFile);
    expect(findings.every((f) => f.extra?.['secret_rule'] === rule)).toBe(true);
    expect(book.limitsReached()).toEqual([expect.stringContaining('secrets.max_matches_per_file')]);
    // Evidence is a window, not the 2 MB line, and the cost stays per finding.
    expect(Math.max(...findings.map((f) => f.evidence.length))).toBeLessThan(500);
  });

  it('an unterminated key block is still a secret, however long its body', () => {
    const lines = Array.from({ length: 400 }, (_, i) => body(64, 500 + i));
    const text = `-----BEGIN PRIVATE KEY-----\n${lines.join('\n')}\n`;
    const [match, ...rest] = scanSecrets(text).matches;
    expect(rest).toEqual([]);
    expect(match?.rule).toBe('private-key');
    const book = new SecretBook();
    book.scan('k.pem', text);
    const masked = book.mask(lines.slice(300, 302).join('\n'));
    for (const line of lines) expect(masked).not.toContain(line);
  });

  it('a file past the cap is withheld from the model, never sent half-masked', () => {
    const text = Array.from({ length: 400 }, (_, i) => `password = "Qw${i.toString(36)}x9Zk"`).join('\n');
    const outcome = redactionStep({ material: [{ path: 'p.env', text }], files: [{ path: 'p.env', text }], blockOnSecret: false, modelConfigured: true });
    expect(outcome.withheld).toEqual(['p.env']);
    expect(outcome.material?.[0]?.text).not.toMatch(/Qw/);
    expect(outcome.material?.[0]?.text.split('\n')).toHaveLength(400);
    expect(outcome.secretsFound).toBe(200);
    const blocking = redactionStep({ material: [{ path: 'p.env', text }], files: [{ path: 'p.env', text }], blockOnSecret: true, modelConfigured: true });
    expect(blocking.blocked).toBe(true);
  });
});
