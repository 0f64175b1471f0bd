/**
 * `jscr prove`: run the access-control prover on the change `base..head` (with `--base`) or on the whole
 * repository at `head`, reading files from git's objects so the working tree need not be checked out.
 *
 * Exit codes (SPEC 2): 2 bad input (not a repository, a bad revision, bad flags); 3 incomplete: a file
 * could not be read from git or the prover failed on a file (`error:<ClassName>` degradations), or protected
 * operations were found but no supported framework's entry point was recognised ("not proven"); 1 findings;
 * 0 none. Parse errors, unresolved receivers and other coverage gaps are reported but do not make the run
 * incomplete: tree-sitter still gives a partial tree, and what was parsed was proved.
 */
import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import type { CommandIO, ExitCode } from '../io.js';
import { readChange, resolveCommit, resolveRepository } from '../git/change.js';
import { configTextAtRevision } from '../git/config-at-revision.js';
import { parseUnifiedDiff, touchedLines } from '../git/diff.js';
import { diffAgainAsText } from '../git/text-diff.js';
import { languageForPath } from '../syntax/languages.js';
import { proveFromReader } from '../prover/source.js';
import { createSourceReader } from '../git/sources.js';
import { openBoundary } from '../policy/paths.js';
import { loadConfig } from '../config/index.js';
import { notProvenReason, proveJson, proveSarif, proveText, type ProveRunInfo } from '../prover/render.js';
import { maskReport, SecretBook } from '../redact/index.js';
import { escapeOneLine } from '../report/escape.js';

export interface ProveOptions {
  repo?: string;
  base?: string;
  head?: string;
  format: 'text' | 'json' | 'sarif';
  maxDepth?: number;
  /** `--config FILE`: the configuration to use instead of the revision's `.jscr.toml` (as for review). */
  config?: string;
}

/** Larger files are skipped (generated code, data) and counted. */
const MAX_FILE_BYTES = 1024 * 1024;

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
    const files = parseUnifiedDiff(change.diffText);
    // Git's "Binary files differ" is no verdict (attributes in the change can ask for it): code files get their text diff.
    const redone = await diffAgainAsText(root, change, files.filter((f) => f.status === 'binary' && f.statusBehindBinary !== 'deleted' && languageForPath(f.path) !== null));
    touched = files
      .map((f) => redone.get(f) ?? f)
      .filter((f) => f.status !== 'deleted' && f.status !== 'binary' && !f.isSubmodule)
      .map((f) => ({ path: f.path, lines: touchedLines(f) }));
  }

  // The base revision's configuration (the head's for the whole repository): a change cannot declare its own guards or public entries.
  const { config } = await loadConfig({
    repoRoot: root,
    baseText: await configTextAtRevision(root, options.base ?? head),
    ...(options.config === undefined ? {} : { configPath: resolve(io.cwd, options.config) }),
  });
  const reader = createSourceReader({
    root,
    boundary: await openBoundary(root, { followSymlinks: false }),
    source: { kind: 'revision', rev: head },
    maxFileBytes: MAX_FILE_BYTES,
    followSymlinks: false,
  });
  io.stderr.write(`jscr prove: proving ${touched === null ? 'the whole repository' : `the change ${range}`}\n`);
  const { result, incomplete } = await proveFromReader({
    root,
    reader,
    touched,
    maxDepth: options.maxDepth ?? config.prover.max_depth,
    fanOut: config.prover.fan_out,
    declarations: { guards: config.prover.guards, public: config.prover.public },
  });

  const notProven = notProvenReason(result);
  const exitCode: 0 | 1 | 3 = incomplete || notProven !== null ? 3 : result.findings.length > 0 ? 1 : 0;
  const run: ProveRunInfo = { mode: touched === null ? 'repository' : 'change', range, exitCode, notProven };
  // Evidence quotes source lines: secret shapes in them are masked like every report string.
  const shown = maskReport(result, new SecretBook());
  const text = options.format === 'json' ? proveJson(shown, run) : options.format === 'sarif' ? proveSarif(shown, run) : proveText(shown, run);
  io.stdout.write(text);
  if (incomplete) io.stderr.write('jscr prove: incomplete: some files could not be read or proved (see degradations)\n');
  if (notProven !== null) io.stderr.write(`jscr prove: incomplete: ${notProven}\n`);
  for (const note of result.declared?.stale ?? []) io.stderr.write(`jscr prove: note: ${escapeOneLine(note)}\n`);
  return exitCode;
}
