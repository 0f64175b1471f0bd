/**
 * An interrupted review leaves nothing behind: on SIGINT or SIGTERM the scanners' work copy is
 * removed and the scanner, with every process it started, is killed; jscr then ends by the same
 * signal, so the shell sees the conventional status (130, 143).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSCR_BIN } from '../helpers/cli.js';
import { makeRepo, type TestRepo } from '../helpers/repo.js';
import { fakeProgram } from '../scanners/harness.js';

let repo: TestRepo;
let sandbox: string;

beforeAll(() => {
  repo = makeRepo({ '.jscr.toml': '[scanners]\nenabled = ["bandit"]\n', 'app.py': 'x = 1\n' });
  repo.commit({ 'app.py': 'import os\nos.system("ls " + y)\n' }, 'head');
  sandbox = mkdtempSync(join(tmpdir(), 'jscr-interrupt-'));
});

afterAll(() => {
  repo.cleanup();
  rmSync(sandbox, { recursive: true, force: true });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

describe('an interrupted review', () => {
  it.each([['SIGTERM'], ['SIGINT']] as const)('cleans up on %s and ends by that signal', async (signal) => {
    const tmp = join(sandbox, signal, 'tmp');
    mkdirSync(tmp, { recursive: true });
    const pids = join(sandbox, `${signal}.pids`);
    // The scanner starts a grandchild and waits: both must be gone after the signal.
    const fake = await fakeProgram('bandit', `sleep 60 &\necho "$$ $!" > '${pids}'\nwait`);
    try {
      const child = spawn(process.execPath, [JSCR_BIN, 'review', '--no-model', '--range', 'HEAD~1..HEAD'], {
        cwd: repo.root,
        env: { ...process.env, TMPDIR: tmp, PATH: fake.env.PATH, NO_COLOR: '1' },
        stdio: 'ignore',
      });
      const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, sig) => resolve({ code, signal: sig })));
      expect(await waitFor(() => existsSync(pids) && readFileSync(pids, 'utf8').trim().split(' ').length === 2, 30_000)).toBe(true);
      // While the scanner runs, its work copy exists.
      expect(readdirSync(tmp).some((name) => name.startsWith('jscr-scan-'))).toBe(true);
      child.kill(signal);
      const outcome = await ended;
      expect(outcome).toEqual({ code: null, signal });
      expect(readdirSync(tmp)).toEqual([]);
      const [scanner, grandchild] = readFileSync(pids, 'utf8').trim().split(' ').map(Number);
      expect(await waitFor(() => !alive(scanner as number) && !alive(grandchild as number), 5_000)).toBe(true);
    } finally {
      await fake.remove();
    }
  }, 60_000);
});
