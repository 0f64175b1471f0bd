/**
 * Reading a change out of git: the repository root, the diff text of a range, a commit, the index or
 * the working tree, and file contents at a revision. Every git process starts through
 * `createGitClient` (src/policy/git.ts). Revisions are resolved to object ids before any diff runs, so
 * a revision is never read as an option or a path, and a bad one fails with one line naming it.
 */
import { realpath, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { GitError, UsageError, oneLine } from '../errors.js';
import { createGitClient, gitAvailable, type SimpleGit } from '../policy/git.js';
import type { ChangeSummary } from '../report/finding.js';

/** Which change to review (SPEC 2: `--range`, `--staged`, `--commit`, or none = the working tree). */
export type ChangeSpec =
  | { kind: 'range'; range: string }
  | { kind: 'staged' }
  | { kind: 'commit'; sha: string }
  | { kind: 'working-tree' };

/** The change as git printed it, before parsing. */
export interface RawChange {
  /** `merge-base-range` for `A...B`. */
  kind: ChangeSummary['kind'];
  /** A human label: `main..HEAD`, `main...feature`, `<sha>^..<sha>`, `HEAD..index`, `HEAD..working-tree`. */
  range: string;
  /** Object id of the base side (where `.jscr.toml` is read from); null when there is no commit to read. */
  baseRev: string | null;
  /** Object id of the new side; null for the index and the working tree, which are not commits. */
  headRev: string | null;
  /** `git diff` output with a/ b/ prefixes, no colour, quoted paths, 3 lines of context. */
  diffText: string;
  /** The diff's revision arguments (and `--cached`), so single files can be diffed again the same way. */
  diffRevisions: string[];
}

/** Pass as `rev` to read from the index instead of a commit. */
export const INDEX = '';

/** The message SPEC's fault table expects when git cannot be started. */
export const GIT_MISSING = 'git is not installed or not on PATH';

/**
 * Output-shaping configuration a user may have set (noprefix, mnemonic prefixes, forced colour,
 * relative paths, submodule logs), pinned so the parser always sees the same format. External diff
 * drivers and textconv are turned off by flags instead (simple-git refuses those keys in `-c`).
 */
const PINNED_CONFIG = [
  'core.quotePath=true',
  'diff.noprefix=false',
  'diff.mnemonicPrefix=false',
  'diff.relative=false',
  'diff.suppressBlankEmpty=false',
  'diff.submodule=short',
  'diff.ignoreSubmodules=none',
  'color.ui=never',
  'color.diff=never',
].flatMap((setting) => ['-c', setting]);

/**
 * No `--binary`: a binary file shows as one "Binary files ... differ" line, all the parser needs. No
 * `-C`: a copied file stays a plain addition, so every line of it is reviewed as new code.
 */
const DIFF_FLAGS = [
  '--no-color',
  '--no-ext-diff',
  '--no-textconv',
  '--find-renames',
  '--full-index',
  '--unified=3',
  '--src-prefix=a/',
  '--dst-prefix=b/',
  '--no-relative',
  '--submodule=short',
  '--ignore-submodules=none',
];

function client(root: string): SimpleGit {
  if (!gitAvailable()) throw new GitError(GIT_MISSING);
  return createGitClient(root);
}

/** Run git and turn its failure into a one-line GitError (git's own reason, `fatal: ` dropped). */
async function git(g: SimpleGit, args: string[]): Promise<string> {
  try {
    return await g.raw(args);
  } catch (error) {
    throw toGitError(error);
  }
}

function toGitError(error: unknown): GitError {
  if (error instanceof GitError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (/ENOENT/.test(message) && /spawn/.test(message)) return new GitError(GIT_MISSING);
  const firstLine = message.split('\n').find((line) => line.trim().length > 0) ?? message;
  return new GitError(oneLine(firstLine.replace(/^(fatal|error): /, '')));
}

/** The top level of the work tree containing `dir`, with symbolic links resolved. */
export async function resolveRepository(dir: string): Promise<string> {
  const absolute = resolve(dir);
  try {
    if (!(await stat(absolute)).isDirectory()) throw new GitError(`${absolute} is not a directory`);
  } catch (error) {
    if (error instanceof GitError) throw error;
    throw new GitError(`${absolute} does not exist`);
  }
  const g = client(absolute);
  let top: string;
  try {
    top = (await g.raw(['rev-parse', '--show-toplevel'])).trim();
  } catch (error) {
    const reason = toGitError(error).message;
    if (/not a git repository/i.test(reason)) throw new GitError(`not a git repository: ${absolute}`);
    throw new GitError(reason);
  }
  if (top === '') throw new GitError(`not inside a work tree: ${absolute}`);
  return realpath(top);
}

/** Resolve a revision to a commit id, or fail naming it. Revisions that look like options are refused. */
async function resolveCommit(g: SimpleGit, rev: string): Promise<string> {
  if (rev.length === 0 || rev.startsWith('-') || /[\s\0]/.test(rev)) throw new GitError(`bad revision '${rev}'`);
  // A range inside a revision (`A..B..C`) would make rev-parse print several ids.
  if (rev.includes('..')) throw new GitError(`bad revision '${rev}': one revision expected, not a range`);
  let sha: string;
  try {
    sha = (await git(g, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`])).trim();
  } catch (error) {
    // git names our `^{commit}` suffix and its own words ("dereferences to tree type"); say it plainly.
    const kind = /dereferences to (\w+) type/.exec(error instanceof Error ? error.message : '')?.[1];
    if (kind !== undefined) throw new GitError(`bad revision '${rev}': a ${kind}, not a commit`);
    throw error;
  }
  if (sha === '' || !/^[0-9a-f]{40,64}$/.test(sha)) throw new GitError(`bad revision '${rev}': not a commit in this repository`);
  return sha;
}

/** The id of HEAD, or null in a repository with no commits yet. */
async function headOrNull(g: SimpleGit): Promise<string | null> {
  const sha = (await git(g, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'])).trim();
  return sha === '' ? null : sha;
}

/** The empty tree's id in this repository's object format (sha1 or sha256). */
async function emptyTree(g: SimpleGit): Promise<string> {
  return (await git(g, ['hash-object', '-t', 'tree', '/dev/null'])).trim();
}

function splitRange(range: string): { base: string; head: string; mergeBase: boolean } {
  const threeDots = range.indexOf('...');
  if (threeDots >= 0) {
    return { base: range.slice(0, threeDots) || 'HEAD', head: range.slice(threeDots + 3) || 'HEAD', mergeBase: true };
  }
  const twoDots = range.indexOf('..');
  if (twoDots >= 0) {
    return { base: range.slice(0, twoDots) || 'HEAD', head: range.slice(twoDots + 2) || 'HEAD', mergeBase: false };
  }
  throw new UsageError(`--range '${range}' must be A..B or A...B`);
}

async function diff(g: SimpleGit, revisions: string[], cached = false): Promise<string> {
  return git(g, [...PINNED_CONFIG, 'diff', ...DIFF_FLAGS, ...(cached ? ['--cached'] : []), ...revisions, '--']);
}

/**
 * The diff of these paths of a change with every file treated as text (`--text`), so no attribute,
 * `core.bigFileThreshold` or other setting can turn it into "Binary files differ". For files whose
 * content jscr found to be text although git's diff called them binary.
 */
export async function diffPathsAsText(root: string, change: RawChange, paths: readonly string[]): Promise<string> {
  if (paths.length === 0) return '';
  const pathspecs = paths.map((p) => `:(literal)${p}`);
  return git(client(root), [...PINNED_CONFIG, 'diff', ...DIFF_FLAGS, '--text', ...change.diffRevisions, '--', ...pathspecs]);
}

/**
 * Read the change named by `spec` in the repository at `root` (from `resolveRepository`).
 * `A..B` diffs A to B; `A...B` diffs merge-base(A, B) to B; a commit diffs its first parent (or the
 * empty tree for a root commit) to it; staged is the index against HEAD; the working tree is tracked
 * files against HEAD (untracked files are not part of it, as with `git diff HEAD`).
 */
export async function readChange(root: string, spec: ChangeSpec): Promise<RawChange> {
  const g = client(root);
  switch (spec.kind) {
    case 'range': {
      const { base, head, mergeBase } = splitRange(spec.range);
      const baseSha = await resolveCommit(g, base);
      const headSha = await resolveCommit(g, head);
      let from = baseSha;
      if (mergeBase) {
        from = (await git(g, ['merge-base', baseSha, headSha])).trim();
        if (from === '') throw new GitError(`no merge base between '${base}' and '${head}'`);
      }
      return {
        kind: mergeBase ? 'merge-base-range' : 'range',
        range: spec.range,
        baseRev: from,
        headRev: headSha,
        diffText: await diff(g, [from, headSha]),
        diffRevisions: [from, headSha],
      };
    }
    case 'commit': {
      const sha = await resolveCommit(g, spec.sha);
      const parent = (await git(g, ['rev-parse', '--verify', '--quiet', `${sha}^1`])).trim();
      const from = parent === '' ? await emptyTree(g) : parent;
      return {
        kind: 'commit',
        // A root commit has no parent to name: `X^..X` would be a range git itself refuses.
        range: parent === '' ? `${spec.sha} (root commit, against the empty tree)` : `${spec.sha}^..${spec.sha}`,
        baseRev: parent === '' ? null : parent,
        headRev: sha,
        diffText: await diff(g, [from, sha]),
        diffRevisions: [from, sha],
      };
    }
    case 'staged': {
      const head = await headOrNull(g);
      const from = head ?? (await emptyTree(g));
      return {
        kind: 'staged',
        range: 'HEAD..index',
        baseRev: head,
        headRev: null,
        diffText: await diff(g, [from], true),
        diffRevisions: ['--cached', from],
      };
    }
    case 'working-tree': {
      const head = await headOrNull(g);
      const from = head ?? (await emptyTree(g));
      return {
        kind: 'working-tree',
        range: 'HEAD..working-tree',
        baseRev: head,
        headRev: null,
        diffText: await diff(g, [from]),
        diffRevisions: [from],
      };
    }
  }
}

/**
 * The object id of `path` at `rev` when it is a file (a blob), null when the path is absent there or
 * is not a file (a directory or a submodule). `rev` may be `INDEX`.
 */
async function blobId(g: SimpleGit, rev: string, path: string): Promise<string | null> {
  if (rev !== INDEX) await resolveCommit(g, rev);
  // `:0:<path>` is stage 0 of the index; spelling the stage out keeps a file named `1:x` literal.
  const name = rev === INDEX ? `:0:${path}` : `${rev}:${path}`;
  const id = (await git(g, ['rev-parse', '--verify', '--quiet', name])).trim();
  if (id === '') return null;
  const type = (await git(g, ['cat-file', '-t', id])).trim();
  return type === 'blob' ? id : null;
}

/** The bytes of `path` at revision `rev` (`INDEX` reads the index), or null when absent there. */
export async function readBlob(root: string, rev: string, path: string): Promise<Buffer | null> {
  const g = client(root);
  const id = await blobId(g, rev, path);
  if (id === null) return null;
  try {
    return (await g.binaryCatFile(['blob', id])) as Buffer;
  } catch (error) {
    throw toGitError(error);
  }
}

/** The text (UTF-8) of `path` at revision `rev` (`INDEX` reads the index), or null when absent there. */
export async function readFileAtRevision(root: string, rev: string, path: string): Promise<string | null> {
  const bytes = await readBlob(root, rev, path);
  return bytes === null ? null : bytes.toString('utf8');
}

/**
 * The new side's text of `path` for a change, as git holds it: the head commit for ranges and
 * commits, the index for `--staged`. For the working tree this returns null on purpose: the file is on
 * disk and must be read through path admission (src/policy/paths.ts), which refuses symbolic links
 * leading out of the repository; git's copy would be the wrong content anyway.
 */
export async function newFileText(root: string, change: RawChange, path: string): Promise<string | null> {
  if (change.kind === 'working-tree') return null;
  if (change.kind === 'staged') return readFileAtRevision(root, INDEX, path);
  if (change.headRev === null) return null;
  return readFileAtRevision(root, change.headRev, path);
}

/** What a path is at a revision: a regular file with its bytes, another kind of entry, or nothing. */
export type EntryAtRevision =
  | { kind: 'absent' }
  | { kind: 'file'; bytes: Buffer }
  | { kind: 'symlink' | 'directory' | 'submodule' };

/**
 * The entry at `path` in commit `rev`, with its kind from the tree's mode, so a caller that must read a
 * regular file (the base's `.jscr.toml`) can refuse a symbolic link or a directory instead of reading a
 * link's target text as if it were the file.
 */
export async function entryAtRevision(root: string, rev: string, path: string): Promise<EntryAtRevision> {
  const g = client(root);
  const sha = await resolveCommit(g, rev);
  const listing = await git(g, ['--literal-pathspecs', 'ls-tree', '-z', sha, '--', path]);
  const entry = listing.split('\0').find((line) => line.slice(line.indexOf('\t') + 1) === path);
  if (entry === undefined) return { kind: 'absent' };
  const [mode, , oid] = entry.slice(0, entry.indexOf('\t')).split(' ');
  if (mode === '120000') return { kind: 'symlink' };
  if (mode === '040000') return { kind: 'directory' };
  if (mode === '160000') return { kind: 'submodule' };
  if (oid === undefined) return { kind: 'absent' };
  try {
    return { kind: 'file', bytes: (await g.binaryCatFile(['blob', oid])) as Buffer };
  } catch (error) {
    throw toGitError(error);
  }
}

/** Untracked files that `.gitignore` does not hide (the working-tree review does not include them), sorted. */
export async function untrackedFiles(root: string): Promise<string[]> {
  const listing = await git(client(root), ['-c', 'core.quotePath=false', 'ls-files', '--others', '--exclude-standard', '-z', '--full-name', '--', ':/']);
  return listing
    .split('\0')
    .filter((p) => p.length > 0)
    .sort();
}

/** Real paths of the repository's git directory and, for a linked worktree, the directory it shares. */
export async function gitDirectories(root: string): Promise<string[]> {
  const listing = await git(client(root), ['rev-parse', '--absolute-git-dir', '--git-common-dir']);
  const dirs = listing
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .map((dir) => resolve(root, dir));
  return Promise.all(dirs.map((dir) => realpath(dir).catch(() => dir)));
}

/** True when the index lists `path` (repository-relative, `/`-separated) as a file. */
export async function isTrackedPath(root: string, path: string): Promise<boolean> {
  const listing = await git(client(root), ['--literal-pathspecs', 'ls-files', '-z', '--full-name', '--', path]);
  return listing.split('\0').includes(path);
}

/**
 * Paths of every file in HEAD's tree (none before the first commit). Read from the commit, not the
 * index: reading the index makes git start the program a repository's core.fsmonitor names.
 */
export async function committedFiles(root: string): Promise<string[]> {
  const g = client(root);
  const head = await headOrNull(g);
  if (head === null) return [];
  const listing = await git(g, ['-c', 'core.quotePath=false', 'ls-tree', '-r', '-z', '--name-only', '--full-tree', head]);
  return listing.split('\0').filter((p) => p.length > 0);
}

/** Where this repository keeps its hooks (core.hooksPath honoured) and its common git directory, absolute. */
export async function hookLocations(root: string): Promise<{ hooksDir: string; commonDir: string }> {
  // rev-parse only reads configuration to answer; it starts nothing the configuration names
  const [hooks = '', common = ''] = (await git(client(root), ['rev-parse', '--git-path', 'hooks', '--git-common-dir'])).split('\n');
  if (hooks === '' || common === '') throw new GitError('git did not say where the hooks directory is');
  return { hooksDir: resolve(root, hooks), commonDir: resolve(root, common) };
}
