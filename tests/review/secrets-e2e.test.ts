/**
 * No secret leaves jscr (issue 10, items 2 and 3): the CLI (in-process) on real repositories in temporary
 * folders, every report format, the step summary, error messages, a scanner's failure text, and a
 * scripted model server on 127.0.0.1 that records every byte it is sent.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runJscr } from '../helpers/cli.js';
import { makeRepo, type FileMap, type TestRepo } from '../helpers/repo.js';
import { API_KEY, API_KEY_ENV } from '../model/material.js';
import { startServer, type ScriptedServer } from '../model/server.js';
import { fakeProgram } from '../scanners/harness.js';
import { prepareConsultation } from '../../src/fix/consultation.js';
import { openBoundary } from '../../src/policy/paths.js';
import type { Finding } from '../../src/report/finding.js';
import { fingerprintV1, fingerprintV2 } from '../../src/report/fingerprint.js';
import { body } from '../redact/fakes.js';

const FORMATS = ['text', 'json', 'sarif', 'markdown', 'github'] as const;
/** Assembled at run time so no token-shaped literal sits in this file. */
const TOKEN = ['gh', 'p_', body(36, 41)].join('');
const KEY_LINES = Array.from({ length: 27 }, (_, i) => body(64, 300 + i));

interface Report {
  findings: { rule: string; path: string; line: number; evidence: string; message: string }[];
  steps: { name: string; status: string; detail: string }[];
  scanners: { name: string; status: string; detail: string }[];
  incomplete_reasons: string[];
  exit_code: number;
}

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function repoWithChange(base: FileMap, head: FileMap): TestRepo {
  const repo = makeRepo(base);
  cleanups.push(() => repo.cleanup());
  repo.commit(head, 'change');
  return repo;
}

/** Every format's stdout, and the step summary the github format appends. */
async function allFormats(repo: TestRepo, env: NodeJS.ProcessEnv = {}): Promise<{ format: string; output: string; code: number }[]> {
  const summaryDir = mkdtempSync(join(tmpdir(), 'jscr-summary-'));
  cleanups.push(() => rmSync(summaryDir, { recursive: true, force: true }));
  const runs = [];
  for (const format of FORMATS) {
    const summary = join(summaryDir, `${format}.md`);
    const run = await runJscr(['review', '--range', 'HEAD~1..HEAD', '--format', format], repo.root, { ...env, GITHUB_STEP_SUMMARY: summary });
    let summaryText = '';
    try {
      summaryText = readFileSync(summary, 'utf8');
    } catch {
      // only the github format writes one
    }
    runs.push({ format, output: `${run.stdout}\n${run.stderr}\n${summaryText}`, code: run.code });
  }
  return runs;
}

describe('a secret is never printed', () => {
  it('a token on the line of a non-secret rule finding is masked in its evidence, in all five formats', async () => {
    const line = `    os.system("curl -H 'Authorization: token ${TOKEN}' " + x)`;
    const repo = repoWithChange({ 'app.py': 'import os\n' }, { 'app.py': `import os\n\ndef run(x):\n${line}\n` });
    for (const run of await allFormats(repo)) {
      expect(run.code, run.format).toBe(1);
      expect(run.output, run.format).not.toContain(TOKEN);
      expect(run.output, run.format).not.toContain(TOKEN.slice(4, 24));
    }
    const report = JSON.parse((await runJscr(['review', '--range', 'HEAD~1..HEAD', '--format', 'json'], repo.root)).stdout) as Report;
    const command = report.findings.find((f) => f.rule !== 'jscr/hardcoded-secret' && f.line === 4);
    expect(command?.evidence).toContain('os.system(');
    expect(command?.evidence).toContain('[github-token, 40 chars]');
  });

  it('tokens of providers secretlint knows, a password in a URL, and a token written encoded are masked in every format', async () => {
    const password = `Qz8${body(14, 77)}`;
    // Each value is put together here so that no token-shaped literal sits in this file.
    const values = [
      ['SG.', body(22, 51), '.', body(43, 52)].join(''),
      ['shp', 'at_', body(32, 53)].join(''),
      ['hf', '_', body(34, 54)].join(''),
      ['lin', '_api_', body(40, 55)].join(''),
      ['ops', '_eyJ', body(120, 56)].join(''),
      Buffer.from(TOKEN).toString('base64'),
      Buffer.from(TOKEN).toString('base64url'),
      Buffer.from(TOKEN).toString('hex'),
      Buffer.from(Buffer.from(TOKEN).toString('hex')).toString('base64'),
      encodeURIComponent(TOKEN).replace('_', '%5F'),
      Array.from(TOKEN, (ch) => `\\x${ch.charCodeAt(0).toString(16)}`).join(''),
    ];
    const lines = [...values.map((value) => `    os.system("echo ${value} " + x)`), `    os.system("curl https://deploy:${password}@example.org/a " + x)`];
    const repo = repoWithChange({ 'app.py': 'import os\n' }, { 'app.py': `import os\n\ndef run(x):\n${lines.join('\n')}\n` });
    for (const run of await allFormats(repo)) {
      expect(run.code, run.format).toBe(1);
      for (const value of values) expect(run.output, `${run.format}: ${value}`).not.toContain(value.slice(4, 24));
      expect(run.output, run.format).not.toContain(password);
    }
  });

  it('a finding whose evidence was masked can still be fixed: the consultation matches the disk line and masks the token', async () => {
    const line = `    os.system("curl -H 'Authorization: token ${TOKEN}' " + x)`;
    const repo = repoWithChange({ 'app.py': 'import os\n' }, { 'app.py': `import os\n\ndef run(x):\n${line}\n` });
    const report = JSON.parse((await runJscr(['review', '--range', 'HEAD~1..HEAD', '--format', 'json'], repo.root)).stdout) as { findings: Finding[] };
    const finding = report.findings.find((f) => f.rule !== 'jscr/hardcoded-secret' && f.line === 4);
    expect(finding).toBeDefined();
    const prepared = await prepareConsultation({ finding: finding as Finding, boundary: await openBoundary(repo.root, { followSymlinks: false }), allowedImports: [] });
    expect(prepared.ok).toBe(true);
    if (prepared.ok) {
      expect(prepared.consultation.context.text).toContain('os.system(');
      expect(prepared.consultation.context.text).not.toContain(TOKEN);
    }
  });

  it('a credential only secretlint recognises is masked in another rule\'s evidence too', async () => {
    const password = ['Zq8v', 'Lm2R', 't5Wx'].join('');
    const line = `    os.system("curl https://admin:${password}@example.com/x " + x)`;
    const repo = repoWithChange({ '.jscr.toml': '[scanners]\nenabled = ["secretlint"]\n', 'app.py': 'import os\n' }, { 'app.py': `import os\n\ndef run(x):\n${line}\n` });
    const run = await runJscr(['review', '--range', 'HEAD~1..HEAD', '--format', 'json'], repo.root);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.scanners.find((s) => s.name === 'secretlint')?.status).toBe('ran');
    // the os.system rule's evidence (the secret finding on this line keeps its own, with secretlint merged into it)
    const command = report.findings.find((f) => f.rule === 'jscr/python-os-system-non-literal' && f.line === 4);
    expect(command?.evidence).toContain('[secretlint-basicauth, ');
    expect(run.stdout).not.toContain(password);
    // One more format is enough here: the formats all render the one masked report.
    const text = await runJscr(['review', '--range', 'HEAD~1..HEAD', '--format', 'text'], repo.root);
    expect(`${text.stdout}${text.stderr}`).not.toContain(password);
  });

  it('the fingerprint of a finding on a secret line is a hash of the masked evidence, never of the secret', async () => {
    const line = `    os.system("curl -H 'Authorization: token ${TOKEN}' " + x)`;
    const change = { 'app.py': `import os\n\ndef run(x):\n${line}\n` };
    const first = JSON.parse((await runJscr(['review', '--range', 'HEAD~1..HEAD', '--format', 'json'], repoWithChange({ 'app.py': 'import os\n' }, change).root)).stdout) as { findings: Finding[] };
    const command = first.findings.find((f) => f.rule !== 'jscr/hardcoded-secret' && f.line === 4) as Finding;
    expect(command.fingerprint_v1).not.toBe(fingerprintV1(command.rule, command.path, line.trim()));
    expect(command.fingerprint_v1).toBe(fingerprintV1(command.rule, command.path, command.evidence));
    // version 2: the first copy of the line inside run()
    expect(command.fingerprint).not.toBe(fingerprintV2(command.rule, command.path, line.trim(), { scope: 'run', index: 0 }));
    expect(command.fingerprint).toBe(fingerprintV2(command.rule, command.path, command.evidence, { scope: 'run', index: 0 }));
  });

  it('a token in a .jscr.toml comment added by the change is masked in the config-changed finding', async () => {
    const repo = repoWithChange({ '.jscr.toml': '[review]\nfail_on = "high"\n' }, { '.jscr.toml': `[review]\n# CI token for the bot: ${TOKEN}\nfail_on = "high"\n` });
    for (const run of await allFormats(repo)) expect(run.output, run.format).not.toContain(TOKEN);
    const report = JSON.parse((await runJscr(['review', '--range', 'HEAD~1..HEAD', '--format', 'json'], repo.root)).stdout) as Report;
    const changed = report.findings.find((f) => f.rule === 'jscr/review-config-changed');
    expect(changed?.evidence).toContain('# CI token for the bot: ghp_…[github-token, 40 chars]');
  });

  it('a token in a revision name or a flag value is masked in the error line and in the JSON error report', async () => {
    const repo = repoWithChange({ 'a.py': 'x = 1\n' }, { 'a.py': 'x = 2\n' });
    for (const format of ['text', 'json']) {
      const run = await runJscr(['review', '--range', `${TOKEN}..HEAD`, '--format', format], repo.root);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^jscr: /);
      expect(`${run.stdout}${run.stderr}`).not.toContain(TOKEN);
    }
    // The argument parser's own error line quotes the bad value: it is masked too.
    const usage = await runJscr(['review', '--fail-on', TOKEN], repo.root);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^jscr: .*fail-on/);
    expect(usage.stderr).not.toContain(TOKEN);
  });

  it('a key line that a scanner prints in its failure reaches the step detail masked', async () => {
    // The scanner prints line 4 of the file it was given (a bare line of a key body) and crashes.
    const fake = await fakeProgram('bandit', 'for a in "$@"; do case "$a" in ./*) sed -n 4p "$a" >&2;; esac; done\nexit 2');
    cleanups.push(() => fake.remove());
    const keyFile = `KEY = """\n-----BEGIN RSA PRIVATE KEY-----\n${KEY_LINES.join('\n')}\n-----END RSA PRIVATE KEY-----\n"""\n`;
    const repo = repoWithChange({ '.jscr.toml': '[scanners]\nenabled = ["bandit"]\n', 'key.py': 'KEY = None\n' }, { 'key.py': keyFile });
    const run = await runJscr(['review', '--range', 'HEAD~1..HEAD', '--format', 'json'], repo.root, { PATH: fake.env.PATH });
    const report = JSON.parse(run.stdout) as Report;
    expect(run.code).toBe(3);
    const scanner = report.scanners.find((s) => s.name === 'bandit');
    expect(scanner?.detail).toContain('crashed');
    expect(scanner?.detail).toContain('[private-key, 64 chars]');
    for (const format of FORMATS) {
      const out = await runJscr(['review', '--range', 'HEAD~1..HEAD', '--format', format], repo.root, { PATH: fake.env.PATH });
      for (const keyLine of KEY_LINES) expect(`${out.stdout}${out.stderr}`, format).not.toContain(keyLine);
    }
  });
});

describe('a secret is never sent to the model', () => {
  let server: ScriptedServer;
  afterEach(async () => {
    await server.close();
  });

  /** Starts the scripted model (it finds nothing) and returns a .jscr.toml that sends to it. */
  async function startModel(): Promise<string> {
    server = await startServer();
    server.review = [{ findings: [] }];
    return [
      '[egress]', 'enabled = true', '[net]', `connect = ["${server.hostPort}"]`, '[redaction]', 'block_on_secret = false',
      '[model]', 'provider = "openai"', `base_url = "${server.base}/v1"`, 'name = "scripted-model"', `api_key_env = "${API_KEY_ENV}"`, 'timeout_s = 5', '',
    ].join('\n');
  }

  it('a token in a file name, a token written as base64 or hex, and a SendGrid key reach the server masked', async () => {
    const toml = await startModel();
    const hidden = [Buffer.from(TOKEN).toString('base64'), Buffer.from(TOKEN).toString('hex'), ['SG.', body(22, 61), '.', body(43, 62)].join('')];
    const code = `import os\n\ndef run(x):\n${hidden.map((h) => `    os.system("send ${h} " + x)\n`).join('')}`;
    const repo = repoWithChange({ '.jscr.toml': toml, 'README.md': 'base\n' }, { [`app/${TOKEN}.py`]: code });
    const run = await runJscr(['review', '--range', 'HEAD~1..HEAD', '--format', 'json'], repo.root, { [API_KEY_ENV]: API_KEY });
    const sent = server.requests.filter((r) => r.kind === 'findings');
    expect(sent.length, run.stderr).toBeGreaterThan(0);
    const raw = sent.map((r) => r.raw).join('\n');
    for (const value of [TOKEN, ...hidden]) {
      expect(raw).not.toContain(value.slice(4, 24));
      expect(run.stdout).not.toContain(value.slice(4, 24));
    }
  });

  it('a PEM key edited in its middle (body lines 14-15 of 27) reaches the server masked, old and new lines alike', async () => {
    const toml = await startModel();
    const keyText = (lines: string[]): string => `def load():\n    return KEY\n\nKEY = """\n-----BEGIN RSA PRIVATE KEY-----\n${lines.join('\n')}\n-----END RSA PRIVATE KEY-----\n"""\n`;
    const edited = KEY_LINES.map((line, i) => (i === 13 || i === 14 ? body(64, 900 + i) : line));
    const repo = repoWithChange({ '.jscr.toml': toml, 'deploy/key.py': keyText(KEY_LINES) }, { 'deploy/key.py': keyText(edited) });
    const run = await runJscr(['review', '--range', 'HEAD~1..HEAD', '--format', 'json'], repo.root, { [API_KEY_ENV]: API_KEY });
    const report = JSON.parse(run.stdout) as Report & { redaction: { secrets_found: number } };
    const sent = server.requests.filter((r) => r.kind === 'findings');
    expect(sent.length).toBeGreaterThan(0);
    const raw = sent.map((r) => r.raw).join('\n');
    expect(raw).toContain('[REDACTED:private-key#');
    for (const line of [...KEY_LINES, ...edited]) {
      expect(raw).not.toContain(line);
      expect(run.stdout).not.toContain(line);
    }
    expect(report.redaction.secrets_found).toBeGreaterThan(0);
  });
});
