import { appendFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { GitError, InputError, JscrError, UsageError, oneLine } from '../errors.js';
import { VERSION } from '../version.js';
import { errnoCode, type CommandIO, type ExitCode } from '../io.js';
import { gitDirectories, isTrackedPath, resolveRepository, type ChangeSpec } from '../git/change.js';
import { planOutput, writeOutput, type RepositoryFacts } from '../output.js';
import { escapeJsonText } from '../report/escape.js';
import { render, githubStepSummary } from '../report/render.js';
import { createProgress, stepLine, wantsStepLines } from '../report/progress.js';
import { review, type FailOn } from '../review/engine.js';
import { maskReport, SecretBook } from '../redact/index.js';

export interface ReviewOptions {
  range?: string;
  staged?: boolean;
  commit?: string;
  repo?: string;
  config?: string;
  format: 'text' | 'json' | 'sarif' | 'markdown' | 'github';
  output?: string;
  failOn?: FailOn;
  model: boolean;
  quiet?: boolean;
}

/** The change the flags name; more than one of them is a usage error. */
export function changeSpecFrom(options: Pick<ReviewOptions, 'range' | 'staged' | 'commit'>): ChangeSpec {
  const given = [options.range !== undefined, options.staged === true, options.commit !== undefined].filter(Boolean).length;
  if (given > 1) throw new UsageError('give at most one of --range, --staged and --commit');
  if (options.range !== undefined) {
    // As in git, one side may be left out (`main..` is main..HEAD), but not both.
    if (!/^[^\s.][^\s]*\.\.\.?[^\s]*$|^\.\.\.?[^\s.][^\s]*$/.test(options.range) || options.range.startsWith('-')) {
      throw new UsageError(`--range expects A..B or A...B, got "${options.range}"`);
    }
    return { kind: 'range', range: options.range };
  }
  if (options.staged) return { kind: 'staged' };
  if (options.commit !== undefined) {
    if (options.commit.startsWith('-') || options.commit.length === 0) throw new UsageError(`--commit expects a revision, got "${options.commit}"`);
    return { kind: 'commit', sha: options.commit };
  }
  return { kind: 'working-tree' };
}

/** `jscr review`: run the pipeline, render the report, return the exit code. */
export async function reviewCommand(options: ReviewOptions, io: CommandIO): Promise<ExitCode> {
  const change = changeSpecFrom(options);
  // Refuse an unwritable --output before the review runs, so the failure is one line and no file.
  const target = options.output === undefined ? null : resolve(io.cwd, options.output);
  const repoDir = resolve(io.cwd, options.repo ?? '.');
  const facts = target === null ? null : await repositoryFacts(repoDir);
  // planned again at write time, so what was checked is what is written
  const writeReport = async (text: string): Promise<void> => {
    if (target !== null) await writeOutput(await planOutput(target, options.output ?? '', facts), text, io);
  };
  if (target !== null) await planOutput(target, options.output ?? '', facts);
  const progress = createProgress({ stream: io.stderr, isTTY: io.stderrIsTTY, quiet: options.quiet === true });
  let outcome;
  try {
    outcome = await review({
      repoDir,
      change,
      ...(options.config === undefined ? {} : { configPath: resolve(io.cwd, options.config) }),
      ...(options.failOn === undefined ? {} : { failOn: options.failOn }),
      useModel: options.model,
      env: io.env,
      today: new Date().toISOString().slice(0, 10),
      onStep: (name) => progress.step(name),
      ...(wantsStepLines({ env: io.env, isTTY: io.stderrIsTTY, quiet: options.quiet === true }) ? { onStepRecorded: (record) => io.stderr.write(stepLine(record)) } : {}),
      ...(options.quiet === true ? {} : { diagnostics: io.stderr }),
    });
  } catch (error) {
    // CI that reads the JSON report gets the reason there too; the CLI still prints the one line.
    if (options.format === 'json' && error instanceof JscrError) {
      const text = errorReport(error, change);
      if (target === null) io.stdout.write(text);
      else await writeReport(text).catch(() => undefined); // the typed error below still says why
    }
    throw error;
  } finally {
    progress.done();
  }
  const { report } = outcome;
  const color = options.format === 'text' && options.output === undefined && io.stdoutIsTTY && !('NO_COLOR' in io.env);
  const rendered = render(report, options.format, { color, rules: outcome.rules });
  if (target !== null) {
    try {
      await writeReport(rendered);
    } catch (error) {
      if (error instanceof JscrError) throw error;
      throw new InputError(`--output ${options.output ?? ''}: cannot write the report (${errnoCode(error)})`);
    }
  } else {
    io.stdout.write(rendered);
  }
  const summaryPath = io.env.GITHUB_STEP_SUMMARY;
  if (options.format === 'github' && summaryPath) {
    try {
      await appendFile(summaryPath, githubStepSummary(report));
    } catch (error) {
      // The report and the annotations are out already; a missing summary is worth a line, not the verdict.
      io.stderr.write(`jscr: warning: could not append the step summary to GITHUB_STEP_SUMMARY (${errnoCode(error)})\n`);
    }
  }
  return report.exit_code;
}

/**
 * What --output must not overwrite in the reviewed repository. Without a repository the review fails
 * with its own error; the output then keeps only the checks that need no git (any `.git` folder).
 */
async function repositoryFacts(repoDir: string): Promise<RepositoryFacts | null> {
  let root: string;
  try {
    root = await resolveRepository(repoDir);
  } catch (error) {
    if (error instanceof GitError) return null;
    throw error;
  }
  return { root, gitDirs: await gitDirectories(root), isTracked: (path) => isTrackedPath(root, path) };
}

/** The JSON report of a review that could not run: no findings, exit code 2 and the reason. */
function errorReport(error: JscrError, change: ChangeSpec): string {
  const report = {
    schema_version: 1,
    tool: { name: 'jscr', version: VERSION },
    change: { kind: change.kind, range: change.kind === 'range' ? change.range : change.kind === 'commit' ? change.sha : '', files: [] },
    findings: [],
    rejected: [],
    steps: [],
    scanners: [],
    limits_reached: [],
    complete: false,
    incomplete_reasons: [oneLine(error.message)],
    exit_code: error.exitCode,
  };
  // The range is the user's text and may hold a token; it is masked like every report string.
  return `${escapeJsonText(JSON.stringify(maskReport(report, new SecretBook()), null, 2))}\n`;
}
