/** `--format text`: the terminal report. Colour only when the caller asks for it. */
import { escapeControls, escapeOneLine } from './escape.js';
import type { Finding, ProverDetail, ReviewReport, Severity } from './finding.js';
import type { RenderOptions } from './options.js';
import { traceLines } from './trace.js';
import { CLEAN_SENTENCE, changeLabel, countBySeverity, coverageNotes, duplicatesNote, mergedName, omittedCounts, plural, stepsThatDidNotRun, suppressionNotes } from './summary.js';

const ANSI = {
  reset: '\u001b[0m',
  bold: '\u001b[1m',
  dim: '\u001b[2m',
  red: '\u001b[31m',
  yellow: '\u001b[33m',
  magenta: '\u001b[35m',
  cyan: '\u001b[36m',
  inverseRed: '\u001b[1;41;97m',
} as const;

const SEVERITY_STYLE: Record<Severity, string> = {
  critical: ANSI.bold + ANSI.magenta,
  high: ANSI.bold + ANSI.red,
  medium: ANSI.yellow,
  low: ANSI.cyan,
  info: ANSI.dim,
};

type Paint = (style: string, text: string) => string;

function painter(color: boolean): Paint {
  return color ? (style, text) => `${style}${text}${ANSI.reset}` : (_style, text) => text;
}

/** Every line of a block of untrusted text, escaped and indented. */
function indentBlock(text: string, prefix: string): string[] {
  return escapeControls(text)
    .split('\n')
    .map((line) => `${prefix}${line}`.trimEnd());
}

/** A prover finding's entry and checks, in one line. */
function proverLine(p: ProverDetail): string {
  const seen = p.checks_seen.length === 0 ? 'none' : p.checks_seen.join('; ');
  return `entry ${p.entry.framework} ${p.entry.function} (${p.entry.path}:${p.entry.line}); checks seen: ${seen}`;
}

function renderFinding(f: Finding, paint: Paint): string[] {
  const lines = [
    `${paint(SEVERITY_STYLE[f.severity], f.severity.toUpperCase())} ${escapeOneLine(f.rule)} ${escapeOneLine(f.path)}:${f.line}`,
    `  ${paint(ANSI.bold, escapeOneLine(f.title))}`,
    ...indentBlock(f.message, '  '),
  ];
  const facts = [`id ${f.id}`, `source ${escapeOneLine(f.source)}`, `confidence ${f.confidence}`];
  if (f.cwe !== null) facts.push(escapeOneLine(f.cwe));
  if (f.end_line > f.line) facts.push(`lines ${f.line}-${f.end_line}`);
  lines.push(`  ${paint(ANSI.dim, facts.join(' · '))}`);
  if (f.prover !== undefined) {
    lines.push(`  ${escapeOneLine(proverLine(f.prover))}`);
    for (const line of traceLines(f.prover.trace)) lines.push(`    ${escapeOneLine(line)}`);
  }
  if (f.merged !== undefined && f.merged.length > 0) lines.push(`  ${paint(ANSI.dim, escapeOneLine(`merged: ${f.merged.map(mergedName).join('; ')}`))}`);
  if (f.evidence.length > 0) lines.push(...indentBlock(f.evidence, '    | '));
  return lines;
}

/** The terminal report. Untrusted text is escaped, so a finding cannot rewrite the terminal. */
export function renderText(report: ReviewReport, opts: RenderOptions): string {
  const paint = painter(opts.color);
  const out: string[] = [];
  const fileCount = report.change.files.length;
  const filesText = fileCount === 0 ? 'empty change, no files changed' : `${plural(fileCount, 'file')} changed`;
  out.push(`${paint(ANSI.bold, 'jscr review')} of ${escapeOneLine(changeLabel(report.change))} (${filesText})`);
  out.push('');

  for (const finding of report.findings) {
    out.push(...renderFinding(finding, paint), '');
  }

  const counts = countBySeverity(report);
  if (report.findings.length > 0) {
    const bySeverity = (Object.keys(counts) as Severity[]).map((s) => `${counts[s]} ${s}`).join(', ');
    out.push(`${plural(report.findings.length, 'finding')}: ${bySeverity}`);
  } else if (report.complete) {
    out.push(CLEAN_SENTENCE);
  } else {
    out.push('No findings from the checks that ran, but the review is incomplete: this is not a clean result.');
  }

  const omitted = omittedCounts(report);
  if (omitted !== null) {
    if (omitted.truncated > 0) out.push(`${plural(omitted.truncated, 'more finding')} not shown: cut by review.max_findings.`);
    if (omitted.below_min_confidence > 0) out.push(`${plural(omitted.below_min_confidence, 'finding')} under review.min_confidence not shown.`);
    if (omitted.duplicates > 0) out.push(escapeOneLine(duplicatesNote(report, omitted.duplicates)));
  }
  for (const note of suppressionNotes(report)) out.push(escapeOneLine(note));
  if (report.rejected.length > 0) {
    out.push(`${plural(report.rejected.length, 'finding')} rejected: the evidence quoted was not found in the change (see --format json).`);
  }

  for (const note of coverageNotes(report)) out.push(escapeOneLine(note));

  const notRun = stepsThatDidNotRun(report);
  if (notRun.length > 0) {
    out.push('', notRun.some(({ record }) => record.status === 'partial') ? 'Did not run, or ran in part:' : 'Did not run:');
    for (const { kind, record } of notRun) {
      out.push(`  - ${kind} ${escapeOneLine(record.name)}: ${record.status}${record.detail ? ` (${escapeOneLine(record.detail)})` : ''}`);
    }
  }
  if (report.limits_reached.length > 0) {
    out.push('', 'Limits reached:');
    for (const limit of report.limits_reached) out.push(`  - ${escapeOneLine(limit)}`);
  }
  if (!report.complete) {
    out.push('', paint(ANSI.inverseRed, ' INCOMPLETE ') + ' This review did not run everything it was meant to run:');
    const reasons = report.incomplete_reasons.length > 0 ? report.incomplete_reasons : ['no reason was recorded'];
    for (const reason of reasons) out.push(`  - ${escapeOneLine(reason)}`);
  }
  return `${out.join('\n')}\n`;
}
