/**
 * Strings blanked out of a line of code (src/prover/string-literals.ts): the words inside them are not
 * code, an escaped quote does not close one, and a line no quote closes is read in one pass, however
 * many backslashes it holds (the reading it replaced backtracked exponentially on such a line).
 */
import { describe, expect, it } from 'vitest';
import { blankStrings } from '../../src/prover/string-literals.js';

describe('blanking strings', () => {
  it('replaces each quoted string, templates only when asked', () => {
    expect(blankStrings(`if (user.role === 'admin' && x == "it's") ok(\`t\`)`, "''")).toBe("if (user.role === '' && x == '') ok('')");
    expect(blankStrings('a = "x" + `y`', '""', false)).toBe('a = "" + `y`');
  });

  it('an escaped quote does not close the string', () => {
    expect(blankStrings(String.raw`call('it\'s admin', role)`, "''")).toBe("call('', role)");
    expect(blankStrings(String.raw`x = "C:\\" + y`, '""')).toBe('x = "" + y');
  });

  it('a string no quote closes is left as it is, across a line of backslashes, and the call returns', () => {
    const line = `path = '${'\\'.repeat(80)}x ${'\\ '.repeat(40)}`;
    expect(blankStrings(line, "''")).toBe(line);
    expect(blankStrings(`${line}\nok('y')`, "''")).toBe(`${line}\nok('')`);
  });
});
