import { resolve } from 'node:path';
import type { CommandIO, ExitCode } from '../io.js';
import { escapeControls } from '../report/escape.js';
import { changeSpecFrom } from './review.js';
import { runFix, type FixOutcome } from '../fix/fix.js';
import { splitCommand } from '../fix/shellwords.js';
import { SecretBook } from '../redact/index.js';

export interface FixOptions {
  range?: string;
  staged?: boolean;
  commit?: string;
  repo?: string;
  config?: string;
  finding: string[];
  acceptModel?: boolean;
  verify?: string;
  out?: string;
}

/** `jscr fix`: model proposals for findings, checked by the guard, written only when accepted. */
export async function fixCommand(options: FixOptions, io: CommandIO): Promise<ExitCode> {
  const change = changeSpecFrom(options);
  // Bad --verify syntax is a usage error before anything runs.
  const verify = options.verify === undefined ? null : splitCommand(options.verify);
  const outcome = await runFix({
    repoDir: resolve(io.cwd, options.repo ?? '.'),
    change,
    ...(options.config === undefined ? {} : { configPath: resolve(io.cwd, options.config) }),
    findings: options.finding,
    acceptModel: options.acceptModel === true,
    verify,
    ...(options.out === undefined ? {} : { out: options.out }),
    cwd: io.cwd,
    env: io.env,
    now: new Date(),
    diagnostics: io.stderr,
  });
  // The diffs quote the file's own lines; secret shapes in them are masked like in a review report.
  io.stdout.write(new SecretBook().mask(renderFixText(outcome)));
  return outcome.exitCode;
}

/**
 * The text summary: a line per finding, the diffs of accepted proposals not written, the counts, the
 * folder. Paths, details and diffs are the repository's and the model's text, escaped as a whole.
 */
export function renderFixText(outcome: FixOutcome): string {
  const out: string[] = [];
  if (outcome.rows.length === 0) out.push('jscr fix: these checks found nothing to fix in this change.');
  for (const row of outcome.rows) {
    out.push(`${row.outcome.padEnd(16)} ${row.finding.path}:${row.finding.line}  ${row.finding.rule}  (${row.finding.id})`);
    out.push(`    ${row.detail}`);
  }
  const unwritten = outcome.rows.filter((r) => r.diff !== null && r.outcome === 'needs_review');
  if (unwritten.length > 0) {
    out.push('', 'Accepted by the guard, not written (run again with --accept-model to write them):', '');
    for (const row of unwritten) out.push((row.diff ?? '').trimEnd());
  }
  const counts = Object.entries(outcome.summary.outcomes)
    .map(([name, n]) => `${n} ${name}`)
    .join(', ');
  out.push('', `${outcome.summary.findings} finding(s)${counts ? `: ${counts}` : ''}`);
  for (const reason of outcome.summary.review_incomplete_reasons) out.push(`incomplete: the review did not finish every step (${reason}); findings may be missing`);
  out.push(`run folder: ${outcome.runFolder}`);
  return `${escapeControls(out.join('\n'))}\n`;
}
