/**
 * The async shape the git tests use, over the one shared test-repository helper (tests/helpers/repo.ts),
 * so identity, fixed dates and the isolated git configuration live in one place.
 */
import { makeRepo as makeSharedRepo } from '../helpers/repo.js';

export interface TestRepo {
  root: string;
  /** Run git in the repository; throws with git's stderr on a non-zero exit. Returns stdout. */
  git(...args: string[]): Promise<string>;
  write(path: string, content: string | Buffer): Promise<void>;
  /** Stage everything and commit; returns the new commit id. */
  commit(message: string): Promise<string>;
  remove(): Promise<void>;
}

export async function makeRepo(): Promise<TestRepo> {
  const shared = makeSharedRepo();
  return {
    root: shared.root,
    git: async (...args) => shared.git(...args),
    write: async (path, content) => shared.write({ [path]: content }),
    commit: async (message) => shared.commit({}, message),
    remove: async () => shared.cleanup(),
  };
}

