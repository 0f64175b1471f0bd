/**
 * `--format markdown`: a report for a pull-request comment. Every piece of finding text is escaped so
 * it cannot break the table, close a `<details>` block, open a fence, or mention people.
 */
import { htmlInline, markdownFence, markdownInline } from './escape.js';
import type { Finding, ReviewReport } from './finding.js';
import type { RenderOptions } from './options.js';
import { CLEAN_SENTENCE, changeLabel, coverageNotes, omittedCounts, plural, severityBreakdown, stepsThatDidNotRun } from './summary.js';

function location(f: Finding): string {
  return `${f.path}:${f.line}`;
}

function detailsBlock(f: Finding): string[] {
  const facts = [`id ${markdownInline(f.id)}`, `source ${markdownInline(f.source)}`, `confidence ${f.confidence}`];
  if (f.cwe !== null) facts.push(markdownInline(f.cwe));
  if (f.end_line > f.line) facts.push(`lines ${f.line}-${f.end_line}`);
  const lines = [
    '<details>',
    `<summary><strong>${f.severity.toUpperCase()}</strong> ${htmlInline(f.rule)} at ${htmlInline(location(f))}: ${htmlInline(f.title)}</summary>`,
    '',
    `**Message:** ${f.message.replace(/\r\n/g, '\n').split('\n').map(markdownInline).join('<br>')}`,
    '',
    facts.join(' · '),
    '',
  ];
  if (f.evidence.length > 0) lines.push(markdownFence(f.evidence), '');
  lines.push('</details>');
  return lines;
}

/** How much of each finding the Markdown shows; the step summary shrinks to fit GitHub's size limit. */
export interface MarkdownDetail {
  /** A `<details>` block with message and evidence per finding. */
  details: boolean;
  /** At most this many table rows; the rest are counted in one line. */
  maxRows: number;
}

/** The findings table and one `<details>` block per finding. */
function findingsSection(findings: readonly Finding[], detail: MarkdownDetail): string[] {
  const out = ['| Severity | Rule | Location | Title |', '| --- | --- | --- | --- |'];
  const shown = findings.slice(0, detail.maxRows);
  for (const f of shown) {
    out.push(`| ${f.severity} | ${markdownInline(f.rule)} | ${markdownInline(location(f))} | ${markdownInline(f.title)} |`);
  }
  out.push('');
  if (shown.length < findings.length) out.push(`${plural(findings.length - shown.length, 'more finding')} not listed here to fit the page; see the JSON or SARIF report.`, '');
  if (detail.details) for (const f of shown) out.push(...detailsBlock(f), '');
  return out;
}

/** The PR-comment report. */
export function renderMarkdown(report: ReviewReport, _opts: RenderOptions): string {
  return renderMarkdownWith(report, { details: true, maxRows: Number.POSITIVE_INFINITY });
}

/** The Markdown report with a chosen amount of detail. */
export function renderMarkdownWith(report: ReviewReport, detail: MarkdownDetail): string {
  const out: string[] = ['## jscr review', ''];
  const fileCount = report.change.files.length;
  const filesText = fileCount === 0 ? 'an empty change' : plural(fileCount, 'file');
  const subject = `${markdownInline(changeLabel(report.change))} (${filesText})`;

  if (!report.complete) {
    out.push('> [!WARNING]', '> **INCOMPLETE:** this review did not run everything it was meant to run.');
    const reasons = report.incomplete_reasons.length > 0 ? report.incomplete_reasons : ['no reason was recorded'];
    for (const reason of reasons) out.push(`> - ${markdownInline(reason)}`);
    out.push('');
  }

  out.push(`Reviewed: ${subject}.`, '');
  if (report.findings.length > 0) {
    out.push(`**${plural(report.findings.length, 'finding')}** (${severityBreakdown(report)}).`, '');
    // a loop, not a spread: thousands of findings would overflow the argument stack
    for (const line of findingsSection(report.findings, detail)) out.push(line);
  } else if (report.complete) {
    out.push(CLEAN_SENTENCE, '');
  } else {
    out.push('No findings from the checks that ran, but the review is incomplete: this is not a clean result.', '');
  }

  const omitted = omittedCounts(report);
  const notes: string[] = [];
  if (omitted !== null) {
    if (omitted.truncated > 0) notes.push(`${plural(omitted.truncated, 'more finding')} not shown: cut by \`review.max_findings\`.`);
    if (omitted.below_min_confidence > 0) notes.push(`${plural(omitted.below_min_confidence, 'finding')} under \`review.min_confidence\` not shown.`);
    if (omitted.duplicates > 0) notes.push(`${plural(omitted.duplicates, 'duplicate')} merged.`);
  }
  if (report.rejected.length > 0) notes.push(`${plural(report.rejected.length, 'finding')} rejected: the evidence quoted was not found in the change.`);
  for (const note of coverageNotes(report)) notes.push(markdownInline(note));
  if (notes.length > 0) out.push(...notes.map((n) => `- ${n}`), '');

  const notRun = stepsThatDidNotRun(report);
  if (notRun.length > 0) {
    out.push('### Did not run', '');
    for (const { kind, record } of notRun) {
      const detail = record.detail ? `: ${markdownInline(record.detail)}` : '';
      out.push(`- ${kind} **${markdownInline(record.name)}** (${record.status})${detail}`);
    }
    out.push('');
  }
  if (report.limits_reached.length > 0) {
    out.push('### Limits reached', '');
    for (const limit of report.limits_reached) out.push(`- ${markdownInline(limit)}`);
    out.push('');
  }
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}
