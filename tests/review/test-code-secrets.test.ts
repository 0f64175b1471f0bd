/**
 * A predictable random value saved as a token is a finding in application code; in test code
 * (`e2e/*.spec.ts`, `tests/`) it is a made-up name or seed that protects nothing, and the rows about
 * secrets (`in_tests = false`) stay quiet there. Other data-flow rows still report in tests.
 */
import { describe, expect, it } from 'vitest';
import { reposRemovedAfterEach, runJscr } from '../helpers/repo.js';

const repo = reposRemovedAfterEach();

const INVITE = `export async function invite(repo, email) {
  const inviteToken = Math.random().toString(36).slice(2);
  await repo.save({ email, inviteToken });
}
`;

async function rules(files: Record<string, string>): Promise<string[]> {
  const r = repo({ 'README.md': 'x\n' });
  r.commit(files);
  const out = await runJscr(['review', '--range', 'HEAD~1..HEAD', '--format', 'json', '--no-model'], { cwd: r.root });
  const report = JSON.parse(out.stdout) as { findings: { rule: string; path: string }[] };
  return report.findings.map((f) => `${f.rule} ${f.path}`);
}

describe('rows about secrets in test code', () => {
  it('a weak random token saved by application code is reported', async () => {
    expect(await rules({ 'src/invite.js': INVITE })).toContain('jscr/js-weak-random-record src/invite.js');
  });

  it('the same code in an e2e spec or a tests folder is not', async () => {
    const found = await rules({ 'e2e/invite.spec.js': INVITE, 'tests/helpers/invite.js': INVITE });
    expect(found.filter((f) => f.includes('weak-random'))).toEqual([]);
  });

  it('a command built from request data in a test file is still reported', async () => {
    const found = await rules({ 'tests/server.test.js': 'const cp = require("child_process");\napp.get("/run", (req, res) => {\n  cp.exec("ls " + req.query.dir);\n});\n' });
    expect(found.some((f) => f.endsWith('tests/server.test.js'))).toBe(true);
  });
});
