/**
 * Step 5b: the external scanners named in `scanners.enabled`, each on a private copy of the changed
 * files outside the repository, sharing the review's deadline. One that is enabled and cannot run makes
 * the review incomplete.
 */
import { ALLOWED_PROGRAMS, locateProgram, type AllowedProgram } from '../../policy/process.js';
import type { SecretBook } from '../../redact/index.js';
import type { Finding, ScannerRecord } from '../../report/finding.js';
import { jscrBinDirs } from '../scanners/common.js';
import { SCANNERS } from '../scanners/index.js';
import { createWorkCopy } from '../work-copy.js';
import { scanLinesFor, type ReadableFile, type ReadFiles } from './read-files.js';
import { incomplete, ran, result, skipped, type ReviewStep } from './step.js';
import { spansScannedLine } from '../../rules/engine.js';

export interface ScannerRun {
  /** One record per enabled scanner, for the report's `scanners`. */
  records: ScannerRecord[];
}

export const scannersStep: ReviewStep<'scanners', { read_files: ReadFiles }, ScannerRun> = {
  name: 'scanners',
  run: async ({ read_files }, run) => {
    const { change, deadline, env, book } = run;
    const enabled = change.config.scanners.enabled;
    if (enabled.length === 0) return result(skipped('no external scanner enabled (scanners.enabled)'), { records: [] });
    const inScope = (finding: Finding): boolean => {
      const file = read_files.readableByPath.get(finding.path);
      return file !== undefined && spansScannedLine(scanLinesFor(file, run), finding.line, finding.end_line);
    };
    const outcome = await runExternalScanners(enabled, read_files.readable, { remainingMs: () => deadline.remainingMs(), env, book, inScope, scope: change.config.review.scope });
    const summary = (records: ScannerRecord[]): string => records.map((r) => `${r.name}: ${r.detail}`).join('; ');
    const bad = outcome.records.filter((r) => r.status !== 'ran');
    // a scanner that ran in part counts as failed at its task, like one that crashed
    const verdict = bad.length > 0 ? incomplete(bad.every((r) => r.status === 'not_run') ? 'not_run' : 'failed', summary(bad)) : ran(summary(outcome.records));
    return result(verdict, { records: outcome.records }, outcome.findings);
  },
  notRun: () => ({ records: [] }),
};

interface ScannerRunOptions {
  /** Asked before each scanner: the deadline is shared, not granted afresh to each one. */
  remainingMs: () => number;
  env: NodeJS.ProcessEnv;
  /** Learns the secret values a scanner found, so they are masked wherever else they appear. */
  book: SecretBook;
  /**
   * A scanner reads whole files, but the review reports what `review.scope` covers: a scanner's finding
   * stands only where a built-in rule's would (spanning a changed line, or anywhere with `changed-files`).
   */
  inScope: (finding: Finding) => boolean;
  scope: string;
}

/** Run each enabled external scanner on a private copy of the changed files, outside the repository. */
async function runExternalScanners(
  enabled: readonly string[],
  files: ReadableFile[],
  { remainingMs, env, book, inScope, scope }: ScannerRunOptions,
): Promise<{ records: ScannerRecord[]; findings: Finding[] }> {
  const records: ScannerRecord[] = [];
  const findings: Finding[] = [];
  // Scanners read a copy of the reviewed revision's files, so they never see (or write to) the repository.
  const workCopy = await createWorkCopy(files.map((f) => ({ path: f.diff.path, text: f.text })));
  const workDir = workCopy.dir;
  try {
    const contents = new Map(files.map((f) => [f.diff.path, f.text]));
    for (const name of enabled) {
      const adapter = SCANNERS.find((s) => s.name === name);
      if (!adapter) {
        records.push({ name, status: 'not_run', detail: `${name} is enabled but jscr has no adapter for it in this version` });
        continue;
      }
      const taken = adapter.filesFor(files.map((f) => f.diff.path));
      if (taken.length === 0) {
        // Nothing to scan is still only "clean" when the scanner could have run at all.
        const installed = (ALLOWED_PROGRAMS as readonly string[]).includes(name) && locateProgram(name as AllowedProgram, env, jscrBinDirs()) !== null;
        const hasAdapter = adapter.name !== 'semgrep' && adapter.name !== 'gitleaks';
        records.push(
          installed && hasAdapter
            ? { name, status: 'ran', detail: 'no changed file of the kinds it scans' }
            : { name, status: 'not_run', detail: hasAdapter ? `${name} is enabled but not installed (not found on PATH)` : `${name} is enabled but jscr has no adapter for it in this version` },
        );
        continue;
      }
      const left = remainingMs();
      if (left === 0) {
        records.push({ name, status: 'not_run', detail: 'the review deadline (review.deadline_s) passed before this scanner' });
        continue;
      }
      const outcome = await adapter.run({ root: workDir, files: taken, timeoutMs: Math.min(left, 300_000), env, contents, learnSecret: (secret) => book.learn(secret) });
      const kept = outcome.findings.filter(inScope);
      const outside = outcome.findings.length - kept.length;
      const detail = outside > 0 ? `${outcome.detail}; ${outside} of them outside the reviewed lines (review.scope = "${scope}"), left out` : outcome.detail;
      records.push({ name, status: outcome.status, detail, ...(outcome.status === 'partial' ? { not_analysed: outcome.unanalysed } : {}) });
      findings.push(...kept);
    }
  } finally {
    await workCopy.remove();
  }
  return { records, findings };
}
