/**
 * Every file a command is told to read (`--config`, `guard --consultation/--proposal`, `profile
 * --file-text`) is read only when it is a regular file: a FIFO would block forever, `/dev/zero` and
 * `/dev/urandom` never end. Each of those is exit 2 at once with one line naming the path and its kind.
 * The CLI runs with a timeout, so a hang fails the test instead of stalling it; for the things a
 * careless read would block on forever in one system call (a FIFO, an endless device) that CLI is the
 * binary in its own process, since a blocked call in-process would stall the test runner itself.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRegularFile } from '../../src/io.js';
import { makeRepo, runJscr, runJscrBinarySync, type CliOptions, type CliResult, type TestRepo } from '../helpers/repo.js';

/** Long enough for a cold start on a busy machine, far shorter than "forever". */
const HANG_LIMIT_MS = 20_000;

let dir: string;
let fifo: string;
let socketPath: string;
let server: Server;
let repo: TestRepo;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'jscr-file-args-'));
  fifo = join(dir, 'config.fifo');
  execFileSync('mkfifo', [fifo]);
  mkdirSync(join(dir, 'a-directory'));
  symlinkSync('/dev/zero', join(dir, 'link-to-zero'));
  socketPath = join(dir, 'listening.sock');
  server = createServer();
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  repo = makeRepo({ 'app.py': 'x = 1\n' });
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  repo.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

/** Each non-regular thing a user could name, the word the message must use for it, and whether a read could block forever. */
const NOT_REGULAR: [string, () => string, RegExp, 'may-hang' | 'ends'][] = [
  ['a FIFO', () => fifo, /FIFO/, 'may-hang'],
  ['/dev/zero', () => '/dev/zero', /character device/, 'may-hang'],
  ['/dev/urandom', () => '/dev/urandom', /character device/, 'may-hang'],
  ['a directory', () => join(dir, 'a-directory'), /directory/, 'ends'],
  ['a symlink to /dev/zero', () => join(dir, 'link-to-zero'), /character device/, 'may-hang'],
  ['a socket', () => socketPath, /socket/, 'ends'],
];

/** The CLI with the hang limit: the binary when the read may block, in-process otherwise. */
async function cli(args: string[], risk: 'may-hang' | 'ends', options: Omit<CliOptions, 'timeoutMs'>): Promise<CliResult> {
  const withLimit = { ...options, timeoutMs: HANG_LIMIT_MS };
  return risk === 'may-hang' ? runJscrBinarySync(args, withLimit) : await runJscr(args, withLimit);
}

function expectRefusedAtOnce(result: { code: number; stderr: string }, path: string, kind: RegExp): void {
  expect(result.code).toBe(2);
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(path);
  expect(lines[0]).toMatch(kind);
  expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
}

describe('readRegularFile', () => {
  for (const [name, path, kind] of NOT_REGULAR) {
    it(`refuses ${name} without reading it`, () => {
      const read = readRegularFile(path(), 1024);
      expect(read.ok).toBe(false);
      if (!read.ok) expect(read.problem).toMatch(kind);
    });
  }
  it('reads a regular file, and a /proc file whose size says 0', () => {
    const file = join(dir, 'plain.toml');
    writeFileSync(file, 'a = 1\n');
    expect(readRegularFile(file, 1024)).toEqual({ ok: true, bytes: Buffer.from('a = 1\n') });
    const proc = readRegularFile('/proc/self/status', 1024 * 1024);
    expect(proc.ok && proc.bytes.toString().includes('Pid:')).toBe(true);
  });
  it('refuses a file over the limit, whatever its stat size says', () => {
    const file = join(dir, 'big.toml');
    writeFileSync(file, 'x'.repeat(2000));
    expect(readRegularFile(file, 1000)).toEqual({ ok: false, reason: 'too-large', problem: 'is larger than 1000 bytes' });
    expect(readRegularFile('/proc/self/maps', 10).ok).toBe(false);
  });
  it('names a missing file by its errno', () => {
    expect(readRegularFile(join(dir, 'missing'), 10)).toEqual({ ok: false, reason: 'missing', problem: 'cannot be read (ENOENT)' });
  });
});

describe('every file argument of every command refuses what is not a regular file, at once', () => {
  for (const [name, path, kind, risk] of NOT_REGULAR) {
    it(`review --config ${name}`, async () => {
      const result = await cli(['review', '--no-model', '--config', path()], risk, { cwd: repo.root });
      expectRefusedAtOnce(result, path(), kind);
    });
    it(`fix --config ${name}`, async () => {
      const result = await cli(['fix', '--config', path()], risk, { cwd: repo.root, env: { XDG_STATE_HOME: dir } });
      expectRefusedAtOnce(result, path(), kind);
    });
    it(`guard --consultation and --proposal ${name}`, async () => {
      const proposal = join(dir, 'proposal.json');
      writeFileSync(proposal, '{}');
      const consultation = await cli(['guard', '--repo', repo.root, '--consultation', path(), '--proposal', proposal], risk, { cwd: repo.root });
      expectRefusedAtOnce(consultation, path(), kind);
      const second = await cli(['guard', '--repo', repo.root, '--consultation', proposal, '--proposal', path()], risk, { cwd: repo.root });
      // the consultation is read first and is not a consultation: that is the one line then
      expect(second.code).toBe(2);
    });
    it(`profile --file-text ${name}`, async () => {
      const payload = JSON.stringify({ tool_name: 'Edit', cwd: repo.root, tool_input: { file_path: 'app.py', old_string: 'x = 1', new_string: 'x = 2' } });
      const result = await cli(['profile', '--file-text', path()], risk, { cwd: repo.root, input: payload });
      expectRefusedAtOnce(result, path(), kind);
    });
  }
  it('guard --proposal on a FIFO is refused once the consultation is fine', async () => {
    // a consultation that parses, so the proposal is the file that decides
    const consultation = join(dir, 'consultation.json');
    writeFileSync(
      consultation,
      JSON.stringify({ context: { path: 'app.py', start_line: 1, end_line: 1, text: 'x = 1\n', file_sha256: '0'.repeat(64), encoding: 'utf-8' }, line: 1, symbol: 'x', to_modules: [] }),
    );
    const result = await cli(['guard', '--repo', repo.root, '--consultation', consultation, '--proposal', fifo], 'may-hang', { cwd: repo.root });
    if (result.stderr.includes('consultation')) throw new Error(`the consultation fixture no longer parses: ${result.stderr}`);
    expectRefusedAtOnce(result, fifo, /FIFO/);
  });
});
