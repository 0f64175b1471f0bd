/**
 * What a newcomer (or a CI script with a variable left unset) gets wrong: each is one clear line and
 * exit 2, never a review of something else or of nothing reported as clean.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { reposRemovedAfterEach, runJscr } from '../helpers/repo.js';

const repo = reposRemovedAfterEach();
const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A repository with a base commit and one change that a review finds. */
function changedRepo() {
  const r = repo({ 'README.md': '# app\n' });
  r.commit({ 'wipe.py': 'import os\n\ndef wipe(y):\n    os.system("rm -rf " + y)\n' });
  return r;
}

async function oneLineExit2(args: string[], cwd: string, says: RegExp): Promise<void> {
  const run = await runJscr(args, { cwd });
  expect(run.code, run.stderr).toBe(2);
  expect(run.stdout).toBe('');
  expect(run.stderr.trimEnd().split('\n')[0]).toMatch(says);
  expect(run.stderr).not.toMatch(/\n\s+at /);
}

describe('newcomer mistakes: one line, exit 2', () => {
  it('a range with a side left out that compares HEAD with itself (`"$BASE..HEAD"` with BASE unset)', async () => {
    const r = changedRepo();
    for (const range of ['..HEAD', 'HEAD..', '...HEAD']) await oneLineExit2(['review', '--range', range, '--no-model'], r.root, /compares [0-9a-f]{12} with itself/);
    // A side left out that is not HEAD's commit is git's own shorthand, and still reviews the change.
    expect((await runJscr(['review', '--range', 'HEAD~1..', '--no-model'], { cwd: r.root })).code).toBe(1);
  });

  it('an empty --repo, --config or --commit is refused, not read as "not given"', async () => {
    const r = changedRepo();
    for (const flag of ['--repo', '--config', '--commit', '--output']) await oneLineExit2(['review', flag, '', '--no-model'], r.root, new RegExp(`${flag} .*It is empty`));
    await oneLineExit2(['prove', '--base', ''], r.root, /--base .*It is empty/);
  });

  it('a bare repository or a .git folder as --repo names what it is', async () => {
    const r = changedRepo();
    const bare = join(mkdtempSync(join(tmpdir(), 'jscr bare ')), 'app.git');
    scratch.push(join(bare, '..'));
    execFileSync('git', ['clone', '-q', '--bare', r.root, bare]);
    await oneLineExit2(['review', '--repo', bare, '--range', 'HEAD~1..HEAD', '--no-model'], r.root, /a git directory without a work tree/);
    await oneLineExit2(['prove', '--repo', bare], r.root, /a git directory without a work tree/);
    await oneLineExit2(['review', '--repo', join(r.root, '.git'), '--no-model'], r.root, /a git directory without a work tree/);
  });

  it('a repository with no commits yet says so for a range and for prove', async () => {
    const r = repo();
    await oneLineExit2(['review', '--range', 'HEAD~1..HEAD', '--no-model'], r.root, /no commits yet/);
    await oneLineExit2(['prove'], r.root, /no commits yet/);
  });
});
