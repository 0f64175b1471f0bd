/**
 * A hostile model provider (a real HTTP server on 127.0.0.1) answering `jscr review`: what it answers
 * may add findings, never remove or hide the deterministic ones, never end a review 0 that should be
 * 1 or 3, and never stall the review past its deadline.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runJscr, type CliRun } from '../helpers/cli.js';
import { reposRemovedAfterEach } from '../helpers/repo.js';
import { API_KEY, API_KEY_ENV, ROUTE_LINES, SQL_LINE, configFor, configTomlFor, modelFinding, runSteps, step } from '../model/material.js';
import { startServer, type ScriptedServer } from '../model/server.js';
import { exitCodeFor } from '../../src/report/exit.js';
import { makeFinding } from '../../src/report/fingerprint.js';
import type { Severity } from '../../src/report/finding.js';
import { orderFindings } from '../../src/report/order.js';

interface Report {
  findings: { rule: string; source: string; path: string; line: number; severity: string }[];
  steps: { name: string; status: string; detail: string }[];
  complete: boolean;
}

let server: ScriptedServer;
beforeEach(async () => void (server = await startServer()));
afterEach(() => server.close());
const newRepo = reposRemovedAfterEach();

/** HEAD adds the route handler (lines 6-9); the rule flags the SQL line (7). */
function reviewChange(extraToml = ''): Promise<CliRun> {
  const repo = newRepo({ '.jscr.toml': configTomlFor(server) + extraToml, 'src/routes/user.js': [...ROUTE_LINES.slice(0, 5), ...ROUTE_LINES.slice(9)].join('\n') + '\n' });
  repo.commit({ 'src/routes/user.js': `${ROUTE_LINES.join('\n')}\n` }, 'add the route');
  return runJscr(['review', '--range', 'HEAD~1..HEAD', '--format', 'json'], repo.root, { [API_KEY_ENV]: API_KEY });
}

/** A critical model finding quoting one added line, with a CWE of its own so it merges into nothing. */
const criticalOn = (line: number): Record<string, unknown> =>
  modelFinding({ title: `Critical ${line}`, severity: 'critical', line, evidence: ROUTE_LINES[line - 1] ?? '', cwe: 'CWE-94' });

describe('a provider flooding the report', () => {
  it('cannot push a rule finding out of the report by filling review.max_findings with its own', async () => {
    server.review = [{ findings: [6, 8, 9].map(criticalOn) }];
    const run = await reviewChange('[review]\nmax_findings = 3\n');
    const report = JSON.parse(run.stdout) as Report;
    expect(run.code).toBe(1);
    expect(report.findings.some((f) => f.source === 'rule' && f.line === SQL_LINE)).toBe(true);
    expect(report.findings).toHaveLength(3);
  });
});

describe('truncation at review.max_findings', () => {
  const at = (source: 'rule' | 'model', severity: Severity, line: number) =>
    makeFinding({ rule: `jscr/${source}-${line}`, source, severity, confidence: 1, path: 'a.js', line, end_line: line, title: 't', message: 'm', evidence: `line ${line}`, cwe: null });

  it('cuts model findings before deterministic ones, yet keeps the most severe finding, so the exit code is what it was', () => {
    const findings = [at('rule', 'info', 1), at('rule', 'info', 2), at('model', 'critical', 3), at('model', 'critical', 4)];
    const kept = orderFindings(findings, { minConfidence: 0, maxFindings: 2 }).findings;
    expect(kept.map((f) => `${f.source}:${f.line}`)).toEqual(['model:3', 'rule:1']);
    const everything = orderFindings(findings, { minConfidence: 0, maxFindings: 10 }).findings;
    expect(exitCodeFor({ complete: true, findings: kept }, 'high')).toBe(exitCodeFor({ complete: true, findings: everything }, 'high'));
  });
});

describe('a provider answering what is not an answer', () => {
  it('a redirect to another host is not followed: one request, the review incomplete (exit 3)', async () => {
    server.review = [{ status: 307, headers: { location: 'http://127.0.0.2:9/v1/chat/completions' }, body: '' }];
    const run = await reviewChange();
    expect(run.code).toBe(3);
    expect(server.requests.filter((r) => r.kind === 'findings')).toHaveLength(1);
    expect((JSON.parse(run.stdout) as Report).steps.find((s) => s.name === 'model')?.status).toBe('failed');
  });

  it('a reply over the size bound fails the model step (exit 3), never read as no findings', async () => {
    server.review = [{ status: 200, headers: { 'content-type': 'application/json' }, body: `{"pad":"${'a'.repeat(17 * 1024 * 1024)}"}` }];
    const run = await reviewChange();
    expect(run.code).toBe(3);
    expect((JSON.parse(run.stdout) as Report).steps.find((s) => s.name === 'model')?.detail).toContain('larger than');
  });

  it('evidence of one line of 300,000 blanks is rejected in linear time, not after the deadline', async () => {
    server.review = [{ findings: [modelFinding({ evidence: `${' '.repeat(300_000)}x` })] }];
    const started = Date.now();
    const { outcome } = await runSteps(configFor(server, { verify: false }));
    expect(Date.now() - started).toBeLessThan(3000);
    expect(outcome.rejected).toHaveLength(1);
    expect(step(outcome, 'model').status).toBe('ran');
  });
});
