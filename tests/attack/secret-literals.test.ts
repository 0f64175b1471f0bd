/**
 * Attacks on the generic secret detector's literal test (src/redact/literal-tree.ts): a hard-coded
 * credential written in a shape the syntax-tree test might take for code.
 */
import { describe, expect, it } from 'vitest';
import { SecretBook } from '../../src/redact/mask.js';
import { secretFindingsBySyntax } from '../../src/redact/literal-tree.js';

const VALUE = 'Zq9xK2mW7pL4vR8tYb3N';
const found = (path: string, text: string) => secretFindingsBySyntax([{ path, text, scanLines: 'all' }], new SecretBook());

describe('attack: a literal secret shaped like code', () => {
  it('a backdoor token compared in a ternary condition is a hard-coded credential', async () => {
    const text = `export const gate = (token) => (token === '${VALUE}' ? grantAll() : deny());\n`;
    expect((await found('src/gate.ts', text)).map((f) => f.rule)).toEqual(['jscr/hardcoded-secret']);
  });

  it('caught already: a type assertion, an object value, a default parameter', async () => {
    for (const [path, text] of [
      ['src/b.ts', `const token = "${VALUE}" as string;\n`],
      ['src/c.ts', `export default { password: "${VALUE}" };\n`],
      ['src/d.ts', `export function connect(secret = "${VALUE}") { return secret; }\n`],
    ] as const) {
      expect((await found(path, text)).map((f) => f.rule), text).toEqual(['jscr/hardcoded-secret']);
    }
  });

  it('a comparison in a Python conditional expression, and in an if, are reported too', async () => {
    expect((await found('app/gate.py', `allowed = grant() if token == '${VALUE}' else deny()\n`)).map((f) => f.rule)).toEqual(['jscr/hardcoded-secret']);
    expect((await found('src/gate.ts', `if (token === '${VALUE}') grantAll();\n`)).map((f) => f.rule)).toEqual(['jscr/hardcoded-secret']);
  });

  it('an environment name compared in a condition stays code', async () => {
    const text = "module.exports = { secret: NODE_ENV === 'Pr0duct1on#x' ? process.env.SECRET : null };\n";
    expect(await found('config/index.js', text)).toEqual([]);
  });
});
