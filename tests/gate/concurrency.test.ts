/**
 * Concurrent hook calls, as an agent's parallel batch makes them: many real `node bin/jscr gate`
 * processes (the built gate bundle) in one session at once. Every file and every denial must be
 * recorded, and a lock left by a killed call must not block the calls after it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_WAIT_MS, lockPathFor } from '../../src/gate/lock.js';
import { loadState, stateLocation, updateState } from '../../src/gate/state.js';

const repoRoot = join(import.meta.dirname, '..', '..');
const bin = join(repoRoot, 'bin', 'jscr');
let temp: string;
let project: string;

interface Result {
  status: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

function envFor(stateDir: string): NodeJS.ProcessEnv {
  // every denial in the one-line form, so that each shows its ordinal
  return { PATH: process.env.PATH ?? '', HOME: temp, JSCR_GATE_STATE_DIR: stateDir, JSCR_GATE_FULL_DENIALS: '0' };
}

function editPayload(session: string, file: string): string {
  return JSON.stringify({ session_id: session, cwd: project, hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: file, old_string: 'return 1', new_string: 'return 2' } });
}

function gateAsync(input: string, env: NodeJS.ProcessEnv): Promise<Result> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, [bin, 'gate'], { env, cwd: project });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr, ms: Date.now() - started }));
    child.stdin.end(input);
  });
}

function gateSync(input: string, env: NodeJS.ProcessEnv): Result {
  const started = Date.now();
  const result = spawnSync(process.execPath, [bin, 'gate'], { input, env, cwd: project, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, ms: Date.now() - started };
}

function ordinalOf(stdout: string): number {
  const reason = (JSON.parse(stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } }).hookSpecificOutput;
  expect(reason.permissionDecision).toBe('deny');
  const match = /\(denial #(\d+) this session\)/.exec(reason.permissionDecisionReason);
  expect(match, reason.permissionDecisionReason).not.toBeNull();
  return Number(match?.[1]);
}

interface SavedState {
  checked: string[];
  counters: { denials: number };
  denials_by_class: Record<string, number>;
}

function savedState(stateDir: string, session: string): SavedState {
  return JSON.parse(readFileSync(join(stateDir, `state-${session}.json`), 'utf8')) as SavedState;
}

beforeAll(() => {
  temp = mkdtempSync(join(tmpdir(), 'jscr-gate-conc-'));
  project = join(temp, 'project');
  mkdirSync(join(project, 'src'), { recursive: true });
  for (let i = 0; i < 50; i++) writeFileSync(join(project, 'src', `mod${i}.py`), `def handler_${i}():\n    return 1\n`);
});
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe('concurrent gate calls in one session', () => {
  it.each([20, 50])('%i calls at once: every file and every denial is recorded, each denial has its own ordinal', async (count) => {
    const stateDir = join(temp, `state-${count}`);
    const session = `burst-${count}`;
    const files = Array.from({ length: count }, (_, i) => `src/mod${i}.py`);
    const results = await Promise.all(files.map((file) => gateAsync(editPayload(session, file), envFor(stateDir))));
    for (const result of results) {
      expect(result.status).toBe(0);
      expect(result.stderr).toBe('');
    }
    const ordinals = results.map((r) => ordinalOf(r.stdout)).sort((a, b) => a - b);
    expect(ordinals).toEqual(Array.from({ length: count }, (_, i) => i + 1));
    const state = savedState(stateDir, session);
    expect(new Set(state.checked)).toEqual(new Set(files.map((f) => join(project, f))));
    expect(state.counters.denials).toBe(count);
    expect(state.denials_by_class.code).toBe(count);
    // nothing left behind: no lock, no temp file
    expect(readdirSync(stateDir).sort()).toEqual([`state-${session}.json`]);
    // and each retry now passes
    for (const file of files.slice(0, 3)) expect(gateSync(editPayload(session, file), envFor(stateDir)).stdout).toBe('');
  }, 60_000);

  it('one file edited by 12 calls at once is denied exactly once; the others see it checked', async () => {
    const stateDir = join(temp, 'state-same');
    const results = await Promise.all(Array.from({ length: 12 }, () => gateAsync(editPayload('same', 'src/mod7.py'), envFor(stateDir))));
    expect(results.filter((r) => r.stdout.includes('"deny"'))).toHaveLength(1);
    expect(results.filter((r) => r.stdout === '' && r.stderr === '')).toHaveLength(11);
    expect(savedState(stateDir, 'same').counters.denials).toBe(1);
  }, 60_000);

  it('the denial cap holds under a burst: with a cap of 5, 20 calls at once give exactly 5 denials', async () => {
    const stateDir = join(temp, 'state-cap');
    const files = Array.from({ length: 20 }, (_, i) => `src/mod${i}.py`);
    const env = { ...envFor(stateDir), JSCR_GATE_MAX_DENIALS: '5' };
    const results = await Promise.all(files.map((file) => gateAsync(editPayload('cap', file), env)));
    expect(results.filter((r) => r.stdout.includes('"deny"'))).toHaveLength(5);
    expect(results.filter((r) => r.stdout === '' && r.stderr === '')).toHaveLength(15);
    const state = savedState(stateDir, 'cap') as SavedState & { counters: { cap_allows: number } };
    expect(state.counters).toMatchObject({ denials: 5, cap_allows: 15 });
    expect(state.checked).toHaveLength(20);
  }, 60_000);

  it('a lock left by a killed call does not block the next call', () => {
    const stateDir = join(temp, 'state-killed');
    mkdirSync(stateDir, { recursive: true });
    const lock = join(stateDir, 'state-killed.json.lock');
    // a real process takes the lock the way the gate does, then dies without releasing it
    const holder = spawn(process.execPath, ['-e', `const fs=require('fs');const fd=fs.openSync(${JSON.stringify(lock)},'wx');fs.writeSync(fd,process.pid+' held\\n');setInterval(()=>{},1000);`]);
    return new Promise<void>((resolve, reject) => {
      const poll = setInterval(() => {
        // kill it once its pid is written: the create and the write are two steps
        if (!existsSync(lock) || !readFileSync(lock, 'utf8').includes('held')) return;
        clearInterval(poll);
        holder.kill('SIGKILL');
      }, 5);
      holder.on('close', () => {
        try {
          expect(existsSync(lock)).toBe(true);
          const result = gateSync(editPayload('killed', 'src/mod1.py'), envFor(stateDir));
          // no warning: the call did not sit out the wait
          expect(result.stderr).toBe('');
          expect(ordinalOf(result.stdout)).toBe(1);
          expect(savedState(stateDir, 'killed').checked).toEqual([join(project, 'src', 'mod1.py')]);
          expect(existsSync(lock)).toBe(false);
          resolve();
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
    });
  }, 20_000);

  it('an empty lock (a call killed between creating the lock and writing its pid) is broken within a moment, without the fail-open wait', () => {
    const stateDir = join(temp, 'state-empty');
    mkdirSync(stateDir, { recursive: true });
    const lock = join(stateDir, 'state-empty.json.lock');
    writeFileSync(lock, '');
    const result = gateSync(editPayload('empty', 'src/mod3.py'), envFor(stateDir));
    expect(result.stderr).toBe('');
    expect(ordinalOf(result.stdout)).toBe(1);
    expect(existsSync(lock)).toBe(false);
  });

  it('a lock held past its age limit is broken even when its pid is alive (a reused pid)', () => {
    const stateDir = join(temp, 'state-old');
    mkdirSync(stateDir, { recursive: true });
    const lock = join(stateDir, 'state-old.json.lock');
    // this test's own process is alive: only the age can tell the lock is left over
    writeFileSync(lock, `${process.pid} old\n`);
    const past = new Date(Date.now() - 60_000);
    utimesSync(lock, past, past);
    const result = gateSync(editPayload('old', 'src/mod2.py'), envFor(stateDir));
    // no warning: the call did not sit out the wait
    expect(result.stderr).toBe('');
    expect(ordinalOf(result.stdout)).toBe(1);
  });

  it('a lock held by a live call fails open after the bounded wait, with one warning line', () => {
    const stateDir = join(temp, 'state-held');
    mkdirSync(stateDir, { recursive: true });
    const lock = join(stateDir, 'state-held.json.lock');
    writeFileSync(lock, `${process.pid} live\n`);
    const result = gateSync(editPayload('held', 'src/mod3.py'), envFor(stateDir));
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('locked');
    expect(result.ms).toBeGreaterThanOrEqual(LOCK_WAIT_MS);
    // the other call's lock is left alone
    expect(readFileSync(lock, 'utf8')).toBe(`${process.pid} live\n`);
  }, 20_000);

  it('an update whose lock was broken under it is not written; it is done again on the fresh state', () => {
    const stateDir = join(temp, 'state-broken');
    mkdirSync(stateDir, { recursive: true });
    const location = stateLocation(stateDir, 'broken', null, project);
    // the pid of a process that has exited: the lock written with it is left over
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    let calls = 0;
    const result = updateState(location, stateDir, Date.now(), (state) => {
      calls++;
      // the first time, another caller breaks our lock and takes it (then dies holding it)
      if (calls === 1) writeFileSync(lockPathFor(location.file), `${gone} theirs\n`);
      state.counters.denials++;
      return { value: state.counters.denials, changed: true };
    });
    expect(calls).toBe(2);
    expect(result).toMatchObject({ ok: true, value: 1 });
    expect(loadState(location, Date.now()).counters.denials).toBe(1);
    expect(existsSync(lockPathFor(location.file))).toBe(false);
  });
});
