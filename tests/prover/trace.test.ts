/**
 * A prover finding's trace: the ordered path (entry, each call, the operation, the checks seen that
 * do not cover it, what would discharge it), one component per line in text, `trace` in JSON, SARIF
 * `codeFlows`, and a mermaid flowchart in markdown whose labels repository text cannot break out of.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';
import { proveJson, proveText, toReviewFinding, type ProveRunInfo } from '../../src/prover/render.js';
import type { ReviewReport } from '../../src/report/finding.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { cleanReport } from '../report/sample-reports.js';

const ROUTE = 'app/routes/notes.$id.tsx';
const files = (guard: string): Record<string, string> => ({
  [ROUTE]: `import { removeNote } from '~/models/note.server'
import { requireUserId } from '~/utils/session.server'

export async function action({ request, params }: { request: Request; params: { id: string } }) {
${guard}
  await removeNote(params.id)
  return null
}
`,
  'app/models/note.server.ts': `import { prisma } from '~/utils/db.server'

export async function removeNote(id: string) {
  await prisma.user.update({ where: { id }, data: { role: 'ADMIN' } })
}
`,
});

async function prove(guard: string) {
  const result = await proveChange({ root: '/repo', files: Object.entries(files(guard)).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.findings).toHaveLength(1);
  return result;
}

const RUN: ProveRunInfo = { mode: 'repository', range: 'HEAD', exitCode: 1, notProven: null };

describe('prover traces', () => {
  it('orders entry, call, operation and what would discharge it, in JSON and one per line in text', async () => {
    const result = await prove('');
    const json = JSON.parse(proveJson(result, RUN)) as { findings: { trace: { step: string; path: string | null; line: number | null; text: string }[] }[] };
    const trace = json.findings[0]?.trace ?? [];
    expect(trace.map((t) => t.step)).toEqual(['entry', 'call', 'operation', 'would_discharge']);
    expect(trace[0]).toMatchObject({ path: ROUTE, line: 4 });
    expect(trace[1]).toMatchObject({ path: ROUTE, line: 6, text: 'action calls removeNote' });
    expect(trace[2]).toMatchObject({ path: 'app/models/note.server.ts', line: 4 });
    expect(trace[3]?.text).toMatch(/^a permission or role check before the operation/);
    const text = proveText(result, RUN).split('\n');
    const at = text.findIndex((l) => l.startsWith('1. '));
    expect(text.slice(at + 1, at + 5).map((l) => l.trim().split(/\s+/)[0])).toEqual(['entry', 'call', 'operation', 'missing']);
  });

  it('names the checks seen that do not cover the operation', async () => {
    const result = await prove('  await requireUserId(request)');
    const trace = JSON.parse(proveJson(result, RUN)).findings[0].trace as { step: string; text: string }[];
    expect(trace.map((t) => t.step)).toEqual(['entry', 'call', 'operation', 'checks_seen', 'would_discharge']);
    expect(trace[3]?.text).toMatch(/requireUserId/);
  });

  it('draws the path in markdown as mermaid, with repository text entity-coded', async () => {
    const result = await prove('');
    const finding = toReviewFinding(result.findings[0]!);
    const hostile = { ...finding, flow: [...(finding.flow ?? []), { path: 'x```"]\nclick s0 "javascript:alert(1)"', line: 1, message: '<img src=x onerror=alert(1)>' }] };
    const report: ReviewReport = { ...cleanReport(), findings: [hostile] };
    const md = renderMarkdown(report, { color: false });
    const block = md.slice(md.indexOf('```mermaid'), md.indexOf('```', md.indexOf('```mermaid') + 10) + 3);
    expect(block.split('\n').slice(0, 2)).toEqual(['```mermaid', 'flowchart TD']);
    expect(block).toContain('s0 --> s1');
    const body = block.slice('```mermaid'.length, -3);
    // every line is a node with a plain label or an edge: nothing the repository wrote makes another statement
    for (const line of body.split('\n').filter((l) => l !== '')) expect(line).toMatch(/^flowchart TD$|^ {2}s\d+\["[^"`<>\n]*"\]$|^ {2}s\d+ --> s\d+$/);
    expect(body).toContain('#96;#96;#96;');
  });
});
