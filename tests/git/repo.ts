/** A temporary git repository for tests: real files, real commits, git started through the allowlist. */
import { mkdtemp, mkdir, rm, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runProgram } from '../../src/policy/process.js';

export interface TestRepo {
  root: string;
  /** Run git in the repository; throws with git's stderr on a non-zero exit. Returns stdout. */
  git(...args: string[]): Promise<string>;
  write(path: string, content: string | Buffer): Promise<void>;
  /** Stage everything and commit; returns the new commit id. */
  commit(message: string): Promise<string>;
  remove(): Promise<void>;
}

const IDENTITY = ['-c', 'user.name=jscr tests', '-c', 'user.email=tests@jscr.invalid', '-c', 'commit.gpgsign=false'];

export async function makeRepo(): Promise<TestRepo> {
  const root = await mkdtemp(join(tmpdir(), 'jscr-git-test-'));
  const git = async (...args: string[]): Promise<string> => {
    const result = await runProgram('git', [...IDENTITY, ...args], { cwd: root, timeoutMs: 30_000 });
    if (result.code !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr}`);
    return result.stdout;
  };
  await git('init', '-q', '-b', 'main');
  return {
    root,
    git,
    async write(path, content) {
      const target = join(root, path);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, content);
    },
    async commit(message) {
      await git('add', '-A');
      await git('commit', '-q', '--allow-empty', '-m', message);
      return (await git('rev-parse', 'HEAD')).trim();
    },
    remove: () => rm(root, { recursive: true, force: true }),
  };
}

export { chmod };
