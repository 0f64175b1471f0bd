/**
 * A data-flow finding of the engine (row id, sink, path) as the review's Finding: the row's report
 * metadata, the sink line as evidence, a sentence that tells the path, and the path itself as
 * `flow` (JSON `flow`, SARIF `codeFlows`).
 */
import type { FlowFinding, PathStep } from '../flow/index.js';
import type { Finding, FlowStep } from '../report/finding.js';
import { makeFinding } from '../report/fingerprint.js';
import type { RuleMeta } from '../report/options.js';
import { flowRuleId, loadBuiltinFlowRows, type FlowReportMeta } from '../rules/flow-load.js';


function quote(text: string): string {
  return `\`${text.replace(/`/g, "'")}\``;
}

/** "`bar` from `request.getParameter("x")` at line 12 reaches `executeQuery(sql)` at line 31 through `sql`, built at line 20." */
export function describePath(path: readonly PathStep[]): string {
  const source = path.find((s) => s.role === 'source');
  const sink = path[path.length - 1];
  if (source === undefined || sink === undefined || sink.role !== 'sink') return '';
  const steps = path.filter((s) => s.role === 'step');
  const first = steps[0];
  const last = steps[steps.length - 1];
  const from = first !== undefined && /^[\w$.]+$/.test(first.text) ? `${quote(first.text)} from ` : '';
  const through = last !== undefined && last !== first ? ` through ${quote(last.text)}, built at line ${last.line}` : '';
  return `${from}${quote(source.text)} at line ${source.line} reaches ${quote(sink.text)} at line ${sink.line}${through}.`;
}

function stepMessage(step: PathStep): string {
  if (step.role === 'source') return `outside data enters: ${step.text}`;
  if (step.role === 'sink') return `used here: ${step.text}`;
  return `flows into ${step.text}`;
}

export interface FlowFindingInput {
  finding: FlowFinding;
  meta: FlowReportMeta;
  path: string;
  /** The line the finding is reported at (the sink, a changed call into a helper, or a removed check). */
  line: number;
  evidence: string;
  /** Said before the path when the finding is reported because the change removed a check. */
  removal: string | null;
}

export function toFlowFinding(input: FlowFindingInput): Finding {
  const { finding, meta } = input;
  const story = describePath(finding.path);
  const flow: FlowStep[] = finding.path.map((step) => ({ path: input.path, line: step.line, message: stepMessage(step), role: step.role, text: step.text }));
  const message = [input.removal, story, meta.message].filter((part) => part !== null && part !== '').join(' ');
  return makeFinding({
    rule: flowRuleId(meta.id),
    source: 'flow',
    severity: meta.severity,
    confidence: meta.confidence,
    path: input.path,
    line: input.line,
    end_line: input.line,
    title: meta.title,
    message,
    evidence: input.evidence,
    cwe: meta.cwe,
    flow,
    ...(meta.aliases.length > 0 ? { extra: { aliases: [...meta.aliases] } } : {}),
  });
}

/** The data-flow rows' rule metadata, for renderers such as SARIF. */
export function flowRuleMeta(): RuleMeta[] {
  return [...loadBuiltinFlowRows().meta.values()].map((m) => ({ id: flowRuleId(m.id), title: m.title, severity: m.severity, cwe: m.cwe, message: m.message }));
}
