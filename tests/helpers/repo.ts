/**
 * Real git repositories in temporary folders, built from plain file maps, for end-to-end tests.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach } from 'vitest';
import { cliEnvironment, JSCR_BIN, runJscr as runJscrInProcess, type CliRun } from './cli.js';

export type FileMap = Record<string, string | Buffer | { symlink: string } | null>;

export interface TestRepo {
  root: string;
  git(...args: string[]): string;
  /** Write (or delete, with null) files and commit them; returns the new HEAD sha. */
  commit(files: FileMap, message?: string): string;
  /** Write files without committing. */
  write(files: FileMap): void;
  cleanup(): void;
}

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'jscr test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'jscr test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
  // Fixed dates make commit ids, and so every report that names one, the same on every run.
  GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
  GIT_CONFIG_NOSYSTEM: '1',
  HOME: tmpdir(),
};

export function makeRepo(initial?: FileMap): TestRepo {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'jscr-repo-')));
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: root, env: GIT_ENV, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  git('init', '-q', '-b', 'main');
  git('config', 'commit.gpgsign', 'false');
  const write = (files: FileMap): void => {
    for (const [path, content] of Object.entries(files)) {
      const abs = join(root, path);
      rmSync(abs, { force: true });
      if (content === null) continue;
      mkdirSync(dirname(abs), { recursive: true });
      if (typeof content === 'object' && !Buffer.isBuffer(content)) symlinkSync(content.symlink, abs);
      else writeFileSync(abs, content);
    }
  };
  const repo: TestRepo = {
    root,
    git,
    write,
    commit(files, message = 'change') {
      write(files);
      git('add', '-A');
      git('commit', '-q', '--allow-empty', '-m', message);
      return git('rev-parse', 'HEAD').trim();
    },
    cleanup() {
      rmSync(root, { recursive: true, force: true });
    },
  };
  if (initial) repo.commit(initial, 'initial');
  return repo;
}

/** A `makeRepo` whose repositories are removed after each test of the file that calls this once at its top. */
export function reposRemovedAfterEach(): (initial?: FileMap) => TestRepo {
  const made: TestRepo[] = [];
  afterEach(() => {
    for (const r of made.splice(0)) r.cleanup();
  });
  return (initial) => {
    const r = makeRepo(initial);
    made.push(r);
    return r;
  };
}

export type { CliRun as CliResult } from './cli.js';

/** Options of a CLI run: where, with which variables over this process's, what on stdin, how long at most. */
export interface CliOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  input?: string;
  timeoutMs?: number;
}

/** Run the CLI in-process (tests/helpers/cli.ts `runJscr`). */
export function runJscr(args: string[], opts: CliOptions): Promise<CliRun> {
  return runJscrInProcess(args, opts.cwd, opts.env, { stdin: opts.input ?? '', timeoutMs: opts.timeoutMs ?? 120_000 });
}

/**
 * The built binary (dist/ must be built: `npm test` builds before vitest), synchronously, killed past
 * `timeoutMs`: for tests about the process itself, such as one that must not hang on a FIFO.
 */
export function runJscrBinarySync(args: string[], opts: CliOptions): CliRun {
  const result = spawnSync(process.execPath, [JSCR_BIN, ...args], {
    cwd: opts.cwd,
    env: cliEnvironment(opts.env),
    input: opts.input ?? '',
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? 120_000,
    maxBuffer: 256 * 1024 * 1024,
  });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}
