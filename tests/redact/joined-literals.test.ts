/**
 * Joined string literals (src/redact/joined-literals.ts): per language, the joined value meets the
 * detector; a secret covering two pieces or more is masked piece by piece, with line numbers kept, and
 * reported at its first piece. What is not a join of literals, or not a secret once joined, is left alone.
 */
import { describe, expect, it } from 'vitest';
import { redact, RedactionCounter, SecretBook } from '../../src/redact/index.js';
import { learnJoinedSecrets } from '../../src/redact/joined-literals.js';
import { secretFindingsBySyntax } from '../../src/redact/literal-tree.js';
import { body, fakes } from './fakes.js';

const AWS = fakes.awsKeyId; // AKIA + 16
const GITHUB = fakes.githubClassic;

/** The text as the model would be sent it, and the secret findings' first lines. */
async function review(path: string, text: string): Promise<{ sent: string; lines: number[]; book: SecretBook }> {
  const book = new SecretBook();
  const findings = await secretFindingsBySyntax([{ path, text, scanLines: 'all' }], book);
  await learnJoinedSecrets(book, path, text);
  const sent = redact(text, new RedactionCounter(), book).text;
  return { sent, lines: findings.map((f) => f.line).sort((a, b) => a - b), book };
}

function expectHidden(sent: string, pieces: string[]): void {
  for (const piece of pieces) expect(sent, piece).not.toContain(piece);
}

describe('joins per language', () => {
  it('Java `+`, Go `+` with a raw string, Ruby `+` and adjacent literals', async () => {
    const java = await review('src/Keys.java', `class Keys {\n  static final String ID = "${AWS.slice(0, 6)}" + "${AWS.slice(6)}";\n}\n`);
    expectHidden(java.sent, [AWS.slice(0, 6), AWS.slice(6)]);
    expect(java.lines).toEqual([2]);
    const go = await review('keys.go', `package keys\n\nvar ID = "${AWS.slice(0, 4)}" +\n\t\`${AWS.slice(4)}\`\n`);
    expectHidden(go.sent, [AWS.slice(4)]);
    expect(go.lines).toEqual([3]);
    const ruby = await review('keys.rb', `ID = "${AWS.slice(0, 8)}" + '${AWS.slice(8)}'\nTOKEN = "${GITHUB.slice(0, 10)}" "${GITHUB.slice(10)}"\n`);
    expectHidden(ruby.sent, [AWS.slice(8), GITHUB.slice(0, 10), GITHUB.slice(10)]);
    expect(ruby.lines).toEqual([1, 2]);
  });

  it('Python implicit concatenation without a blank between the literals, and with a comment between them', async () => {
    const text = `ID = "${AWS.slice(0, 10)}""${AWS.slice(10)}"\nTOKEN = ("${GITHUB.slice(0, 20)}"  # first half\n         r"${GITHUB.slice(20)}")\n`;
    const { sent, lines } = await review('app/keys.py', text);
    expectHidden(sent, [AWS.slice(0, 10), AWS.slice(10), GITHUB.slice(0, 20), GITHUB.slice(20)]);
    expect(sent).toContain('# first half');
    expect(lines).toEqual([1, 2]);
  });

  it('one character a literal, over lines: every piece is masked, and the text keeps its lines', async () => {
    const pieces = AWS.split('');
    const text = `const id =\n${pieces.map((c) => `  '${c}'`).join(' +\n')};\nexport default id;\n`;
    const { sent } = await review('src/id.ts', text);
    expect(sent.split('\n')).toHaveLength(text.split('\n').length);
    for (const c of new Set(pieces)) expect(sent).not.toContain(`'${c}'`);
    expect(sent).toContain('export default id;');
  });

  it('a join inside a call inside another join is read too', async () => {
    const text = `const url = "https://api.example.com/?k=" + encodeURIComponent("${AWS.slice(0, 12)}" + "${AWS.slice(12)}");\n`;
    const { sent, lines } = await review('src/call.js', text);
    expectHidden(sent, [AWS.slice(0, 12), AWS.slice(12)]);
    expect(sent).toContain('"https://api.example.com/?k=" + encodeURIComponent(');
    expect(lines).toEqual([1]);
  });

  it('a chain of 5,000 joined literals is read in bounded time', async () => {
    // (A blank ends the key: joined to `p0` it would not be one, for the detector as for AWS.)
    const text = `const s = "${AWS.slice(0, 4)}" + "${AWS.slice(4)}" + " " + ${Array.from({ length: 5000 }, (_, i) => `"p${i}"`).join(' + ')};\n`;
    const started = Date.now();
    const { sent } = await review('src/chain.js', text);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(sent).not.toContain(AWS.slice(4));
  });
});

describe('what is not a joined secret', () => {
  it('a literal with a hole separates the join: only literals written next to each other are joined', async () => {
    const text = `const id = "${AWS.slice(0, 4)}" + \`\${prefix}${AWS.slice(4)}\`;\n`;
    const { sent, lines } = await review('src/hole.js', text);
    expect(sent).toBe(text);
    expect(lines).toEqual([]);
  });

  it('ordinary joins stay as written and are no finding: URLs, messages, paths, SQL', async () => {
    const js = [
      "const base = 'https://' + 'api.example.com' + '/v2/' + 'customers?expand=' + 'subscriptions';",
      "const help = 'Your password must have ' + '12 characters or more, ' + 'one of them a digit.';",
      "const sql = 'SELECT id, name ' + 'FROM users ' + 'WHERE id = ?';",
      '',
    ].join('\n');
    const py = ['MESSAGE = ("Enter the token you were sent "', '           "by mail to continue.")', `PATH = "/var/" "lib/" "${body(8, 3)}"`, ''].join('\n');
    for (const [path, text] of [['src/a.js', js], ['app/a.py', py]] as const) {
      const { sent, lines } = await review(path, text);
      expect(sent, path).toBe(text);
      expect(lines, path).toEqual([]);
    }
  });
});
