/**
 * A pattern rule's finding weighed by what data flow saw reach the sink on its line
 * (docs/adr/0022-pattern-findings-weighed-by-flow-evidence.md, amending ADR 0021): the action
 * rules/calibration/pattern-by-flow.toml gives for the sink's family and the value's origin. Where flow
 * saw no sink of that family on the line, ADR 0021's rule decides as before.
 */
import { SINK_ORIGINS, type SinkEvidence, type SinkOrigin } from '../../flow/index.js';
import type { Finding } from '../../report/finding.js';
import { builtinCalibration, type CalibrationTable } from '../../rules/flow-calibration.js';
import { supersededByFlow, type FlowRun } from './flow.js';

function strongest(evidence: readonly SinkEvidence[]): SinkOrigin {
  return evidence.reduce<SinkOrigin>((best, e) => (SINK_ORIGINS.indexOf(e.origin) > SINK_ORIGINS.indexOf(best) ? e.origin : best), 'own');
}

/** "... comes from parameter `a` of `run`. Check what the callers of `run` pass." */
function noInputSeen(names: readonly string[]): string {
  const shown = names.slice(0, 3).join(', ');
  const checks = [
    ...(names.some((n) => n.startsWith('parameter ')) ? ['what the callers of the function pass'] : []),
    ...(names.some((n) => n.startsWith('field ')) ? ['where the field is set'] : []),
    ...(names.some((n) => n.endsWith('set outside this file')) ? ['where that name is set'] : []),
  ];
  const from = shown === '' ? '' : ` The value comes from ${shown}${names.length > 3 ? ' and more' : ''}.`;
  return `Data flow saw no outside input reach this in the file.${from} Check ${checks.length > 0 ? checks.join(' and ') : 'where the value comes from'}; if none of it can come from a user, this is safe.`;
}

/** The pattern finding as the report shows it, or null when flow shows it is nothing to act on. */
export function weighByFlow(flow: FlowRun, finding: Finding, table: CalibrationTable = builtinCalibration()): Finding | null {
  if (finding.source !== 'rule') return finding;
  const family = finding.cwe === null ? undefined : table.get(finding.cwe);
  const atLine = (e: SinkEvidence) => e.lines.some((line) => line >= finding.line && line <= finding.end_line);
  const seen = family === undefined ? [] : (flow.evidence.get(finding.path) ?? []).filter((e) => family.cwes.has(e.cwe) && atLine(e));
  const origin = strongest(seen);
  if (family === undefined || seen.length === 0 || origin === 'outside') return supersededByFlow(flow, finding) ? null : finding;
  // Input flow does not follow to the sink (the command line, a callback's arguments): as before.
  if (origin === 'untracked') return finding;
  switch (family.actions[origin]) {
    case 'drop':
      return null;
    case 'keep':
      return finding;
    case 'low':
      return { ...finding, severity: 'low', message: `${noInputSeen([...new Set(seen.flatMap((e) => e.names))])} ${finding.message}` };
  }
}
