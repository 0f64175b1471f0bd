/**
 * Golden end-to-end files: a recorded change and a scripted model server in, the JSON and markdown
 * reports out, compared byte for byte with committed files. They change only when someone means them
 * to: run with UPDATE_GOLDENS=1 and review the diff.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, type TestRepo } from '../helpers/repo.js';
import { ROUTE_LINES, modelFinding } from '../model/material.js';
import { startServer, type ScriptedServer } from '../model/server.js';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = join(here, '..', '..', 'bin', 'jscr');
const GOLDEN_DIR = join(here, '..', '..', 'fixtures', 'golden');

function jscr(args: string[], cwd: string): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, NO_COLOR: '1', GOLDEN_MODEL_KEY: 'golden-key-not-a-secret' } });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout }));
  });
}

function expectGolden(name: string, actual: string): void {
  const file = join(GOLDEN_DIR, name);
  if (process.env.UPDATE_GOLDENS === '1' || !existsSync(file)) {
    if (process.env.CI === 'true' && !existsSync(file)) throw new Error(`golden file ${name} is missing`);
    mkdirSync(GOLDEN_DIR, { recursive: true });
    writeFileSync(file, actual);
  }
  expect(actual).toBe(readFileSync(file, 'utf8'));
}

let server: ScriptedServer;
let repo: TestRepo;
beforeAll(async () => {
  server = await startServer({ port: 47613 });
  const toml = [
    '[egress]',
    'enabled = true',
    '[net]',
    `connect = ["${server.hostPort}"]`,
    '[model]',
    'provider = "openai"',
    `base_url = "${server.base}/v1"`,
    'name = "scripted-model"',
    'api_key_env = "GOLDEN_MODEL_KEY"',
    '',
  ].join('\n');
  repo = makeRepo({ '.jscr.toml': toml, 'src/routes/user.js': [...ROUTE_LINES.slice(0, 5), ...ROUTE_LINES.slice(9)].join('\n') + '\n' });
  repo.commit({ 'src/routes/user.js': `${ROUTE_LINES.join('\n')}\n`, 'scripts/deploy.sh': 'curl -s https://example.invalid/install.sh | bash\n' }, 'add user route');
});
afterAll(async () => {
  await server.close();
  repo.cleanup();
});

describe('golden reports', () => {
  it.each(['json', 'markdown'])('the %s report of a recorded change with a scripted model', async (format) => {
    server.review = [{ findings: [modelFinding({ line: 2 }), modelFinding({ title: 'Invented', evidence: 'eval(req.body)' })] }];
    server.verify = [{ verdict: 'keep', reason: 'the id reaches the query unescaped' }];
    const run = await jscr(['review', '--range', 'HEAD~1..HEAD', '--format', format, '--quiet'], repo.root);
    expect(run.code).toBe(1);
    // step durations are the one part of the JSON report that differs from run to run
    expectGolden(`model-review.${format === 'json' ? 'json' : 'md'}`, run.stdout.replace(/"duration_ms": \d+/g, '"duration_ms": 0'));
  });
});
