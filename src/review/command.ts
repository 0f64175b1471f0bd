import { rename, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { JscrError, UsageError, oneLine } from '../errors.js';
import { VERSION } from '../version.js';
import type { CommandIO, ExitCode } from '../io.js';
import type { ChangeSpec } from '../git/change.js';
import { render, githubStepSummary } from '../report/render.js';
import { createProgress } from '../report/progress.js';
import { review, type FailOn } from './engine.js';

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
    if (!/^[^\s]+\.\.\.?[^\s]+$/.test(options.range) || options.range.startsWith('-')) {
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
  const progress = createProgress({ stream: io.stderr, isTTY: io.stderrIsTTY, quiet: options.quiet === true });
  let outcome;
  try {
    outcome = await review({
      repoDir: resolve(io.cwd, options.repo ?? '.'),
      change,
      ...(options.config === undefined ? {} : { configPath: resolve(io.cwd, options.config) }),
      ...(options.failOn === undefined ? {} : { failOn: options.failOn }),
      useModel: options.model,
      env: io.env,
      today: new Date().toISOString().slice(0, 10),
      onStep: (name) => progress.step(name),
      ...(options.quiet === true ? {} : { diagnostics: io.stderr }),
    });
  } catch (error) {
    // CI that reads the JSON report gets the reason there too; the CLI still prints the one line.
    if (options.format === 'json' && error instanceof JscrError) io.stdout.write(errorReport(error, change));
    throw error;
  } finally {
    progress.done();
  }
  const { report } = outcome;
  const color = options.format === 'text' && options.output === undefined && io.stdoutIsTTY && !('NO_COLOR' in io.env);
  const rendered = render(report, options.format, { color, rules: outcome.rules });
  if (options.output !== undefined) {
    // Write beside the target and rename, so a reader never sees half a report.
    const target = resolve(io.cwd, options.output);
    const temp = `${target}.jscr-${process.pid}.tmp`;
    await writeFile(temp, rendered);
    await rename(temp, target);
  } else {
    io.stdout.write(rendered);
  }
  const summaryPath = io.env.GITHUB_STEP_SUMMARY;
  if (options.format === 'github' && summaryPath) {
    await writeFile(summaryPath, githubStepSummary(report), { flag: 'a' });
  }
  return report.exit_code;
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
  return `${JSON.stringify(report, null, 2)}\n`;
}
