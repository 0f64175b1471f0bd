import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitClient, gitAvailable } from '../../src/policy/git.js';
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

  it('runs git with an argument vector, never a shell', async () => {
    // A shell would expand these; as one argv entry each they reach git verbatim.
    const result = await runProgram('git', ['rev-parse', '--sq-quote', 'two words', '$(touch pwned); echo x'], { cwd: work, timeoutMs: 10_000 });
    expect(result.spawnError).toBeNull();
    expect(result).toMatchObject({ code: 0, stdout: " 'two words' '$(touch pwned); echo x'\n" });
    const version = await runProgram('git', ['--version'], { cwd: work, timeoutMs: 10_000 });
    expect(version).toMatchObject({ code: 0, timedOut: false, spawnError: null });
    expect(version.stdout).toMatch(/^git version \d+\.\d+/);
  });

  it('kills a process that outlives its timeout', async () => {
    // A stand-in "git" found first through searchPath, so the allowlist still applies to the name.
    const fakeBin = await mkdtemp(join(work, 'bin-'));
    await writeFile(join(fakeBin, 'git'), '#!/bin/sh\nsleep 30\n');
    await chmod(join(fakeBin, 'git'), 0o755);
    const started = Date.now();
    const result = await runProgram('git', [], { cwd: work, timeoutMs: 300, searchPath: [fakeBin] });
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

describe('the git client', () => {
  it('runs git through simple-git from the located binary', async () => {
    expect(gitAvailable()).toBe(true);
    const git = createGitClient(work);
    await git.init();
    expect((await git.revparse(['--is-inside-work-tree'])).trim()).toBe('true');
  });

  it('is a GitError for a directory that does not exist', () => {
    expect(() => createGitClient(join(work, 'no-such-dir'))).toThrow(GitError);
  });
});
