/**
 * The hand-written held-out cases (fixtures/flow-heldout/): their layout, that every case parses in
 * its language, and a floor under their score with data flow. Their first score, taken before the
 * engine was changed for them, is the honest estimate recorded in docs/flow.md; the floor here only
 * keeps later work from losing what the fixes for them won.
 */
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HELDOUT_ROOT, makeCorpusRepository, readCorpus, scoreFindings, type CorpusReport } from '../../bench/flow-score.js';
import { casesWithSyntaxErrors } from './cases-parse.js';
import { runJscr } from '../helpers/cli.js';

const heldout = readCorpus(HELDOUT_ROOT);

describe('the held-out cases', () => {
  it('follow the corpus layout, in every main language, with both labels in every family', () => {
    expect(heldout.problems).toEqual([]);
    expect(heldout.cases.length).toBeGreaterThanOrEqual(600);
    for (const language of ['python', 'java', 'javascript', 'typescript', 'php']) {
      expect(heldout.cases.filter((c) => c.language === language).length, language).toBeGreaterThan(40);
    }
    for (const family of heldout.families) {
      const labels = new Set(heldout.cases.filter((c) => c.family === family.id).map((c) => c.label));
      expect([...labels].sort(), family.id).toEqual(['safe', 'vulnerable']);
    }
  });

  it('parse without a syntax error in their language', async () => {
    expect(await casesWithSyntaxErrors(HELDOUT_ROOT, heldout.cases)).toEqual([]);
  });

  it('score at least 0.8 over families with data flow', async () => {
    const { dir, repo, config } = makeCorpusRepository(HELDOUT_ROOT);
    try {
      const run = await runJscr(['review', '--repo', repo, '--commit', 'HEAD', '--no-model', '--format', 'json', '--config', config], repo, {}, { timeoutMs: 900_000 });
      const report = JSON.parse(run.stdout) as CorpusReport;
      expect(report.complete).toBe(true);
      const scores = scoreFindings(heldout, report.findings);
      expect(scores.average).toBeGreaterThanOrEqual(0.8);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 900_000);
});
