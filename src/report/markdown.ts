/**
 * `--format markdown`: a report for a pull-request comment. Every piece of finding text is escaped so
 * it cannot break the table, close a `<details>` block, open a fence, or mention people.
 */
import { htmlInline, markdownFence, markdownInline } from './escape.js';
import { severityRank, type Finding, type ReviewReport } from './finding.js';
import type { RenderOptions } from './options.js';
import { mermaidFlow } from './trace.js';
import { CLEAN_SENTENCE, changeLabel, coverageNotes, duplicatesNote, omittedCounts, plural, severityBreakdown, stepsThatDidNotRun, suppressionNotes } from './summary.js';

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
  // the path the finding rests on (a prover trace, a data flow), drawn where the comment is read
  if (f.flow !== undefined && f.flow.length > 1) lines.push(...mermaidFlow(f.flow), '');
  lines.push('</details>');
  return lines;
}

/** How much of each finding the Markdown shows; it shrinks to fit a size limit (a PR comment, a step summary). */
interface MarkdownDetail {
  /** At most this many findings get a `<details>` block with message and evidence. */
  maxDetails: number;
  /** At most this many table rows; the rest are counted by severity and rule. */
  maxRows: number;
}

/** Counts of findings left out of the table, by severity and rule, most severe first. */
const MAX_SUMMARY_GROUPS = 50;

function leftOutSummary(findings: readonly Finding[]): string[] {
  const groups = new Map<string, { severity: Finding['severity']; rule: string; count: number }>();
  for (const f of findings) {
    const key = `${f.severity}\u0000${f.rule}`;
    const group = groups.get(key) ?? { severity: f.severity, rule: f.rule, count: 0 };
    group.count += 1;
    groups.set(key, group);
  }
  const sorted = [...groups.values()].sort((a, b) => severityRank(a.severity) - severityRank(b.severity) || b.count - a.count || (a.rule < b.rule ? -1 : 1));
  const out = [
    `${plural(findings.length, 'more finding')} not listed here to fit the page (${severityBreakdown({ findings: [...findings] })}); the JSON and SARIF reports list them all.`,
    '',
    '| Severity | Rule | Findings |',
    '| --- | --- | --- |',
  ];
  for (const g of sorted.slice(0, MAX_SUMMARY_GROUPS)) out.push(`| ${g.severity} | ${markdownInline(g.rule)} | ${g.count} |`);
  if (sorted.length > MAX_SUMMARY_GROUPS) out.push(`| | ${plural(sorted.length - MAX_SUMMARY_GROUPS, 'more rule')} | ${sorted.slice(MAX_SUMMARY_GROUPS).reduce((n, g) => n + g.count, 0)} |`);
  out.push('');
  return out;
}

/** The findings table, one `<details>` block per finding shown in detail, and counts of the rest. */
function findingsSection(findings: readonly Finding[], detail: MarkdownDetail): string[] {
  const out = ['| Severity | Rule | Location | Title |', '| --- | --- | --- | --- |'];
  const shown = findings.slice(0, detail.maxRows);
  for (const f of shown) {
    out.push(`| ${f.severity} | ${markdownInline(f.rule)} | ${markdownInline(location(f))} | ${markdownInline(f.title)} |`);
  }
  out.push('');
  if (shown.length < findings.length) out.push(...leftOutSummary(findings.slice(shown.length)));
  const detailed = shown.slice(0, detail.maxDetails);
  for (const f of detailed) out.push(...detailsBlock(f), '');
  if (detailed.length < shown.length) out.push(`Message and evidence of ${plural(shown.length - detailed.length, 'finding')} in the table left out to fit the page; see the JSON or SARIF report.`, '');
  return out;
}

/** GitHub's limit on a pull-request comment, in characters. */
export const COMMENT_MAX_CHARS = 65_536;

/** The PR-comment report, within GitHub's comment limit. */
export function renderMarkdown(report: ReviewReport, _opts: RenderOptions): string {
  return renderMarkdownWithin(report, (text) => text.length <= COMMENT_MAX_CHARS);
}

/** Largest n in [0, max] for which `ok(n)` holds, given ok is monotone and ok(0) is assumed. */
function largest(max: number, ok: (n: number) => boolean): number {
  let low = 0;
  let high = max;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (ok(mid)) low = mid;
    else high = mid - 1;
  }
  return low;
}

/**
 * The Markdown report with as much detail as `fits`: every finding in full if it can, else details
 * for the first findings only, else fewer table rows, the rest counted by severity and rule. A text
 * that still does not fit is cut at a line with a note, so the limit always holds.
 */
export function renderMarkdownWithin(report: ReviewReport, fits: (text: string) => boolean): string {
  const all = report.findings.length;
  const full = renderMarkdownWith(report, { maxDetails: all, maxRows: all });
  if (fits(full)) return full;
  const details = largest(all, (n) => fits(renderMarkdownWith(report, { maxDetails: n, maxRows: all })));
  if (details > 0) return renderMarkdownWith(report, { maxDetails: details, maxRows: all });
  const rows = largest(all, (n) => fits(renderMarkdownWith(report, { maxDetails: 0, maxRows: n })));
  const text = renderMarkdownWith(report, { maxDetails: 0, maxRows: rows });
  if (fits(text)) return text;
  // only unbounded notes (reasons, limits) are left: cut at a line; nothing open can be left unclosed
  const note = '\n… the rest of this report is cut to fit the page; see the JSON or SARIF report.\n';
  const lines = text.split('\n');
  const kept = largest(lines.length, (n) => fits(`${lines.slice(0, n).join('\n')}${note}`));
  return `${lines.slice(0, kept).join('\n')}${note}`;
}

/** The Markdown report with a chosen amount of detail. */
function renderMarkdownWith(report: ReviewReport, detail: MarkdownDetail): string {
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
    if (omitted.duplicates > 0) notes.push(markdownInline(duplicatesNote(report, omitted.duplicates)));
  }
  for (const note of suppressionNotes(report)) notes.push(markdownInline(note));
  if (report.rejected.length > 0) notes.push(`${plural(report.rejected.length, 'finding')} rejected: the evidence quoted was not found in the change.`);
  for (const note of coverageNotes(report)) notes.push(markdownInline(note));
  if (notes.length > 0) out.push(...notes.map((n) => `- ${n}`), '');

  const notRun = stepsThatDidNotRun(report);
  if (notRun.length > 0) {
    out.push(notRun.some(({ record }) => record.status === 'partial') ? '### Did not run, or ran in part' : '### Did not run', '');
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
