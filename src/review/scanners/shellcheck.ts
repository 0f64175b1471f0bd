/**
 * shellcheck: `shellcheck --norc -f json1 -S info` on the changed shell scripts (by extension). It has
 * no switch that ignores `# shellcheck disable=...` comments (bandit has --ignore-nosec, eslint
 * --no-inline-config), so it reads a private copy in which each directive's keyword is renamed: a
 * change cannot silence the scan of its own script (`# shellcheck disable=all`).
 */
import type { Severity } from '../../report/finding.js';
import { makeFinding } from '../../report/fingerprint.js';
import { z } from 'zod';
import { pathsForScanner } from '../../languages/registry.js';
import { asArgument, quoteLines, readReport, reportedLine, rootRelative, runScanner, scanned, scanWithoutDirectives, scannerCwe } from './common.js';
import type { ScannerAdapter, ScannerInput, ScannerOutcome, UnanalysedFile } from './types.js';

/** The keyword of a comment naming shellcheck, as its directives are written (`# shellcheck disable=SC2086`). */
const DIRECTIVE = /(?<=#[ \t]*)shellcheck\b/gi;

/** The fields of `shellcheck -f json1` that jscr reads (column and fix data are ignored). */
const shellcheckReportSchema = z.object({
  comments: z.array(
    z.object({
      file: z.string(),
      line: reportedLine,
      endLine: reportedLine.optional(),
      level: z.string(),
      code: z.number().int(),
      message: z.string(),
    }),
  ),
});

/** Quoting and injection problems are reported at info level by shellcheck, so info still counts. */
const SEVERITY: Record<string, Severity> = { error: 'medium', warning: 'medium', info: 'low', style: 'info' };
const CONFIDENCE: Record<string, number> = { error: 0.8, warning: 0.7, info: 0.5, style: 0.3 };

async function run(input: ScannerInput): Promise<ScannerOutcome> {
  return scanWithoutDirectives(input, DIRECTIVE, runIn);
}

async function runIn(input: ScannerInput): Promise<ScannerOutcome> {
  const scan = await runScanner({
    name: 'shellcheck',
    program: 'shellcheck',
    // --norc: a .shellcheckrc in the change must not reconfigure the scan. No -x: never follow
    // `source` into files that were not admitted.
    args: ['--norc', '-f', 'json1', '-S', 'info', ...input.files.map(asArgument)],
    root: input.root,
    timeoutMs: input.timeoutMs,
    env: input.env,
    completedCodes: [0, 1], // 1: issues found; 2: some files could not be read
  });
  if (!scan.completed) return scan.outcome;
  const read = readReport(scan, 'shellcheck', 'json1 report', shellcheckReportSchema);
  if (!read.ok) return read.outcome;
  const list = read.report.comments;
  const unanalysed = parseAborts(input.root, list);
  const abortedPaths = new Set(unanalysed.map((u) => u.path));

  const findings = list.flatMap((comment) => {
    const path = rootRelative(input.root, comment.file);
    if (path === null) return [];
    // the parse errors of a file shellcheck gave up on are the reason it is listed, not findings
    if (abortedPaths.has(path) && isParseError(comment)) return [];
    const endLine = Math.max(comment.line, comment.endLine ?? comment.line);
    return [
      makeFinding({
        rule: `shellcheck/SC${comment.code}`,
        source: 'scanner:shellcheck',
        severity: SEVERITY[comment.level] ?? 'low',
        confidence: CONFIDENCE[comment.level] ?? 0.5,
        path,
        line: comment.line,
        end_line: endLine,
        title: `shellcheck SC${comment.code}`,
        message: comment.message,
        evidence: quoteLines(input.contents, path, comment.line, endLine),
        cwe: scannerCwe('shellcheck', `SC${comment.code}`, null),
        extra: { level: comment.level },
      }),
    ];
  });
  return scanned(findings, input.files.length, unanalysed);
}

type ShellcheckComment = z.output<typeof shellcheckReportSchema>['comments'][number];

/** SC1000-SC1999 are the parser's own messages. */
function isParseError(comment: ShellcheckComment): boolean {
  return comment.code >= 1000 && comment.code < 2000 && comment.level === 'error';
}

/** The messages shellcheck ends an abandoned parse with. */
const PARSE_ABORT_CODES = new Set([1072, 1073]);

/**
 * Files whose parse shellcheck abandoned, so none of its checks ran on them: it then ends with SC1072
 * ("... Fix any mentioned problems and try again") or SC1073 ("Couldn't parse this ..."). Other parse
 * errors (a literal carriage return, SC1017) leave the rest of the analysis running.
 */
function parseAborts(root: string, comments: readonly ShellcheckComment[]): UnanalysedFile[] {
  const byPath = new Map<string, string>();
  for (const comment of comments) {
    if (!isParseError(comment) || !PARSE_ABORT_CODES.has(comment.code)) continue;
    const path = rootRelative(root, comment.file);
    if (path !== null && !byPath.has(path)) byPath.set(path, `SC${comment.code} on line ${comment.line}: ${comment.message}`);
  }
  return [...byPath].map(([path, reason]) => ({ path, reason }));
}

export const shellcheck: ScannerAdapter = {
  name: 'shellcheck',
  filesFor: (paths) => pathsForScanner(paths, 'shellcheck'),
  run,
};
