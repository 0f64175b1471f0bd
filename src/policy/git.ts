/**
 * The one place simple-git is imported, so every git process starts through the policy layer:
 * git must be on the process allowlist and is run from the located binary, never through a shell.
 */
import { simpleGit, type SimpleGit } from 'simple-git';
import { GitError } from '../errors.js';
import { assertProgramAllowed, locateProgram } from './process.js';

export type { SimpleGit } from 'simple-git';

/** True when a git executable is on PATH. */
export function gitAvailable(): boolean {
  return locateProgram('git') !== null;
}

/** A simple-git client rooted at `baseDir`; a GitError when git is missing or the directory is not usable. */
export function createGitClient(baseDir: string): SimpleGit {
  assertProgramAllowed('git');
  const binary = locateProgram('git');
  if (binary === null) throw new GitError('git is not installed (not found on PATH)');
  try {
    return simpleGit({ baseDir, binary, maxConcurrentProcesses: 4, trimmed: false });
  } catch (error) {
    throw new GitError(`cannot use ${baseDir} for git: ${error instanceof Error ? error.message : String(error)}`);
  }
}
