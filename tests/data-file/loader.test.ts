/**
 * The one data-file loader: a table of broken files and the one error each gives, in the one format
 * (file, line, dotted key, expectation), plus the key locator on the TOML shapes that fool a line
 * search (multi-line strings and arrays, dotted and quoted keys, arrays of tables with sub-tables).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadDataFile, UniqueIds, type DataFileKind } from '../../src/data-file/load.js';
import { keyLocator } from '../../src/data-file/locate.js';
import { ConfigError, DataFileError, RuleFileError } from '../../src/errors.js';

const schema = z.strictObject({
  settings: z.strictObject({ limit: z.int().min(1).default(5), mode: z.enum(['fast', 'slow']).default('fast') }).prefault({}),
  entry: z
    .array(
      z.strictObject({
        id: z.string().min(1),
        pattern: z.string().min(1),
        nested: z.strictObject({ depth: z.int() }).optional(),
      }),
    )
    .default([]),
});

interface Loaded {
  limit: number;
  entries: { id: string; pattern: RegExp }[];
}

function load(text: string, kind: DataFileKind = 'rules'): Loaded {
  return loadDataFile({
    file: 'data.toml',
    text,
    kind,
    schema,
    normalise: (data, context) => {
      const ids = new UniqueIds('entry id');
      const entries = data.entry.map((entry, index) => {
        ids.claim(entry.id, context, ['entry', index, 'id']);
        return { id: entry.id, pattern: context.pattern(['entry', index, 'pattern'], entry.pattern, 'i') };
      });
      return { limit: data.settings.limit, entries };
    },
    checks: [
      (value, context) => {
        if (value.entries.length > value.limit) throw context.problem(['settings', 'limit'], `expected at most ${value.limit} entries, found ${value.entries.length}`);
      },
    ],
  });
}

function errorOf(text: string, kind: DataFileKind = 'rules'): DataFileError {
  try {
    load(text, kind);
  } catch (error) {
    if (error instanceof DataFileError) return error;
    throw error;
  }
  throw new Error('expected the file to be refused');
}

const entry = (id: string, pattern = 'tok_[a-z]{4}'): string => `[[entry]]\nid = "${id}"\npattern = '${pattern}'\n`;

describe('loadDataFile', () => {
  it('loads a good file through all three phases', () => {
    const loaded = load(`[settings]\nlimit = 2\n\n${entry('a')}${entry('b', 'key_\\d+')}`);
    expect(loaded.limit).toBe(2);
    expect(loaded.entries.map((e) => e.id)).toEqual(['a', 'b']);
    expect(loaded.entries[0]?.pattern.test('TOK_abcd')).toBe(true); // compiled with the flags asked for
  });

  const refusals: { name: string; text: string; line: number | null; keyPath: string | null; message: string | RegExp }[] = [
    {
      name: 'bad TOML, with line and column',
      text: '[settings]\nlimit = = 3\n',
      line: 2,
      keyPath: null,
      message: /^data\.toml: line 2, column \d+: invalid TOML: /,
    },
    {
      name: 'bad TOML the parser gives no position for (an impossible date)',
      text: '[settings]\nlimit = 3\nwhen = 2030-13-01\n',
      line: 3,
      keyPath: null,
      message: /^data\.toml: line 3: invalid TOML: /,
    },
    {
      name: 'a wrong type at a nested key, in the second entry',
      text: `${entry('a')}${entry('b')}[entry.nested]\ndepth = "deep"\n`,
      line: 8,
      keyPath: 'entry[1].nested.depth',
      message: 'data.toml: line 8: entry[1].nested.depth: expected number, found string "deep"',
    },
    {
      name: 'a value outside the enum',
      text: '# settings\n[settings]\nmode = "warp"\n',
      line: 3,
      keyPath: 'settings.mode',
      message: 'data.toml: line 3: settings.mode: expected one of "fast", "slow", found string "warp"',
    },
    {
      name: 'an unknown key, with the keys allowed there',
      text: `${entry('a')}patern = 'x'\n`,
      line: 4,
      keyPath: 'entry[0].patern',
      message: 'data.toml: line 4: entry[0].patern: unknown key; expected one of: id, pattern, nested',
    },
    {
      name: 'an unknown table',
      text: `${entry('a')}[extra]\nx = 1\n`,
      line: 4,
      keyPath: 'extra',
      message: 'data.toml: line 4: extra: unknown key; expected one of: settings, entry',
    },
    {
      name: 'a required key missing: the line of its table',
      text: `${entry('a')}[[entry]]\nid = "b"\n`,
      line: 4,
      keyPath: 'entry[1].pattern',
      message: 'data.toml: line 4: entry[1].pattern: required: expected string',
    },
    {
      name: 'several problems: the first, and how many more',
      text: '[settings]\nlimit = 0\nmode = "warp"\n',
      line: 2,
      keyPath: 'settings.limit',
      message: /^data\.toml: line 2: settings\.limit: .* \(and 1 more problem\)$/,
    },
    {
      name: 'a duplicate id, naming where the first one is',
      text: `${entry('a')}\n${entry('a')}`,
      line: 6,
      keyPath: 'entry[1].id',
      message: 'data.toml: line 6: entry[1].id: duplicate entry id a (first defined at data.toml:2)',
    },
    {
      name: 'a pattern that does not compile',
      text: entry('a', 'tok_(['),
      line: 3,
      keyPath: 'entry[0].pattern',
      message: /^data\.toml: line 3: entry\[0\]\.pattern: regex does not compile: /,
    },
    {
      name: 'a pattern that may backtrack catastrophically (ReDoS)',
      text: entry('a', '^(\\w+\\s?)*$'),
      line: 3,
      keyPath: 'entry[0].pattern',
      message: /^data\.toml: line 3: entry\[0\]\.pattern: regex may backtrack catastrophically: nested repetition/,
    },
    {
      name: 'a refusal of a phase-three check',
      text: `[settings]\nlimit = 1\n${entry('a')}${entry('b')}`,
      line: 2,
      keyPath: 'settings.limit',
      message: 'data.toml: line 2: settings.limit: expected at most 1 entries, found 2',
    },
  ];

  it.each(refusals)('refuses $name', ({ text, line, keyPath, message }) => {
    const error = errorOf(text);
    expect(error).toBeInstanceOf(RuleFileError);
    expect(error.exitCode).toBe(2);
    expect(error.file).toBe('data.toml');
    expect(error.line).toBe(line);
    expect(error.keyPath).toBe(keyPath);
    expect(error.message).not.toContain('\n');
    if (typeof message === 'string') expect(error.message).toBe(message);
    else expect(error.message).toMatch(message);
  });

  it('places a position-less TOML error however far down a long file it is', () => {
    const filler = Array.from({ length: 30_000 }, (_, i) => `key${i} = ${i}`).join('\n');
    const error = errorOf(`[settings]\n${filler}\nwhen = 2030-13-01\n`);
    expect(error.line).toBe(30_002);
    expect(error.message).toMatch(/^data\.toml: line 30002: invalid TOML: /);
  });

  it('gives a .jscr.toml-style error the dotted key alone (SPEC 3), in the same format', () => {
    const error = errorOf(`${entry('a')}patern = 'x'\n`, 'config');
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe('data.toml: entry[0].patern: unknown key; expected one of: id, pattern, nested');
    expect(errorOf('[settings]\nlimit = = 3\n', 'config').message).toMatch(/^data\.toml: line 2, column \d+: invalid TOML: /);
  });
});

describe('keyLocator', () => {
  const text = [
    '# a [[entry]] in a comment is not a header', // 1
    'title = """', // 2
    '[[entry]]', // 3: inside a multi-line string
    'id = "not a key"', // 4
    '"""', // 5
    '[ settings ]', // 6
    'limit = 3 # [[entry]]', // 7
    'list = [', // 8
    '  "[[entry]]",', // 9
    '  { id = "x" },', // 10
    ']', // 11
    'site.name = "dotted"', // 12
    '"odd key" = 1', // 13
    '[[entry]]', // 14
    "id = 'first'", // 15
    "pattern = '''", // 16
    "pattern = 'not this'", // 17
    "'''", // 18
    '[entry.nested]', // 19
    'depth = 1', // 20
    '[[entry]]', // 21
    'id = "second"', // 22
    '[[entry.examples]]', // 23
    'code = "x"', // 24
    '[[entry.examples]]', // 25
    'code = "y"', // 26
  ].join('\n');

  it.each([
    [['title'], 2],
    [['settings'], 6],
    [['settings', 'limit'], 7],
    [['settings', 'list'], 8],
    [['settings', 'list', 1, 'id'], 8],
    [['settings', 'site', 'name'], 12],
    [['settings', 'site'], 12],
    [['settings', 'odd key'], 13],
    [['entry'], 14],
    [['entry', 0], 14],
    [['entry', 0, 'id'], 15],
    [['entry', 0, 'pattern'], 16],
    [['entry', 0, 'nested', 'depth'], 20],
    [['entry', 0, 'missing'], 14],
    [['entry', 1], 21],
    [['entry', 1, 'id'], 22],
    [['entry', 1, 'examples', 1, 'code'], 26],
    [['entry', 1, 'examples', 0], 23],
    [['nowhere'], null],
  ] as const)('places %j on line %s', (path, line) => {
    expect(keyLocator(text)(path)).toBe(line);
  });
});
