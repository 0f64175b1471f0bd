/**
 * `--format sarif`: SARIF 2.1.0 as GitHub code scanning ingests it. Deterministic: no timestamps, no
 * absolute paths (locations are relative to `%SRCROOT%`), rules sorted by id, results in report order.
 */
import { PACKAGE_PAGE } from '../distribution.js';
import { pathKeyToBytes } from '../repo-path.js';
import { escapeJsonText } from './escape.js';
import { severityRank, type Finding, type FlowStep, type ReviewReport, type Severity } from './finding.js';
import type { RenderOptions, RuleMeta } from './options.js';

const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';
/** Where users learn about the tool (SARIF `tool.driver.informationUri`). */
const JSCR_INFORMATION_URI = PACKAGE_PAGE;
/**
 * The keys of our fingerprints in `partialFingerprints`, one per recipe version (docs/adr/0020): v2 tells
 * copies of a line apart; v1 is still written so alerts code scanning opened before v2 stay matched.
 */
export const FINGERPRINT_KEY = 'jscrFingerprint/v2';
export const FINGERPRINT_V1_KEY = 'jscrFingerprint/v1';

type SarifLevel = 'error' | 'warning' | 'note';

const LEVEL: Record<Severity, SarifLevel> = { critical: 'error', high: 'error', medium: 'warning', low: 'note', info: 'note' };

/** GitHub's `security-severity` scale (over 9.0 critical, 7.0-8.9 high, 4.0-6.9 medium, 0.1-3.9 low). */
const SECURITY_SEVERITY: Record<Severity, string | null> = { critical: '9.5', high: '8.0', medium: '5.5', low: '3.0', info: null };

/** `CWE-78` → `external/cwe/cwe-78`, the tag GitHub links to the CWE; null for anything else. */
export function cweTag(cwe: string | null): string | null {
  const match = cwe === null ? null : /^CWE-(\d+)$/i.exec(cwe.trim());
  return match ? `external/cwe/cwe-${match[1]}` : null;
}

/** `jscr/sql-string-concat` → `SqlStringConcat`: SARIF's `name` is an identifier-like word. */
function ruleName(id: string): string {
  const name = id
    .split(/[^A-Za-z0-9]+/)
    .slice(id.includes('/') ? 1 : 0)
    .filter((part) => part.length > 0)
    .map((part) => part[0]?.toUpperCase() + part.slice(1))
    .join('');
  return name.length > 0 ? name : 'Rule';
}

/** Bytes a URI segment keeps as they are (those `encodeURIComponent` keeps), plus the `/` between segments. */
const URI_PLAIN = /^[A-Za-z0-9\-_.!~*'()/]$/;

/**
 * A repository-relative path key as a URI reference, percent-encoded from the path's bytes
 * (src/repo-path.ts), so a name that is not UTF-8 gets `%E9`, never the encoding of U+FFFD.
 */
export function pathToUri(path: string): string {
  let uri = '';
  for (const byte of pathKeyToBytes(path)) {
    const ch = String.fromCharCode(byte);
    uri += byte < 0x80 && URI_PLAIN.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return uri;
}

function nonEmpty(text: string, fallback: string): string {
  return text.trim().length > 0 ? text : fallback;
}

/**
 * A rule jscr has no metadata for (an external scanner's, say): described by who reported it, never by
 * the text of its first finding, which is one finding's (and may be a model's) words.
 */
function describedBySource(f: Finding): RuleMeta {
  const reporter = f.source.startsWith('scanner:') ? `the ${f.source.slice('scanner:'.length)} scanner` : `jscr (${f.source})`;
  return {
    id: f.rule,
    title: `${f.rule}, reported by ${reporter}`,
    severity: f.severity,
    // the weakness id is structured data the reporter gives, not prose; it keeps GitHub's CWE link
    cwe: f.cwe,
    message: `A check of ${reporter}. Each result carries its own message; see the tool's documentation for the rule ${f.rule}.`,
  };
}

/** Rule metadata for every rule the findings use: from `opts.rules` when known, else from who reported it. */
function rulesFor(findings: readonly Finding[], known: readonly RuleMeta[]): RuleMeta[] {
  const byId = new Map<string, RuleMeta>();
  for (const meta of known) byId.set(meta.id, meta);
  const used = new Map<string, RuleMeta>();
  for (const f of findings) {
    const existing = used.get(f.rule);
    if (existing === undefined) {
      used.set(f.rule, byId.get(f.rule) ?? describedBySource(f));
    } else if (!byId.has(f.rule) && severityRank(f.severity) < severityRank(existing.severity)) {
      // a rule described from its findings is rated by its most severe finding
      used.set(f.rule, { ...existing, severity: f.severity });
    }
  }
  return [...used.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function sarifRule(meta: RuleMeta): Record<string, unknown> {
  const tags = ['security'];
  const tag = cweTag(meta.cwe);
  if (tag !== null) tags.push(tag);
  const properties: Record<string, unknown> = { tags };
  const securitySeverity = SECURITY_SEVERITY[meta.severity];
  if (securitySeverity !== null) properties['security-severity'] = securitySeverity;
  const rule: Record<string, unknown> = {
    id: meta.id,
    name: ruleName(meta.id),
    shortDescription: { text: nonEmpty(meta.title, meta.id) },
    fullDescription: { text: nonEmpty(meta.message, nonEmpty(meta.title, meta.id)) },
  };
  // GitHub code scanning shows `help` on the alert page (its ingestion rule GH2012 asks for it); plain
  // text only, because rule text may come from a model and must not become live Markdown there
  const helpLines = [nonEmpty(meta.message, nonEmpty(meta.title, meta.id))];
  if (meta.cwe !== null) helpLines.push(`Weakness: ${meta.cwe}.`);
  rule.help = { text: helpLines.join('\n\n') };
  if (meta.helpUri !== undefined) rule.helpUri = meta.helpUri;
  rule.defaultConfiguration = { level: LEVEL[meta.severity] };
  rule.properties = properties;
  return rule;
}

function sarifResult(f: Finding, ruleIndex: number): Record<string, unknown> {
  // SARIF lines start at 1; a file-level finding (line 0) is placed on line 1
  const startLine = Math.max(1, f.line);
  const region: Record<string, unknown> = { startLine, endLine: Math.max(startLine, f.end_line) };
  if (f.evidence.length > 0) region.snippet = { text: f.evidence };
  const properties: Record<string, unknown> = { id: f.id, source: f.source, severity: f.severity, confidence: f.confidence };
  if (f.cwe !== null) properties.cwe = f.cwe;
  const also = f.extra?.also_reported_by;
  if (also !== undefined) properties.also_reported_by = also;
  return {
    ruleId: f.rule,
    ruleIndex,
    level: LEVEL[f.severity],
    message: { text: nonEmpty(f.message, nonEmpty(f.title, f.rule)) },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: pathToUri(f.path), uriBaseId: '%SRCROOT%' },
          region,
        },
      },
    ],
    partialFingerprints: { [FINGERPRINT_KEY]: f.fingerprint, [FINGERPRINT_V1_KEY]: f.fingerprint_v1 },
    ...(f.flow !== undefined && f.flow.length > 0 ? { codeFlows: [codeFlow(f.flow)] } : {}),
    properties,
  };
}

/** A finding's path as one SARIF code flow of one thread, source first. */
function codeFlow(flow: readonly FlowStep[]): Record<string, unknown> {
  return {
    threadFlows: [
      {
        locations: flow.map((step) => ({
          location: {
            physicalLocation: { artifactLocation: { uri: pathToUri(step.path), uriBaseId: '%SRCROOT%' }, region: { startLine: Math.max(1, step.line) } },
            message: { text: nonEmpty(step.message, 'step') },
          },
        })),
      },
    ],
  };
}

/** The SARIF log as plain data. */
export function reportToSarif(report: ReviewReport, opts: RenderOptions): Record<string, unknown> {
  const rules = rulesFor(report.findings, opts.rules ?? []);
  const index = new Map(rules.map((rule, i) => [rule.id, i]));
  const notifications = report.incomplete_reasons.map((reason) => ({ level: 'error', message: { text: nonEmpty(reason, 'incomplete') } }));
  const invocation: Record<string, unknown> = { executionSuccessful: report.complete };
  if (notifications.length > 0) invocation.toolExecutionNotifications = notifications;
  return {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'jscr',
            version: report.tool.version,
            informationUri: JSCR_INFORMATION_URI,
            rules: rules.map(sarifRule),
          },
        },
        invocations: [invocation],
        originalUriBaseIds: { '%SRCROOT%': { description: { text: 'The root of the reviewed repository.' } } },
        results: report.findings.map((f) => sarifResult(f, index.get(f.rule) ?? 0)),
        columnKind: 'utf16CodeUnits',
        properties: {
          change: { kind: report.change.kind, range: report.change.range },
          complete: report.complete,
          incomplete_reasons: [...report.incomplete_reasons],
          limits_reached: [...report.limits_reached],
        },
      },
    ],
  };
}

/** SARIF 2.1.0 text: 2-space indent, trailing newline. */
export function renderSarif(report: ReviewReport, opts: RenderOptions): string {
  return `${escapeJsonText(JSON.stringify(reportToSarif(report, opts), null, 2))}\n`;
}
