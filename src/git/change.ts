/**
 * Reading a change out of git: the repository root, the diff text of a range, a commit, the index or
 * the working tree, and file contents at a revision. Every git process starts through `runGit`
 * (src/policy/git.ts), which neutralises every program the repository's configuration names.
 * Revisions are resolved to object ids before any diff runs, so a revision is never read as an option
 * or a path, and a bad one fails with one line naming it.
 */
import { lstat, realpath, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { GitError, UsageError } from '../errors.js';
import { GIT_MISSING, gitMessage, gitText, runGit } from '../policy/git.js';
import { untrustFolder } from '../policy/environment.js';
import { isWithin } from '../policy/paths.js';
import { hasNonUtf8Bytes, pathKeyFromBytes, pathKeyToBytes, splitNulRecords, unsafePathReason } from '../repo-path.js';
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

export { GIT_MISSING };

/**
 * Output-shaping configuration a user may have set (noprefix, mnemonic prefixes, forced colour,
 * relative paths, submodule logs), pinned so the parser always sees the same format. Paths stay
 * C-quoted, so every byte of a name reaches the parser as an ASCII escape.
 */
const PINNED_CONFIG: [string, string][] = [
  ['core.quotePath', 'true'],
  ['diff.noprefix', 'false'],
  ['diff.mnemonicPrefix', 'false'],
  ['diff.relative', 'false'],
  ['diff.suppressBlankEmpty', 'false'],
  ['diff.submodule', 'short'],
  ['color.ui', 'never'],
  ['color.diff', 'never'],
];

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
  // A new submodule commit is shown; its dirty work tree is not looked at, because that means
  // running git inside the submodule under a configuration the overrides here did not list.
  '--ignore-submodules=dirty',
];

/** Text output of a git command that must succeed. */
function git(root: string, args: string[]): Promise<string> {
  return gitText(root, args);
}

/** The id a `rev-parse --verify --quiet` prints, or '' when the name does not resolve (exit 1). */
async function verify(root: string, name: string): Promise<string> {
  return (await gitText(root, ['rev-parse', '--verify', '--quiet', name], {}, [0, 1])).trim();
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
  // The repository's files are the change's: no program comes from a PATH entry inside it, from
  // the first git call on (before git has said where its top is, the nearest folder with a .git).
  await untrustEnclosingTree(absolute);
  let top: string;
  try {
    top = (await git(absolute, ['rev-parse', '--show-toplevel'])).replace(/\n$/, '');
  } catch (error) {
    if (error instanceof GitError && /not a git repository/i.test(error.message)) throw new GitError(`not a git repository: ${absolute}`, error.gitSaid);
    // git names this in what it said, not in its message line ("git rev-parse failed").
    if (error instanceof GitError && /must be run in a work tree/i.test(`${error.message}\n${error.gitSaid ?? ''}`)) {
      throw new GitError(`${absolute} is a git directory without a work tree (a bare repository or a .git folder): give jscr the folder of a checkout (git clone it first)`);
    }
    throw error;
  }
  if (top === '') throw new GitError(`not inside a work tree: ${absolute}`);
  const root = await realpath(top);
  untrustFolder(root);
  // core.worktree (or a .git file) can point the work tree anywhere; jscr reads only below the folder it was given.
  if (!isWithin(root, await realpath(absolute))) throw new GitError(`the work tree git names for ${absolute} is elsewhere (${root}); jscr reviews only the repository it is given`);
  return root;
}

/** Mark the nearest folder at or above `dir` that holds `.git` (or `dir` itself) as the repository's. */
async function untrustEnclosingTree(dir: string): Promise<void> {
  const real = await realpath(dir);
  for (let at = real; ; at = dirname(at)) {
    if (await lstat(join(at, '.git')).then(() => true, () => false)) return untrustFolder(at);
    if (dirname(at) === at) return untrustFolder(real);
  }
}

/** Resolve a revision to a commit id, or fail naming it. Revisions that look like options are refused. */
export async function resolveCommit(root: string, rev: string): Promise<string> {
  if (rev.length === 0 || rev.startsWith('-') || /[\s\0]/.test(rev)) throw new GitError(`bad revision '${rev}'`);
  // A range inside a revision (`A..B..C`) would make rev-parse print several ids.
  if (rev.includes('..')) throw new GitError(`bad revision '${rev}': one revision expected, not a range`);
  const name = `${rev}^{commit}`;
  // Exit 1 in silence: the name resolves to nothing, and jscr's line says all there is. Otherwise git
  // could not answer (a damaged object, a reflog too short), and its reason is shown under jscr's line.
  const answer = await runGit(root, ['rev-parse', '--verify', '--quiet', name], {}, [0, 1, 128]);
  // git names our `^{commit}` suffix and its own words ("dereferences to tree type"); say it plainly.
  const kind = /dereferences to (\w+) type/.exec(answer.stderr)?.[1];
  if (kind !== undefined) throw new GitError(`bad revision '${rev}': a ${kind}, not a commit`);
  const sha = answer.stdout.toString('utf8').trim();
  if (answer.code === 0 && /^[0-9a-f]{40,64}$/.test(sha)) return sha;
  // --quiet hides some of git's reasons ("log for 'HEAD' only has 2 entries"); ask once more for them.
  const said = gitMessage(answer.stderr) ?? (answer.code === 128 ? gitMessage((await runGit(root, ['rev-parse', '--verify', name], {}, [128])).stderr) : null);
  throw new GitError(`bad revision '${rev}': not a commit in this repository${await shallowHint(root)}`, said);
}

/** The id of HEAD, or null in a repository with no commits yet. */
async function headOrNull(root: string): Promise<string | null> {
  const sha = await verify(root, 'HEAD^{commit}');
  return sha === '' ? null : sha;
}

/** The empty tree's id in this repository's object format (sha1 or sha256). */
async function emptyTree(root: string): Promise<string> {
  return (await git(root, ['hash-object', '-t', 'tree', '/dev/null'])).trim();
}

const FETCH_MORE = 'fetch more history (git fetch --deepen=N or --unshallow; actions/checkout: fetch-depth: 0)';

/** A hint to add to "not found" messages in a shallow clone, where the missing commit may exist upstream. */
async function shallowHint(root: string): Promise<string> {
  const shallow = (await gitText(root, ['rev-parse', '--is-shallow-repository'], {}, [0, 128])).trim();
  if (shallow === 'true') return `; this is a shallow clone: ${FETCH_MORE}`;
  // A fresh `git init` has no HEAD commit, and no revision names anything yet.
  return (await headOrNull(root)) === null ? '; this repository has no commits yet (commit first, or review what is staged with --staged)' : '';
}

/**
 * The first parent of a commit, or null for a root commit. A parent the commit names but the clone
 * does not hold (a shallow clone) is an error: reviewing against the empty tree would read the whole
 * commit as new and the base configuration as the defaults.
 */
async function firstParent(root: string, sha: string): Promise<string | null> {
  const body = await git(root, ['cat-file', 'commit', sha]);
  const headerEnd = body.indexOf('\n\n');
  const named = /^parent ([0-9a-f]{40,64})$/m.exec(headerEnd < 0 ? body : body.slice(0, headerEnd))?.[1];
  if (named === undefined) return null;
  const present = await verify(root, `${named}^{commit}`);
  if (present === '') throw new GitError(`the parent ${named.slice(0, 12)} of commit ${sha.slice(0, 12)} is not in this clone (a shallow clone); ${FETCH_MORE}`);
  return present;
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

async function diff(root: string, revisions: string[], cached = false): Promise<string> {
  return gitText(root, ['diff', ...DIFF_FLAGS, ...(cached ? ['--cached'] : []), ...revisions, '--'], { settings: PINNED_CONFIG });
}

/**
 * The diff of these paths of a change with every file treated as text (`--text`), so no attribute,
 * `core.bigFileThreshold` or other setting can turn it into "Binary files differ". For files whose
 * content jscr found to be text although git's diff called them binary.
 */
export async function diffPathsAsText(root: string, change: RawChange, paths: readonly string[]): Promise<string> {
  if (paths.length === 0) return '';
  // Path keys back to their names (a non-UTF-8 name cannot be an argument; such a file stays unreviewed).
  const pathspecs = paths.map((p) => `:(literal)${pathKeyToBytes(p).toString('utf8')}`);
  return gitText(root, ['diff', ...DIFF_FLAGS, '--text', ...change.diffRevisions, '--', ...pathspecs], { settings: PINNED_CONFIG });
}

/**
 * Read the change named by `spec` in the repository at `root` (from `resolveRepository`).
 * `A..B` diffs A to B; `A...B` diffs merge-base(A, B) to B; a commit diffs its first parent (or the
 * empty tree for a root commit) to it; staged is the index against HEAD; the working tree is tracked
 * files against HEAD (untracked files are not part of it, as with `git diff HEAD`).
 */
export async function readChange(root: string, spec: ChangeSpec): Promise<RawChange> {
  switch (spec.kind) {
    case 'range': {
      const { base, head, mergeBase } = splitRange(spec.range);
      const baseSha = await resolveCommit(root, base);
      const headSha = await resolveCommit(root, head);
      // `..HEAD` and `HEAD..` compare HEAD with itself: always empty, and what `"$BASE..HEAD"` becomes
      // when CI leaves the variable unset. Reviewing nothing there would pass as a clean review.
      if (baseSha === headSha && /^\.\.|\.\.\.?$/.test(spec.range)) {
        throw new GitError(`--range '${spec.range}' compares ${headSha.slice(0, 12)} with itself (a side left out means HEAD); name both sides, e.g. --range origin/main...HEAD (is a variable in it empty?)`);
      }
      let from = baseSha;
      if (mergeBase) {
        from = (await gitText(root, ['merge-base', baseSha, headSha], {}, [0, 1])).trim();
        if (from === '') throw new GitError(`no merge base between '${base}' and '${head}'${await shallowHint(root)}`);
      }
      return {
        kind: mergeBase ? 'merge-base-range' : 'range',
        range: spec.range,
        baseRev: from,
        headRev: headSha,
        diffText: await diff(root, [from, headSha]),
        diffRevisions: [from, headSha],
      };
    }
    case 'commit': {
      const sha = await resolveCommit(root, spec.sha);
      const parent = await firstParent(root, sha);
      const from = parent ?? (await emptyTree(root));
      return {
        kind: 'commit',
        // A root commit has no parent to name: `X^..X` would be a range git itself refuses.
        range: parent === null ? `${spec.sha} (root commit, against the empty tree)` : `${spec.sha}^..${spec.sha}`,
        baseRev: parent,
        headRev: sha,
        diffText: await diff(root, [from, sha]),
        diffRevisions: [from, sha],
      };
    }
    case 'staged': {
      const head = await headOrNull(root);
      const from = head ?? (await emptyTree(root));
      return {
        kind: 'staged',
        range: 'HEAD..index',
        baseRev: head,
        headRev: null,
        diffText: await diff(root, [from], true),
        diffRevisions: ['--cached', from],
      };
    }
    case 'working-tree': {
      const head = await headOrNull(root);
      const from = head ?? (await emptyTree(root));
      return {
        kind: 'working-tree',
        range: 'HEAD..working-tree',
        baseRev: head,
        headRev: null,
        diffText: await diff(root, [from]),
        diffRevisions: [from],
      };
    }
  }
}


/** What `git cat-file --batch` answered for one name: the bytes, another type, or `missing` with what git said. */
type BatchAnswer = { found: 'bytes'; bytes: Buffer } | { found: 'other_type' } | { found: 'missing'; gitSaid: string };

/** One object through `git cat-file --batch`. */
async function readBatchObject(root: string, name: Buffer, type: string): Promise<BatchAnswer> {
  const { stdout: out, stderr } = await runGit(root, ['cat-file', '--batch'], { input: name });
  const eol = out.indexOf(0x0a);
  const header = out.subarray(0, eol < 0 ? out.length : eol).toString('latin1');
  const [, kind, size] = header.split(' ');
  if (kind === 'missing' || eol < 0) return { found: 'missing', gitSaid: gitMessage(stderr) ?? header };
  if (kind !== type || size === undefined) return { found: 'other_type' };
  return { found: 'bytes', bytes: out.subarray(eol + 1, eol + 1 + Number(size)) };
}

/**
 * The bytes of `path` at revision `rev` (`INDEX` reads the index), or null when the path is absent
 * there or is not a file (a directory or a submodule). The name goes to git on stdin as bytes, never
 * as an argument, so a path key with non-UTF-8 bytes names exactly its file.
 */
export async function readBlob(root: string, rev: string, path: string): Promise<Buffer | null> {
  if (rev !== INDEX) await resolveCommit(root, rev);
  const bytes = pathKeyToBytes(path);
  // cat-file --batch reads one name per line: a name with a newline cannot be asked for this way.
  if (bytes.includes(0x0a)) throw new GitError(`cannot read ${JSON.stringify(path)} from git: the name holds a newline`);
  // `:0:<path>` is stage 0 of the index; spelling the stage out keeps a file named `1:x` literal.
  const answer = await readBatchObject(root, Buffer.concat([Buffer.from(rev === INDEX ? ':0:' : `${rev}:`), bytes, Buffer.from('\n')]), 'blob');
  return answer.found === 'bytes' ? answer.bytes : null;
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
  const sha = await resolveCommit(root, rev);
  const listing = await git(root, ['--literal-pathspecs', 'ls-tree', '-z', sha, '--', path]);
  const entry = listing.split('\0').find((line) => line.slice(line.indexOf('\t') + 1) === path);
  if (entry === undefined) return { kind: 'absent' };
  const [mode, , oid] = entry.slice(0, entry.indexOf('\t')).split(' ');
  if (mode === '120000') return { kind: 'symlink' };
  if (mode === '040000') return { kind: 'directory' };
  if (mode === '160000') return { kind: 'submodule' };
  if (oid === undefined) return { kind: 'absent' };
  const answer = await readBatchObject(root, Buffer.from(`${oid}\n`), 'blob');
  // The tree names the object, so its absence is a damaged clone: never read as "no such file" (the defaults).
  if (answer.found === 'missing') throw new GitError(`cannot read ${path} at ${sha.slice(0, 12)}: its object ${oid} is not in this repository (a damaged or incomplete clone)`, answer.gitSaid);
  return answer.found === 'bytes' ? { kind: 'file', bytes: answer.bytes } : { kind: 'absent' };
}

/** Untracked files that `.gitignore` does not hide (the working-tree review does not include them), sorted. */
export async function untrackedFiles(root: string): Promise<string[]> {
  const listing = await runGit(root, ['ls-files', '--others', '--exclude-standard', '-z', '--full-name', '--', ':/']);
  return splitNulRecords(listing.stdout).map(pathKeyFromBytes).sort();
}

/** Real paths of the repository's git directory and, for a linked worktree, the directory it shares. */
export async function gitDirectories(root: string): Promise<string[]> {
  const listing = await git(root, ['rev-parse', '--absolute-git-dir', '--git-common-dir']);
  const dirs = listing
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .map((dir) => resolve(root, dir));
  return Promise.all(dirs.map((dir) => realpath(dir).catch(() => dir)));
}

/** True when the index lists `path` (a path key) as a file. */
export async function isTrackedPath(root: string, path: string): Promise<boolean> {
  const listing = await runGit(root, ['--literal-pathspecs', 'ls-files', '-z', '--full-name', '--', pathKeyToBytes(path).toString('utf8')]);
  return splitNulRecords(listing.stdout).map(pathKeyFromBytes).includes(path);
}

/**
 * Paths of every file in HEAD's tree (none before the first commit). Read from the commit, not the
 * index: reading the index makes git start the program a repository's core.fsmonitor names.
 */
export async function committedFiles(root: string): Promise<string[]> {
  const head = await headOrNull(root);
  if (head === null) return [];
  const listing = await runGit(root, ['ls-tree', '-r', '-z', '--name-only', '--full-tree', head]);
  // The names as they are (not path keys): init writes globs that match them.
  return splitNulRecords(listing.stdout).map((name) => name.toString('utf8'));
}

/** Where this repository keeps its hooks (core.hooksPath honoured) and its common git directory, absolute. */
export async function hookLocations(root: string): Promise<{ hooksDir: string; commonDir: string }> {
  // rev-parse only reads configuration to answer; it starts nothing the configuration names
  const [hooks = '', common = ''] = (await gitText(root, ['rev-parse', '--git-path', 'hooks', '--git-common-dir'], { revealHooksPath: true })).split('\n');
  if (hooks === '' || common === '') throw new GitError('git did not say where the hooks directory is');
  return { hooksDir: resolve(root, hooks), commonDir: resolve(root, common) };
}

/** A tracked file whose working-tree content `git diff` does not look at, and why. */
export interface HiddenByIndex {
  path: string;
  reason: string;
}

/**
 * Tracked files that `git diff HEAD` takes as unchanged on the index's word alone: entries marked
 * assume-unchanged (`git update-index --assume-unchanged`) or skip-worktree, whose file on disk holds
 * something other than the index's blob. Git never compares them, so their edits would pass unseen.
 * Compared here without filters (a CRLF conversion counts as a difference: listed, never waved through).
 */
export async function filesHiddenByIndexFlags(root: string): Promise<HiddenByIndex[]> {
  const listing = await runGit(root, ['ls-files', '-v', '-s', '-z', '--full-name', '--', ':/']);
  const flagged: { path: string; oid: string; flag: string }[] = [];
  for (const record of splitNulRecords(listing.stdout)) {
    const tab = record.indexOf(0x09);
    const [tag = '', , oid = ''] = record.subarray(0, tab).toString('latin1').split(' ');
    // `ls-files -v`: a lowercase tag is assume-unchanged, S (or s) skip-worktree.
    const flag = tag.toLowerCase() === 's' ? 'skip-worktree' : tag !== tag.toUpperCase() ? 'assume-unchanged' : null;
    if (flag !== null) flagged.push({ path: pathKeyFromBytes(record.subarray(tab + 1)), oid, flag });
  }
  const hidden: HiddenByIndex[] = [];
  const toHash: { path: string; oid: string; flag: string }[] = [];
  for (const entry of flagged) {
    const disk = await diskState(root, entry.path);
    if (disk === 'absent') continue; // a sparse checkout leaves skip-worktree files out: nothing there to hide
    if (disk === 'file') toHash.push(entry);
    else hidden.push({ path: entry.path, reason: hiddenReason(entry.flag, 'is not a plain file inside the repository') });
  }
  if (toHash.length > 0) {
    const hashes = (await gitText(root, ['hash-object', '--no-filters', '--', ...toHash.map((e) => pathKeyToBytes(e.path).toString('utf8'))])).split('\n');
    toHash.forEach((entry, i) => {
      if (hashes[i] !== entry.oid) hidden.push({ path: entry.path, reason: hiddenReason(entry.flag, 'differs from the index') });
    });
  }
  return hidden.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function hiddenReason(flag: string, what: string): string {
  return `hidden_by_index: the index marks it ${flag}, so git does not compare it, and the file on disk ${what}; clear the mark (git update-index --no-${flag} <path>) to review it`;
}

/** What is on disk at a path key: nothing, a regular file that is really below the root, or something else. */
async function diskState(root: string, path: string): Promise<'absent' | 'file' | 'other'> {
  if (unsafePathReason(path) !== null || hasNonUtf8Bytes(path)) return 'other';
  const abs = resolve(root, pathKeyToBytes(path).toString('utf8'));
  try {
    const info = await lstat(abs);
    if (!info.isFile()) return 'other';
    // A folder on the way may be a link out of the repository: hash-object would read through it.
    return isWithin(root, await realpath(abs)) ? 'file' : 'other';
  } catch {
    return 'absent';
  }
}
