/**
 * The review pipeline as a list: its steps in SPEC order, and every one of them in the report, in that
 * order, whatever happened (a file not read, a deadline passed before any step started).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { review } from '../../../src/review/engine.js';
import { StepLog } from '../../../src/review/step-log.js';
import { contextStep } from '../../../src/review/steps/context.js';
import { REVIEW_STEPS, type PipelineSeed } from '../../../src/review/steps/index.js';
import { openChangeStep } from '../../../src/review/steps/open-change.js';
import { readFilesStep } from '../../../src/review/steps/read-files.js';
import { StepList } from '../../../src/review/steps/step.js';
import { syntaxStep } from '../../../src/review/steps/syntax.js';
import { makeRepo } from '../../helpers/repo.js';

/** SPEC order (docs/architecture.md): the steps the engine runs, one module each. */
const STEP_MODULES = ['boundary', 'read_files', 'syntax', 'profile', 'context', 'rules', 'flow', 'scanners', 'prover', 'injection', 'redaction', 'model', 'report'];

/** The report's records: each step's own, with the records some steps are followed by in their place. */
const RECORDS = ['boundary', 'read_change', 'parse_diff', 'read_files', 'syntax', 'profile', 'context', 'rules', 'flow', 'scanners', 'prover', 'injection', 'redaction', 'model', 'anchor', 'verify', 'report'];

describe('the review step list', () => {
  it('is in SPEC order', () => {
    expect([openChangeStep.name, ...REVIEW_STEPS.steps.map((step) => step.name)]).toEqual(STEP_MODULES);
  });

  it('names each step once', () => {
    const names = REVIEW_STEPS.steps.map((step) => step.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('takes a step only after the steps whose outputs it reads (checked by tsc over the tests)', () => {
    const inOrder = StepList.startingWith<PipelineSeed>().then(readFilesStep).then(syntaxStep);
    // @ts-expect-error the context step reads the profile, which no earlier step produces
    const outOfOrder = inOrder.then(contextStep);
    expect(outOfOrder.steps.map((step) => step.name)).toEqual(['read_files', 'syntax', 'context']);
  });
});

describe('the step log', () => {
  it('records a result under the step name, then the records that follow it, each once, with the reasons of the incomplete ones', () => {
    let clock = 0;
    const log = new StepLog(600, () => {}, () => clock);
    clock += 5;
    log.recordResult('model', {
      status: 'failed',
      detail: 'the server answered 500',
      incomplete: true,
      followedBy: [
        { name: 'anchor', status: 'skipped', detail: 'no model reply to anchor', incomplete: false },
        { name: 'verify', status: 'not_run', detail: 'no time left', incomplete: true, durationMs: 9 },
      ],
    });
    expect(log.records).toEqual([
      { name: 'model', status: 'failed', detail: 'the server answered 500', duration_ms: 5 },
      { name: 'anchor', status: 'skipped', detail: 'no model reply to anchor', duration_ms: 0 },
      { name: 'verify', status: 'not_run', detail: 'no time left', duration_ms: 9 },
    ]);
    expect(log.incompleteReasons).toEqual(['model: the server answered 500', 'verify: no time left']);
  });
});

describe('every step of the list is in the report, in list order', () => {
  const repo = makeRepo({ 'README.md': 'base\n' });
  // a NUL byte in a code file: not reviewed, so read_files is listed too
  repo.commit({ 'app/run.py': 'import os\nos.system("rm -rf " + target)\n', 'app/blob.py': Buffer.from('x = 1\n\0\n') });
  const deadlineRepo = makeRepo({ '.jscr.toml': '[review]\ndeadline_s = 0.001\n', 'README.md': 'base\n' });
  deadlineRepo.commit({ 'app/run.py': 'import os\nos.system("rm -rf " + target)\n' });
  afterAll(() => {
    repo.cleanup();
    deadlineRepo.cleanup();
  });

  const reviewOf = (root: string) => review({ repoDir: root, change: { kind: 'range', range: 'HEAD~1..HEAD' }, useModel: false, env: process.env, today: '2026-01-01' });

  it('when a changed file could not be read', async () => {
    const { report } = await reviewOf(repo.root);
    expect(report.steps.map((s) => s.name)).toEqual(RECORDS);
    expect(report.steps.find((s) => s.name === 'read_files')).toMatchObject({ status: 'failed' });
    expect(report.incomplete_reasons).toEqual([expect.stringMatching(/^read_files: 1 changed file\(s\) not reviewed: app\/blob\.py \(binary/)]);
    expect(report.findings.map((f) => f.path)).toContain('app/run.py');
  });

  it('when the deadline passed before the first step: each is not_run, or skipped when it was never meant to run', async () => {
    const { report } = await reviewOf(deadlineRepo.root);
    expect(report.steps.map((s) => s.name)).toEqual(RECORDS.filter((name) => name !== 'read_files'));
    const status = Object.fromEntries(report.steps.map((s) => [s.name, s.status]));
    expect(status).toEqual({
      boundary: 'ran',
      read_change: 'ran',
      parse_diff: 'ran',
      syntax: 'not_run',
      profile: 'not_run',
      context: 'not_run',
      rules: 'not_run',
      flow: 'not_run',
      scanners: 'not_run',
      prover: 'not_run',
      injection: 'not_run',
      redaction: 'not_run',
      model: 'skipped',
      anchor: 'skipped',
      verify: 'skipped',
      report: 'ran',
    });
    expect(report.incomplete_reasons).toHaveLength(9);
    expect(report.exit_code).toBe(3);
  });
});
