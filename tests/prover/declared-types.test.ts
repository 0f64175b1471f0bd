/**
 * The declared-type index (src/prover/declared-types.ts) gives, for every name, what a search of the
 * file for that one name gives: the leftmost match of the first declaration shape that has one. The
 * per-name searches below are the ones the index replaced, kept here as the reference.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { declaredTypesOf } from '../../src/prover/declared-types.js';

function searchedType(text: string, bare: string): string | null {
  const v = `\\$?${bare}`;
  const shapes = [
    new RegExp(`\\b([A-Z]\\w*)(?:<[^<>;=]{0,80}>)?\\s+${v}\\s*[=;,)]`),
    new RegExp(`${v}\\s*=\\s*new\\s+\\\\?([A-Z][\\w\\\\]*)`),
    new RegExp(`@var\\s+\\\\?([A-Z][\\w\\\\]*)[^\\n]*(?:\\n[^\\n$]*){0,2}\\$${bare}\\b`),
    new RegExp(`(?:self|this)\\.${bare}\\s*=\\s*([A-Z]\\w*)\\(`),
    new RegExp(`\\b${bare}\\s*=\\s*([A-Z]\\w*)\\(`),
    new RegExp(`\\b${bare}\\??\\s*:\\s*([A-Z]\\w*)`),
  ];
  for (const shape of shapes) {
    const match = shape.exec(text);
    if (match?.[1]) return match[1];
  }
  return null;
}

/** Every word of the text: the names a resolver may ask about. */
function wordsOf(text: string): string[] {
  return [...new Set(text.match(/\w+/g) ?? [])];
}

describe('declared types of a file', () => {
  it('reads the common declaration shapes of Java, PHP, Python and TypeScript', () => {
    const types = declaredTypesOf(
      [
        'private final Map<String, Long> counts = new HashMap<>();',
        'UserService users;',
        '$client = new \\Aws\\LambdaClient($config);',
        '/** @var TeamRepository */',
        'private $teams;',
        'self.mailer = Mailer(settings)',
        'const repo: ProjectRepository = make();',
      ].join('\n'),
    );
    expect(types.get('counts')).toBe('Map');
    expect(types.get('users')).toBe('UserService');
    expect(types.get('client')).toBe('\\Aws\\LambdaClient'.replace(/^\\/, ''));
    expect(types.get('teams')).toBe('TeamRepository');
    expect(types.get('mailer')).toBe('Mailer');
    expect(types.get('repo')).toBe('ProjectRepository');
    expect(types.get('settings')).toBeUndefined();
  });

  it('prefers the first shape, and a shape\'s first match, as the per-name search does', () => {
    const text = 'x = Builder(a)\nFoo x;\n/** @var Bar */ $y; Baz y = 1;';
    for (const name of ['x', 'y', 'a']) expect(declaredTypesOf(text).get(name) ?? null, name).toBe(searchedType(text, name));
  });

  it('agrees with the per-name search on generated texts', () => {
    const name = fc.constantFrom('x', 'y', 'id', 'userid', '_a1');
    const type = fc.constantFrom('Foo', 'Bar', 'List', '\\Acme\\Foo');
    const gap = fc.constantFrom('', ' ', '  ', '\n', ' \n ');
    // Declarations of every shape, each with random names, types and spacing, among noise.
    const statement = fc.oneof(
      fc.tuple(type, gap, name, fc.constantFrom(';', ' =', ',', ')', ' ==', '(')).map(([t, g, n, e]) => `${t} ${g}${n}${e}`),
      fc.tuple(type, name).map(([t, n]) => `${t}<K, V> $${n} = 1;`),
      fc.tuple(name, gap, type).map(([n, g, t]) => `$${n}${g}= new ${t}(`),
      fc.tuple(name, type).map(([n, t]) => `${n} = new \\${t}`),
      fc.tuple(type, fc.array(fc.tuple(gap, name, fc.constantFrom('$', '', ' $')), { maxLength: 3 })).map(([t, rest]) => `/** @var ${t} */${rest.map(([g, n, d]) => `${g}${d}${n}`).join(' ')}`),
      fc.tuple(fc.constantFrom('self.', 'this.', 'myself.', 'this.a.'), name, gap, type).map(([o, n, g, t]) => `${o}${n}${g}= ${t}(`),
      fc.tuple(name, gap, type, fc.constantFrom('(', '', ' (')).map(([n, g, t, e]) => `${n}${g}= ${t}${e}`),
      fc.tuple(name, fc.constantFrom('?:', ':', ' : ', '?'), gap, type).map(([n, c, g, t]) => `${n}${c}${g}${t}`),
      fc.constantFrom('$', '\n', ' ', '$$', '@var', '@var foo', '<', '>', '=', 'new', '(', ')'),
    );
    fc.assert(
      fc.property(fc.array(statement, { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        const types = declaredTypesOf(text);
        for (const name of wordsOf(text)) expect(types.get(name) ?? null, `${JSON.stringify(text)} ${name}`).toBe(searchedType(text, name));
      }),
      { numRuns: 4000 },
    );
  });
});
