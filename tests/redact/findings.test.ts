import { describe, expect, it } from 'vitest';
import { detectSecrets } from '../../src/redact/detect.js';
import { SecretBook } from '../../src/redact/mask.js';
import { secretFindings } from '../../src/redact/index.js';
import { secretFindingsBySyntax } from '../../src/redact/literal-tree.js';
import { fingerprintV1 } from '../../src/report/fingerprint.js';
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
    expect(finding!.message).toContain('ghp_…[github-token, 40 chars; lowercase, uppercase, digits, symbols]');
    expect(finding!.extra?.['character_classes']).toEqual(['lowercase', 'uppercase', 'digits', 'symbols']);
    expect(finding!.fingerprint_v1).toBe(fingerprintV1('jscr/hardcoded-secret', 'app/client.py', finding!.evidence));
  });

  it('says the article a title takes: an AWS key, a GitHub token', () => {
    const [aws] = secretFindings([{ path: 'app/aws.py', text: `key_id = "${fakes.awsKeyId}"\n`, scanLines: 'all' }]);
    expect(aws!.message).toMatch(/^An AWS access key id \(/);
    const [github] = secretFindings([{ path: 'app/client.py', text, scanLines: 'all' }]);
    expect(github!.message).toMatch(/^A GitHub token \(/);
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


describe('secretFindings: a generic secret is a literal value, not code', () => {
  const found = (path: string, text: string) =>
    secretFindings([{ path, text, scanLines: 'all' }]).map((f) => [f.extra?.['secret_rule'], f.severity, f.confidence]);
  const ids = (path: string, text: string) => found(path, text).map(([id]) => id);

  it('does not report expressions, calls, property paths or ternary conditions in program source', () => {
    const cases: [string, string][] = [
      ['src/Controller/PermissionController.php', "$token = \\array_key_exists('token', $payload) ? $payload['token'] : null;\n"],
      ['services/site/mocks/cloudflare.ts', 'const token = match?.groups?.token?.trim()\n'],
      ['src/app/routes/auth/auth.service.ts', 'const password = input.user.password?.trim();\n'],
      ['app/components/signup-form.tsx', 'const password = generateStrongPassword2(24)\n'],
      ['app/api/client.ts', 'const apiKey = data.credentials.apiKey2024\n'],
      ['config/index.js', "  secret: NODE_ENV === 'production' ? process.env.SECRET : 'secret',\n"],
      ['lib/session.rb', 'secret_key = ENV.fetch(SESSION_SECRET_NAME2)\n'],
    ];
    for (const [path, text] of cases) expect(ids(path, text), path).toEqual([]);
  });

  it('does not read a YAML alias as a password', () => {
    expect(ids('config/packages/doctrine.yaml', 'password: *db-password\n')).toEqual([]);
    expect(ids('config/packages/doctrine.yaml', 'password: Hq8vT2nLp9zW\n')).toEqual(['generic-password']);
  });

  it('reports a real-looking literal assigned in code, an env-file value and a config value', () => {
    expect(found('src/db.ts', 'const password = "Qw7rT9pLx2";\n')).toEqual([['generic-password', 'high', 0.6]]);
    expect(ids('.env', 'DB_PASSWORD=Qw7rT9pLx2Zk\n')).toEqual(['generic-password']);
    expect(ids('deploy/app.properties', 'api.secret=Zq9xK2mW7pL4vR8t\n')).toEqual(['generic-secret']);
  });

  it('does not report a single-class value, and still masks it', () => {
    const book = new SecretBook();
    expect(secretFindings([{ path: 'config/app.yml', text: 'password: "postgresadmin"\n', scanLines: 'all' }], book)).toEqual([]);
    expect(book.mask('login with postgresadmin')).not.toContain('postgresadmin');
  });

  it('reports provider tokens inside any expression', () => {
    const token = fakes.githubClassic;
    expect(ids('src/client.ts', `const auth = process.env.GH_TOKEN ?? "${token}";\n`)).toEqual(['github-token']);
    expect(ids('src/client.ts', `const token = input.user.token?.trim() || '${token}'\n`)).toEqual(['github-token']);
  });
});

describe('secretFindings: throwaway CI service passwords', () => {
  const ids = (path: string, text: string) => secretFindings([{ path, text, scanLines: 'all' }]).map((f) => f.extra?.['secret_rule']);
  const workflow = [
    'jobs:',
    '  test:',
    '    services:',
    '      postgres:',
    '        env:',
    '          POSTGRES_PASSWORD: postgres',
    '    env:',
    '      run: PGPASSWORD="postgres" psql -h localhost -c "select 1"',
    '      MYSQL_ROOT_PASSWORD: root',
    '',
  ].join('\n');

  it('does not report a well-known default password in a workflow or a compose file', () => {
    expect(ids('.github/workflows/django-main.yml', workflow)).toEqual([]);
    expect(ids('docker-compose.test.yml', '      MYSQL_PASSWORD: mysql\n')).toEqual([]);
  });

  it('still reports a real-looking password in those files, and the same default elsewhere', () => {
    expect(ids('.github/workflows/ci.yml', '      POSTGRES_PASSWORD: Hq8vT2nLp9zW\n')).toEqual(['generic-password']);
    expect(ids('deploy/production.yml', 'POSTGRES_PASSWORD: "postgres1"\n')).toEqual(['generic-password']);
  });

  it('still masks the default value in output, like every value the detector finds', () => {
    const book = new SecretBook();
    secretFindings([{ path: '.github/workflows/ci.yml', text: workflow, scanLines: 'all' }], book);
    expect(book.mask('PGPASSWORD is postgres here')).not.toContain('postgres here');
  });
});

describe('secretFindings: translation catalogues', () => {
  const ids = (path: string, text: string) => secretFindings([{ path, text, scanLines: 'all' }]).map((f) => f.extra?.['secret_rule']);

  it('does not report the translated word of a password key in a locale file', () => {
    expect(ids('packages/i18n/src/locales/de/common.json', '{\n  "password": "Passwort",\n  "secret": "Geheimnis"\n}\n')).toEqual([]);
    expect(ids('src/main/resources/messages_de.properties', 'password=Kennwort\n')).toEqual([]);
    expect(ids('resources/lang/de/auth.php', "<?php return ['password' => 'Passwort'];\n")).toEqual([]);
  });

  it('still reports the same value outside a catalogue, and a provider key inside one', () => {
    expect(ids('config/common.json', '{\n  "password": "Passwort1"\n}\n')).toEqual(['generic-password']);
    expect(ids('locales/en.json', `{ "token": "${fakes.githubClassic}" }\n`)).toEqual(['github-token']);
  });
});

describe('secretFindings: examples in comments', () => {
  const found = (path: string, text: string) =>
    secretFindings([{ path, text, scanLines: 'all' }]).map((f) => [f.extra?.['secret_rule'], f.severity, f.confidence]);

  it('reports a literal shown in a comment at low severity and confidence', () => {
    expect(found('src/auth.ts', '// e.g. password = "Qw7rT9pLx2"\n')).toEqual([['generic-password', 'low', 0.3]]);
    expect(found('src/Model/AppConnectPayload.php', ' *   {"token": "Zq9xK2mW7pL4vR8tY3nB"}\n')).toEqual([['generic-token', 'low', 0.3]]);
    expect(found('app/settings.py', '# SECRET_KEY = "Zq9xK2mW7pL4vR8tY3nB"\n')).toEqual([['generic-secret', 'low', 0.3]]);
  });

  it('drops a placeholder in a comment, and keeps a provider key in a comment at full weight', () => {
    expect(found('src/auth.ts', '// e.g. password = "changeme123"\n')).toEqual([]);
    expect(found('src/auth.ts', `// token: ${fakes.githubClassic}\n`)).toEqual([['github-token', 'high', 0.95]]);
  });
});

describe('secretFindings: stand-in values spelled in words', () => {
  const found = (path: string, text: string) => secretFindings([{ path, text, scanLines: 'all' }]).map((f) => f.extra?.['secret_rule']);
  it('drops lowercase words naming what the value stands for, and keeps a real-looking value beside them', () => {
    expect(found('scripts/local-e2e.mjs', "const env = { R2_SECRET_ACCESS_KEY: 'r2-secret-key' };\n")).toEqual([]);
    expect(found('scripts/local-e2e.mjs', "const env = { CALLBACK_SECRET: 'call-kent-audio-secret' };\n")).toEqual([]);
    expect(found('scripts/local-e2e.mjs', "const env = { AUTH_TOKEN: 'cloudflare-ai-gateway-token' };\n")).toEqual([]);
    expect(found('scripts/local-e2e.mjs', "const env = { R2_SECRET_ACCESS_KEY: 'Zq9xK2mW7pL4vR8tY3nB' };\n")).not.toEqual([]);
    expect(found('scripts/local-e2e.mjs', "const env = { API_TOKEN: 'zq9xk2-mw7pl4-vr8ty3nb' };\n")).not.toEqual([]);
  });
});

describe('secretFindings: evidence', () => {
  it('clips the evidence of a secret on a huge line to a window around its mask', () => {
    const filler = 'x'.repeat(700_000);
    const text = `var a="${filler}";var c={token:"${fakes.githubClassic}"};var b="${filler}";\n`;
    const [finding] = secretFindings([{ path: 'public/app.js', text, scanLines: 'all' }]);
    expect(finding!.evidence).toContain('ghp_…[github-token, 40 chars]');
    expect(finding!.evidence.length).toBeLessThan(400);
  });
});

describe('detectSecrets: shapes that are only a length and an alphabet need their name', () => {
  it('does not read a 40-character identifier as an AWS secret access key', () => {
    const lines = [
      'export const draws = ["JSONSchema202012KeywordPatternProperties"];',
      '// laws and secrets: JSONSchema202012KeywordPatternProperties',
      'aws_region = "JSONSchema202012KeywordPatternProperties"',
    ];
    for (const line of lines) expect(detectSecrets(line).map((m) => m.rule), line).not.toContain('aws-secret-access-key');
  });

  it('still finds the key next to its name', () => {
    for (const line of [`aws_secret_access_key = ${fakes.awsSecret}`, `AWS_SECRET_ACCESS_KEY: "${fakes.awsSecret}"`, `"SecretAccessKey": "${fakes.awsSecret}"`, `aws.secret: ${fakes.awsSecret}`]) {
      expect(detectSecrets(line).map((m) => m.rule), line).toContain('aws-secret-access-key');
    }
  });
});

describe('secretFindingsBySyntax: the generic literal test by the syntax tree', () => {
  const VALUE = 'Xq7#mK2pLw9zR4tB';
  const found = async (path: string, text: string) => secretFindingsBySyntax([{ path, text, scanLines: 'all' }], new SecretBook());

  it('reports a generic value that is a string literal, in each parsed language', async () => {
    const files: [string, string][] = [
      ['src/config.ts', `export const password = "${VALUE}";\n`],
      ['app/settings.py', `SECRET_KEY = '${VALUE}'\n`],
      ['src/Config.php', `<?php\n$config = ['token' => '${VALUE}'];\n`],
      ['src/Main.java', `String apiKey = "${VALUE}";\n`],
      ['cmd/main.go', `var token = "${VALUE}"\n`],
    ];
    for (const [path, text] of files) {
      const findings = await found(path, text);
      expect(findings.map((f) => [f.rule, f.severity]), path).toEqual([['jscr/hardcoded-secret', 'high']]);
      expect(JSON.stringify(findings)).not.toContain(VALUE);
    }
  });

  it('does not report expressions, calls, property paths or holes, quoted or not', async () => {
    const files: [string, string][] = [
      ['src/auth.service.ts', 'const password = input.user.password?.trim();\n'],
      ['services/site/mocks/cloudflare.ts', 'const token = match?.groups?.token?.trim()\n'],
      ['src/Controller/PermissionController.php', "<?php\n$token = \\array_key_exists('token', $payload) ? $payload['token'] : null;\n"],
      // A template literal whose quoted-looking part is inside a hole: a call, not a value.
      ['src/client.ts', 'const header = `token="${readToken("Ab12Cd34Ef56Gh")}"`;\n'],
    ];
    for (const [path, text] of files) expect(await found(path, text), path).toEqual([]);
  });

  it('takes a quoted value compared in a ternary condition as code, the literal in a branch as a value', async () => {
    const text = `module.exports = { secret: NODE_ENV === 'Pr0duct1on#x' ? process.env.SECRET : '${VALUE}' };\n`;
    const findings = await found('config/index.js', text);
    expect(findings.map((f) => f.evidence)).toEqual([
      "module.exports = { secret: NODE_ENV === 'Pr0duct1on#x' ? process.env.SECRET : 'Xq7…[generic-secret, 16 chars]' };",
    ]);
  });

  it('reports a value in a trailing comment low, as an example', async () => {
    const [finding, ...rest] = await found('src/client.ts', `connect(); // password = "${VALUE}"\n`);
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ severity: 'low' });
  });

  it('keeps the quoting test where there is no grammar: an unquoted env value is a literal', async () => {
    const findings = await found('.env', `DB_PASSWORD=${VALUE}\n`);
    expect(findings).toHaveLength(1);
  });

  it('clips the evidence of a secret on a 1.4 MB one-line file', async () => {
    const text = `const a = [${'1,'.repeat(350_000)}]; const password = "${VALUE}"; const b = [${'2,'.repeat(350_000)}];\n`;
    expect(text.length).toBeGreaterThan(1_400_000);
    const [finding] = await found('public/app.ts', text);
    expect(finding!.evidence.length).toBeLessThan(400);
    expect(finding!.evidence).toContain('password = "');
  });
});
