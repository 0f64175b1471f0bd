/**
 * A secret written as string literals joined by the language's concatenation (TRIAL2's open hole):
 * no piece alone is a secret, yet none of them may reach the model provider, a real HTTP server on
 * 127.0.0.1 that records every byte it is sent. The deterministic rule reports the joined secret at
 * its first piece. Ordinary joined strings are sent as they are.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runJscr } from '../helpers/cli.js';
import { reposRemovedAfterEach } from '../helpers/repo.js';
import { API_KEY, API_KEY_ENV, configTomlFor } from '../model/material.js';
import { startServer, type ScriptedServer } from '../model/server.js';
import { body } from '../redact/fakes.js';

let server: ScriptedServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});
const newRepo = reposRemovedAfterEach();

interface Report {
  findings: { rule: string; path: string; line: number; evidence: string }[];
}

/** Review a commit adding `path` with `code` against the scripted model; what the provider received, and the report. */
async function sendToModel(path: string, code: string): Promise<{ sent: string; report: Report }> {
  server = await startServer();
  server.review = [{ findings: [] }];
  const repo = newRepo({ '.jscr.toml': configTomlFor(server, { blockOnSecret: false }), 'README.md': '# app\n' });
  repo.commit({ [path]: code }, 'add the client');
  const run = await runJscr(['review', '--range', 'HEAD~1..HEAD', '--format', 'json'], repo.root, { [API_KEY_ENV]: API_KEY });
  const requests = server.requests.filter((r) => r.kind === 'findings');
  expect(requests.length, run.stderr).toBeGreaterThan(0);
  return { sent: requests.map((r) => r.raw).join('\n'), report: JSON.parse(run.stdout) as Report };
}

/** Assembled at run time, so no secret-shaped literal sits in this file. */
const AWS = ['AK', 'IA', 'Q3ZR7WXN2M4KD6PB'];
const GITHUB = ['gh', 'p_', body(36, 71)];
const STRIPE = ['sk', '_live_', body(24, 72)];
const SLACK = ['xo', 'xb-', '2481632641-1234567890123-', body(24, 73)];

/** Each piece of a split secret, and the whole, must be absent from what the provider received. */
function expectNoPiece(sent: string, pieces: string[]): void {
  for (const piece of [...pieces, pieces.join('')]) expect(sent, piece).not.toContain(piece);
}

const secretFindingLines = (report: Report, path: string): number[] =>
  report.findings.filter((f) => f.rule === 'jscr/hardcoded-secret' && f.path === path).map((f) => f.line)
    .sort((a, b) => a - b);

describe('a secret split over joined string literals does not reach the provider', () => {
  it('JavaScript `+`: a key in two literals, a token across lines in parentheses and a template literal', async () => {
    const aws = [AWS[0]! + AWS[1]!, AWS[2]!];
    const token = [GITHUB[0]! + GITHUB[1]!, GITHUB[2]!.slice(0, 18), GITHUB[2]!.slice(18)];
    const code = [
      "const aws = require('aws-sdk');",
      '',
      `const keyId = "${aws[0]}" + "${aws[1]}";`,
      `const token = '${token[0]}' +`,
      `  ('${token[1]}' + /* joined */ \`${token[2]}\`);`,
      'module.exports = { keyId, token };',
      '',
    ].join('\n');
    const { sent, report } = await sendToModel('src/client.js', code);
    expectNoPiece(sent, aws);
    expectNoPiece(sent, token);
    expect(sent).toContain('const keyId = [REDACTED:aws-access-key-id#');
    expect(sent).toContain('module.exports = { keyId, token };');
    // Reported at the first piece, like a secret written whole.
    expect(secretFindingLines(report, 'src/client.js')).toEqual([3, 4]);
  });

  it("Python: implicit concatenation over lines inside parentheses, and `+`", async () => {
    const stripe = [STRIPE[0]! + STRIPE[1]!, STRIPE[2]!.slice(0, 12), STRIPE[2]!.slice(12)];
    const aws = [AWS[0]!, AWS[1]! + AWS[2]!];
    const code = [
      'import stripe',
      '',
      `stripe.api_key = ("${stripe[0]}"`,
      `                  "${stripe[1]}"  # the rest`,
      `                  '${stripe[2]}')`,
      `KEY_ID = "${aws[0]}" + "${aws[1]}"`,
      '',
    ].join('\n');
    const { sent, report } = await sendToModel('app/billing.py', code);
    expectNoPiece(sent, stripe);
    expectNoPiece(sent, aws);
    expect(sent).toContain('stripe.api_key = ([REDACTED:stripe-live-key#');
    expect(secretFindingLines(report, 'app/billing.py')).toEqual([3, 6]);
  });

  it('PHP `.`', async () => {
    const slack = [SLACK[0]! + SLACK[1]!, SLACK[2]!, SLACK[3]!];
    const code = `<?php\n\n$token = '${slack[0]}' . "${slack[1]}"\n    . '${slack[2]}';\npost($token);\n`;
    const { sent, report } = await sendToModel('lib/notify.php', code);
    expectNoPiece(sent, slack);
    expect(sent).toContain('post($token);');
    expect(secretFindingLines(report, 'lib/notify.php')).toEqual([3]);
  });
});

describe('with block_on_secret (the default)', () => {
  it('a joined secret stops the send: no request, the review incomplete (exit 3)', async () => {
    server = await startServer();
    server.review = [{ findings: [] }];
    const repo = newRepo({ '.jscr.toml': configTomlFor(server), 'README.md': '# app\n' });
    repo.commit({ 'src/id.js': `module.exports = "${AWS[0]! + AWS[1]!}" + "${AWS[2]!}";\n` }, 'add the id');
    const run = await runJscr(['review', '--range', 'HEAD~1..HEAD', '--format', 'json'], repo.root, { [API_KEY_ENV]: API_KEY });
    expect(server.requests.filter((r) => r.kind === 'findings')).toHaveLength(0);
    expect(run.code).toBe(3);
  });
});

describe('ordinary joined strings', () => {
  it('are sent unchanged and reported as nothing: a URL built of pieces, a message over lines, a path', async () => {
    const js = [
      "const base = 'https://' + 'api.example.com' + '/v2/' + 'customers?expand=' + 'subscriptions';",
      'const greeting = "Hello, " + name + "! You have " + count + " new messages.";',
      "const dir = __dirname + '/' + 'templates' + '/' + 'mail';",
      '',
    ].join('\n');
    const { sent, report } = await sendToModel('src/urls.js', js);
    // (The system prompt explains the marker as `[REDACTED:<rule>#<n>]`: a written marker names a rule.)
    expect(sent).not.toMatch(/\[REDACTED:[a-z]/);
    for (const line of js.trim().split('\n')) expect(sent).toContain(JSON.stringify(line).slice(1, -1));
    expect(secretFindingLines(report, 'src/urls.js')).toEqual([]);
  });
});
