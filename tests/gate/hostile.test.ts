/**
 * A hostile repository or transcript against the gate: where its state may live, and files put where
 * the gate reads or writes (FIFOs, links, huge or malformed files). The gate must never write inside a
 * repository, never follow a planted link, never hang, and never let a hostile file turn a denial into
 * a pass. Calls that could hang run as real processes (the built bundle) with a timeout.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runGate } from '../../src/gate/gate.js';
import { findCredit, type Turn } from '../../src/gate/transcript.js';
import { makeRepo, type TestRepo } from '../helpers/repo.js';

const bin = join(import.meta.dirname, '..', '..', 'bin', 'jscr');
let temp: string;
let repo: TestRepo;
let defaultDir: string;
let session = 0;

function payload(sessionId: string, root = repo.root, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    session_id: sessionId,
    cwd: root,
    hook_event_name: 'PreToolUse',
    tool_name: 'Edit',
    tool_input: { file_path: 'src/app_core.py', old_string: 'return 1', new_string: 'return 2' },
    ...extra,
  });
}

function baseEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: join(temp, 'home'), ...extra };
}

/** One call in this process. */
function gate(input: string, env: Record<string, string>, root = repo.root): { decision: 'deny' | 'pass' | 'note'; stderr: string[] } {
  const outcome = runGate(Buffer.from(input), { env, processCwd: root, now: Date.now() });
  expect(outcome.exitCode).toBe(0);
  const decision = outcome.stdout === '' ? 'pass' : outcome.stdout.includes('"permissionDecision":"deny"') ? 'deny' : 'note';
  return { decision, stderr: outcome.stderr };
}

/** One call as a real process, killed if it hangs. */
function gateProcess(input: string, env: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [bin, 'gate'], { input, env, cwd: repo.root, encoding: 'utf8', timeout: 30_000 });
  // a call that hangs is killed, and its null status fails the test: no wall-clock bound needed
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function nextSession(): string {
  session++;
  return `hostile-${session}`;
}

function setConfig(text: string | null): void {
  const file = join(repo.root, '.jscr.toml');
  rmSync(file, { force: true });
  if (text !== null) writeFileSync(file, text);
}

beforeAll(() => {
  temp = realpathSync(mkdtempSync(join(tmpdir(), 'jscr-gate-hostile-')));
  mkdirSync(join(temp, 'home'));
  defaultDir = join(temp, 'home', '.local', 'state', 'jscr', 'gate');
  repo = makeRepo({ 'src/app_core.py': 'def app_core():\n    return 1\n' });
});
afterAll(() => {
  repo.cleanup();
  rmSync(temp, { recursive: true, force: true });
});
beforeEach(() => {
  setConfig(null);
  rmSync(defaultDir, { recursive: true, force: true });
});

describe('state_dir from the repository', () => {
  const refusedCases: [string, () => string][] = [
    ['a relative path', () => 'gate-state'],
    ['a dot path', () => './.jscr-gate'],
    ['an absolute path inside the repository', () => join(repo.root, '.cache', 'gate')],
    ['a path that climbs back into the repository', () => `${repo.root}/../${basename(repo.root)}/state`],
    ['inside the repository .git folder', () => join(repo.root, '.git', 'gate')],
    ['a path of a hundred thousand components', () => `${temp}${'/x'.repeat(100_000)}`],
  ];

  it.each(refusedCases)('refuses %s and keeps state in the default place', (_name, value) => {
    setConfig(`[gate]\nstate_dir = ${JSON.stringify(value())}\n`);
    const before = repo.git('status', '--porcelain', '--ignored');
    const result = gate(payload(nextSession()), baseEnv());
    expect(result.decision).toBe('deny');
    expect(result.stderr).toHaveLength(1);
    expect(result.stderr[0]).toContain('state_dir');
    expect(result.stderr[0]).toContain(defaultDir);
    expect(readdirSync(defaultDir).some((n) => n.startsWith('state-hostile-'))).toBe(true);
    // nothing new in the repository, .git included
    expect(repo.git('status', '--porcelain', '--ignored')).toBe(before);
    expect(existsSync(join(repo.root, 'gate-state'))).toBe(false);
    expect(existsSync(join(repo.root, '.git', 'gate'))).toBe(false);
  });

  it('refuses a path inside another git work tree, and inside a bare repository', () => {
    const other = makeRepo({ 'README.md': 'x\n' });
    const bare = join(temp, 'bare.git');
    execFileSync('git', ['init', '-q', '--bare', bare]);
    try {
      for (const dir of [join(other.root, 'deep', 'state'), join(bare, 'hooks')]) {
        setConfig(`[gate]\nstate_dir = ${JSON.stringify(dir)}\n`);
        const result = gate(payload(nextSession()), baseEnv());
        expect(result.decision).toBe('deny');
        expect(result.stderr.join('\n')).toContain('inside a git repository');
        expect(existsSync(join(other.root, 'deep'))).toBe(false);
        expect(readdirSync(join(bare, 'hooks')).some((n) => n.startsWith('state-'))).toBe(false);
      }
    } finally {
      other.cleanup();
    }
  });

  it('judges a path through a symbolic link by where it leads', () => {
    const other = makeRepo({ 'README.md': 'x\n' });
    try {
      const links = join(temp, 'links');
      mkdirSync(links, { recursive: true });
      symlinkSync(repo.root, join(links, 'into-project'));
      symlinkSync(other.root, join(links, 'into-other'));
      for (const dir of [join(links, 'into-project', 'state'), join(links, 'into-other', 'state')]) {
        setConfig(`[gate]\nstate_dir = ${JSON.stringify(dir)}\n`);
        const result = gate(payload(nextSession()), baseEnv());
        expect(result.decision).toBe('deny');
        expect(result.stderr).toHaveLength(1);
        expect(existsSync(join(repo.root, 'state'))).toBe(false);
        expect(existsSync(join(other.root, 'state'))).toBe(false);
      }
    } finally {
      other.cleanup();
    }
  });

  it('refuses an existing directory that is not the gate own: other files, or a symbolic link', () => {
    const foreign = join(temp, 'dot-ssh');
    mkdirSync(foreign, { recursive: true });
    writeFileSync(join(foreign, 'authorized_keys'), 'ssh-ed25519 AAAA test\n');
    const linked = join(temp, 'linked-state');
    mkdirSync(join(temp, 'real-state'), { recursive: true });
    symlinkSync(join(temp, 'real-state'), linked);
    for (const dir of [foreign, linked]) {
      setConfig(`[gate]\nstate_dir = ${JSON.stringify(dir)}\n`);
      const result = gate(payload(nextSession()), baseEnv());
      expect(result.decision).toBe('deny');
      expect(result.stderr).toHaveLength(1);
    }
    expect(readdirSync(foreign)).toEqual(['authorized_keys']);
    expect(readdirSync(join(temp, 'real-state'))).toEqual([]);
  });

  it('uses an absolute directory outside every repository, new or already the gate own', () => {
    const dir = join(temp, 'shared-gate-state');
    setConfig(`[gate]\nstate_dir = ${JSON.stringify(dir)}\n`);
    const id = nextSession();
    expect(gate(payload(id), baseEnv())).toEqual({ decision: 'deny', stderr: [] });
    expect(readdirSync(dir)).toEqual([`state-${id}.json`]);
    // the second call finds a directory holding only gate files: still accepted, and the retry passes
    expect(gate(payload(id), baseEnv())).toEqual({ decision: 'pass', stderr: [] });
    expect(existsSync(defaultDir)).toBe(false);
  });

  it('a JSCR_GATE_STATE_DIR that is a symbolic link (someone else could have placed it in /tmp) is not written through', () => {
    const target = join(temp, 'link-target');
    mkdirSync(target, { recursive: true });
    const link = join(temp, 'shared-tmp-gate');
    symlinkSync(target, link);
    const result = gate(payload(nextSession()), baseEnv({ JSCR_GATE_STATE_DIR: link }));
    expect(result.decision).toBe('deny');
    expect(result.stderr).toHaveLength(1);
    expect(result.stderr[0]).toContain('symbolic link');
    expect(readdirSync(target)).toEqual([]);
    expect(existsSync(defaultDir)).toBe(true);
  });

  it('the environment still wins, but a relative JSCR_GATE_STATE_DIR is refused too', () => {
    setConfig(`[gate]\nstate_dir = "gate-state"\n`);
    const chosen = join(temp, 'env-state');
    expect(gate(payload(nextSession()), baseEnv({ JSCR_GATE_STATE_DIR: chosen }))).toEqual({ decision: 'deny', stderr: [] });
    expect(readdirSync(chosen)).toHaveLength(1);
    const relative = gate(payload(nextSession()), baseEnv({ JSCR_GATE_STATE_DIR: 'env-relative' }));
    expect(relative.decision).toBe('deny');
    expect(relative.stderr.join('\n')).toContain('JSCR_GATE_STATE_DIR');
    expect(existsSync(join(repo.root, 'env-relative'))).toBe(false);
    expect(existsSync(defaultDir)).toBe(true);
  });
});

describe('files planted where the gate reads or writes', () => {
  let stateDir: string;
  beforeEach(() => {
    stateDir = join(temp, `planted-${session}`);
    mkdirSync(stateDir, { recursive: true });
  });

  it('a FIFO in place of the state file neither hangs nor passes the edit', () => {
    const id = nextSession();
    execFileSync('mkfifo', [join(stateDir, `state-${id}.json`)]);
    const result = gateProcess(payload(id), baseEnv({ JSCR_GATE_STATE_DIR: stateDir }));
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('"deny"');
    expect(lstatSync(join(stateDir, `state-${id}.json`)).isFile()).toBe(true);
  });

  it('a symbolic link in place of the state file is neither read nor written through', () => {
    const id = nextSession();
    // the link leads to a "state" that claims the target is checked: believing it would pass the edit
    const victim = join(temp, `victim-${id}.json`);
    const forged = `${JSON.stringify({ checked: [join(repo.root, 'src', 'app_core.py')], last_active: Date.now(), counters: {} })}\n`;
    writeFileSync(victim, forged);
    symlinkSync(victim, join(stateDir, `state-${id}.json`));
    expect(gate(payload(id), baseEnv({ JSCR_GATE_STATE_DIR: stateDir })).decision).toBe('deny');
    expect(readFileSync(victim, 'utf8')).toBe(forged);
    expect(lstatSync(join(stateDir, `state-${id}.json`)).isFile()).toBe(true);
  });

  it.each([
    ['malformed JSON', (): Buffer => Buffer.from('{"checked": [')],
    ['a JSON value of the wrong kind', (): Buffer => Buffer.from('[1, 2, 3]')],
    ['a file over the size limit', (): Buffer => Buffer.alloc(5 * 1024 * 1024, 0x20)],
  ])('%s as state is a fresh state: the edit is denied and the file rewritten valid', (_name, content) => {
    const id = nextSession();
    const file = join(stateDir, `state-${id}.json`);
    writeFileSync(file, content());
    const result = gate(payload(id), baseEnv({ JSCR_GATE_STATE_DIR: stateDir }));
    expect(result).toEqual({ decision: 'deny', stderr: [] });
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { checked: string[] };
    expect(saved.checked).toEqual([join(repo.root, 'src', 'app_core.py')]);
  });

  it('a directory or FIFO planted as the lock is cleared, not waited on', () => {
    for (const plant of ['dir', 'fifo'] as const) {
      const id = nextSession();
      const lock = join(stateDir, `state-${id}.json.lock`);
      if (plant === 'dir') mkdirSync(lock);
      else execFileSync('mkfifo', [lock]);
      const result = gateProcess(payload(id), baseEnv({ JSCR_GATE_STATE_DIR: stateDir }));
      expect(result.stdout).toContain('"deny"');
      expect(result.stderr).toBe('');
    }
  });

  it('a symbolic link in place of metrics.jsonl is not written through', () => {
    const victim = join(temp, 'metrics-victim');
    writeFileSync(victim, 'keep\n');
    symlinkSync(victim, join(stateDir, 'metrics.jsonl'));
    expect(gate(payload(nextSession()), baseEnv({ JSCR_GATE_STATE_DIR: stateDir, JSCR_GATE_METRICS: '1' })).decision).toBe('deny');
    expect(readFileSync(victim, 'utf8')).toBe('keep\n');
  });
});

describe('a hostile .jscr.toml', () => {
  it('a FIFO does not hang the gate; the edit is still judged', () => {
    execFileSync('mkfifo', [join(repo.root, '.jscr.toml')]);
    try {
      const result = gateProcess(payload(nextSession()), baseEnv({ JSCR_GATE_STATE_DIR: join(temp, 'toml-fifo') }));
      expect(result.stdout).toContain('"deny"');
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toContain('.jscr.toml');
    } finally {
      setConfig(null);
    }
  });

  it('a symbolic link is not followed out of the repository (here to a table that would turn the gate off)', () => {
    const outside = join(temp, 'outside.toml');
    writeFileSync(outside, '[gate]\nenabled = false\n');
    symlinkSync(outside, join(repo.root, '.jscr.toml'));
    try {
      const result = gate(payload(nextSession()), baseEnv({ JSCR_GATE_STATE_DIR: join(temp, 'toml-link') }));
      expect(result.decision).toBe('deny');
      expect(result.stderr.join('\n')).toContain('symbolic link');
    } finally {
      setConfig(null);
    }
  });

  it('a flood of bad entries gives one clean warning line, and a flood of globs is cut, quickly', () => {
    const junk = `[gate]\n${'\u001b[2J\u202eevil = ???\n'.repeat(20_000)}exempt_globs = [${'"nothing/*",'.repeat(20_000)}]\n`;
    setConfig(junk);
    try {
      const started = Date.now();
      const result = gate(payload(nextSession()), baseEnv({ JSCR_GATE_STATE_DIR: join(temp, 'toml-flood') }));
      expect(Date.now() - started).toBeLessThan(5000);
      expect(result.decision).toBe('deny');
      expect(result.stderr, result.stderr.join('\n').slice(0, 300)).toHaveLength(2);
      expect(result.stderr[0]).toContain('and 19999 more');
      expect(result.stderr[1]).toContain('only the first 256');
      expect(result.stderr.join('')).not.toMatch(/[\u0000-\u001f\u202e]/);
    } finally {
      setConfig(null);
    }
  });

  it('a link to a device does not hang or fill memory', () => {
    symlinkSync('/dev/zero', join(repo.root, '.jscr.toml'));
    try {
      const result = gateProcess(payload(nextSession()), baseEnv({ JSCR_GATE_STATE_DIR: join(temp, 'toml-dev') }));
      expect(result.stdout).toContain('"deny"');
    } finally {
      setConfig(null);
    }
  });
});

describe('a hostile transcript', () => {
  const withTranscript = (path: string): string => payload(nextSession(), repo.root, { transcript_path: path });

  it.each([
    ['a FIFO', (dir: string): string => {
      const path = join(dir, 'fifo.jsonl');
      execFileSync('mkfifo', [path]);
      return path;
    }],
    ['a link to /dev/zero', (dir: string): string => {
      const path = join(dir, 'zero.jsonl');
      symlinkSync('/dev/zero', path);
      return path;
    }],
    ['a directory', (dir: string): string => {
      const path = join(dir, 'dir.jsonl');
      mkdirSync(path);
      return path;
    }],
  ])('%s neither hangs the gate nor credits the edit', (_name, make) => {
    const dir = mkdtempSync(join(temp, 'tx-'));
    const result = gateProcess(withTranscript(make(dir)), baseEnv({ JSCR_GATE_STATE_DIR: join(dir, 'state') }));
    expect(result.stdout).toContain('"deny"');
  });

  it('a huge transcript is read only at its tail, quickly', () => {
    const dir = mkdtempSync(join(temp, 'tx-'));
    const path = join(dir, 'huge.jsonl');
    const fd = openSync(path, 'w');
    // 3 GiB of NUL bytes (a sparse file), then a turn whose search credits the target
    const line = (record: unknown): string => `${JSON.stringify(record)}\n`;
    writeSync(
      fd,
      '{"type":"user","message":{"content":"x"}}\n' +
        line({ type: 'user', uuid: 'u1', message: { role: 'user', content: 'rename it' } }) +
        line({ type: 'assistant', message: { id: 'm1', content: [{ type: 'tool_use', id: 't1', name: 'Grep', input: { pattern: 'app_core', path: 'src' } }] } }) +
        line({ type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 't1', content: 'src/app_core.py' }] } }) +
        line({ type: 'assistant', message: { id: 'm2', content: [{ type: 'tool_use', id: 't2', name: 'Edit', input: {} }] } }),
      3 * 1024 * 1024 * 1024,
    );
    closeSync(fd);
    const result = gateProcess(payload(nextSession(), repo.root, { transcript_path: path, tool_use_id: 't2' }), baseEnv({ JSCR_GATE_STATE_DIR: join(dir, 'state') }));
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('already covers');
  });
});

describe('a hostile search in the transcript', () => {
  const turnWithGrep = (glob: string): Turn => ({
    id: 'p1',
    records: [
      { type: 'assistant', message: { id: 'm1', content: [{ type: 'tool_use', id: 't1', name: 'Grep', input: { pattern: 'app_core', path: 'src', glob } }] } },
      { type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 't1', content: 'src/app_core.py' }] } },
      { type: 'assistant', message: { id: 'm2', content: [{ type: 'tool_use', id: 't2', name: 'Edit', input: {} }] } },
    ],
  });
  const target = '/work/project/src/app_core.py';

  it('an include glob too long to judge never credits, and costs no time', () => {
    expect(findCredit(turnWithGrep('*.py'), target, false, '/work/project', 't2')).not.toBeNull();
    const started = Date.now();
    expect(findCredit(turnWithGrep(`${'*a'.repeat(100_000)}*.py`), target, false, '/work/project', 't2')).toBeNull();
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
