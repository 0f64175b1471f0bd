/** End to end: the built `node bin/jscr gate` and `jscr profile` as real processes. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = join(import.meta.dirname, '..', '..');
const bin = join(repoRoot, 'bin', 'jscr');
let temp: string;
let project: string;

function run(args: string[], input: string | Buffer, env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [bin, ...args], {
    input,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: temp, JSCR_GATE_STATE_DIR: join(temp, 'state'), ...env },
    cwd: project,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function editPayload(session: string, oldString: string, newString: string): string {
  return JSON.stringify({ session_id: session, cwd: project, hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: 'src/total.js', old_string: oldString, new_string: newString } });
}

beforeAll(() => {
  temp = mkdtempSync(join(tmpdir(), 'jscr-gate-e2e-'));
  project = join(temp, 'project');
  mkdirSync(join(project, 'src'), { recursive: true });
  writeFileSync(join(project, 'src', 'total.js'), 'function total(a, b) {\n  // add them\n  return a + b;\n}\nmodule.exports = { total };\n');
});
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe('jscr gate (built)', () => {
  it('denies a first touch, passes the retry unchanged, and never says allow', () => {
    const payload = editPayload('e2e-1', 'return a + b;', 'return a - b;');
    const first = run(['gate'], payload);
    expect(first.status).toBe(0);
    const decision = JSON.parse(first.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
    expect(decision.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(decision.hookSpecificOutput.permissionDecisionReason).toContain('1. ');
    const retry = run(['gate'], payload);
    expect(retry.status).toBe(0);
    expect(retry.stdout).toBe('');
    expect(`${first.stdout}${retry.stdout}`).not.toContain('"allow"');
    const stateFiles = readdirSync(join(temp, 'state')).filter((n) => n.startsWith('state-'));
    expect(stateFiles).toEqual(['state-e2e-1.json']);
  });

  it('passes a comment-only edit with a note', () => {
    const result = run(['gate'], editPayload('e2e-2', '// add them', '// add the two'));
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ hookSpecificOutput: { hookEventName: 'PreToolUse' } });
    expect(result.stdout).toContain('additionalContext');
  });

  it('lets malformed JSON through: exit 0, nothing on stdout', () => {
    const result = run(['gate'], '{"tool_name": "Edit", ');
    expect(result).toMatchObject({ status: 0, stdout: '' });
  });

  it('refuses input over 1 MiB with exit 2 and one stderr line', () => {
    const result = run(['gate'], Buffer.alloc(1024 * 1024 + 1, 0x20));
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('passes with one warning when the state directory cannot be written', () => {
    const blocker = join(temp, 'blocker');
    writeFileSync(blocker, 'x');
    const payload = editPayload('e2e-3', 'return a + b;', 'return b + a;');
    const result = run(['gate'], payload, { JSCR_GATE_STATE_DIR: join(blocker, 'state') });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('reads the [gate] table of .jscr.toml, and the environment wins', () => {
    writeFileSync(join(project, '.jscr.toml'), '[review]\nfail_on = "low"\n\n[gate]\nexempt_globs = ["src/**"]\n');
    try {
      const payload = editPayload('e2e-4', 'return a + b;', 'return a * b;');
      expect(run(['gate'], payload).stdout).toBe('');
      const overridden = run(['gate'], payload, { JSCR_GATE_EXEMPT_GLOBS: 'docs/**' });
      expect(overridden.stdout).toContain('"deny"');
    } finally {
      rmSync(join(project, '.jscr.toml'));
    }
  });

  it('answers a realistic Claude Code sequence only in the PreToolUse output shapes', () => {
    writeFileSync(join(project, 'src', 'report.ipynb'), '{"cells":[],"metadata":{},"nbformat":4,"nbformat_minor":5}\n');
    const transcript = join(temp, 'session.jsonl');
    const line = (record: unknown): string => `${JSON.stringify(record)}\n`;
    writeFileSync(
      transcript,
      line({ type: 'user', isSidechain: false, uuid: 'u1', sessionId: 'e2e-seq', message: { role: 'user', content: 'make total subtract' } }) +
        line({ type: 'assistant', uuid: 'a1', message: { id: 'msg_1', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'rg -n total src' } }] } }) +
        line({ type: 'user', uuid: 'u2', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'src/total.js:1' }] } }) +
        line({ type: 'assistant', uuid: 'a2', message: { id: 'msg_2', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_2', name: 'Edit', input: {} }] } }),
    );
    const common = { session_id: 'e2e-seq', transcript_path: transcript, cwd: project, permission_mode: 'default', hook_event_name: 'PreToolUse', some_future_field: { nested: true } };
    const calls = [
      { ...common, tool_name: 'Bash', tool_input: { command: 'npm test', description: 'run tests' }, tool_use_id: 'toolu_0' },
      { ...common, tool_name: 'Edit', tool_input: { file_path: 'src/total.js', old_string: 'return a + b;', new_string: 'return a - b;' }, tool_use_id: 'toolu_2' },
      { ...common, tool_name: 'MultiEdit', tool_input: { file_path: join(project, 'src', 'extra.js'), edits: [{ old_string: 'a', new_string: 'b' }, 'junk'] }, tool_use_id: 'toolu_3' },
      { ...common, tool_name: 'Write', tool_input: { file_path: 'src/fresh.js', content: 'module.exports = 1;\n' }, tool_use_id: 'toolu_4' },
      { ...common, tool_name: 'NotebookEdit', tool_input: { notebook_path: 'src/report.ipynb', cell_id: 'c1', new_source: 'print(1)', edit_mode: 'replace' }, tool_use_id: 'toolu_5' },
    ];
    const kinds: string[] = [];
    for (const call of calls) {
      const raw = JSON.stringify(call);
      const result = run(['gate'], raw);
      expect(result.status).toBe(0);
      expect(result.stdout).not.toMatch(/"allow"/);
      if (result.stdout === '') {
        kinds.push('pass');
        continue;
      }
      const output = JSON.parse(result.stdout) as { hookSpecificOutput: Record<string, unknown> };
      expect(Object.keys(output)).toEqual(['hookSpecificOutput']);
      const specific = output.hookSpecificOutput;
      expect(specific.hookEventName).toBe('PreToolUse');
      if (specific.permissionDecision !== undefined) {
        expect(Object.keys(specific).sort()).toEqual(['hookEventName', 'permissionDecision', 'permissionDecisionReason']);
        expect(specific.permissionDecision).toBe('deny');
        expect(typeof specific.permissionDecisionReason).toBe('string');
        kinds.push('deny');
      } else {
        expect(Object.keys(specific).sort()).toEqual(['additionalContext', 'hookEventName']);
        expect(typeof specific.additionalContext).toBe('string');
        kinds.push('note');
      }
    }
    // Bash passes; the searched file is credited; the others are first touches
    expect(kinds).toEqual(['pass', 'note', 'deny', 'deny', 'deny']);
  });

  it('writes metrics as codes only when asked', () => {
    const stateDir = join(temp, 'metrics-state');
    run(['gate'], editPayload('e2e-secret-session', 'return a + b;', 'return a % b;'), { JSCR_GATE_METRICS: 'on', JSCR_GATE_STATE_DIR: stateDir });
    const line = readFileSync(join(stateDir, 'metrics.jsonl'), 'utf8').trim();
    const record = JSON.parse(line) as Record<string, unknown>;
    expect(record).toMatchObject({ v: 1, tool: 'edit', class: 'code', decision: 'deny', reason: 'first-touch' });
    expect(line).not.toContain('total');
    expect(line).not.toContain('e2e-secret-session');
  });
});

describe('jscr profile (built)', () => {
  it('prints the profile of a payload, reading the target file', () => {
    const result = run(['profile'], editPayload('p', '// add them', '// add both'));
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      known: true,
      language: 'javascript',
      touchesPublicSurface: false,
      touchesData: false,
      trivial: true,
      questions: ['local-callers', 'quote-instruction'],
    });
  });
  it('uses --file-text instead of the target, and an unknown profile asks the full set', () => {
    const other = join(temp, 'other.js');
    writeFileSync(other, 'let z = 1;\n');
    const trivialElsewhere = run(['profile', '--file-text', other], editPayload('p', '// add them', '// add both'));
    expect(JSON.parse(trivialElsewhere.stdout)).toMatchObject({ trivial: false });
    const ruby = JSON.stringify({ tool_name: 'Edit', cwd: project, tool_input: { file_path: 'a.rb', old_string: 'a', new_string: 'b' } });
    expect(JSON.parse(run(['profile'], ruby).stdout)).toEqual({
      known: false,
      language: null,
      touchesPublicSurface: true,
      touchesData: true,
      trivial: false,
      questions: ['importers', 'public-api', 'data-schema', 'quote-instruction'],
    });
  });
});

describe('the gate bundle stays light', () => {
  it('bundles only src/gate, src/profile, src/languages, src/lexing, src/config-file.ts, src/errors.ts, src/io.ts and node built-ins', async () => {
    const result = await build({
      entryPoints: [join(repoRoot, 'src', 'gate', 'main.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    const outside = inputs.filter((p) => !/^src\/(gate|profile|languages|lexing)\/|^src\/(errors|io|config-file)\.ts$/.test(p));
    expect(outside).toEqual([]);
    expect(inputs).toContain('src/profile/comparable.ts');
    expect(inputs).toContain('src/lexing/c-family.ts');
  });
});
