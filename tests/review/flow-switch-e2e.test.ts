/**
 * `JSCR_FLOW=off` reviews as jscr did before data flow (what bench/review.ts measures flow's cost
 * against): no flow step and no flow findings, and the review stays complete. Without it, flow runs.
 */
import { describe, expect, it } from 'vitest';
import { reposRemovedAfterEach, runJscr } from '../helpers/repo.js';

const repo = reposRemovedAfterEach();

interface Report {
  findings: { source: string; cwe: string | null; line: number }[];
  steps: { name: string; status: string; detail: string }[];
  complete: boolean;
}

const view = (query: string) =>
  ['from flask import Flask, request', 'import sqlite3', 'app = Flask(__name__)', '', '@app.route("/s")', 'def search():', '    cur = sqlite3.connect("a.db").cursor()', '    term = request.args.get("q")', '    copied = term.strip()', `    ${query}`, '    return "ok"', ''].join('\n');

async function review(env: NodeJS.ProcessEnv): Promise<Report> {
  const r = repo({ 'app.py': view('cur.execute("SELECT 1")') });
  r.commit({ 'app.py': view('cur.execute("SELECT * FROM t WHERE k = " + copied)') });
  const out = await runJscr(['review', '--no-model', '--range', 'HEAD~1..HEAD', '--format', 'json'], { cwd: r.root, env, timeoutMs: 120_000 });
  expect(out.code, out.stderr).toBeLessThan(2);
  return JSON.parse(out.stdout) as Report;
}

describe('the data-flow switch', () => {
  it('runs data flow by default: the flow through locals is reported at the sink', async () => {
    const report = await review({ JSCR_FLOW: undefined });
    expect(report.steps.find((s) => s.name === 'flow')?.status).toBe('ran');
    expect(report.findings.filter((f) => f.source === 'flow').map((f) => [f.cwe, f.line])).toEqual([['CWE-89', 10]]);
  }, 120_000);

  it.each(['off', 'OFF', '0', 'false'])('JSCR_FLOW=%s skips the step, reports no flow finding, and the review is still complete', async (value) => {
    const report = await review({ JSCR_FLOW: value });
    expect(report.steps.find((s) => s.name === 'flow')).toMatchObject({ status: 'skipped', detail: 'data flow switched off (JSCR_FLOW=off)' });
    expect(report.findings.filter((f) => f.source === 'flow')).toEqual([]);
    expect(report.complete).toBe(true);
  }, 120_000);

  it('any other value leaves data flow on', async () => {
    const report = await review({ JSCR_FLOW: 'yes' });
    expect(report.findings.filter((f) => f.source === 'flow')).toHaveLength(1);
  }, 120_000);
});
