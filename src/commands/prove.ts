/**
 * `jscr prove`: run the access-control prover on the change `base..head` (with `--base`) or on the whole
 * repository at `head`, reading files from git's objects so the working tree need not be checked out.
 *
 * Exit codes (SPEC 2): 2 bad input (not a repository, a bad revision, bad flags); 3 incomplete: a file
 * could not be read from git or the prover failed on a file (`error:<ClassName>` degradations), or protected
 * operations were found but no supported framework's entry point was recognised ("not proven"); 1 findings;
 * 0 none. Parse errors, unresolved receivers and other coverage gaps are reported but do not make the run
 * incomplete: tree-sitter still gives a partial tree, and what was parsed was proved.
 *
 * With `--pool FILE --out DIR` it is the scored runner instead (src/prover/pool-runner.ts): 0 summarised,
 * 2 a bad pool or a run that read nothing, 3 some runs incomplete.
 */
import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import type { CommandIO, ExitCode } from '../io.js';
import { resolveRepository } from '../git/change.js';
import { proveRange } from '../prover/prove-range.js';
import { proveJson, proveSarif, proveText, type ProveRunInfo } from '../prover/render.js';
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
  /** `--pool FILE`: run the scored pool instead (docs/prover.md, "The scored runner"). */
  pool?: string;
  /** `--out DIR`: where the pool's records and summary go. */
  out?: string;
  /** `--repos DIR`: the folder a pool's relative repository paths resolve against. */
  repos?: string;
}

/** `jscr prove`: the access-control prover over a change or the whole repository. */
export async function proveCommand(options: ProveOptions, io: CommandIO): Promise<ExitCode> {
  if (options.maxDepth !== undefined && (!Number.isInteger(options.maxDepth) || options.maxDepth < 0 || options.maxDepth > 10)) {
    throw new UsageError('--max-depth must be a whole number from 0 to 10');
  }
  if (options.pool !== undefined) return provePool(options, options.pool, io);
  if (options.out !== undefined || options.repos !== undefined) throw new UsageError('--out and --repos go with --pool');
  const root = await resolveRepository(resolve(io.cwd, options.repo ?? '.'));
  const headRev = options.head ?? 'HEAD';
  const range = options.base === undefined ? headRev : `${options.base}..${headRev}`;
  const { result, incomplete, notProven } = await proveRange({
    root,
    onStart: () => io.stderr.write(`jscr prove: proving ${options.base === undefined ? 'the whole repository' : `the change ${range}`}\n`),
    head: headRev,
    ...(options.base === undefined ? {} : { base: options.base }),
    ...(options.maxDepth === undefined ? {} : { maxDepth: options.maxDepth }),
    ...(options.config === undefined ? {} : { configPath: resolve(io.cwd, options.config) }),
  });

  const exitCode: 0 | 1 | 3 = incomplete || notProven !== null ? 3 : result.findings.length > 0 ? 1 : 0;
  const run: ProveRunInfo = { mode: options.base === undefined ? 'repository' : 'change', range, exitCode, notProven };
  // Evidence quotes source lines: secret shapes in them are masked like every report string.
  const shown = maskReport(result, new SecretBook());
  const text = options.format === 'json' ? proveJson(shown, run) : options.format === 'sarif' ? proveSarif(shown, run) : proveText(shown, run);
  io.stdout.write(text);
  if (incomplete) io.stderr.write('jscr prove: incomplete: some files could not be read or proved (see degradations)\n');
  if (notProven !== null) io.stderr.write(`jscr prove: incomplete: ${notProven}\n`);
  for (const note of result.declared?.stale ?? []) io.stderr.write(`jscr prove: note: ${escapeOneLine(note)}\n`);
  return exitCode;
}

/** `jscr prove --pool FILE --out DIR`: every change of the pool, recorded and summarised. */
async function provePool(options: ProveOptions, pool: string, io: CommandIO): Promise<ExitCode> {
  if (options.out === undefined) throw new UsageError('--pool needs --out DIR (where the records go)');
  if (options.base !== undefined || options.head !== undefined || options.repo !== undefined || options.config !== undefined) {
    throw new UsageError('--pool takes its repositories and revisions from the pool file, not --repo, --base, --head or --config');
  }
  if (options.format === 'sarif') throw new UsageError('--pool writes text or json, not sarif');
  const { runPool } = await import('../prover/pool-runner.js');
  return runPool({
    poolPath: resolve(io.cwd, pool),
    outDir: resolve(io.cwd, options.out),
    ...(options.repos === undefined ? {} : { reposDir: resolve(io.cwd, options.repos) }),
    ...(options.maxDepth === undefined ? {} : { maxDepth: options.maxDepth }),
    format: options.format === 'json' ? 'json' : 'text',
    stdout: io.stdout,
    stderr: io.stderr,
  });
}
