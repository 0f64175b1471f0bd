/**
 * Durations: every `*_s` key of `.jscr.toml` takes seconds in a sensible range (exit 2 naming the key
 * otherwise), and a timer given a delay past Node's limit (2^31 - 1 ms) waits that limit instead of
 * firing at once, so a huge `model.timeout_s` could never abort every call immediately.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DEADLINE_S, MAX_MODEL_TIMEOUT_S } from '../../src/config/schema.js';
import { parseConfigText } from '../../src/config/load.js';
import { postJson } from '../../src/egress/http.js';
import { ConfigError } from '../../src/errors.js';
import { MAX_TIMER_MS, timerDelay } from '../../src/io.js';
import { egressDecision } from '../../src/policy/egress.js';
import { runProgram } from '../../src/policy/process.js';
import { testNeedingAll } from '../helpers/programs.js';

// python3 is the allowlisted program the timer test starts (git starts only through its runner).
const itPython = testNeedingAll(['python3'], 'the long process timer test');

const DURATION_KEYS: [table: string, key: string, max: number][] = [
  ['review', 'deadline_s', MAX_DEADLINE_S],
  ['model', 'timeout_s', MAX_MODEL_TIMEOUT_S],
];

function configError(text: string): ConfigError {
  try {
    parseConfigText(text, 'test.toml');
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('duration keys take seconds in a sensible range', () => {
  for (const [table, key, max] of DURATION_KEYS) {
    for (const value of ['3e6', String(max + 1), '0', '-5', 'inf', 'nan', '1e400']) {
      it(`${table}.${key} = ${value} is refused, naming the key and the range`, () => {
        const error = configError(`[${table}]\n${key} = ${value}\n`);
        expect(error.keyPath).toBe(`${table}.${key}`);
        expect(error.message).toMatch(new RegExp(`seconds|number`));
      });
    }
    it(`${table}.${key} at ${max} and at 0.5 are fine`, () => {
      expect(() => parseConfigText(`[${table}]\n${key} = ${max}\n`, 'test.toml')).not.toThrow();
      expect(() => parseConfigText(`[${table}]\n${key} = 0.5\n`, 'test.toml')).not.toThrow();
    });
  }
  it('the message says the range', () => {
    expect(configError('[model]\ntimeout_s = 3e6\n').message).toBe('test.toml: model.timeout_s: expected a number of seconds above 0 and at most 3600');
  });
});

describe('timers never overflow', () => {
  it('timerDelay keeps a delay within what setTimeout honours', () => {
    expect(timerDelay(3e9)).toBe(MAX_TIMER_MS);
    expect(timerDelay(Number.POSITIVE_INFINITY)).toBe(MAX_TIMER_MS);
    expect(timerDelay(Number.NaN)).toBe(1);
    expect(timerDelay(0)).toBe(1);
    expect(timerDelay(1500)).toBe(1500);
  });

  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((_req, res) => setTimeout(() => res.end('{"ok":true}'), 300));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('an HTTP call with a timeout past the limit waits for its reply', async () => {
    const url = `http://127.0.0.1:${port}/slow`;
    const decision = egressDecision({ egress: { enabled: true }, net: { connect: [`127.0.0.1:${port}`] } }, url);
    if (!decision.allowed) throw new Error(decision.reason);
    const reply = await postJson(url, {}, { headers: {}, timeoutMs: 3e9, decision });
    expect(reply.text).toBe('{"ok":true}');
  });

  itPython('a process with a timeout past the limit runs to its end', async () => {
    const result = await runProgram('python3', ['-c', 'pass'], { cwd: process.cwd(), timeoutMs: 3e9 });
    expect(result.timedOut).toBe(false);
    expect(result.code).toBe(0);
  });
});
