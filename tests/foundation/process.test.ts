import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitAvailable, gitText } from '../../src/policy/git.js';
import { ProcessNotAllowedError, assertProgramAllowed, runProgram } from '../../src/policy/process.js';
import { GitError } from '../../src/errors.js';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'jscr-process-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('the process allowlist', () => {
  it.each(['sh', 'bash', 'node', '/bin/sh', 'git; rm -rf /', 'python'])('refuses %s', (program) => {
    expect(() => assertProgramAllowed(program)).toThrow(ProcessNotAllowedError);
    // runProgram refuses before anything starts (it throws synchronously).
    expect(() => runProgram(program, ['-c', 'echo pwned'], { cwd: work, timeoutMs: 1000 })).toThrow(/not on jscr's process allowlist/);
  });

  it('refuses git: it starts only through the hardened runner in src/policy/git.ts', () => {
    expect(() => runProgram('git', ['--version'], { cwd: work, timeoutMs: 1000 })).toThrow(/hardened git runner/);
  });

  it('runs programs with an argument vector, never a shell', async () => {
    // A shell would expand these; as one argv entry each they reach git verbatim.
    expect(await gitText(work, ['rev-parse', '--sq-quote', 'two words', '$(touch pwned); echo x'])).toBe(" 'two words' '$(touch pwned); echo x'\n");
    expect(existsSync(join(work, 'pwned'))).toBe(false);
  });

  it('kills a process that outlives its timeout, with the children it started', async () => {
    // A stand-in "bandit" found first through searchPath, so the allowlist still applies to the name.
    const fakeBin = await mkdtemp(join(work, 'bin-'));
    await writeFile(join(fakeBin, 'bandit'), '#!/bin/sh\nsleep 30\n');
    await chmod(join(fakeBin, 'bandit'), 0o755);
    const started = Date.now();
    const result = await runProgram('bandit', [], { cwd: work, timeoutMs: 300, searchPath: [fakeBin] });
    expect(result.timedOut).toBe(true);
    expect(result.signal).toBe('SIGKILL');
    // The wrapper's `sleep 30` would hold the pipes for 30 s; the deadline must not wait for it.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('reports an allowed program that is not installed as spawnError', async () => {
    const emptyDir = await mkdtemp(join(work, 'empty-'));
    const result = await runProgram('gitleaks', ['version'], { cwd: work, timeoutMs: 5000, env: { PATH: emptyDir } });
    expect(result.spawnError).toBe('ENOENT');
    expect(result.code).not.toBe(0);
  });
});

describe('the git runner', () => {
  it('runs the located git', async () => {
    expect(gitAvailable()).toBe(true);
    expect(await gitText(work, ['version'])).toMatch(/^git version \d+\.\d+/);
  });

  it('is a GitError naming the reason git gave, never an internal error', async () => {
    await expect(gitText(work, ['rev-parse', '--show-toplevel'])).rejects.toThrow(GitError);
    await expect(gitText(work, ['rev-parse', '--show-toplevel'])).rejects.toMatchObject({
      account: 'git rev-parse failed',
      gitSaid: expect.stringMatching(/^fatal: not a git repository/) as string,
      message: expect.stringMatching(/^git rev-parse failed: fatal: not a git repository/) as string,
    });
  });

  it.each([['commit', '-m', 'x'], ['config', 'user.name', 'x'], ['hash-object', '-w', '/dev/null'], ['-c', 'core.fsmonitor=x', 'status'], ['-C', '/', 'status']])('refuses a command that could write or set config: %s', async (...args) => {
    await expect(gitText(work, args)).rejects.toThrow(GitError);
  });
});
