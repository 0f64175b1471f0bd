/**
 * The change the model tests review: an Express route that builds SQL from a query parameter, as the
 * engine would assemble it (the changed file as context lines, then its diff hunk), plus helpers to
 * run the real redaction step and the model steps against the scripted server.
 */
import { Writable } from 'node:stream';
import { parseConfigText, type JscrConfig } from '../../src/config/index.js';
import { SecretBook } from '../../src/redact/index.js';
import { redactionStep } from '../../src/review/steps/redaction.js';
import type { Finding } from '../../src/report/finding.js';
import { makeFinding } from '../../src/report/fingerprint.js';
import type { ModelSegment } from '../../src/model/index.js';
import { runModelSteps, type ModelStepsOutcome } from '../../src/review/steps/model-calls.js';
import type { ScriptedServer } from './server.js';

export const ROUTE_PATH = 'src/routes/user.js';

/**
 * A route whose SQL line a pattern rule flags and whose query call no built-in check does (`db.select` is
 * no sink data flow knows), so the model's findings have a line of their own to land on.
 */
export const ROUTE_LINES = [
  "const express = require('express');",
  "const db = require('../db');",
  '',
  'const router = express.Router();',
  '',
  "router.get('/user', (req, res) => {",
  '  const sql = "SELECT * FROM users WHERE id = " + req.query.id;',
  '  db.select(sql, (err, rows) => res.json(rows));',
  '});',
  '',
  'module.exports = router;',
];

/** The SQL line's number in the new file. */
export const SQL_LINE = 7;

export function routeSegments(lines: readonly string[] = ROUTE_LINES, path = ROUTE_PATH): ModelSegment[] {
  const hunk = ['@@ -3,3 +3,7 @@', ...lines.slice(2, 5).map((l) => ` ${l}`), ...lines.slice(5, 9).map((l) => `+${l}`)].join('\n');
  return [
    { path, startLine: 1, text: lines.join('\n'), kind: 'context' },
    { path, startLine: 3, text: hunk, kind: 'hunk' },
  ];
}

/** A fake GitHub token assembled at run time (no token-shaped literal in the source). */
export function fakeGithubToken(): string {
  const alphabet = 'aB3cD4eF5gH6iJ7kL8mN9oP2qR3sT4uV5wX6yZ7';
  let out = '';
  let state = 11;
  for (let i = 0; i < 36; i++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    out += alphabet[state % alphabet.length];
  }
  return ['gh', 'p_', out].join('');
}

/** The API key the tests use: distinctive, so a leak is found by a plain substring search. */
export const API_KEY = ['sk-test', 'LEAKCHECK', '7f3a9c2e5b1d8f4a6c0e'].join('-');
export const API_KEY_ENV = 'JSCR_TEST_MODEL_KEY';

export interface ConfigOptions {
  provider?: 'openai' | 'anthropic';
  egress?: boolean;
  connect?: string[];
  blockOnSecret?: boolean;
  verify?: boolean;
  timeoutS?: number;
  maxInputBytes?: number;
  apiKeyEnv?: string | null;
}

/** The `.jscr.toml` text of a review that calls the scripted server. */
export function configTomlFor(server: ScriptedServer, opts: ConfigOptions = {}): string {
  const provider = opts.provider ?? 'openai';
  const baseUrl = provider === 'openai' ? `${server.base}/v1` : server.base;
  const lines = [
    '[egress]',
    `enabled = ${opts.egress ?? true}`,
    '[net]',
    `connect = ${JSON.stringify(opts.connect ?? [server.hostPort])}`,
    '[redaction]',
    `block_on_secret = ${opts.blockOnSecret ?? true}`,
    '[model]',
    `provider = "${provider}"`,
    `base_url = "${baseUrl}"`,
    'name = "scripted-model"',
    ...(opts.apiKeyEnv === null ? [] : [`api_key_env = "${opts.apiKeyEnv ?? API_KEY_ENV}"`]),
    `timeout_s = ${opts.timeoutS ?? 5}`,
    ...(opts.maxInputBytes === undefined ? [] : [`max_input_bytes = ${opts.maxInputBytes}`]),
    ...(opts.verify === undefined ? [] : ['[verify]', `enabled = ${opts.verify}`]),
  ];
  return `${lines.join('\n')}\n`;
}

/** The same configuration, parsed. */
export function configFor(server: ScriptedServer, opts: ConfigOptions = {}): JscrConfig {
  return parseConfigText(configTomlFor(server, opts), 'test config');
}

/** A stream that keeps what is written to it. */
function captureStream(): { stream: NodeJS.WritableStream; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

export interface RunOptions {
  segments?: ModelSegment[];
  deterministic?: Finding[];
  remainingMs?: number;
  env?: NodeJS.ProcessEnv;
}

export interface RunResult {
  outcome: ModelStepsOutcome;
  stderr: string;
}

/** The real redaction step, then the model steps, as the engine runs them. */
export async function runSteps(config: JscrConfig, opts: RunOptions = {}): Promise<RunResult> {
  const segments = opts.segments ?? routeSegments();
  const book = new SecretBook();
  const redaction = redactionStep({ material: segments.map((s) => ({ path: s.path, text: s.text })), blockOnSecret: config.redaction.block_on_secret, modelConfigured: true }, book);
  const err = captureStream();
  const outcome = await runModelSteps({
    config,
    env: opts.env ?? { [API_KEY_ENV]: API_KEY },
    redaction,
    book,
    segments,
    deterministicFindings: opts.deterministic ?? [],
    remainingMs: opts.remainingMs ?? 60_000,
    stderr: err.stream,
  });
  return { outcome, stderr: err.text() };
}

/** A model finding as a provider would return it. */
export function modelFinding(overrides: Partial<Record<'title' | 'severity' | 'path' | 'evidence' | 'explanation' | 'cwe', string | null> & { line: number; confidence: number }> = {}): Record<string, unknown> {
  return {
    title: 'SQL injection through the id parameter',
    severity: 'high',
    confidence: 0.8,
    path: ROUTE_PATH,
    line: SQL_LINE,
    evidence: ROUTE_LINES[SQL_LINE - 1],
    explanation: 'req.query.id is concatenated into the SQL text.',
    cwe: 'CWE-89',
    ...overrides,
  };
}

/** A deterministic finding on the route, as the rules step would make it. */
export function ruleFinding(): Finding {
  return makeFinding({
    rule: 'jscr/sql-string-concat',
    source: 'rule',
    severity: 'high',
    confidence: 0.9,
    path: ROUTE_PATH,
    line: SQL_LINE,
    end_line: SQL_LINE,
    title: 'SQL built by string concatenation',
    message: 'UNIQUE-RULE-MESSAGE-TEXT',
    evidence: `UNIQUE-RULE-EVIDENCE ${ROUTE_LINES[SQL_LINE - 1] ?? ''}`,
    cwe: 'CWE-89',
  });
}

export function step(outcome: ModelStepsOutcome, name: 'model' | 'anchor' | 'verify'): ModelStepsOutcome['steps'][number] {
  const found = outcome.steps.find((s) => s.name === name);
  if (!found) throw new Error(`no ${name} step`);
  return found;
}
