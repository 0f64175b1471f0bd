/** A prover finding's trace (src/prover/trace.ts) as text lines and as a mermaid flowchart. */
import type { FlowStep, TraceStep } from './finding.js';

/** The trace one component per line (`  entry      path:line text`), for the text formats. */
export function traceLines(trace: readonly TraceStep[]): string[] {
  const label: Record<TraceStep['step'], string> = { entry: 'entry', call: 'call', removed_check: 'removed', operation: 'operation', checks_seen: 'checks', would_discharge: 'missing' };
  return trace.map((t) => `${label[t.step].padEnd(9)} ${t.path === null ? '' : `${t.path}:${t.line ?? ''} `}${t.text}`);
}

/** A mermaid label: only plain characters stay, everything else becomes an entity code, so repository text cannot end the label, the node or the fence. */
function mermaidLabel(text: string): string {
  let out = '';
  for (const ch of text.length > 160 ? `${text.slice(0, 159)}…` : text) out += /[A-Za-z0-9 _.,:/()=+\-]/.test(ch) ? ch : `#${ch.codePointAt(0) ?? 63};`;
  return out;
}

/** A finding's path (flow steps, source first) as a mermaid flowchart, top to bottom. */
export function mermaidFlow(steps: readonly FlowStep[]): string[] {
  const lines = ['```mermaid', 'flowchart TD'];
  steps.forEach((step, i) => {
    lines.push(`  s${i}["${mermaidLabel(`${step.path}:${step.line} ${step.message}`)}"]`);
    if (i > 0) lines.push(`  s${i - 1} --> s${i}`);
  });
  lines.push('```');
  return lines;
}
