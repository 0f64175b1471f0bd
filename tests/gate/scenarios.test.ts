/** Runs every scenario of fixtures/gate/: a sequence of payloads (and transcript lines) with expected decisions. */
import { appendFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runGate } from '../../src/gate/gate.js';
import { questionIdsInDenial } from '../../src/gate/messages.js';

interface Step {
  payload: unknown;
  transcript?: unknown[];
  advanceMs?: number;
  foreignWrite?: { checked: string[]; denials: number };
  expect: {
    decision: 'deny' | 'pass' | 'note';
    questions?: string[];
    contains?: string[];
    stderr?: string;
    singleLine?: boolean;
    noStateFile?: boolean;
  };
}
interface Scenario {
  description: string;
  files: Record<string, string>;
  env?: Record<string, string>;
  setup?: string[];
  foreignStateBefore?: { raw: string };
  steps: Step[];
}

const fixtureDir = join(import.meta.dirname, '..', '..', 'fixtures', 'gate');
const names = readdirSync(fixtureDir).filter((n) => n.endsWith('.json')).sort();
const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

function substitute(value: unknown, vars: Record<string, string>): unknown {
  if (typeof value === 'string') {
    let out = value;
    for (const [k, v] of Object.entries(vars)) out = out.split(k).join(v);
    return out;
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, vars));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, vars)]));
  return value;
}

describe('gate scenario corpus', () => {
  it('has at least 15 scenarios', () => {
    expect(names.length).toBeGreaterThanOrEqual(15);
  });

  it.each(names)('%s', (name) => {
    const scenario = JSON.parse(readFileSync(join(fixtureDir, name), 'utf8')) as Scenario;
    const temp = mkdtempSync(join(tmpdir(), 'jscr-gate-'));
    temps.push(temp);
    const root = join(temp, 'project');
    mkdirSync(root);
    let stateDir = join(temp, 'state');
    const transcript = join(temp, 'transcript.jsonl');
    for (const [path, text] of Object.entries(scenario.files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    for (const step of scenario.setup ?? []) {
      const [verb, a, , b] = step.split(' ');
      if (verb === 'symlink') {
        mkdirSync(dirname(join(root, a as string)), { recursive: true });
        symlinkSync(b as string, join(root, a as string));
      }
      else if (verb === 'hardlink') {
        mkdirSync(dirname(join(root, step.split(' ')[2] as string)), { recursive: true });
        linkSync(join(root, a as string), join(root, step.split(' ')[2] as string));
      } else if (verb === 'state-dir-is-a-file') {
        stateDir = join(temp, 'not-a-directory');
        writeFileSync(stateDir, 'x');
      } else throw new Error(`unknown setup ${step}`);
    }
    const session = `sess-${name.replace('.json', '')}`;
    const vars = { $ROOT: root, $TRANSCRIPT: transcript, SESSION: session };
    const env = { HOME: temp, JSCR_GATE_STATE_DIR: stateDir, ...(scenario.env ?? {}) };
    const stateFile = join(stateDir, `state-${session}.json`);
    if (scenario.foreignStateBefore) {
      mkdirSync(stateDir, { recursive: true });
      writeFileSync(stateFile, substitute(scenario.foreignStateBefore.raw, vars) as string);
    }
    let now = 1_700_000_000_000;
    scenario.steps.forEach((step, index) => {
      const where = `${name} step ${index + 1}`;
      now += step.advanceMs ?? 1000;
      for (const line of step.transcript ?? []) appendFileSync(transcript, `${JSON.stringify(line)}\n`);
      if (step.foreignWrite) {
        const state = JSON.parse(readFileSync(stateFile, 'utf8')) as { checked: string[]; counters: { denials: number } };
        state.checked.push(...(substitute(step.foreignWrite.checked, vars) as string[]));
        state.counters.denials = step.foreignWrite.denials;
        writeFileSync(stateFile, JSON.stringify(state));
      }
      const raw = JSON.stringify(substitute(step.payload, vars));
      const outcome = runGate(Buffer.from(raw), { env, processCwd: root, now });
      expect(outcome.exitCode, where).toBe(0);
      expect(outcome.stdout, where).not.toContain('"allow"');
      let decision: string;
      let reason = '';
      // A pass prints nothing (Claude Code rejects an echoed input as invalid hook output).
      if (outcome.stdout === '') decision = 'pass';
      else {
        const parsed = JSON.parse(outcome.stdout) as { hookSpecificOutput: { permissionDecision?: string; permissionDecisionReason?: string; additionalContext?: string } };
        decision = parsed.hookSpecificOutput.permissionDecision === 'deny' ? 'deny' : 'note';
        reason = parsed.hookSpecificOutput.permissionDecisionReason ?? parsed.hookSpecificOutput.additionalContext ?? '';
      }
      expect(decision, `${where}: ${reason} ${outcome.stderr.join(' ')}`).toBe(step.expect.decision);
      if (step.expect.questions) expect(questionIdsInDenial(reason), where).toEqual(step.expect.questions);
      for (const text of step.expect.contains ?? []) expect(reason, where).toContain(substitute(text, vars));
      if (step.expect.singleLine) expect(reason.includes('\n'), where).toBe(false);
      if (step.expect.stderr) {
        expect(outcome.stderr.length, where).toBe(1);
        expect(outcome.stderr[0], where).toContain(step.expect.stderr);
      }
      if (step.expect.noStateFile) expect(existsSync(stateDir), where).toBe(false);
    });
  });
});
