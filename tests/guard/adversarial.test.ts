/**
 * Adversarial proposals: each tries to get past one gate by spelling, position or timing. Each must be
 * refused with the word named, or accepted when it is in fact harmless.
 */
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { check } from '../../src/guard/check.js';
import type { Consultation, Proposal } from '../../src/guard/shapes.js';
import { consult, fixture, propose, tempRepo } from './helpers.js';
import { testNeedingAll } from '../helpers/programs.js';

// The guard's compile check (word 13) starts python3; the README promises only Node and git.
const itPython = testNeedingAll(['python3'], 'the Python cases past the compile check');

const PY = 'sql-lookup.py';
const JS = 'shell-run.js';

function python(): { root: string; question: Consultation } {
  const root = tempRepo({ [PY]: fixture(PY), [JS]: fixture(JS) });
  return { root, question: consult(root, PY, { start: 4, end: 7, line: 5, symbol: 'lookup', toModules: ['shlex'] }) };
}
function javascript(): { root: string; question: Consultation } {
  const root = tempRepo({ [PY]: fixture(PY), [JS]: fixture(JS) });
  return { root, question: consult(root, JS, { start: 3, end: 6, line: 4, symbol: 'run', toModules: ['shell-quote'] }) };
}

async function pyVerdict(replacement: string, start = 5, end = 6) {
  const { root, question } = python();
  return check(question, propose(question, start, end, replacement), root);
}
async function jsVerdict(replacement: string, start = 4, end = 4) {
  const { root, question } = javascript();
  return check(question, propose(question, start, end, replacement), root);
}

describe('Python: smuggled imports and names', () => {
  itPython.each([
    ['__import__ with a concatenated name', '    mod = __import__("o" + "s")\n', 'import_outside_the_target'],
    ['an importlib alias', '    import importlib as il\n    il.import_module("os")\n', 'import_outside_the_target'],
    ['import_module kept in a variable', '    load = user_id.import_module\n    load("os")\n', 'import_outside_the_target'],
    ['getattr on __builtins__', '    getattr(__builtins__, "ev" + "al")(user_id)\n', 'name_outside_the_question'],
    ['eval', '    eval(user_id)\n', 'name_outside_the_question'],
    ['exec', '    exec(user_id)\n', 'name_outside_the_question'],
    ['globals()', '    globals()["cursor"] = user_id\n', 'name_outside_the_question'],
    ['a fullwidth dunder attribute (NFKC makes it __class__)', '    cursor.execute(user_id.__\uff43lass__)\n', 'name_outside_the_question'],
    ['a fullwidth __import__ (NFKC makes it __import__)', '    mod = __\uff49mport__("os")\n', 'import_outside_the_target'],
    ['fullwidth underscores, which compile() refuses', '    cursor.execute(user_id.\uff3f\uff3fclass\uff3f\uff3f)\n', 'output_does_not_compile'],
    ['a Cyrillic homoglyph of a replaced name', '    cursor.execute(us\u0435r_id)\n', 'name_outside_the_question'],
  ])('refuses %s', async (_name, replacement, word) => {
    expect((await pyVerdict(replacement)).refusal).toBe(word);
  });

  itPython('accepts a fullwidth spelling of a name the replaced lines hold (NFKC: the same name)', async () => {
    expect((await pyVerdict('    cursor.execute("SELECT 1 WHERE id = %s", (\uff55ser_id,))\n')).refusal).toBeNull();
  });
});

describe('Python: replacements that reach past their range', () => {
  it.each([
    ['ending inside a triple-quoted string', '    query = """SELECT *\n'],
    ['ending with a decorator', '    cursor.execute(query)\n    @staticmethod\n'],
    ['ending with an open bracket', '    cursor.execute(query,\n'],
  ])('refuses a replacement %s', async (_name, replacement) => {
    const result = await pyVerdict(replacement);
    expect(['replacement_runs_past_its_range', 'output_does_not_compile']).toContain(result.refusal);
  });
});

describe('JavaScript: smuggled imports and names', () => {
  it.each([
    ['require through a computed name', "  const command = globalThis['req' + 'uire']('fs');\n", 'name_outside_the_question'],
    ['dynamic import() of a variable', '  const command = import(user);\n', 'import_outside_the_target'],
    ['require.call', "  const command = require.call(null, 'fs');\n", 'import_outside_the_target'],
    ['require kept in a variable', "  const load = require; const command = load('fs');\n", 'import_outside_the_target'],
    ['require spelled with an escape', "  const command = requir\\u0065('fs');\n", 'import_outside_the_target'],
    ['the Function constructor through .constructor', "  const command = user.constructor.constructor('return process')();\n", 'name_outside_the_question'],
    ['a computed constructor lookup', "  const command = user['constructor']['constructor']('return 1')();\n", 'name_outside_the_question'],
    ['a computed constructor key, called', "  const command = user['constr' + 'uctor']['constr' + 'uctor']('return 1')();\n", 'name_outside_the_question'],
    ['__proto__ spelled with an escape', '  const command = user.\\u005f_proto__;\n', 'name_outside_the_question'],
    ['eval', '  const command = eval(user);\n', 'name_outside_the_question'],
    ['a prototype rewrite', '  Object.prototype.polluted = user;\n  const command = user;\n', 'name_outside_the_question'],
    ['a template literal left open', '  const command = `id ${user}\n', null],
  ])('refuses %s', async (_name, replacement, word) => {
    const result = await jsVerdict(replacement);
    if (word === null) expect(result.refusal).not.toBeNull();
    else expect(result.refusal).toBe(word);
  });

  it('accepts a licensed require and a bound name', async () => {
    const result = await jsVerdict("  const { quote } = require('shell-quote');\n  const command = 'id ' + quote([user]);\n");
    expect(result.refusal).toBeNull();
  });

  it('accepts reading a computed index without calling it', async () => {
    expect((await jsVerdict("  const command = 'id ' + [user][0] + String(user)[user.length - 1];\n")).refusal).toBeNull();
  });

  it('accepts a class with a constructor method', async () => {
    const result = await jsVerdict('  const command = new (class Quoted {\n    constructor(value) { this.value = value; }\n  })(user).value;\n');
    expect(result.refusal).toBeNull();
  });

  it('counts the tokens of nested object literals as one statement', async () => {
    const nested = `  const command = ${'{a: '.repeat(200)}user${' }'.repeat(200)};\n`;
    expect((await jsVerdict(nested)).refusal).toBe('replacement_too_large');
  });

  it('still accepts a block-bodied callback of many short statements', async () => {
    const body = Array.from({ length: 60 }, (_, k) => `    const part${k} = String(user).slice(${k}, ${k + 1}) + String(user).slice(0, ${k});`).join('\n');
    const result = await jsVerdict(`  const command = ['id'].map((base) => {\n${body}\n    return base;\n  });\n`);
    expect(result.refusal).toBeNull();
  });
});

describe('ranges and paths', () => {
  it.each([
    ['one line before the context', { start_line: 3, end_line: 5 }, 'outside_the_context'],
    ['one line after the context', { start_line: 5, end_line: 8 }, 'outside_the_context'],
    ['start after end', { start_line: 6, end_line: 5 }, 'outside_the_context'],
    ['negative lines', { start_line: -1, end_line: 5 }, 'outside_the_context'],
    ['line zero', { start_line: 0, end_line: 5 }, 'outside_the_context'],
  ])('refuses %s', async (_name, range, word) => {
    const { root, question } = python();
    const proposal: Proposal = { ...propose(question, 5, 6, '    cursor.execute(query, ())\n'), ...range };
    expect((await check(question, proposal, root)).refusal).toBe(word);
  });

  it.each([
    ['a path with ..', 'app/../sql-lookup.py', 'path_outside_root'],
    ['an absolute path', '/tmp/sql-lookup.py', 'path_outside_root'],
    ['another file', JS, 'path_not_the_consulted_file'],
    ['a differently cased path', 'SQL-lookup.py', 'path_not_the_consulted_file'],
  ])('refuses %s', async (_name, path, word) => {
    const { root, question } = python();
    expect((await check(question, { ...propose(question, 5, 6, '    cursor.execute(query, ())\n'), path }, root)).refusal).toBe(word);
  });

  it('keeps the detail to one line when the proposal puts a line break in its path', async () => {
    const { root, question } = python();
    const result = await check(question, { ...propose(question, 5, 6, '    cursor.execute(query, ())\n'), path: 'evil\nrefusal: none.py' }, root);
    expect(result.refusal).toBe('path_not_the_consulted_file');
    expect(result.detail).not.toMatch(/[\n\r]/);
    expect(result.detail).toContain('\\u000a');
  });

  it('refuses a target that is a symlink, even to a file inside the root', async () => {
    const root = tempRepo({ 'real.py': fixture(PY) });
    symlinkSync('real.py', join(root, PY));
    const question = consult(root, PY, { start: 4, end: 7, line: 5, symbol: 'lookup' });
    const result = await check(question, propose(question, 5, 6, '    cursor.execute(query, ())\n'), root);
    expect(result).toMatchObject({ refusal: 'file_changed_since_read', detail: expect.stringMatching(/^symlink/) });
  });

  it('refuses a file changed between the consultation and the check', async () => {
    const { root, question } = python();
    writeFileSync(join(root, PY), readFileSync(join(root, PY), 'utf8').replace('user_id', 'uid'));
    expect((await check(question, propose(question, 5, 6, '    cursor.execute(query, ())\n'), root)).refusal).toBe('file_changed_since_read');
  });
});

describe('line endings and deletions', () => {
  itPython('keeps CRLF line endings in a CRLF file', async () => {
    const root = tempRepo({ 'crlf.py': 'def f(x):\r\n    y = x\r\n    return y\r\n' });
    const question = consult(root, 'crlf.py', { start: 1, end: 3, line: 2, symbol: 'f' });
    const result = await check(question, propose(question, 2, 2, '    y = int(x)\n    y = abs(y)\n'), root);
    expect(result.refusal).toBeNull();
    expect(result.resultBytes?.toString()).toBe('def f(x):\r\n    y = int(x)\r\n    y = abs(y)\r\n    return y\r\n');
  });

  itPython('keeps a missing final line break missing', async () => {
    const root = tempRepo({ 'tail.py': 'def f(x):\n    return x' });
    const question = consult(root, 'tail.py', { start: 1, end: 2, line: 2, symbol: 'f' });
    const result = await check(question, propose(question, 2, 2, '    return abs(x)\n'), root);
    expect(result.refusal).toBeNull();
    expect(result.resultBytes?.toString()).toBe('def f(x):\n    return abs(x)');
  });

  itPython('accepts a deletion (empty replacement) that leaves valid code, and splices only its range', async () => {
    const root = tempRepo({ 'del.py': 'def f(x):\n    y = x\n    print(y)\n    return x\n' });
    const question = consult(root, 'del.py', { start: 1, end: 4, line: 3, symbol: 'f' });
    const result = await check(question, propose(question, 3, 3, ''), root);
    expect(result.refusal).toBeNull();
    expect(result.resultBytes?.toString()).toBe('def f(x):\n    y = x\n    return x\n');
  });

  it('refuses a deletion that leaves a block without a body', async () => {
    const root = tempRepo({ 'del.py': 'def f(x):\n    return x\n' });
    const question = consult(root, 'del.py', { start: 1, end: 2, line: 2, symbol: 'f' });
    expect((await check(question, propose(question, 2, 2, ''), root)).refusal).toBe('output_does_not_compile');
  });
});
