/**
 * Step 11: the findings as the report shows them. The review's own configuration changed by the change
 * is itself a finding; suppressions apply by fingerprint or rule and glob, never by line, and those the
 * change adds are refused; then dedupe, confidence floor, sort and truncation. `reviewReport` then puts
 * every step's output into the JSON report's shape (SPEC 4).
 */
import { CONFIG_FILE_NAME, parseConfigText, type JscrConfig } from '../../config/index.js';
import { addedLines, type DiffFile } from '../../git/diff.js';
import type { RawChange } from '../../git/change.js';
import type { SourceReader } from '../../git/sources.js';
import { maskFinding } from '../../redact/index.js';
import { exitCodeFor } from '../../report/exit.js';
import type { ChangeSummary, Finding, ReviewReport, StepRecord } from '../../report/finding.js';
import { makeFinding } from '../../report/fingerprint.js';
import { placeOccurrences } from '../../report/occurrence.js';
import { orderFindings } from '../../report/order.js';
import { builtinRuleAliases } from '../../rules/aliases.js';
import { VERSION } from '../../version.js';
import type { ContextBundle } from '../context-bundle.js';
import { skippedFiles, type CoveredFile } from '../coverage.js';
import { applySuppressions, baseLineCounts } from '../suppress.js';
import type { ModelReview } from './model.js';
import type { OpenedChange } from './open-change.js';
import type { Profiles } from './profile.js';
import type { ReadableFile, ReadFiles } from './read-files.js';
import type { Redaction } from './redaction.js';
import type { FlowRun } from './flow.js';
import { weighByFlow } from './flow-calibration.js';
import type { RuleRun } from './rules.js';
import type { Syntax } from './syntax.js';
import type { ScannerRun } from './scanners.js';
import { ran, result, type ReviewStep } from './step.js';

export interface ReportedFindings {
  ordered: ReturnType<typeof orderFindings>;
  suppression: ReturnType<typeof applySuppressions>;
  limitsReached: string[];
}

export const reportStep: ReviewStep<'report', { read_files: ReadFiles; syntax: Syntax; context: ContextBundle; rules: RuleRun; flow: FlowRun; findings: readonly Finding[] }, ReportedFindings> = {
  name: 'report',
  timing: 'always',
  run: async ({ read_files, syntax, context, rules, flow, findings: found }, { change, book, today }) => {
    const { config, baseReader } = change;
    const { readable, readableByPath } = read_files;
    // A pattern finding on the line of a flow finding whose row supersedes that rule is the same weakness
    // told twice, wherever it is (top-level code included, which the supersedes ranges do not cover).
    // (the alias table holds every flow row's superseded rules, as suppressions read them)
    const aliases = builtinRuleAliases();
    const flowRulesAt = new Map<string, string[]>();
    for (const f of found) if (f.source === 'flow') flowRulesAt.set(`${f.path}\0${f.line}`, [...(flowRulesAt.get(`${f.path}\0${f.line}`) ?? []), f.rule]);
    const toldByFlow = (f: Finding): boolean => (flowRulesAt.get(`${f.path}\0${f.line}`) ?? []).some((rule) => aliases.names(f.rule, rule));
    const findings = [
      // Each pattern finding weighed by what flow saw reach its sink (dropped, lowered, or kept).
      ...found.flatMap((f) => {
        if (f.source === 'rule' && toldByFlow(f)) return [];
        const weighed = weighByFlow(flow, f);
        return weighed === null ? [] : [weighed];
      }),
      ...configChangeFindings(read_files.changedFiles),
    ];
    const occurrenceFiles = new Map(readable.map((f) => [f.diff.path, { text: f.text, scopes: syntax.irs.get(f.diff.path)?.functions ?? [] }]));
    const suppression = applySuppressions({
      // Fingerprints from masked evidence, so no hash of a secret is printed and suppressions match the report;
      // each copy of a line is its own finding (its occurrence in its function).
      findings: placeOccurrences(
        findings.map((finding) => maskFinding(finding, book)),
        occurrenceFiles,
      ),
      fileTexts: new Map(readable.map((f) => [f.diff.path, f.text])),
      addedLines: new Map(readable.map((f) => [f.diff.path, f.changedLines])),
      // Only a fingerprint entry asks whether a line existed at the base: read the base files just then.
      baseLines: config.suppress.some((entry) => entry.fingerprint !== undefined) ? await baseLinesOf(baseReader, readable, findings) : new Map<string, Map<string, number>>(),
      configEntries: config.suppress.map(toSuppressEntry),
      entriesAddedByChange: suppressEntriesAddedByChange(config, readableByPath.get(CONFIG_FILE_NAME)),
      today,
      aliases: builtinRuleAliases(),
    });
    const ordered = orderFindings([...suppression.kept, ...suppression.added], { minConfidence: config.review.min_confidence, maxFindings: config.review.max_findings });
    // The context bundle is what a model reads; without one its limits cut nothing the review looked at
    // (the context step's detail still says where it stopped).
    const contextLimits = config.model.provider === 'none' ? [] : context.limitsReached;
    const limitsReached = [...contextLimits, ...rules.limits, ...flow.limits, ...book.limitsReached(), ...(ordered.truncated > 0 ? ['review.max_findings'] : [])];
    const detail = `${ordered.findings.length} finding(s)${ordered.truncated ? `, ${ordered.truncated} cut by review.max_findings` : ''}`;
    return result(ran(detail), { ordered, suppression, limitsReached });
  },
};

/** Every step's output the report shows. */
export interface ReportParts {
  read_files: ReadFiles;
  profile: Profiles;
  context: ContextBundle;
  scanners: ScannerRun;
  redaction: Redaction | null;
  model: ModelReview;
  report: ReportedFindings;
}

/** What the step log knew when the last step was recorded. */
export interface StepHistory {
  records: StepRecord[];
  incompleteReasons: string[];
}

export function reviewReport(parts: ReportParts, change: OpenedChange, history: StepHistory, options: { failOn: JscrConfig['review']['fail_on']; configGiven: boolean }): ReviewReport {
  const { ordered, suppression } = parts.report;
  const { root, raw, configSource } = change;
  const redaction = parts.redaction?.outcome ?? null;
  const usage = parts.model.usage;
  const report: ReviewReport = {
    schema_version: 1,
    tool: { name: 'jscr', version: VERSION },
    change: summarise(raw, parts.read_files.diffFiles),
    findings: ordered.findings,
    rejected: parts.model.rejected,
    steps: history.records,
    scanners: parts.scanners.records,
    limits_reached: parts.report.limitsReached,
    complete: history.incompleteReasons.length === 0,
    incomplete_reasons: history.incompleteReasons,
    exit_code: 0,
    omitted: { duplicates: ordered.duplicates, below_min_confidence: ordered.droppedLowConfidence, truncated: ordered.truncated },
    // Never an absolute path in the report body: the same input must give the same bytes anywhere.
    config_source: configSource === null ? null : configSource.startsWith(`${root}/`) ? configSource.slice(root.length + 1) : options.configGiven ? '--config' : configSource,
    trivial_files: [...parts.profile.trivialPaths].sort(),
    ...(raw.kind === 'working-tree' ? { untracked_files: change.untracked } : {}),
    skipped_files: skippedFiles(parts.read_files.changedFiles),
    context: {
      files: parts.context.files.map((f) => ({ path: f.path, reason: f.reason, via: f.via })),
      left_out: parts.context.leftOut,
    },
    redaction: redaction === null ? null : { blocked: redaction.blocked, secrets_found: redaction.secretsFound, per_file: perFileRedaction(redaction.files) },
    suppressed: suppression.suppressed.map((s) => ({ rule: s.finding.rule, path: s.finding.path, fingerprint: s.finding.fingerprint, by: s.by })),
    unused_suppressions: suppression.unused,
    ...(suppression.notes.length === 0 ? {} : { suppression_notes: suppression.notes }),
    ...(usage === null ? {} : { model: { usage } }),
  };
  report.exit_code = exitCodeFor(report, options.failOn);
  return report;
}

/** The base revision's lines of each reviewed file with findings (read at its old path for a rename). */
async function baseLinesOf(baseReader: SourceReader | null, files: readonly ReadableFile[], findings: readonly Finding[]): Promise<Map<string, Map<string, number>>> {
  const out = new Map<string, Map<string, number>>();
  const withFindings = new Set(findings.map((f) => f.path));
  const wanted = files.filter((f) => withFindings.has(f.diff.path));
  if (baseReader === null || wanted.length === 0) return out;
  const reads = await baseReader.readMany(wanted.map((f) => f.diff.oldPath ?? f.diff.path));
  for (const file of wanted) {
    const read = reads.get(file.diff.oldPath ?? file.diff.path);
    if (read?.ok === true) out.set(file.diff.path, baseLineCounts(read.text));
  }
  return out;
}

function summarise(raw: RawChange, diffFiles: readonly DiffFile[]): ChangeSummary {
  return {
    kind: raw.kind,
    range: raw.range,
    files: diffFiles.map((f) => ({ path: f.path, status: f.status, old_path: f.oldPath })),
  };
}

function configChangeFindings(files: readonly CoveredFile[]): Finding[] {
  const out: Finding[] = [];
  for (const file of files) {
    if (file.diff.path !== CONFIG_FILE_NAME && file.diff.oldPath !== CONFIG_FILE_NAME) continue;
    const added = [...addedLines(file.diff).entries()];
    const first = added[0];
    out.push(
      makeFinding({
        rule: 'jscr/review-config-changed',
        source: 'rule',
        severity: 'low',
        confidence: 1,
        path: file.diff.path,
        line: first ? first[0] : 1,
        end_line: first ? first[0] : 1,
        title: 'The change edits jscr\'s own configuration',
        message:
          'This change modifies .jscr.toml. The review used the base revision\'s configuration, so the edit takes effect only after it lands; check that it does not weaken the review (suppressions, scanners, limits).',
        evidence: added.map(([, text]) => text).slice(0, 20).join('\n') || `(${file.diff.status} ${CONFIG_FILE_NAME})`,
        cwe: 'CWE-693',
      }),
    );
  }
  return out;
}

function toSuppressEntry(s: JscrConfig['suppress'][number]) {
  return {
    rule: s.rule,
    reason: s.reason,
    ...(s.path === undefined ? {} : { path: s.path }),
    ...(s.fingerprint === undefined ? {} : { fingerprint: s.fingerprint }),
    ...(s.expires === undefined ? {} : { expires: s.expires }),
  };
}

/**
 * [[suppress]] entries the change itself adds to .jscr.toml: they are reported and never honoured.
 * With --config the file in force is the user's own; entries are compared with the head's anyway.
 */
function suppressEntriesAddedByChange(config: JscrConfig, head: ReadableFile | undefined): ReturnType<typeof toSuppressEntry>[] {
  if (!head) return [];
  let headEntries: JscrConfig['suppress'];
  try {
    headEntries = parseConfigText(head.text, `${CONFIG_FILE_NAME} (head)`).suppress;
  } catch {
    return []; // an invalid head config is reported by the config-change finding, not honoured anyway
  }
  const inForce = new Set(config.suppress.map((s) => JSON.stringify(s)));
  return headEntries.filter((s) => !inForce.has(JSON.stringify(s))).map(toSuppressEntry);
}

/** Redaction counts per path (material has several segments per file). */
function perFileRedaction(files: { path: string; found: number; redacted: number; rules: string[] }[]): { path: string; found: number; redacted: number; rules: string[] }[] {
  const byPath = new Map<string, { path: string; found: number; redacted: number; rules: Set<string> }>();
  for (const f of files) {
    if (f.found === 0) continue;
    const entry = byPath.get(f.path) ?? { path: f.path, found: 0, redacted: 0, rules: new Set<string>() };
    entry.found += f.found;
    entry.redacted += f.redacted;
    for (const r of f.rules) entry.rules.add(r);
    byPath.set(f.path, entry);
  }
  return [...byPath.values()].sort((a, b) => a.path.localeCompare(b.path)).map((e) => ({ ...e, rules: [...e.rules].sort() }));
}

