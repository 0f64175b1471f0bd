/**
 * Per-function work in data flow is bounded by a count of work units, not by time: a function too
 * long for its budget is named in the report (JSON and text) as not fully analysed, on any machine and
 * under any load, and the pattern rules still report inside it, since flow did not have the last word there.
 */
import { describe, expect, it } from 'vitest';
import { reposRemovedAfterEach, runJscr } from '../helpers/repo.js';

const repo = reposRemovedAfterEach();

/** One handler of `count` chained string steps from request data to a shell command. */
function longHandler(count: number): string {
  const steps = Array.from({ length: count }, (_, i) => `    v${i + 1} = v${i} + "x"`);
  return ['from flask import request', 'import os', '', 'def build():', '    v0 = request.args.get("q")', ...steps, `    os.system(v${count})`, ''].join('\n');
}

describe('a function past its data-flow budget', () => {
  it('is named as not fully analysed, in JSON and in text, and the pattern rule still reports its sink', async () => {
    const r = repo({ 'app.py': 'x = 1\n' });
    r.commit({ 'app.py': longHandler(16_000) });
    const args = ['review', '--no-model', '--range', 'HEAD~1..HEAD'];
    const json = await runJscr([...args, '--format', 'json'], { cwd: r.root, timeoutMs: 180_000 });
    expect(json.code, json.stderr).toBe(1);
    const report = JSON.parse(json.stdout) as { limits_reached: string[]; findings: { source: string; line: number }[]; complete: boolean };
    const named = /^flow: app\.py: build at line 4 \(more than 60000 steps\) not fully analysed$/;
    expect(report.limits_reached.filter((l) => named.test(l))).toHaveLength(1);
    expect(report.findings.filter((f) => f.source === 'rule' && f.line === 16_006)).not.toEqual([]);
    const text = await runJscr([...args, '--format', 'text'], { cwd: r.root, timeoutMs: 180_000 });
    expect(text.stdout).toMatch(/flow: app\.py: build at line 4 \(more than 60000 steps\) not fully analysed/);
  }, 240_000);
});
