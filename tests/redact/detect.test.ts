import { describe, expect, it } from 'vitest';
import { detectSecrets, shannonEntropy } from '../../src/redact/index.js';
import { fakes, pem } from './fakes.js';
import fc from 'fast-check';
import { asciiTable, keywordLinesOf, lineStarts, wholeRuns } from '../../src/redact/detect.js';
import { builtInSecretRules } from '../../src/redact/rules.js';

/** A line of code and the one secret rule expected to fire on it, with the value it must cover. */
interface Positive {
  name: string;
  code: string;
  rule: string;
  value: string;
}

const f = fakes;
const positives: Positive[] = [
  { name: 'AWS access key id in JS', code: `const id = "${f.awsKeyId}";`, rule: 'aws-access-key-id', value: f.awsKeyId },
  { name: 'AWS session key id in env', code: `AWS_ACCESS_KEY_ID=${f.awsSessionKeyId}`, rule: 'aws-access-key-id', value: f.awsSessionKeyId },
  { name: 'AWS secret near aws', code: `aws_secret_access_key = ${f.awsSecret}`, rule: 'aws-secret-access-key', value: f.awsSecret },
  { name: 'AWS secret in YAML', code: `  AWS_SECRET_ACCESS_KEY: "${f.awsSecret}"`, rule: 'aws-secret-access-key', value: f.awsSecret },
  { name: 'GitHub classic PAT', code: `token: ${f.githubClassic}`, rule: 'github-token', value: f.githubClassic },
  { name: 'GitHub OAuth token', code: `auth("${f.githubOauth}")`, rule: 'github-token', value: f.githubOauth },
  { name: 'GitHub user-to-server token', code: `x = '${f.githubUser}'`, rule: 'github-token', value: f.githubUser },
  { name: 'GitHub server-to-server token', code: `x = '${f.githubServer}'`, rule: 'github-token', value: f.githubServer },
  { name: 'GitHub refresh token', code: `x = '${f.githubRefresh}'`, rule: 'github-token', value: f.githubRefresh },
  { name: 'GitHub fine-grained PAT', code: `GH=${f.githubFineGrained}`, rule: 'github-token', value: f.githubFineGrained },
  { name: 'GitLab PAT', code: `private_token = "${f.gitlab}"`, rule: 'gitlab-token', value: f.gitlab },
  { name: 'Slack bot token', code: `SLACK_BOT=${f.slackBot}`, rule: 'slack-token', value: f.slackBot },
  {
    name: 'Slack webhook',
    code: `url = "https://hooks.slack.com/services/${f.slackWebhookPath}"`,
    rule: 'slack-webhook',
    value: f.slackWebhookPath,
  },
  { name: 'Stripe live secret key', code: `Stripe.apiKey = "${f.stripeLive}";`, rule: 'stripe-live-key', value: f.stripeLive },
  { name: 'Stripe restricted key', code: `key: ${f.stripeRestricted}`, rule: 'stripe-live-key', value: f.stripeRestricted },
  { name: 'Google API key', code: `const maps = "${f.googleApiKey}"`, rule: 'google-api-key', value: f.googleApiKey },
  {
    name: 'Azure storage connection string',
    code: `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${f.azureAccountKey};EndpointSuffix=core.windows.net`,
    rule: 'azure-storage-account-key',
    value: f.azureAccountKey,
  },
  {
    name: 'Azure client secret in context',
    code: `AZURE_CLIENT_SECRET=${f.azureClientSecret}`,
    rule: 'azure-client-secret',
    value: f.azureClientSecret,
  },
  { name: 'npm token in .npmrc', code: `//registry.npmjs.org/:_authToken=${f.npm}`, rule: 'npm-token', value: f.npm },
  { name: 'PyPI token', code: `password = ${f.pypi}`, rule: 'pypi-token', value: f.pypi },
  { name: 'OpenAI legacy key', code: `openai.api_key = "${f.openaiLegacy}"`, rule: 'openai-api-key', value: f.openaiLegacy },
  { name: 'OpenAI project key', code: `OPENAI_API_KEY=${f.openaiProject}`, rule: 'openai-api-key', value: f.openaiProject },
  { name: 'Anthropic key', code: `client = Anthropic(api_key="${f.anthropic}")`, rule: 'anthropic-api-key', value: f.anthropic },
  { name: 'JWT', code: `Authorization: Bearer ${f.jwt}`, rule: 'jwt', value: f.jwt },
  { name: 'postgres URL', code: `DATABASE_URL=postgres://app:Tr0ub4dor3x@db.internal:5432/app`, rule: 'database-url-password', value: 'Tr0ub4dor3x' },
  { name: 'mysql URL', code: `url = "mysql://root:s3cr3tPw9@127.0.0.1/shop"`, rule: 'database-url-password', value: 's3cr3tPw9' },
  {
    name: 'mongodb+srv URL',
    code: `MONGO="mongodb+srv://svc:Zk29fLq7vX@cluster0.mongodb.net/db"`,
    rule: 'database-url-password',
    value: 'Zk29fLq7vX',
  },
  { name: 'redis URL', code: `REDIS_URL=redis://default:q8Wn3zRt5y@cache:6379`, rule: 'database-url-password', value: 'q8Wn3zRt5y' },
  { name: 'password assignment', code: `password = "hunter2xyz"`, rule: 'generic-password', value: 'hunter2xyz' },
  { name: 'typed password assignment', code: `db_password: str = "Qw7!rT9#pL"`, rule: 'generic-password', value: 'Qw7!rT9#pL' },
  { name: 'JSON password', code: `{"password": "N0tS0Secret!"}`, rule: 'generic-password', value: 'N0tS0Secret!' },
  { name: 'YAML password', code: `  password: hunter2xyz`, rule: 'generic-password', value: 'hunter2xyz' },
  { name: 'secret assignment', code: `CLIENT_SECRET = 'f9K2mQ8xZ4vB7nL1'`, rule: 'generic-secret', value: 'f9K2mQ8xZ4vB7nL1' },
  { name: 'api_key YAML', code: `api_key: 9f8e7d6c5b4a3210fedcba98`, rule: 'generic-api-key', value: '9f8e7d6c5b4a3210fedcba98' },
  { name: 'token assignment', code: `const token = "c2VjcmV0LXRva2VuLTEyMzQ1"`, rule: 'generic-token', value: 'c2VjcmV0LXRva2VuLTEyMzQ1' },
];

const negatives: { name: string; code: string }[] = [
  { name: 'env reference', code: 'const token = process.env.GITHUB_TOKEN;' },
  { name: 'PHP static call', code: '$token = ParallelTesting::token();' },
  { name: 'PHP property of a request', code: '$password = $request->password;' },
  { name: 'PHP variable with digits', code: '$secret = $input2;' },
  { name: 'python environ', code: 'password = os.environ["DB_PASSWORD"]' },
  { name: 'getenv call', code: 'api_key = os.getenv("API_KEY")' },
  { name: 'shell expansion', code: 'PASSWORD=${DB_PASSWORD}' },
  { name: 'template', code: 'password: "{{ vault_db_password }}"' },
  { name: 'angle placeholder', code: 'password = "<password>"' },
  { name: 'changeme', code: 'password = "changeme"' },
  { name: 'xxx filler', code: 'secret = "xxxxxxxxxxxx"' },
  { name: 'example value', code: 'api_key = "example-api-key-123"' },
  { name: 'type annotation only', code: 'password: string;' },
  { name: 'variable reference', code: 'password = hashedPassword' },
  { name: 'function call', code: 'const secret = getSecret(name)' },
  { name: 'member access', code: 'token = request.headers.authorization' },
  { name: 'word-like value', code: 'token_type = "access_token"' },
  { name: 'constant name value', code: 'const TOKEN = "GITHUB_TOKEN"' },
  { name: 'low entropy', code: 'password = "aaaabbbb"' },
  { name: 'label with spaces', code: 'password: "Enter your password"' },
  { name: 'identifier continues', code: 'passwordField = "x9Fq2LmZ7p"' },
  { name: 'postgres URL without password', code: 'DATABASE_URL=postgres://app@db:5432/app' },
  { name: 'postgres URL with placeholder', code: 'DATABASE_URL=postgres://user:password@localhost/app' },
  { name: 'kebab words after sk-', code: 'const id = "my-sk-component-name-for-the-layout"' },
  { name: 'git sha near secret', code: 'secret_commit = 3f786850e387550fdab836ed7e6dc881de23001b' },
  { name: 'AWS documentation key', code: 'aws_access_key_id = AKIAIOSFODNN7EXAMPLE' },
  { name: 'GitHub Actions secret expression', code: 'token: ${{ secrets.GITHUB_TOKEN }}' },
  { name: 'placeholder word', code: 'password = "password"' },
  { name: 'path value', code: 'secret_key = "/run/secrets/django_key"' },
  // Seen on real projects: scope operators, framework references, bindings and rules, not literals.
  { name: 'PHP class constant after a named argument', code: 'plainTextPassword: User::DEMO_PASSWORD,' },
  { name: 'PHP static call after a named argument', code: "apiKey: self::stringInput($request, 'apiKey')," },
  { name: 'Laravel rule object in an array', code: "'password' => ['required', Password::defaults()]," },
  { name: 'PHP class constant compared', code: 'return $status === Password::PASSWORD_RESET;' },
  { name: 'Laravel validation rule string', code: "'password' => 'required|string|min:8|confirmed'," },
  { name: 'Symfony container parameter', code: "    secret:   '%kernel.secret%' # required" },
  { name: 'HTTP header name constant', code: 'private static final String PRIVATE_TOKEN = "PRIVATE-TOKEN";' },
  { name: 'Vue prop bound to a variable', code: '<two-factor :login-token="twoFactorLoginToken" />' },
  { name: 'query string: the value stops at &', code: "uri: 'otpauth://totp/App:user@host?secret=ABC&issuer=App'," },
  { name: 'alphabet run', code: "project_token = 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEF'" },
  { name: 'value that says it is not a secret', code: 'APP_SECRET=not-a-secret-see-docs' },
  { name: 'sample value', code: 'WEATHER_API_KEY=sample-Zq81kLm3Nb7Vc2Xd' },
  { name: 'YAML vault tag', code: 'password: !vault |' },
  // Common non-secrets: lock-file hashes, ids, public keys, form and schema fields, i18n strings.
  { name: 'npm integrity hash', code: '"integrity": "sha512-kq8cVsm0fT1dHqPxRr3bJ5yd7dUPmY9BvLZ3p5RjXw1QeXoG0n6J2lXk7nXcP3mW4bQ==",' },
  { name: 'poetry lock hash', code: 'hash = "sha256:3f786850e387550fdab836ed7e6dc881de23001b3f786850e387550fdab836ed"' },
  { name: 'UUID request id', code: 'request_id = "3f1e2d4c-5b6a-4789-9abc-def012345678"' },
  { name: 'public key header', code: '-----BEGIN PUBLIC KEY-----' },
  { name: 'SSH public key', code: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGq7t6v8Yf1m2QH9dX3kP0sW5rN4eJ6bL8cA1zT2uV9y deploy@host' },
  { name: 'HTML password input', code: '<input type="password" name="password" autocomplete="current-password">' },
  { name: 'mongoose schema field', code: 'password: { type: String, required: true, minlength: 8 },' },
  { name: 'JSON schema field', code: '"password": {"type": "string", "minLength": 8, "format": "password"},' },
  { name: 'Django form field', code: 'password = forms.CharField(widget=forms.PasswordInput)' },
  { name: 'i18n message', code: '"password_reset": "Reset your password",' },
  { name: 'i18n label with accents', code: 'password: "Contraseña",' },
  { name: 'i18n label in Japanese', code: 'token: "トークン",' },
  { name: 'hashing call', code: 'const password = await bcrypt.hash(plain, 12);' },
  { name: 'token limit', code: 'max_tokens = 4096' },
  { name: 'OAuth token endpoint', code: 'token_url = "https://oauth2.googleapis.com/token"' },
];

describe('detectSecrets: one rule per provider shape', () => {
  it.each(positives)('$name', ({ code, rule, value }) => {
    const text = `// first line\n${code}\n`;
    const matches = detectSecrets(text);
    expect(matches.map((m) => m.rule)).toEqual([rule]);
    const match = matches[0]!;
    expect(text.slice(match.start, match.end)).toBe(value);
    expect(match.line).toBe(2);
    expect(match.length).toBe(value.length);
    // A prefix of at most four characters and a fifth of the value: a short password is never shown whole.
    const shown = match.preview.slice(0, -1);
    expect(match.preview.endsWith('…') && value.startsWith(shown)).toBe(true);
    expect(shown.length).toBe(Math.min(4, Math.floor(value.length / 5)));
  });

  it.each(negatives)('not a secret: $name', ({ code }) => {
    expect(detectSecrets(`${code}\n`)).toEqual([]);
  });
});

describe('detectSecrets: structure', () => {
  it('finds a private key body across lines and keeps the BEGIN/END lines outside the value', () => {
    const text = `key = """\n${pem('RSA ', fakes.pemBody)}\n"""\n`;
    const [match, ...rest] = detectSecrets(text);
    expect(rest).toEqual([]);
    expect(match?.rule).toBe('private-key');
    expect(match?.line).toBe(3);
    expect(text.slice(match!.start, match!.end)).toBe(fakes.pemBody.join('\n'));
  });

  it('names a service-account key by the JSON it sits in, not as a bare PEM block', () => {
    const escaped = `-----BEGIN PRIVATE KEY-----\\n${fakes.pemBody.join('\\n')}\\n-----END PRIVATE KEY-----\\n`;
    const json = `{\n  "type": "service_account",\n  "project_id": "acme",\n  "private_key": "${escaped}"\n}\n`;
    const matches = detectSecrets(json);
    expect(matches.map((m) => [m.rule, m.line])).toEqual([['google-service-account-key', 4]]);
    const withoutType = json.replace('service_account', 'authorized_user');
    expect(detectSecrets(withoutType).map((m) => m.rule)).toEqual(['private-key']);
  });

  it('prefers the specific rule over the generic one for the same value', () => {
    const matches = detectSecrets(`api_key = "${fakes.googleApiKey}"\ntoken = "${fakes.githubClassic}"\n`);
    expect(matches.map((m) => m.rule)).toEqual(['google-api-key', 'github-token']);
  });

  it('reports several secrets on one line and counts lines across CRLF text', () => {
    const text = `a = 1\r\nconfig(${JSON.stringify(fakes.npm)}, ${JSON.stringify(fakes.stripeLive)})\r\n`;
    const matches = detectSecrets(text);
    expect(matches.map((m) => [m.rule, m.line])).toEqual([
      ['npm-token', 2],
      ['stripe-live-key', 2],
    ]);
    for (const m of matches) expect(text.slice(m.start, m.end)).not.toMatch(/["\r\n]/);
  });

  it('keeps offsets exact after non-ASCII text whose case folding changes length', () => {
    const text = `İstanbul İİİ\npassword = "hunter2xyz"\n`;
    const [match] = detectSecrets(text);
    expect(text.slice(match!.start, match!.end)).toBe('hunter2xyz');
  });

  it('measures entropy in bits per character', () => {
    expect(shannonEntropy('aaaa')).toBe(0);
    expect(shannonEntropy('abcd')).toBe(2);
    expect(shannonEntropy('')).toBe(0);
  });
});

describe('encoded values', () => {
  const token = ['gh', 'p_', 'Zq8R2mXv7Lp3Wn9Tb4Ks6Hd1Fg5Jc0Ya2Ue7Io'].join('');

  it('finds a token written as base64, hex, percent-escapes or \\x escapes, the whole encoded run as the value', () => {
    const encodings = [
      Buffer.from(token).toString('base64'),
      Buffer.from(token).toString('hex'),
      Buffer.from(Buffer.from(token).toString('hex')).toString('base64'),
      encodeURIComponent(token).replace('_', '%5F'),
      Array.from(token, (ch) => `\\x${ch.charCodeAt(0).toString(16)}`).join(''),
    ];
    for (const encoded of encodings) {
      const text = `send("${encoded}")`;
      const [match] = detectSecrets(text);
      expect(match?.rule, encoded).toBe('github-token');
      expect(text.slice(match?.start, match?.end)).toBe(encoded);
    }
  });

  // Speed on these inputs is bench/secrets.ts's to measure (percent-encoded-runs, hex-escape-runs, base64-lines).
  it('finds nothing in 2 MB of text that is all encoded runs with nothing inside', () => {
    for (const text of ['%41'.repeat(700_000), '\\x41'.repeat(500_000), `${'QUJDREVGR0hJSktMTU5PUFFSU1RVVldY'}\n`.repeat(60_000), 'a'.repeat(2_000_000)]) {
      expect(detectSecrets(text)).toEqual([]);
    }
  });
});

describe('passwords in URLs of any scheme', () => {
  it('finds the password of https and ftp URLs, never a template or the word itself', () => {
    expect(detectSecrets('fetch("https://deploy:Qz8mWv2Lr7Tn@example.org/a")').map((m) => m.rule)).toEqual(['url-password']);
    expect(detectSecrets('ftp://backup:hJ4kL9pQ2x@files.internal/x').map((m) => m.rule)).toEqual(['url-password']);
    expect(detectSecrets('fetch(`https://deploy:${PASSWORD}@example.org/a`)')).toEqual([]);
    expect(detectSecrets('http://user:pass@localhost/')).toEqual([]);
  });
});

describe('base64 runs found in one pass', () => {
  it('are the runs the equivalent regex finds, on any text', () => {
    const runOf = { table: asciiTable(/[A-Za-z0-9+/_-]/), minLength: 24, pad: 2 };
    const alphabet = fc.constantFrom('a', 'Z', '9', '+', '/', '_', '-', '=', ' ', '.', '"', '\n', 'é');
    fc.assert(
      fc.property(fc.array(fc.oneof(alphabet, fc.constant('A'.repeat(23)), fc.constant('b'.repeat(25)), fc.constant('c'.repeat(12)), fc.constant('==='), fc.constant('d'.repeat(24))), { maxLength: 60 }), (parts) => {
        const text = parts.join('');
        const expected = [...text.matchAll(/[A-Za-z0-9+/_-]{24,}={0,2}/g)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
        expect(wholeRuns(text, runOf)).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('keyword lines found in one pass over the text', () => {
  it('are the lines a substring search per keyword finds, overlapping keywords included', () => {
    const rules = builtInSecretRules();
    const keywords = [...new Set(rules.rules.filter((r) => r.matcher.scope !== 'block').flatMap((r) => r.keywords))];
    // Keywords that overlap or extend each other (sk- and sk-ant-, api_key and access_key), cut ones, and noise.
    const cuts = keywords.flatMap((k) => Array.from({ length: k.length - 1 }, (_, i) => [k.slice(0, i + 1), k.slice(i + 1)]).flat());
    const pieces = fc.oneof(fc.constantFrom(...keywords), fc.constantFrom(...cuts), fc.constantFrom('ops_eyj', 'sk-ant-sk-', 'x', ' ', '\n', '\r\n', 'é', '='));
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 40 }), (parts) => {
        const lower = parts.join('');
        const starts = lineStarts(lower);
        const expected = new Map<string, number[]>();
        for (const keyword of keywords) {
          const lines: number[] = [];
          for (let at = lower.indexOf(keyword); at >= 0; at = lower.indexOf(keyword, at + 1)) {
            const line = lower.slice(0, at).split('\n').length;
            if (lines[lines.length - 1] !== line) lines.push(line);
          }
          if (lines.length > 0) expected.set(keyword, lines);
        }
        expect(Object.fromEntries(keywordLinesOf(lower, starts, rules))).toEqual(Object.fromEntries(expected));
      }),
      { numRuns: 2000 },
    );
  });
});
