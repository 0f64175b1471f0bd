/** The guard's statement reading (seed D11, word 15) on the forms the shared lexer cores settled. */
import { describe, expect, it } from 'vitest';
import { longestStatementTokens, runsPastItsRange } from '../../src/guard/statements.js';

describe('statement reading through the lexer cores', () => {
  it('counts a Python t-string, like an f-string, as one token', () => {
    expect(longestStatementTokens('x = t"{a}"', 'python')).toBe(3);
    expect(longestStatementTokens('x = f"{a}"', 'python')).toBe(3);
  });
  it('reads a / after a postfix ++ or a template literal as a division, not an open regex', () => {
    expect(runsPastItsRange('y = x++ / 2;', 'javascript', null)).toBeNull();
    expect(runsPastItsRange('y = `a` / 2;', 'javascript', null)).toBeNull();
    expect(runsPastItsRange('y = (a) + /x;', 'javascript', null)).toContain('regular expression');
  });
  it('sees a template left open after a hole closes at the very end', () => {
    expect(runsPastItsRange('s = `a${b}', 'javascript', null)).toContain('template');
  });
});
