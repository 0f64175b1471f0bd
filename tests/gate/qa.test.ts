/** Findings from QA of the gate against its reference: shell credit, untrusted state, note text. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runGate } from '../../src/gate/gate.js';
import { siblingNote } from '../../src/gate/messages.js';
import { validateState } from '../../src/gate/state.js';
import { findCredit, findNearMiss, type Turn } from '../../src/gate/transcript.js';

const cwd = '/work/project';
const target = '/work/project/src/parser_core.py';

/** A turn in which the agent ran one shell command (successfully) before the pending Edit. */
function turnWithShell(command: string, tool = 'Bash'): Turn {
  return {
    id: 'p1',
    records: [
      { type: 'assistant', message: { id: 'm1', content: [{ type: 'tool_use', id: 't1', name: tool, input: { command } }] } },
      { type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 't1', content: 'output' }] } },
      { type: 'assistant', message: { id: 'm2', content: [{ type: 'tool_use', id: 't2', name: 'Edit', input: {} }] } },
    ],
  };
}

describe('shell commands as prior-search credit', () => {
  it.each([
    ['rg -n parser_core src', true],
    ['grep -rn "parser_core" src/', true],
    ['grep -rn parser_core', true],
    ['find src -name "parser_core*"', true],
    ['git grep -n parser_core', true],
    ['ls src/parser_core.py', true],
    ['FOO=1 rg parser_core src | head -5', true],
    ['cat src/parser_core.py', false],
    ['sed -n 1,40p src/parser_core.py', false],
    ['echo parser_core', false],
    ['python -m pytest -k parser_core', false],
    ['ps aux | grep parser_core', false],
    ['find src | grep parser_core', false],
    ['grep -rn parser_core /usr/lib', false],
    ['rg parser_core tests', false],
    ['grep -v parser_core src/a.py', false],
    ['cd src && rg parser_core', false],
    ['rg parser_core $(pwd)/src', false],
  ])('%s credits: %s', (command, credits) => {
    expect(findCredit(turnWithShell(command), target, false, cwd, 't2') !== null).toBe(credits);
  });

  it('reads PowerShell searches the same way', () => {
    expect(findCredit(turnWithShell('Select-String -Pattern parser_core -Path src/*.py', 'PowerShell'), target, false, cwd, 't2')).not.toBeNull();
    expect(findCredit(turnWithShell('Get-Content src/parser_core.py', 'PowerShell'), target, false, cwd, 't2')).toBeNull();
  });
});

describe('state read as untrusted input', () => {
  it('a last write in the future is clamped to now, so the session can still expire', () => {
    const now = 1_700_000_000_000;
    const state = validateState({ checked: [], last_active: now + 10 * 365 * 24 * 3600 * 1000 }, now);
    expect(state.lastActive).toBe(now);
  });
});

describe('sibling note', () => {
  it('cleans the first path it got back from the state file', () => {
    const note = siblingNote('src/a\u202e.py\u0007', 2);
    expect(note).toContain('src/a .py');
    expect(note).not.toMatch(/[\u0000-\u001f\u202e]/);
  });
});

describe('the nearest search that did not count', () => {
  const turnWith = (name: string, input: Record<string, unknown>): Turn => ({
    id: 'p1',
    records: [
      { type: 'assistant', message: { id: 'm1', content: [{ type: 'tool_use', id: 't1', name, input }] } },
      { type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 't1', content: 'output' }] } },
      { type: 'assistant', message: { id: 'm2', content: [{ type: 'tool_use', id: 't2', name: 'Edit', input: {} }] } },
    ],
  });

  it.each([
    ['Read', { file_path: 'src/parser_core.py' }, target, 'not-a-search'],
    ['Grep', { pattern: 'parser_core', path: 'tests' }, target, 'out-of-scope'],
    ['Grep', { pattern: 'parser_core', path: 'src', glob: '!*.py' }, target, 'excluded'],
    ['Grep', { pattern: 'index', path: 'src' }, '/work/project/src/index.ts', 'generic-stem'],
    ['Bash', { command: 'cat src/parser_core.py | grep parser_core' }, target, 'stdin-only'],
  ])('%s %j → %s', (name, input, file, why) => {
    expect(findNearMiss(turnWith(name, input), file, false, cwd, 't2')?.why).toBe(why);
  });

  it('says nothing when no call named the file', () => {
    expect(findNearMiss(turnWith('Grep', { pattern: 'unrelated', path: 'src' }), target, false, cwd, 't2')).toBeNull();
  });
});

describe('session key without a session id', () => {
  it('is the same for a relative and an absolute spelling of the transcript path', () => {
    const temp = mkdtempSync(join(tmpdir(), 'jscr-gate-qa-'));
    try {
      const root = join(temp, 'project');
      mkdirSync(join(root, 'src'), { recursive: true });
      writeFileSync(join(root, 'src', 'sum.py'), 'def sum_all(xs):\n    return 0\n');
      const env = { HOME: temp, JSCR_GATE_STATE_DIR: join(temp, 'state') };
      const call = (transcript: string, now: number): string => {
        const payload = { cwd: root, hook_event_name: 'PreToolUse', tool_name: 'Edit', transcript_path: transcript, tool_input: { file_path: 'src/sum.py', old_string: 'return 0', new_string: 'return 1' } };
        const raw = JSON.stringify(payload);
        const outcome = runGate(Buffer.from(raw), { env, processCwd: temp, now });
        return outcome.stdout === '' ? 'pass' : 'deny';
      };
      expect(call('session.jsonl', 1_700_000_000_000)).toBe('deny');
      expect(call(join(root, 'session.jsonl'), 1_700_000_001_000)).toBe('pass');
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  });
});
