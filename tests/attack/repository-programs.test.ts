/**
 * A change that commits its own `git` or scanner where PATH looks (`node_modules/.bin`, which npx and
 * npm scripts put first on PATH, or a relative PATH entry): jscr never runs it.
 */
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { reposRemovedAfterEach, runJscr } from '../helpers/repo.js';

const repo = reposRemovedAfterEach();
const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('attack: programs the reviewed repository ships', () => {
  it('a committed node_modules/.bin/git or shellcheck on PATH (absolute or relative) is never started', async () => {
    const marks = mkdtempSync(join(tmpdir(), 'jscr-marks-'));
    scratch.push(marks);
    const marker = join(marks, 'ran');
    const fake = (name: string) => `#!/bin/sh\necho ${name} >> '${marker}'\nexit 0\n`;
    const r = repo({ 'README.md': '# app\n', '.jscr.toml': '[scanners]\nenabled = ["shellcheck"]\n' });
    r.commit({ 'node_modules/.bin/git': fake('git'), 'node_modules/.bin/shellcheck': fake('shellcheck'), 'run.sh': 'echo $1\n' });
    for (const name of ['git', 'shellcheck']) chmodSync(join(r.root, 'node_modules', '.bin', name), 0o755);
    for (const entry of [join(r.root, 'node_modules', '.bin'), join('node_modules', '.bin')]) {
      const run = await runJscr(['review', '--range', 'HEAD~1..HEAD', '--no-model', '--format', 'json'], { cwd: r.root, env: { PATH: `${entry}${delimiter}${process.env.PATH ?? ''}` } });
      // Reviewed with the real git (a shellcheck missing from this machine is exit 3, not a fake one run).
      expect([1, 3], run.stderr).toContain(run.code);
      expect(existsSync(marker), `started from ${entry}`).toBe(false);
    }
  });
});
