/**
 * A shallow clone never makes a commit look like a root commit (which would review it against the
 * empty tree with the default configuration): a missing parent is exit 2 saying to fetch more
 * history. And every git failure is exit 2 with jscr's line and, when git said why, git's own message on
 * the line under it, never an internal error.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJscr } from '../helpers/cli.js';
import { makeRepo, type TestRepo } from '../helpers/repo.js';

let upstream: TestRepo;
let dir: string;
let shallow: string;

beforeAll(() => {
  // The base configuration raises fail_on; a review against the empty tree would use the defaults instead.
  upstream = makeRepo({ '.jscr.toml': '[review]\nfail_on = "critical"\n', 'app.py': 'x = 1\n' });
  upstream.commit({ 'app.py': 'import os\n\ndef run(y):\n    os.system("rm -rf " + y)\n' }, 'head');
  dir = mkdtempSync(join(tmpdir(), 'jscr-shallow-'));
  shallow = join(dir, 'clone');
  execFileSync('git', ['clone', '-q', '--depth', '1', `file://${upstream.root}`, shallow], { env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: tmpdir() } });
});

afterAll(() => {
  upstream.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

function expectOneLine(stderr: string, pattern: RegExp): void {
  expectLines(stderr, [pattern]);
}

/** Exactly these lines on stderr, in order: jscr's own, then (when git said why) git's. */
function expectLines(stderr: string, patterns: RegExp[]): void {
  const lines = stderr.split('\n').filter((l) => l.trim().length > 0);
  expect(lines).toHaveLength(patterns.length);
  patterns.forEach((pattern, i) => expect(lines[i]).toMatch(pattern));
  expect(stderr).not.toMatch(/internal error/);
}

describe('a shallow clone', () => {
  it('is exit 2 with "fetch more history" for --commit HEAD, never a root-commit review', async () => {
    const result = await runJscr(['review', '--no-model', '--commit', 'HEAD'], shallow);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expectOneLine(result.stderr, /^jscr: the parent [0-9a-f]{12} of commit [0-9a-f]{12} is not in this clone \(a shallow clone\); fetch more history/);
  }, 60_000);

  it('names the missing history for a range whose base is not in the clone', async () => {
    const result = await runJscr(['review', '--no-model', '--range', 'HEAD~1..HEAD'], shallow);
    expect(result.code).toBe(2);
    expectOneLine(result.stderr, /^jscr: bad revision 'HEAD~1'.*shallow clone: fetch more history/);
  }, 60_000);

  it('reviews the commit once the history is there', async () => {
    const result = await runJscr(['review', '--no-model', '--format', 'json', '--commit', 'HEAD'], upstream.root);
    // fail_on = "critical" from the base configuration: the high finding is reported, the exit is 0.
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as { config_source: string | null }).config_source).toMatch(/\.jscr\.toml/);
  }, 60_000);
});

describe('git failures', () => {
  it('are exit 2 with the reason git gave on its own line, for a configuration git cannot read', async () => {
    const repo = makeRepo({ 'a.py': 'x = 1\n' });
    try {
      writeFileSync(join(repo.root, '.git', 'config'), '[core\nbroken');
      const result = await runJscr(['review', '--no-model'], repo.root);
      expect(result.code).toBe(2);
      expectLines(result.stderr, [/^jscr: git config failed$/, /^git: fatal: bad config line 1 in file \.git\/config/]);
    } finally {
      repo.cleanup();
    }
  }, 60_000);

  it("are exit 2 with git's message for an object the repository has lost", async () => {
    const repo = makeRepo({ 'a.py': 'x = 1\n' });
    try {
      repo.commit({ 'a.py': 'x = 2\n' }, 'second');
      const blob = repo.git('rev-parse', 'HEAD:a.py').trim();
      rmSync(join(repo.root, '.git', 'objects', blob.slice(0, 2), blob.slice(2)));
      const result = await runJscr(['review', '--no-model', '--commit', 'HEAD'], repo.root);
      expect(result.code).toBe(2);
      expectLines(result.stderr, [/^jscr: git diff failed$/, /^git: .*\b(unable to read|missing|bad object)\b/]);
    } finally {
      repo.cleanup();
    }
  }, 60_000);
});
