/**
 * Every way a scanner run can go wrong is a `not_run` or `failed` outcome with a reason, never a clean
 * run: not installed, crashed, printed something that is not its report, killed by a signal, hung.
 */
import { describe, expect, it } from 'vitest';
import { bandit } from '../../src/review/scanners/bandit.js';
import { createEslintAdapter } from '../../src/review/scanners/eslint.js';
import { createSecretlintAdapter } from '../../src/review/scanners/secretlint.js';
import { shellcheck } from '../../src/review/scanners/shellcheck.js';
import { SCANNERS } from '../../src/review/scanners/index.js';
import type { ScannerAdapter } from '../../src/review/scanners/types.js';
import { EMPTY_PATH_ENV, fakeProgram, scan } from './harness.js';

interface Subject {
  name: string;
  /** The adapter, given extra directories to search first (for the npm-installed scanners). */
  adapter(binDirs: string[]): ScannerAdapter;
  file: string;
}

const SUBJECTS: Subject[] = [
  { name: 'bandit', adapter: () => bandit, file: 'app.py' },
  { name: 'shellcheck', adapter: () => shellcheck, file: 'run.sh' },
  { name: 'secretlint', adapter: (dirs) => createSecretlintAdapter(dirs), file: 'config.js' },
  { name: 'eslint', adapter: (dirs) => createEslintAdapter(dirs), file: 'app.js' },
];

describe.each(SUBJECTS)('$name failures', ({ name, adapter, file }) => {
  const files = { [file]: 'x = 1\n' };

  it('is not_run when not installed', async () => {
    const outcome = await scan(adapter([]), files, EMPTY_PATH_ENV);
    expect(outcome).toEqual({ status: 'not_run', findings: [], detail: `${name} is enabled but not installed (${name} not found on PATH)` });
  });

  it('failed, with the exit code and first stderr line, when it crashes', async () => {
    const fake = await fakeProgram(name, 'echo "Traceback: garbage state" >&2\necho "}{"\nexit 2');
    try {
      const outcome = await scan(adapter([fake.dir]), files, fake.env);
      expect(outcome).toEqual({ status: 'failed', findings: [], detail: `${name} crashed: exit code 2: Traceback: garbage state` });
    } finally {
      await fake.remove();
    }
  });

  it('failed when its "found issues" exit comes with output that is not its report', async () => {
    const fake = await fakeProgram(name, 'echo "not json at all"\nexit 1');
    try {
      const outcome = await scan(adapter([fake.dir]), files, fake.env);
      expect(outcome.status).toBe('failed');
      expect(outcome.detail).toMatch(new RegExp(`^${name} printed output that is not its`));
    } finally {
      await fake.remove();
    }
  });

  it('failed when killed by a signal', async () => {
    const fake = await fakeProgram(name, 'kill -TERM $$');
    try {
      const outcome = await scan(adapter([fake.dir]), files, fake.env);
      expect(outcome).toEqual({ status: 'failed', findings: [], detail: `${name} was killed by signal SIGTERM` });
    } finally {
      await fake.remove();
    }
  });

  it('failed with "timed out" when it hangs past the deadline', async () => {
    // exec: the sleep replaces the shell, so the kill reaches the process holding the pipes.
    const fake = await fakeProgram(name, 'exec sleep 30');
    try {
      const started = Date.now();
      const outcome = await scan(adapter([fake.dir]), files, fake.env, 700);
      expect(outcome).toEqual({ status: 'failed', findings: [], detail: `${name} timed out after 0.7 s` });
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      await fake.remove();
    }
  });
});

describe('the scanner registry', () => {
  it('lists every scanner the configuration accepts, once', () => {
    expect(SCANNERS.map((s) => s.name)).toEqual(['bandit', 'shellcheck', 'secretlint', 'eslint', 'semgrep', 'gitleaks']);
  });

  it('says semgrep and gitleaks have no adapter yet instead of reporting them clean', async () => {
    for (const name of ['semgrep', 'gitleaks']) {
      const adapter = SCANNERS.find((s) => s.name === name)!;
      const outcome = await scan(adapter, { 'a.py': 'x = 1\n' });
      expect(outcome).toEqual({ status: 'not_run', findings: [], detail: `${name} is enabled but jscr has no adapter for it in this version` });
    }
  });

  it('registers every adapter module in src/review/scanners', async () => {
    const { readdir } = await import('node:fs/promises');
    const { fileURLToPath } = await import('node:url');
    const dir = fileURLToPath(new URL('../../src/review/scanners/', import.meta.url));
    const modules = (await readdir(dir)).filter((f) => f.endsWith('.ts') && !['index.ts', 'types.ts', 'common.ts'].includes(f)).map((f) => f.slice(0, -3));
    for (const name of modules) expect(SCANNERS.map((s) => s.name)).toContain(name);
  });
});
