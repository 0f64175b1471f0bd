/**
 * One case (or a boundary pair) for each of the seventeen refusal words, and the order of the checks.
 * Python cases work on fixtures/guard/sql-lookup.py:
 *   4 def lookup(cursor, user_id):   5 query = ... % user_id   6 cursor.execute(query)   7 return ...
 */
import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { check, CHECK_ORDER } from '../../src/guard/check.js';
import { REFUSAL_WORDS } from '../../src/guard/refusal-words.js';
import type { Consultation } from '../../src/guard/shapes.js';
import { consult, fixture, propose, tempRepo } from './helpers.js';
import { testNeedingAll } from '../helpers/programs.js';

// The guard's compile check (word 13) starts python3; the README promises only Node and git.
const itPython = testNeedingAll(['python3'], 'the Python cases past the compile check');

const PY = 'sql-lookup.py';
const GOOD = '    cursor.execute("SELECT * FROM users WHERE id = %s", (user_id,))\n';

let root: string;
let question: Consultation;

beforeEach(() => {
  root = tempRepo({ [PY]: fixture(PY), 'shell-run.js': fixture('shell-run.js'), 'notes.md': '# notes\n' });
  question = consult(root, PY, { start: 4, end: 7, line: 5, symbol: 'lookup', toModules: ['shlex'] });
});

async function verdict(proposal = propose(question, 5, 6, GOOD), consultation = question) {
  return check(consultation, proposal, root);
}

/**
 * The seventeen words in the order the seed's table numbers them, with SPEC 5's word 2. Written out
 * here rather than imported, so a reordered or renamed check in src cannot also move the expectation.
 */
const SEVENTEEN_IN_ORDER = [
  'path_outside_root',
  'path_not_supported_language',
  'path_not_the_consulted_file',
  'file_changed_since_read',
  'outside_the_context',
  'site_not_replaced',
  'symbol_mismatch',
  'replaced_text_differs',
  'replacement_too_large',
  'replacement_not_displayable',
  'replacement_carries_redaction',
  'replacement_not_encodable',
  'output_does_not_compile',
  'output_does_not_parse',
  'replacement_runs_past_its_range',
  'import_outside_the_target',
  'name_outside_the_question',
];

describe('the vocabulary and the order', () => {
  it('has the seventeen words, and the checks run in the order the seed numbers them', () => {
    expect(SEVENTEEN_IN_ORDER).toHaveLength(17);
    expect(new Set(SEVENTEEN_IN_ORDER).size).toBe(17);
    expect([...REFUSAL_WORDS]).toEqual(SEVENTEEN_IN_ORDER);
    expect([...CHECK_ORDER]).toEqual(SEVENTEEN_IN_ORDER);
  });

  itPython('accepts a good proposal and returns the spliced bytes', async () => {
    const result = await verdict();
    expect(result.refusal).toBeNull();
    const text = result.resultBytes?.toString('utf8') ?? '';
    expect(text).toContain(GOOD);
    expect(text).not.toContain('% user_id');
    expect(result.result_sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('reports only the first refusal when several checks fail', async () => {
    const proposal = { ...propose(question, 5, 6, 'import os\n'.repeat(100)), path: '../sql-lookup.py', symbol: 'other' };
    const result = await verdict(proposal);
    expect(result.refusal).toBe('path_outside_root');
    const second = await verdict({ ...proposal, path: PY });
    expect(second.refusal).toBe('symbol_mismatch');
  });
});

describe('1 path_outside_root', () => {
  it.each([
    ['../../.bashrc', 'climbs out'],
    ['/etc/passwd.py', 'absolute'],
    ['dir\\x.py', 'backslash'],
    ['./sql-lookup.py', 'plain relative'],
  ])('refuses %s', async (path, detail) => {
    const result = await verdict({ ...propose(question, 5, 6, GOOD), path });
    expect(result.refusal).toBe('path_outside_root');
    expect(result.detail).toContain(detail);
  });

  it('refuses a path through a directory symlink that leaves the root', async () => {
    const outside = tempRepo({ 'x.py': 'x = 1\n' });
    symlinkSync(outside, join(root, 'linked'));
    const result = await verdict({ ...propose(question, 5, 6, GOOD), path: 'linked/x.py' });
    expect(result.refusal).toBe('path_outside_root');
    expect(result.detail).toContain('symbolic link');
  });
});

describe('2 path_not_supported_language', () => {
  it.each(['notes.md', 'stubs.pyi', 'Makefile'])('refuses %s', async (path) => {
    const result = await verdict({ ...propose(question, 5, 6, GOOD), path });
    expect(result.refusal).toBe('path_not_supported_language');
  });

  it.each(['OTHER.PY', 'ui/App.TSX', 'lib/x.Mjs'])('reads the extension of %s in any letter case (on to word 3)', async (path) => {
    const result = await verdict({ ...propose(question, 5, 6, GOOD), path });
    expect(result.refusal).toBe('path_not_the_consulted_file');
  });
});

describe('3 path_not_the_consulted_file', () => {
  it('says whether the other file exists or was invented', async () => {
    const other = await verdict({ ...propose(question, 5, 6, GOOD), path: 'shell-run.js' });
    expect(other.refusal).toBe('path_not_the_consulted_file');
    expect(other.detail).toContain('another file');
    const invented = await verdict({ ...propose(question, 5, 6, GOOD), path: 'invented.py' });
    expect(invented.refusal).toBe('path_not_the_consulted_file');
    expect(invented.detail).toContain('invented');
  });
});

describe('4 file_changed_since_read', () => {
  it('names changed, gone, symlink and unreadable', async () => {
    writeFileSync(join(root, PY), fixture(PY).toString() + '# edited\n');
    expect(await verdict()).toMatchObject({ refusal: 'file_changed_since_read', detail: expect.stringMatching(/^changed/) });
    rmSync(join(root, PY));
    expect(await verdict()).toMatchObject({ refusal: 'file_changed_since_read', detail: expect.stringMatching(/^gone/) });
    writeFileSync(join(root, 'real.py'), fixture(PY));
    symlinkSync('real.py', join(root, PY));
    expect(await verdict()).toMatchObject({ refusal: 'file_changed_since_read', detail: expect.stringMatching(/^symlink/) });
    rmSync(join(root, PY));
    mkdirSync(join(root, PY));
    expect(await verdict()).toMatchObject({ refusal: 'file_changed_since_read', detail: expect.stringMatching(/^unreadable/) });
  });

  it('refuses an unreadable file when permissions apply', async () => {
    if (process.getuid?.() === 0) return; // root reads anything; the directory case above covers "unreadable"
    chmodSync(join(root, PY), 0o000);
    expect((await verdict()).refusal).toBe('file_changed_since_read');
  });
});

describe('5 outside_the_context', () => {
  itPython('accepts the context edges and refuses one line past them', async () => {
    expect((await verdict(propose(question, 4, 7, 'def lookup(cursor, user_id):\n' + GOOD + '    return cursor.fetchone()\n'))).refusal).toBeNull();
    expect((await verdict({ ...propose(question, 5, 6, GOOD), start_line: 3 })).refusal).toBe('outside_the_context');
    expect((await verdict({ ...propose(question, 5, 6, GOOD), end_line: 8 })).refusal).toBe('outside_the_context');
    expect((await verdict({ ...propose(question, 5, 6, GOOD), start_line: 6, end_line: 5 })).refusal).toBe('outside_the_context');
  });
});

describe('6 site_not_replaced', () => {
  it('refuses a range that does not hold the line asked about', async () => {
    const result = await verdict(propose(question, 6, 6, '    cursor.execute(query, ())\n'));
    expect(result).toMatchObject({ refusal: 'site_not_replaced', detail: expect.stringContaining('line 5') });
  });
});

describe('7 symbol_mismatch', () => {
  it('refuses another symbol, and any answer to a question without one', async () => {
    expect((await verdict({ ...propose(question, 5, 6, GOOD), symbol: 'digest' })).refusal).toBe('symbol_mismatch');
    const noSymbol = { ...question, symbol: null };
    expect((await verdict({ ...propose(question, 5, 6, GOOD), symbol: null }, noSymbol)).refusal).toBe('symbol_mismatch');
  });
});

describe('8 replaced_text_differs', () => {
  itPython('ignores trailing whitespace and trailing blank lines, not indentation', async () => {
    const base = propose(question, 5, 6, GOOD);
    const relaxed = base.replaces.replace(/\n/g, '   \n').replace(/\n$/, '') + '\n\n\n';
    expect((await verdict({ ...base, replaces: relaxed })).refusal).toBeNull();
    expect((await verdict({ ...base, replaces: base.replaces.replace(/^ {4}/, '  ') })).refusal).toBe('replaced_text_differs');
    expect((await verdict({ ...base, replaces: base.replaces.split('\n')[0] ?? '' })).refusal).toBe('replaced_text_differs');
  });

  it('refuses a quote of the lines one off from the range', async () => {
    const base = propose(question, 5, 6, GOOD);
    const shifted = propose(question, 6, 7, GOOD).replaces;
    expect((await verdict({ ...base, replaces: shifted })).refusal).toBe('replaced_text_differs');
  });

  it('refuses every proposal for a context whose redaction joined lines', async () => {
    const text = 'def lookup(cursor, user_id):\n    query = "[REDACTED:private-key]"\n    return cursor.fetchone()\n';
    const joined = consult(root, PY, { start: 4, end: 7, line: 5, symbol: 'lookup', text });
    const result = await verdict({ ...propose(question, 5, 6, GOOD), replaces: '    query = "[REDACTED:private-key]"\n' }, joined);
    expect(result).toMatchObject({ refusal: 'replaced_text_differs', detail: expect.stringContaining('joined lines') });
  });
});

describe('9 replacement_too_large', () => {
  const lines = (n: number) => Array.from({ length: n }, (_, k) => `    value_${k} = ${k}\n`).join('');
  itPython.each([
    [79, null],
    [80, null],
    [81, 'replacement_too_large'],
  ])('%i lines → %s', async (n, word) => {
    expect((await verdict(propose(question, 5, 6, lines(n)))).refusal).toBe(word);
  });

  itPython.each([
    [81_920, null],
    [81_921, 'replacement_too_large'],
  ])('%i bytes → %s', async (bytes, word) => {
    const frame = '    query = ""\n';
    const replacement = `    query = "${'a'.repeat(bytes - frame.length)}"\n`;
    expect(Buffer.byteLength(replacement)).toBe(bytes);
    expect((await verdict(propose(question, 5, 6, replacement))).refusal).toBe(word);
  });

  itPython.each([
    [500, null],
    [501, 'replacement_too_large'],
  ])('a statement of %i tokens → %s', async (tokens, word) => {
    // "total = user_id (+ user_id)*k" is 3 + 2k tokens; a unary minus adds one.
    const statement = tokens % 2 === 1 ? `total = user_id${' + user_id'.repeat((tokens - 3) / 2)}` : `total = -user_id${' + user_id'.repeat((tokens - 4) / 2)}`;
    const result = await verdict(propose(question, 5, 6, `    ${statement}\n`));
    expect(result.refusal).toBe(word);
  });
});

describe('10 replacement_not_displayable', () => {
  itPython('allows a tab and refuses an escape', async () => {
    expect((await verdict(propose(question, 5, 6, GOOD.replace('\n', '\t# bound parameter\n')))).refusal).toBeNull();
    const escape = await verdict(propose(question, 5, 6, '    cursor.execute("\u001b[2J", (user_id,))\n'));
    expect(escape).toMatchObject({ refusal: 'replacement_not_displayable', detail: expect.stringContaining('U+001B') });
  });

  it('refuses a bidirectional override and a lone carriage return', async () => {
    expect((await verdict(propose(question, 5, 6, '    query = "\u202e"\n'))).refusal).toBe('replacement_not_displayable');
    expect((await verdict(propose(question, 5, 6, '    query = 1\r    query = 2\n'))).refusal).toBe('replacement_not_displayable');
  });
});

describe('11 replacement_carries_redaction', () => {
  it('refuses an echoed marker', async () => {
    const result = await verdict(propose(question, 5, 6, '    cursor.execute("[REDACTED:password]", (user_id,))\n'));
    expect(result.refusal).toBe('replacement_carries_redaction');
  });

  itPython('allows a marker the replaced lines already hold on disk', async () => {
    const text = 'def lookup(cursor, user_id):\n    label = "[REDACTED]"\n    return label\n';
    const repo = tempRepo({ 'label.py': text });
    const asked = consult(repo, 'label.py', { start: 1, end: 3, line: 2, symbol: 'lookup' });
    const result = await check(asked, propose(asked, 2, 2, '    label = "[REDACTED] " + str(len(label))\n'), repo);
    expect(result.refusal).toBeNull();
  });
});

describe('12 replacement_not_encodable', () => {
  const latin1 = Buffer.from('# -*- coding: latin-1 -*-\ndef greet(name):\n    return "caf\u00e9 " + name\n', 'latin1');

  itPython('refuses a character the file\'s declared encoding lacks, and writes latin-1 bytes otherwise', async () => {
    const repo = tempRepo({ 'greet.py': latin1 });
    const asked = consult(repo, 'greet.py', { start: 2, end: 3, line: 3, symbol: 'greet' });
    const euro = await check(asked, propose(asked, 3, 3, '    return "\u20ac " + name\n'), repo);
    expect(euro).toMatchObject({ refusal: 'replacement_not_encodable', detail: expect.stringContaining('U+20AC') });
    const accented = await check(asked, propose(asked, 3, 3, '    return "na\u00efve " + name\n'), repo);
    expect(accented.refusal).toBeNull();
    expect(accented.resultBytes?.includes(Buffer.from([0x6e, 0x61, 0xef, 0x76]))).toBe(true);
  });

  itPython('keeps a UTF-8 byte order mark', async () => {
    const repo = tempRepo({ 'bom.py': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('def f(x):\n    return x\n')]) });
    const asked = consult(repo, 'bom.py', { start: 1, end: 2, line: 2, symbol: 'f' });
    const result = await check(asked, propose(asked, 2, 2, '    return len(x)\n'), repo);
    expect(result.refusal).toBeNull();
    expect([...(result.resultBytes ?? Buffer.alloc(0)).subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });

  it('refuses a lone surrogate in a UTF-8 file', async () => {
    const js = consult(root, 'shell-run.js', { start: 3, end: 6, line: 4, symbol: 'run' });
    const result = await check(js, propose(js, 4, 4, "  const command = 'id \ud800' + user;\n"), root);
    expect(result.refusal).toBe('replacement_not_encodable');
  });
});

describe('13 output_does_not_compile', () => {
  itPython('refuses a Python syntax error from python3 compile()', async () => {
    const result = await verdict(propose(question, 5, 6, '    cursor.execute(query))\n'));
    expect(result).toMatchObject({ refusal: 'output_does_not_compile', detail: expect.stringContaining('SyntaxError') });
  });

  it('fails closed, with the reason, when python3 is absent', async () => {
    const result = await check(question, propose(question, 5, 6, GOOD), root, { env: { PATH: '/nonexistent' } });
    expect(result).toMatchObject({ refusal: 'output_does_not_compile', detail: expect.stringContaining('python3 could not be started') });
  });

  it('refuses a JavaScript syntax error from TypeScript\'s parser', async () => {
    const js = consult(root, 'shell-run.js', { start: 3, end: 6, line: 4, symbol: 'run' });
    const result = await check(js, propose(js, 4, 4, '  const command = ;\n'), root);
    expect(result).toMatchObject({ refusal: 'output_does_not_compile', detail: expect.stringContaining("TypeScript's parser") });
  });
});

describe('14 output_does_not_parse', () => {
  it('refuses what TypeScript accepts and tree-sitter cannot read', async () => {
    const js = consult(root, 'shell-run.js', { start: 3, end: 6, line: 4, symbol: 'run' });
    const result = await check(js, propose(js, 4, 4, '  using command = user;\n'), root);
    expect(result).toMatchObject({ refusal: 'output_does_not_parse', detail: expect.stringContaining('syntax error') });
  });

  itPython('refuses a result nested deeper than the IR reads (an and-chain compile() holds flat)', async () => {
    const chain = `ready = ${Array.from({ length: 2500 }, () => 'flag').join(' and ')}\n`;
    const repo = tempRepo({ 'deep.py': `flag = True\n${chain}def f(x):\n    return x\n` });
    const asked = consult(repo, 'deep.py', { start: 3, end: 4, line: 4, symbol: 'f' });
    const result = await check(asked, propose(asked, 4, 4, '    return len(x)\n'), repo);
    expect(result).toMatchObject({ refusal: 'output_does_not_parse', detail: expect.stringContaining('nested more deeply') });
  });
});

describe('15 replacement_runs_past_its_range', () => {
  itPython('refuses a trailing backslash that joins the next line', async () => {
    const result = await verdict(propose(question, 5, 5, '    query = user_id + \\\n'));
    expect(result).toMatchObject({ refusal: 'replacement_runs_past_its_range', detail: expect.stringContaining('backslash') });
  });

  itPython('refuses a dangling decorator', async () => {
    const repo = tempRepo({ 'deco.py': 'def helper(value):\n    return value\n\n\ndef handler(value):\n    return helper(value)\n' });
    const asked = consult(repo, 'deco.py', { start: 1, end: 3, line: 2, symbol: 'helper' });
    const result = await check(asked, propose(asked, 2, 3, '    return value\n@helper\n'), repo);
    expect(result).toMatchObject({ refusal: 'replacement_runs_past_its_range', detail: expect.stringContaining('decorator') });
  });

  it('refuses a JavaScript if without a body, which adopts the next line', async () => {
    const js = consult(root, 'shell-run.js', { start: 3, end: 6, line: 4, symbol: 'run' });
    const result = await check(js, propose(js, 4, 4, '  if (user.length > 0)\n'), root);
    expect(result).toMatchObject({ refusal: 'replacement_runs_past_its_range', detail: expect.stringContaining('if (...)') });
  });
});

describe('16 import_outside_the_target', () => {
  itPython.each([
    ['    import os\n    os.system(user_id)\n', '"os"'],
    ['    from . import helpers\n', 'relative'],
    ['    mod = __import__(user_id)\n', 'not a literal'],
    ['    mod = importlib.import_module("subprocess")\n', '"subprocess"'],
    ['    from shlexy import quote\n', '"shlexy"'],
  ])('refuses %j', async (replacement, detail) => {
    const result = await verdict(propose(question, 5, 6, replacement));
    expect(result).toMatchObject({ refusal: 'import_outside_the_target', detail: expect.stringContaining(detail) });
  });

  itPython('accepts a licensed module and one under it', async () => {
    expect((await verdict(propose(question, 5, 6, '    import shlex\n    cursor.execute(shlex.quote(user_id))\n'))).refusal).toBeNull();
    const under = consult(root, PY, { start: 4, end: 7, line: 5, symbol: 'lookup', toModules: ['os'] });
    expect((await verdict(propose(under, 5, 6, '    from os.path import basename\n    cursor.execute(basename(user_id))\n'), under)).refusal).toBeNull();
  });

  it('refuses require() and dynamic import() in JavaScript', async () => {
    const js = consult(root, 'shell-run.js', { start: 3, end: 6, line: 4, symbol: 'run' });
    expect((await check(js, propose(js, 4, 4, "  const command = require('fs').readFileSync(user);\n"), root)).refusal).toBe('import_outside_the_target');
    expect((await check(js, propose(js, 4, 4, "  const command = import('./' + user);\n"), root)).refusal).toBe('import_outside_the_target');
  });
});

describe('17 name_outside_the_question', () => {
  itPython.each([
    ['    eval(user_id)\n', '"eval"'],
    ['    open(user_id).read()\n', '"open"'],
    ['    __builtins__.len(user_id)\n', 'dunder'],
    ['    cursor.execute(user_id.__class__)\n', 'dunder'],
  ])('refuses %j', async (replacement, detail) => {
    const result = await verdict(propose(question, 5, 6, replacement));
    expect(result).toMatchObject({ refusal: 'name_outside_the_question', detail: expect.stringContaining(detail) });
  });

  itPython('accepts names from the replaced lines, the replacement itself and pure builtins', async () => {
    const replacement = '    safe_id = int(user_id)\n    cursor.execute("SELECT * FROM users WHERE id = %s", (safe_id,))\n';
    expect((await verdict(propose(question, 5, 6, replacement))).refusal).toBeNull();
  });

  it('refuses a JavaScript global the question did not license', async () => {
    const js = consult(root, 'shell-run.js', { start: 3, end: 6, line: 4, symbol: 'run' });
    const result = await check(js, propose(js, 4, 4, '  const command = process.env.SHELL + user;\n'), root);
    expect(result).toMatchObject({ refusal: 'name_outside_the_question', detail: expect.stringContaining('"process"') });
  });
});
