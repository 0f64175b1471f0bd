/**
 * `--output` as a CI job uses it, run as root as CI containers are: a device, a FIFO or a descriptor
 * link is written in place and stays what it was; a symbolic link stays a link; a regular file is
 * replaced whole; nothing in a `.git` folder, the git directory or a tracked file is ever written.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeRepo, runJscr, runJscrBinarySync, type CliResult, type TestRepo } from '../helpers/repo.js';

const repos: TestRepo[] = [];
const dirs: string[] = [];
function repo(): TestRepo {
  const r = makeRepo({ 'app.js': 'const a = 1;\n' });
  repos.push(r);
  return r;
}
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'jscr-output-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const reviewArgs = (output: string, format: string): string[] => ['review', '--no-model', '--format', format, '--output', output];
const review = (r: TestRepo, output: string, format = 'json'): Promise<CliResult> => runJscr(reviewArgs(output, format), { cwd: r.root, timeoutMs: 60_000 });

function expectRefused(result: CliResult, pattern: RegExp): void {
  expect(result.code).toBe(2);
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
}

/** The device's identity: type bits and device number, unchanged if it was written and not replaced. */
function deviceIdentity(path: string): { char: boolean; rdev: number; ino: number } {
  const info = lstatSync(path);
  return { char: info.isCharacterDevice(), rdev: info.rdev, ino: info.ino };
}

describe('devices, FIFOs and descriptor links are written in place', () => {
  it('a null device node made for the test stays a character device', async () => {
    const dir = tempDir();
    const node = join(dir, 'null');
    execFileSync('mknod', [node, 'c', '1', '3']);
    const before = deviceIdentity(node);
    const result = await review(repo(), node);
    expect(result.code).toBe(0);
    expect(deviceIdentity(node)).toEqual(before);
    expect(readdirSync(dir)).toEqual(['null']);
  });

  it('--output /dev/null leaves /dev/null the same character device', async () => {
    const before = deviceIdentity('/dev/null');
    expect(before.char).toBe(true);
    const result = await review(repo(), '/dev/null', 'text');
    expect(result.code).toBe(0);
    expect(deviceIdentity('/dev/null')).toEqual(before);
    expect(result.stdout).toBe('');
  });

  it('a device that refuses the write (/dev/full) is exit 2 with one line, and stays the device', async () => {
    const before = deviceIdentity('/dev/full');
    expectRefused(await review(repo(), '/dev/full'), /--output \/dev\/full: cannot write the report \(ENOSPC\)/);
    expect(deviceIdentity('/dev/full')).toEqual(before);
  });

  for (const name of ['/dev/stdout', '/dev/fd/1', '/proc/self/fd/1']) {
    // The binary, so the descriptor the path names is a real process's stdout (a pipe from the test).
    it(`--output ${name} prints the report (stdout is a pipe here) and /dev/stdout stays a link`, () => {
      const before = readlinkSync('/dev/stdout');
      const result = runJscrBinarySync(reviewArgs(name, 'json'), { cwd: repo().root, timeoutMs: 60_000 });
      expect(result.code).toBe(0);
      expect((JSON.parse(result.stdout) as { exit_code: number }).exit_code).toBe(0);
      expect(lstatSync('/dev/stdout').isSymbolicLink()).toBe(true);
      expect(readlinkSync('/dev/stdout')).toBe(before);
    });
  }

  it('a symbolic link to a FIFO: the reader gets the report and the link and the FIFO stay', async () => {
    const dir = tempDir();
    const fifo = join(dir, 'report.fifo');
    execFileSync('mkfifo', [fifo]);
    const link = join(dir, 'report.json');
    symlinkSync(fifo, link);
    const reader = spawn('cat', [fifo]);
    let received = '';
    reader.stdout.on('data', (d: Buffer) => (received += d.toString()));
    const readerDone = new Promise<void>((resolve) => reader.on('close', () => resolve()));
    const r = repo();
    const result = await runJscr(['review', '--no-model', '--format', 'json', '--output', link], { cwd: r.root });
    await readerDone;
    expect(result.code).toBe(0);
    expect((JSON.parse(received) as { exit_code: number }).exit_code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it('fix --out naming a device is exit 2 and the device stays', async () => {
    const dir = tempDir();
    const node = join(dir, 'null');
    execFileSync('mknod', [node, 'c', '1', '3']);
    const before = deviceIdentity(node);
    const result = await runJscr(['fix', '--out', node], { cwd: repo().root, timeoutMs: 60_000 });
    expectRefused(result, /--out .* exists and is not a folder/);
    expect(deviceIdentity(node)).toEqual(before);
  });
});

describe('regular files are replaced whole, links kept', () => {
  it('a symbolic link to a regular file: the target gets the report, the link stays a link', async () => {
    const dir = tempDir();
    const target = join(dir, 'real.json');
    writeFileSync(target, 'old');
    const link = join(dir, 'report.json');
    symlinkSync(target, link);
    const result = await review(repo(), link);
    expect(result.code).toBe(0);
    expect(readlinkSync(link)).toBe(target);
    expect((JSON.parse(readFileSync(target, 'utf8')) as { exit_code: number }).exit_code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['real.json', 'report.json']);
  });

  it('an existing report is replaced with its mode kept, and no temporary file is left', async () => {
    const dir = tempDir();
    const target = join(dir, 'report.json');
    writeFileSync(target, 'old');
    chmodSync(target, 0o640);
    const result = await review(repo(), target);
    expect(result.code).toBe(0);
    expect(statSync(target).mode & 0o777).toBe(0o640);
    expect(readFileSync(target, 'utf8')).toMatch(/"exit_code": 0/);
    expect(readdirSync(dir)).toEqual(['report.json']);
  });

  it('a dangling link is refused and nothing is created where it points', async () => {
    const dir = tempDir();
    symlinkSync(join(dir, 'nowhere'), join(dir, 'dangling.json'));
    expectRefused(await review(repo(), join(dir, 'dangling.json')), /symbolic link to nothing/);
    expect(existsSync(join(dir, 'nowhere'))).toBe(false);
  });
});

describe('the repository is never written', () => {
  it('a new report file in the working folder is fine (CI recipes write one)', async () => {
    const r = repo();
    const result = await review(r, 'jscr-report.json');
    expect(result.code).toBe(0);
    expect(existsSync(join(r.root, 'jscr-report.json'))).toBe(true);
  });

  it('a tracked file is refused and left as it was', async () => {
    const r = repo();
    const result = await review(r, 'app.js');
    expectRefused(result, /--output app\.js: names app\.js, a file the repository tracks/);
    expect(readFileSync(join(r.root, 'app.js'), 'utf8')).toBe('const a = 1;\n');
  });

  it('a tracked file reached through a symbolic link is refused', async () => {
    const r = repo();
    const dir = tempDir();
    symlinkSync(join(r.root, 'app.js'), join(dir, 'report.json'));
    expectRefused(await review(r, join(dir, 'report.json')), /a file the repository tracks/);
    expect(readFileSync(join(r.root, 'app.js'), 'utf8')).toBe('const a = 1;\n');
  });

  it('a path in .git, in any case, directly or through a link, is refused', async () => {
    const r = repo();
    const config = readFileSync(join(r.root, '.git', 'config'), 'utf8');
    for (const output of ['.git/config', '.GIT/config', '.Git/hooks/pre-commit', '.git', 'sub/../.git/description']) {
      expectRefused(await review(r, output), /inside a \.git folder/);
    }
    const dir = tempDir();
    symlinkSync(join(r.root, '.git', 'config'), join(dir, 'report.json'));
    expectRefused(await review(r, join(dir, 'report.json')), /inside a \.git folder/);
    symlinkSync(join(r.root, '.git'), join(dir, 'dotgit'));
    expectRefused(await review(r, join(dir, 'dotgit', 'new-file')), /inside a \.git folder/);
    expect(readFileSync(join(r.root, '.git', 'config'), 'utf8')).toBe(config);
    expect(existsSync(join(r.root, '.git', 'new-file'))).toBe(false);
  });

  it('a link the repository holds, as the file or as a folder on the way, is never written through', async () => {
    const r = repo();
    const dir = tempDir();
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'precious\n');
    // What a pull request can commit: the report name CI writes to, and a folder, as links out.
    symlinkSync(victim, join(r.root, 'jscr-report.json'));
    symlinkSync(dir, join(r.root, 'reports'));
    r.git('add', 'jscr-report.json', 'reports');
    r.git('commit', '-q', '-m', 'links');
    symlinkSync(victim, join(r.root, 'untracked.json'));
    expectRefused(await review(r, 'jscr-report.json'), /goes through jscr-report\.json, a symbolic link inside the repository/);
    expectRefused(await review(r, 'reports/new.json'), /goes through reports, a symbolic link inside the repository/);
    expectRefused(await review(r, 'untracked.json'), /goes through untracked\.json, a symbolic link inside the repository/);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(readdirSync(dir).sort()).toEqual(['victim.txt']);
  });

  it('a git directory that is not named .git is refused too', async () => {
    const dir = tempDir();
    const gitDir = join(dir, 'separate-git-dir');
    const work = join(dir, 'work');
    execFileSync('git', ['init', '-q', `--separate-git-dir=${gitDir}`, work]);
    writeFileSync(join(work, 'a.js'), 'x\n');
    execFileSync('git', ['-C', work, 'add', 'a.js']);
    const result = await runJscr(['review', '--no-model', '--staged', '--output', join(gitDir, 'hooks', 'post-checkout')], { cwd: work, timeoutMs: 60_000 });
    expectRefused(result, /inside the repository's git directory/);
    expect(existsSync(join(gitDir, 'hooks', 'post-checkout'))).toBe(false);
  });
});
