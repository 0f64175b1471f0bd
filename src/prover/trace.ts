/**
 * A prover finding's trace: the path from the entry to the operation as ordered components (entry,
 * each call on the way, the operation, the checks seen that do not cover it, what would discharge it).
 * One list feeds every format: one component per line in text, `trace` in JSON, SARIF `codeFlows`
 * (through the finding's flow steps) and a mermaid flowchart in markdown.
 */
import type { FlowStep, TraceStep } from '../report/finding.js';
import type { ProverFinding } from './types.js';

const MISSING_WORDS: Record<string, string> = {
  path_guard: 'permission or role check',
  ownership_check: 'check that the object belongs to the caller',
  authn: 'login check',
};

/** `path_guard|ownership_check` in words. */
export function missingInWords(missing: string): string {
  return missing
    .split('|')
    .map((k) => MISSING_WORDS[k] ?? k)
    .join(' or ');
}

/** The trace of a finding. */
export function traceOf(f: ProverFinding): TraceStep[] {
  const steps: TraceStep[] = [{ step: 'entry', path: f.entry.path, line: f.entry.line, text: `${f.entry.framework} entry point ${f.entry.function} (${f.entry.evidence})` }];
  // the first hop is the entry itself; each hop's call line is where it calls the next function
  for (const [i, hop] of f.hops.entries()) {
    const next = f.hops[i + 1]?.function ?? f.function;
    if (hop.function !== next) steps.push({ step: 'call', path: hop.path, line: hop.callLine, text: hop.relation ?? `${hop.function} calls ${next}` });
  }
  for (const removed of f.removedChecks ?? []) steps.push({ step: 'removed_check', path: removed.path, line: removed.line, text: `the change removed ${removed.text}` });
  steps.push({ step: 'operation', path: f.path, line: f.line, text: `${f.operation.kind.replace(/_/g, ' ')} ${f.operation.id}: ${f.operation.call}` });
  if (f.weakerChecks.length > 0) steps.push({ step: 'checks_seen', path: null, line: null, text: f.weakerChecks.join('; ') });
  // A read needs only a check of who may view the object; a write needs more than viewing.
  const strength = f.operation.kind === 'read' ? 'any attribute, viewing included' : 'with an attribute stronger than viewing';
  const bound = f.unboundResource ? ` bound to ${f.unboundResource.variable} (its subject names it, ${strength})` : '';
  steps.push({ step: 'would_discharge', path: null, line: null, text: `a ${missingInWords(f.missing)}${bound} before the operation, on every path from the entry` });
  return steps;
}

/** The located components as flow steps (JSON `flow`, SARIF `codeFlows`). */
export function traceFlow(f: ProverFinding): FlowStep[] {
  const missing = missingInWords(f.missing);
  return traceOf(f).flatMap((t): FlowStep[] => {
    if (t.path === null || t.line === null) return [];
    const message = t.step === 'operation' ? `${f.operation.kind.replace(/_/g, ' ')} ${f.operation.call} with no ${missing} before it` : t.step === 'entry' ? `${f.entry.framework} entry point ${f.entry.function}` : t.text;
    return [{ path: t.path, line: t.line, message }];
  });
}
