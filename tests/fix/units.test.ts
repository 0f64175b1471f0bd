/** The fix command's small parts: --verify splitting, the diff, the context window, --finding selection. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { windowAround } from '../../src/fix/consultation.js';
import { unifiedDiff } from '../../src/fix/diff.js';
import { selectFindings } from '../../src/fix/fix.js';
import { RuleAliases } from '../../src/rules/aliases.js';
import { chooseRunFolder } from '../../src/fix/runfolder.js';
import { splitCommand } from '../../src/fix/shellwords.js';
import { PROPOSAL_JSON_SCHEMA, anthropicProvider, openaiProvider, proposalReplySchema } from '../../src/model/index.js';
import { runUserCommand } from '../../src/policy/process.js';
import { atOccurrence, makeFinding } from '../../src/report/fingerprint.js';

describe('splitCommand (--verify)', () => {
  const valid: [string, string[]][] = [
    ['npm test', ['npm', 'test']],
    ["python3 -c 'import sys; sys.exit(1)'", ['python3', '-c', 'import sys; sys.exit(1)']],
    ['pytest  -k "not slow"\tx', ['pytest', '-k', 'not slow', 'x']],
    ['echo a\\ b "say \\"hi\\"" \'\\n\'', ['echo', 'a b', 'say "hi"', '\\n']],
    ['run \\| \\& "a|b;c"', ['run', '|', '&', 'a|b;c']],
    ["empty '' \"\"", ['empty', '', '']],
  ];
  it.each(valid)('%s', (command, argv) => {
    expect(splitCommand(command)).toEqual(argv);
  });

  const refused = ['make && rm -rf /', 'a | b', 'a; b', 'a > out', 'echo $HOME', 'echo "$HOME"', 'echo `id`', 'ls *.py', 'ls ~', 'a &', '', '   ', "unterminated 'quote", 'ends with \\', 'two\nlines'];
  it.each(refused)('refuses %j', (command) => {
    expect(() => splitCommand(command)).toThrow(UsageError);
  });
});

describe('unifiedDiff', () => {
  it('one hunk with three lines of context on each side', () => {
    const before = ['a', 'b', 'c', 'd', 'old', 'e', 'f', 'g', 'h', ''].join('\n');
    const after = ['a', 'b', 'c', 'd', 'new 1', 'new 2', 'e', 'f', 'g', 'h', ''].join('\n');
    expect(unifiedDiff('x.py', before, after)).toBe(['--- a/x.py', '+++ b/x.py', '@@ -2,7 +2,8 @@', ' b', ' c', ' d', '-old', '+new 1', '+new 2', ' e', ' f', ' g', ''].join('\n'));
  });
  it('marks a last line without a line break', () => {
    expect(unifiedDiff('x.js', 'a\nb', 'a\nc')).toBe('--- a/x.js\n+++ b/x.js\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n');
  });
  it('is empty for equal texts', () => {
    expect(unifiedDiff('x.py', 'same\n', 'same\n')).toBe('');
  });
});

describe('windowAround', () => {
  it('keeps at most the limit, inside the file, around the line', () => {
    expect(windowAround(100, 500, 80)).toEqual({ start: 61, end: 140 });
    expect(windowAround(3, 500, 80)).toEqual({ start: 1, end: 80 });
    expect(windowAround(499, 500, 80)).toEqual({ start: 421, end: 500 });
    expect(windowAround(5, 10, 80)).toEqual({ start: 1, end: 10 });
  });
});

describe('selectFindings (--finding)', () => {
  const finding = (line: number, evidence: string) =>
    makeFinding({ rule: 'jscr/test', source: 'rule', severity: 'high', confidence: 1, path: 'a.py', line, end_line: line, title: 't', message: 'm', evidence, cwe: null });
  const one = finding(3, 'eval(x)');
  const two = finding(9, 'exec(y)');
  it('takes every finding when none is named', () => {
    expect(selectFindings([one, two], [])).toEqual([one, two]);
  });
  it('matches the full fingerprint or the 12-character id, case-insensitively', () => {
    expect(selectFindings([one, two], [two.fingerprint])).toEqual([two]);
    expect(selectFindings([one, two], [one.id.toUpperCase(), two.id])).toEqual([one, two]);
  });
  it('refuses an unknown or partial fingerprint with a UsageError', () => {
    expect(() => selectFindings([one], ['0123456789ab'])).toThrow(UsageError);
    expect(() => selectFindings([one], [one.id.slice(0, 8)])).toThrow(UsageError);
  });
  it('tells two copies of one line apart by their version 2 fingerprints; a version 1 value names the first copy', () => {
    const first = atOccurrence(finding(3, 'eval(x)'), { scope: 'run', index: 0 });
    const copy = atOccurrence(finding(7, 'eval(x)'), { scope: 'run', index: 1 });
    expect(first.fingerprint).not.toBe(copy.fingerprint);
    expect(first.fingerprint_v1).toBe(copy.fingerprint_v1);
    expect(selectFindings([first, copy], [copy.fingerprint])).toEqual([copy]);
    expect(selectFindings([copy, first], [first.fingerprint_v1])).toEqual([first]);
    expect(selectFindings([copy, first], [first.fingerprint_v1.slice(0, 12)])).toEqual([first]);
  });
  it('finds a finding of a renamed rule by the fingerprint it had under its old id', () => {
    const aliases = new RuleAliases([{ old: 'jscr/old-test', now: 'jscr/test', reason: 'renamed' }]);
    const underOldId = atOccurrence({ ...one, rule: 'jscr/old-test' }, one.occurrence ?? { scope: '', index: 0 });
    expect(selectFindings([one, two], [underOldId.fingerprint], aliases)).toEqual([one]);
    expect(selectFindings([one, two], [underOldId.fingerprint_v1], aliases)).toEqual([one]);
    expect(() => selectFindings([one, two], [underOldId.fingerprint], new RuleAliases([]))).toThrow(UsageError);
  });
});

describe('chooseRunFolder', () => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'jscr-fix-folder-')));
  const root = join(base, 'repo');
  mkdirSync(join(root, 'sub'), { recursive: true });
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  const now = new Date('2025-03-04T05:06:07.089Z');

  it('defaults to $XDG_STATE_HOME/jscr/runs/<timestamp>-<random>', async () => {
    const folder = await chooseRunFolder({ cwd: root, env: { XDG_STATE_HOME: join(base, 'state') }, root, now });
    expect(folder).toMatch(new RegExp(`^${join(base, 'state', 'jscr', 'runs')}/20250304T050607Z-[0-9a-f]{6}$`));
  });
  it('falls back to ~/.local/state when XDG_STATE_HOME is unset or relative', async () => {
    const folder = await chooseRunFolder({ cwd: root, env: { HOME: join(base, 'home'), XDG_STATE_HOME: 'relative' }, root, now });
    expect(folder.startsWith(join(base, 'home', '.local', 'state', 'jscr', 'runs'))).toBe(true);
  });
  it('refuses --out inside the repository, also through a path that does not exist yet', async () => {
    await expect(chooseRunFolder({ out: 'sub/runs/new', cwd: root, env: {}, root, now })).rejects.toThrow(UsageError);
    await expect(chooseRunFolder({ out: root, cwd: base, env: {}, root, now })).rejects.toThrow(UsageError);
  });
  it('refuses --out through a link inside the repository that leads out of it', async () => {
    mkdirSync(join(base, 'elsewhere'));
    symlinkSync(join(base, 'elsewhere'), join(root, 'reports'));
    await expect(chooseRunFolder({ out: 'reports/run', cwd: root, env: {}, root, now })).rejects.toThrow(/inside the repository/);
  });
  it('refuses a non-empty --out, accepts an empty one', async () => {
    mkdirSync(join(base, 'full'));
    writeFileSync(join(base, 'full', 'x'), 'x');
    await expect(chooseRunFolder({ out: join(base, 'full'), cwd: root, env: {}, root, now })).rejects.toThrow(/not empty/);
    mkdirSync(join(base, 'empty'));
    await expect(chooseRunFolder({ out: join(base, 'empty'), cwd: root, env: {}, root, now })).resolves.toBe(join(base, 'empty'));
  });
});

describe('runUserCommand', () => {
  it('runs the named program with its argument vector and no shell', async () => {
    // Node itself as the program: the README promises a machine with only Node and git.
    const result = await runUserCommand([process.execPath, '-e', 'console.log(JSON.stringify(process.argv.slice(1)))', '$(id)', 'a b'], { cwd: tmpdir(), timeoutMs: 20_000 });
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe('["$(id)","a b"]');
  });
  it('refuses an empty vector', () => {
    expect(() => runUserCommand([], { cwd: tmpdir(), timeoutMs: 1000 })).toThrow(/empty command/);
  });
});

describe('the proposal reply kind (src/model)', () => {
  const prompt = { model: 'm', system: 's', user: 'u', kind: 'proposal' as const, maxOutputTokens: 100 };
  it('asks OpenAI for the jscr_proposal schema and Anthropic for the propose_edit tool', () => {
    const openai = openaiProvider.body(prompt) as { response_format: { json_schema: { name: string; schema: unknown } } };
    expect(openai.response_format.json_schema).toMatchObject({ name: 'jscr_proposal', schema: PROPOSAL_JSON_SCHEMA });
    const anthropic = anthropicProvider.body(prompt) as { tool_choice: { name: string } };
    expect(anthropic.tool_choice.name).toBe('propose_edit');
  });
  it('reads the proposal back from an Anthropic tool call, and refuses the wrong tool', () => {
    const input = { path: 'a.py', start_line: 1, end_line: 1, symbol: 'f', replaces: 'x\n', replacement: 'y\n' };
    const reply = (name: string) => ({ content: [{ type: 'tool_use', name, input }], usage: { input_tokens: 1, output_tokens: 2 } });
    expect(anthropicProvider.read('proposal', reply('propose_edit'))).toMatchObject({ ok: true, payload: input });
    expect(anthropicProvider.read('proposal', reply('report_findings')).ok).toBe(false);
  });
  it('the JSON Schema and the zod schema name the same fields', () => {
    expect([...PROPOSAL_JSON_SCHEMA.required].sort()).toEqual(Object.keys(proposalReplySchema.shape).sort());
  });
});
