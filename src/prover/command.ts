/**
 * `jscr prove`: run the access-control prover on the change `base..head` (with `--base`) or on the whole
 * repository at `head`, reading files from git's objects so the working tree need not be checked out.
 *
 * Exit codes (SPEC 2): 2 bad input (not a repository, a bad revision, bad flags); 3 incomplete: a file
 * could not be read from git or the prover failed on a file (`error:<ClassName>` degradations); 1 findings;
 * 0 none. Parse errors, unresolved receivers and other coverage gaps are reported but do not make the run
 * incomplete: tree-sitter still gives a partial tree, and what was parsed was proved.
 */
import { resolve } from 'node:path';
import { GitError, UsageError } from '../errors.js';
import type { CommandIO, ExitCode } from '../io.js';
import { readChange, resolveRepository } from '../git/change.js';
import { parseUnifiedDiff, type DiffFile } from '../git/diff.js';
import { runProgram } from '../policy/process.js';
import { languageForPath } from '../syntax/languages.js';
import { listRevision, readBlobs } from './git-source.js';
import { isLeftOut, isProverConfig, proveChange } from './prove.js';
import { proveJson, proveSarif, proveText, type ProveRunInfo } from './render.js';

export interface ProveOptions {
  repo?: string;
  base?: string;
  head?: string;
  format: 'text' | 'json' | 'sarif';
  maxDepth?: number;
}

/** SPEC 3 defaults of `prover.max_depth` and `prover.fan_out`. */
export const DEFAULT_MAX_DEPTH = 3;
export const DEFAULT_FAN_OUT = 25;
/** Larger files are skipped (generated code, data) and counted. */
const MAX_FILE_BYTES = 1024 * 1024;

async function resolveCommit(root: string, rev: string): Promise<string> {
  if (rev.length === 0 || rev.startsWith('-') || /[\s\0]/.test(rev)) throw new GitError(`bad revision '${rev}'`);
  const result = await runProgram('git', ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], { cwd: root, timeoutMs: 60_000 });
  const sha = result.stdout.trim();
  if (result.code !== 0 || sha === '') throw new GitError(`bad revision '${rev}': not a commit in this repository`);
  return sha;
}

/**
 * New-side lines a diff touches: every added line, and for a pure deletion the new-side line where the
 * removed lines were (a deleted check touches the function it was in).
 */
export function touchedLines(file: DiffFile): Set<number> {
  const lines = new Set<number>();
  for (const hunk of file.hunks) {
    let lastNew = Math.max(1, hunk.newStart);
    let pendingDeletion = false;
    for (const line of hunk.lines) {
      if (line.kind === 'add' && line.newLine !== null) lines.add(line.newLine);
      if (line.kind === 'del') pendingDeletion = true;
      if (line.newLine !== null) {
        if (pendingDeletion) {
          lines.add(line.newLine);
          if (lastNew < line.newLine) lines.add(lastNew);
          pendingDeletion = false;
        }
        lastNew = line.newLine;
      }
    }
    if (pendingDeletion) lines.add(lastNew);
  }
  return lines;
}

/** `jscr prove`: the access-control prover over a change or the whole repository. */
export async function proveCommand(options: ProveOptions, io: CommandIO): Promise<ExitCode> {
  if (options.maxDepth !== undefined && (!Number.isInteger(options.maxDepth) || options.maxDepth < 0 || options.maxDepth > 10)) {
    throw new UsageError('--max-depth must be a whole number from 0 to 10');
  }
  const root = await resolveRepository(resolve(io.cwd, options.repo ?? '.'));
  const headRev = options.head ?? 'HEAD';
  const head = await resolveCommit(root, headRev);

  let touched: { path: string; lines: Set<number> }[] | null = null;
  let range = headRev;
  if (options.base !== undefined) {
    const change = await readChange(root, { kind: 'range', range: `${options.base}..${head}` });
    range = `${options.base}..${headRev}`;
    touched = parseUnifiedDiff(change.diffText)
      .filter((f) => f.status !== 'deleted' && f.status !== 'binary' && !f.isSubmodule)
      .map((f) => ({ path: f.path, lines: touchedLines(f) }));
  }

  const listed = await listRevision(root, head);
  const candidates = new Map([...listed].filter(([p]) => !isLeftOut(p) && (languageForPath(p) !== null || isProverConfig(p))));
  const files: { path: string; text: string }[] = [];
  const readProblems: string[] = [];
  let incomplete = false;
  for (const read of await readBlobs(root, candidates, MAX_FILE_BYTES)) {
    if (read.ok) files.push({ path: read.path, text: read.text });
    else if (read.reason === 'unreadable') {
      incomplete = true;
      readProblems.push(`unreadable ${read.path}: ${read.detail}`);
    } else readProblems.push(`skipped_${read.reason} ${read.path}: ${read.detail}`);
  }

  io.stderr.write(`jscr prove: proving ${files.length} files ${touched === null ? 'of the whole repository' : `for the change ${range}`}\n`);
  const result = await proveChange({ root, files, touched, maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH, fanOut: DEFAULT_FAN_OUT });
  result.degradations.unshift(...readProblems);
  if (result.degradations.some((d) => d.startsWith('error:'))) incomplete = true;

  const exitCode: 0 | 1 | 3 = incomplete ? 3 : result.findings.length > 0 ? 1 : 0;
  const run: ProveRunInfo = { mode: touched === null ? 'repository' : 'change', range, exitCode };
  const text = options.format === 'json' ? proveJson(result, run) : options.format === 'sarif' ? proveSarif(result, run) : proveText(result, run);
  io.stdout.write(text);
  if (incomplete) io.stderr.write('jscr prove: incomplete: some files could not be read or proved (see degradations)\n');
  return exitCode;
}
