/**
 * `main` called many times in one process, as the end-to-end tests call it: each run sees its own
 * `io.env` (the PATH git is found on, the TMPDIR its private folders go to), concurrent runs do not
 * mix them, and nothing one run learnt about a repository's git configuration is trusted by the next.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, rmSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runEnvironment, temporaryDirectory, withRunEnvironment } from '../../src/policy/environment.js';
import { runJscr } from '../helpers/cli.js';
import { reposRemovedAfterEach } from '../helpers/repo.js';

const repo = reposRemovedAfterEach();
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'jscr-in-process-'));
  dirs.push(dir);
  return dir;
}

const REVIEW = ['review', '--no-model', '--format', 'json'];

describe('the run environment', () => {
  it('is process.env outside a run and the given object inside one, through awaits', async () => {
    expect(runEnvironment()).toBe(process.env);
    const env = { TMPDIR: '/somewhere/else/' };
    const seen = await withRunEnvironment(env, async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { env: runEnvironment(), temp: temporaryDirectory() };
    });
    expect(seen.env).toBe(env);
    expect(seen.temp).toBe('/somewhere/else');
    expect(await withRunEnvironment({}, () => Promise.resolve(temporaryDirectory()))).toBe('/tmp');
  });

  it('keeps concurrent runs apart: git missing from one PATH does not reach the other', async () => {
    const r = repo({ 'app.py': 'x = 1\n' });
    r.write({ 'app.py': 'import os\nos.system("rm -rf " + path)\n' });
    const [withoutGit, withGit] = await Promise.all([runJscr(REVIEW, r.root, { PATH: '/nonexistent' }), runJscr(REVIEW, r.root)]);
    expect(withoutGit.code).toBe(2);
    expect(withoutGit.stderr).toMatch(/git is not installed or not on PATH/);
    expect(withGit.code).toBe(1);
    expect(withGit.stderr).toBe('');
  });

  it("puts a run's private folders under its own TMPDIR and leaves none behind", async () => {
    const r = repo({ 'app.py': 'x = 1\n' });
    r.write({ 'app.py': 'x = 2\n' });
    const temp = scratch();
    const made: string[] = [];
    // Watch the folder while the review runs: the private index copy lives there only for a moment.
    const watcher = watch(temp, (_event, name) => {
      if (name !== null) made.push(name);
    });
    try {
      const run = await runJscr(REVIEW, r.root, { TMPDIR: temp });
      expect(run.code).toBe(0);
    } finally {
      watcher.close();
    }
    expect(made.some((name) => name.startsWith('jscr-index-'))).toBe(true);
    expect(readdirSync(temp)).toEqual([]);
  });
});

describe("a repository's git configuration", () => {
  it('is listed again by the next run: a filter added after one run never runs in the next', async () => {
    const r = repo({ '.gitattributes': '*.py filter=planted\n', 'app.py': 'x = 1\n' });
    expect((await runJscr(REVIEW, r.root)).code).toBe(0);

    const dir = scratch();
    const marker = join(dir, 'filter.ran');
    const script = join(dir, 'filter.sh');
    writeFileSync(script, `#!/bin/sh\necho ran >> '${marker}'\ncat\n`);
    chmodSync(script, 0o755);
    appendFileSync(join(r.root, '.git', 'config'), `[filter "planted"]\n\tclean = ${script}\n\tsmudge = ${script}\n`);
    r.write({ 'app.py': 'x = 2\n' });

    // The control: plain git on a copy runs the filter, so the mechanism is real.
    const copy = join(dir, 'control-copy');
    cpSync(r.root, copy, { recursive: true });
    execFileSync('git', ['diff', 'HEAD'], { cwd: copy, stdio: 'ignore' });
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);

    const second = await runJscr(REVIEW, r.root);
    expect(second.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });
});
