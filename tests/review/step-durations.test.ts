/**
 * Step durations: `steps[].duration_ms` in the JSON report, and in CI one stderr line per step.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { stepLine, wantsStepLines } from '../../src/report/progress.js';
import type { StepRecord } from '../../src/report/finding.js';
import { StepLog } from '../../src/review/step-log.js';
import { makeRepo, runJscr } from '../helpers/repo.js';

describe('StepLog durations', () => {
  it('times each step from the previous record, or takes the duration it is given', () => {
    let clock = 1000;
    const log = new StepLog(600, () => {}, () => clock);
    const seen: StepRecord[] = [];
    log.onRecord((record) => seen.push(record));
    clock += 40;
    log.record('syntax', 'ran', 'parsed');
    clock += 7;
    log.incomplete('scanners', 'not_run', 'bandit missing');
    log.record('read_change', 'ran', 'measured by the caller', 123);
    clock += 2;
    log.record('report', 'ran', '');
    expect(log.records.map((r) => [r.name, r.duration_ms])).toEqual([
      ['syntax', 40],
      ['scanners', 7],
      ['read_change', 123],
      ['report', 2],
    ]);
    expect(seen).toEqual(log.records);
  });
});

describe('CI step lines', () => {
  it.each([
    [{ CI: 'true' }, false, false, true],
    [{ CI: '1' }, false, false, true],
    [{ CI: 'true' }, true, false, false],
    [{ CI: 'true' }, false, true, false],
    [{ CI: 'false' }, false, false, false],
    [{}, false, false, false],
  ])('env %j, terminal %s, quiet %s: lines %s', (env, isTTY, quiet, expected) => {
    expect(wantsStepLines({ env, isTTY, quiet })).toBe(expected);
  });

  it('is one line naming the step, its status and duration', () => {
    expect(stepLine({ name: 'rules', status: 'ran', detail: 'x\ny', duration_ms: 12 })).toBe('jscr: step rules ran in 12 ms\n');
  });
});

describe('jscr review: durations end to end', () => {
  const r = makeRepo({ 'a.py': 'print(1)\n' });
  r.commit({ 'b.py': 'import subprocess\nsubprocess.run(cmd, shell=True)\n' });
  afterAll(() => r.cleanup());

  it('gives every step of the JSON report a duration and prints one stderr line per step in CI', async () => {
    const run = await runJscr(['review', '--range', 'HEAD~1..HEAD', '--format', 'json'], { cwd: r.root, env: { CI: 'true' } });
    expect(run.code).toBe(1);
    const steps = (JSON.parse(run.stdout) as { steps: StepRecord[] }).steps;
    for (const step of steps) expect(Number.isInteger(step.duration_ms) && (step.duration_ms ?? -1) >= 0).toBe(true);
    const lines = run.stderr.split('\n').filter((line) => line.startsWith('jscr: step '));
    expect(lines).toEqual(steps.map((s) => `jscr: step ${s.name} ${s.status} in ${s.duration_ms} ms`));
  });

  it('prints no step lines with --quiet, or outside CI', async () => {
    const quiet = await runJscr(['review', '--range', 'HEAD~1..HEAD', '--quiet'], { cwd: r.root, env: { CI: 'true' } });
    expect(quiet.stderr).not.toContain('jscr: step ');
    const local = await runJscr(['review', '--range', 'HEAD~1..HEAD'], { cwd: r.root, env: { CI: '' } });
    expect(local.stderr).not.toContain('jscr: step ');
  });
});
