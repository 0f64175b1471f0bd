/**
 * The edit-window check compares two windows with `sameComparableCode`, which stops reading the second
 * window at its first difference. Its answer must be exactly that of comparing the two whole compared
 * forms, for every language family, including texts the lexers give up on.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { comparableCode, sameComparableCode } from '../../src/profile/comparable.js';
import type { ProfileLanguage } from '../../src/profile/languages.js';

const LANGUAGES: ProfileLanguage[] = ['javascript', 'typescript', 'python', 'go', 'rust', 'java', 'kotlin', 'csharp', 'c', 'shell', 'powershell', 'batch'];

// pieces that open and close comments, strings and templates, and line breaks that end lines
const PIECES = ['a', 'b1', ' ', '  ', '\n', '\r\n', '\t', '//', '/*', '*/', '#', '"', "'", '`', '${', '}', '(', ')', '=', '+', 'x = 1', 'rem ', 'REM x', '<#', '#>', '"""', '$', '\\', 'f(', 'if', '\\\n', '\u0085', '\u00a0', '\u2028', '\ufeff', '<!--', '-->', 'x--', '<'];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 24 }).map((parts) => parts.join(''));

/** A second text: often the first with a comment or blanks changed, sometimes anything. */
const pair = text.chain((before) =>
  fc.oneof(
    fc.constant(before),
    fc.constantFrom(' // note', '\n// note\n', ' /* c */ ', '  ', '\n', ' # c').map((extra) => before + extra),
    fc.nat({ max: before.length }).chain((at) => fc.constantFrom('', ' ', '// x\n', '/* y */', '#z\n', '"').map((extra) => before.slice(0, at) + extra + before.slice(at))),
    text,
  ).map((after) => [before, after] as const),
);

describe('sameComparableCode', () => {
  it.each(LANGUAGES)('agrees with comparing the whole compared forms (%s)', (language) => {
    fc.assert(
      fc.property(pair, ([before, after]) => {
        const whole = comparableCode(before, language);
        expect(sameComparableCode(before, after, language)).toBe(whole !== null && whole === comparableCode(after, language));
      }),
      { numRuns: 1500 },
    );
  });

  it.each([
    ['a\u0085b', 'a\nb', 'csharp'],
    ['a\u00a0b', 'a b', 'javascript'],
    ['a\u2028b', 'a\nb', 'javascript'],
    ['x\ufeff=1', 'x =1', 'typescript'],
    ['a\u000bb', 'a b', 'c'],
  ] as const)('treats the blank %j like the lexer does (against %j, %s)', (before, after, language) => {
    const whole = comparableCode(before, language);
    expect(sameComparableCode(before, after, language)).toBe(whole !== null && whole === comparableCode(after, language));
  });

  it('is true for a comment-only change and false for a code change', () => {
    expect(sameComparableCode('x = 1;\n', 'x = 1; // why\n', 'javascript')).toBe(true);
    expect(sameComparableCode('x = 1;\n', 'x = 2; // why\n', 'javascript')).toBe(false);
    expect(sameComparableCode('x = 1\n', 'x = 1  # why\n', 'python')).toBe(true);
    expect(sameComparableCode('a\nb\n', 'a\nb\nc\n', 'go')).toBe(false);
  });
});
