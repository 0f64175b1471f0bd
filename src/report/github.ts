/**
 * `--format github`: workflow-command annotations for GitHub Actions. GitHub shows at most 10 errors,
 * 10 warnings and 10 notices per step, so we spend that budget on the most severe findings and say how
 * many more exist; the full list goes to the step summary (`githubStepSummary`).
 */
import { escapeCommandData, escapeCommandProperty, escapeOneLine } from './escape.js';
import { severityRank, type Finding, type ReviewReport, type Severity } from './finding.js';
import { renderMarkdownWithin } from './markdown.js';
import type { RenderOptions } from './options.js';
import { CLEAN_SENTENCE, changeLabel, coverageNotes, plural, severityBreakdown } from './summary.js';

/** GitHub's per-step limit for each annotation level. */
const ANNOTATIONS_PER_LEVEL = 10;

type AnnotationLevel = 'error' | 'warning' | 'notice';

const LEVEL: Record<Severity, AnnotationLevel> = { critical: 'error', high: 'error', medium: 'warning', low: 'notice', info: 'notice' };

function annotation(level: AnnotationLevel, properties: [string, string][], message: string): string {
  const props = properties.map(([key, value]) => `${key}=${escapeCommandProperty(value)}`).join(',');
  return `::${level}${props ? ` ${props}` : ''}::${escapeCommandData(message)}`;
}

function findingAnnotation(f: Finding): string {
  const line = Math.max(1, f.line);
  return annotation(
    LEVEL[f.severity],
    [
      ['file', f.path],
      ['line', String(line)],
      ['endLine', String(Math.max(line, f.end_line))],
      ['title', `${f.severity.toUpperCase()} ${f.rule}: ${f.title}`],
    ],
    f.message.trim().length > 0 ? f.message : f.title,
  );
}

/** Annotations for GitHub Actions, within GitHub's per-step limits, then plain summary lines. */
export function renderGithub(report: ReviewReport, _opts: RenderOptions): string {
  const out: string[] = [];
  const budget: Record<AnnotationLevel, number> = { error: ANNOTATIONS_PER_LEVEL, warning: ANNOTATIONS_PER_LEVEL, notice: ANNOTATIONS_PER_LEVEL };

  if (!report.complete) {
    // an incomplete review is the most important thing to see, so it takes one of the error slots
    const reasons = report.incomplete_reasons.length > 0 ? report.incomplete_reasons.join('\n') : 'no reason was recorded';
    out.push(annotation('error', [['title', 'jscr review INCOMPLETE']], `This review did not run everything it was meant to run:\n${reasons}`));
    budget.error -= 1;
  }

  // stable sort: report order within a severity
  const bySeverity = [...report.findings].sort((a, b) => severityRank(a.severity) - severityRank(b.severity));
  let notAnnotated = 0;
  for (const finding of bySeverity) {
    const level = LEVEL[finding.severity];
    if (budget[level] > 0) {
      out.push(findingAnnotation(finding));
      budget[level] -= 1;
    } else {
      notAnnotated += 1;
    }
  }
  if (notAnnotated > 0) {
    out.push(
      `${notAnnotated} more ${notAnnotated === 1 ? 'finding is' : 'findings are'} not shown as annotations (GitHub shows at most ${ANNOTATIONS_PER_LEVEL} errors, ${ANNOTATIONS_PER_LEVEL} warnings and ${ANNOTATIONS_PER_LEVEL} notices per step); the step summary (when GITHUB_STEP_SUMMARY is set) and --format json list them all.`,
    );
  }

  const subject = `${escapeOneLine(changeLabel(report.change))} (${plural(report.change.files.length, 'file')})`;
  if (report.findings.length > 0) {
    out.push(`jscr: ${plural(report.findings.length, 'finding')} (${severityBreakdown(report)}) on ${subject}.`);
  } else if (report.complete) {
    out.push(`jscr: ${CLEAN_SENTENCE} Reviewed: ${subject}.`);
  } else {
    out.push(`jscr: no findings from the checks that ran on ${subject}, but the review is incomplete: this is not a clean result.`);
  }
  for (const note of coverageNotes(report)) out.push(`jscr: ${escapeOneLine(note)}`);
  return `${out.join('\n')}\n`;
}

/** GitHub refuses a step summary over 1 MiB; stay under it with room to spare. */
export const STEP_SUMMARY_MAX_BYTES = 1_000_000;

/**
 * The full report as Markdown for `$GITHUB_STEP_SUMMARY`; the caller writes the file. When the full
 * text would pass GitHub's size limit, the per-finding details go first, then table rows.
 */
export function githubStepSummary(report: ReviewReport): string {
  return renderMarkdownWithin(report, (text) => Buffer.byteLength(text, 'utf8') <= STEP_SUMMARY_MAX_BYTES);
}
