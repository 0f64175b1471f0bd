/**
 * The secret detector on pathological files: `npx tsx bench/secrets.ts [name...]`.
 * Each input (about 2 MiB) runs in a child process of its own, so the peak RSS printed is that
 * input's. Timed per input: the whole-file scan and findings (the rules step), the redaction of the
 * file as model material, the masking of those findings (the report's choke point), and the reading
 * of the file's joined string literals as JavaScript (src/redact/joined-literals.ts).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { learnJoinedSecrets, maskReport, secretFindings, SecretBook } from '../src/redact/index.js';
import { redactionStep } from '../src/review/steps/redaction.js';
import { body as noise } from '../tests/redact/fakes.js';

const SIZE = 2 * 1024 * 1024;

/** `unit` repeated to about SIZE characters. */
const repeat = (unit: string): string => unit.repeat(Math.ceil(SIZE / unit.length));

const INPUTS: Record<string, () => string> = {
  'password-line': () => repeat('password=Xy9'),
  'pem-begin-repeated': () => repeat('-----BEGIN PRIVATE KEY-----A'),
  'pem-begin-then-body': () => `-----BEGIN PRIVATE KEY-----\n${repeat(`${noise(64, 3)}\n`)}`,
  'pem-blocks-many': () => repeat(`-----BEGIN RSA PRIVATE KEY-----\n${noise(64, 5)}\n${noise(64, 6)}\n-----END RSA PRIVATE KEY-----\n`),
  'base64-run-aws': () => `aws_secret_access_key = ${noise(SIZE, 7)}`,
  'many-quotes': () => repeat(`token="`),
  'many-equals': () => `api_key${'='.repeat(SIZE)}`,
  'assignments-distinct': () => Array.from({ length: SIZE / 48 }, (_, i) => `secret_key = "${noise(24, i + 11)}"; `).join(''),
  'lines-of-passwords': () => Array.from({ length: SIZE / 28 }, (_, i) => `password = "Qw${i.toString(36)}x9Zk"`).join('\n'),
  'jwt-dots': () => repeat('eyJhbGciOi.eyJzdWIiOi.'),
  'sk-runs': () => repeat('sk-'),
  'keyword-lines': () => repeat('passwd=\n'),
  'service-account-keys': () => `{"type": "service_account",\n${repeat('"private_key": "-----BEGIN PRIVATE KEY-----\\nA')}`,
  'db-urls': () => repeat('postgres://u:'),
  // Encoded runs with nothing inside: the decoder must stay linear (was a timed test assertion).
  'percent-encoded-runs': () => repeat('%41'),
  'hex-escape-runs': () => repeat('\\x41'),
  'base64-lines': () => repeat('QUJDREVGR0hJSktMTU5PUFFSU1RVVldY\n'),
  // Joins: one chain of short literals as deep as the file (a tree that deep), and many short joins of
  // which every tenth holds an AWS key id (each one remembered, each piece masked).
  'one-long-join': () => `const s = ${repeat('"ab" + ').slice(0, SIZE - 20)}"cd";\n`,
  'many-joins': () => Array.from({ length: SIZE / 40 }, (_, i) => (i % 10 === 0 ? `k${i} = "AK" + "IA${noise(16, i).toUpperCase()}";` : `u${i} = "/api/" + "v${i}" + "/x";`)).join('\n'),
};

async function runOne(name: string): Promise<void> {
  const make = INPUTS[name];
  if (!make) throw new Error(`no input named ${name}`);
  const text = make();
  const book = new SecretBook();
  const started = performance.now();
  const findings = secretFindings([{ path: `bench/${name}.txt`, text, scanLines: 'all' }], book);
  const scanned = performance.now();
  const outcome = redactionStep({ material: [{ path: `bench/${name}.txt`, text }], files: [{ path: `bench/${name}.txt`, text }], blockOnSecret: false, modelConfigured: true }, book);
  const redacted = performance.now();
  maskReport({ findings, limits_reached: book.limitsReached() }, book);
  const masked = performance.now();
  const joins = (await learnJoinedSecrets(book, `bench/${name}.js`, text)).matches.length;
  const joined = performance.now();
  const ms = (from: number, to: number): string => `${(to - from).toFixed(0).padStart(6)} ms`;
  const rss = Math.round(process.resourceUsage().maxRSS / 1024);
  process.stdout.write(
    `${name.padEnd(22)} ${(text.length / 1024 / 1024).toFixed(1)} MiB  scan+findings ${ms(started, scanned)}  redaction ${ms(scanned, redacted)}  mask ${ms(redacted, masked)}  joins ${ms(masked, joined)} (${joins})  ` +
      `findings ${String(findings.length).padStart(4)}  capped ${book.limitsReached().length > 0 ? 'yes' : 'no '}  withheld ${outcome.withheld.length}  peak RSS ${rss} MiB\n`,
  );
}

const args = process.argv.slice(2);
if (args[0] === '--one' && args[1] !== undefined) {
  await runOne(args[1]);
} else {
  const names = args.length > 0 ? args : Object.keys(INPUTS);
  for (const name of names) {
    const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--one', name], { encoding: 'utf8', timeout: 120_000 });
    if (child.status !== 0) process.stdout.write(`${name.padEnd(22)} FAILED (exit ${child.status ?? child.signal}): ${child.stderr.split('\n').slice(-3).join(' ')}\n`);
    else process.stdout.write(child.stdout);
  }
}
