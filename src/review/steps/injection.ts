/**
 * Step 6: text in the change addressed to a reviewer or a model (prompt injection) becomes a finding;
 * it is reported, never obeyed.
 */
import { addedLines } from '../../git/diff.js';
import { unfinishedDetail } from '../deadline.js';
import { scanInjection } from '../injection.js';
import type { ReadFiles } from './read-files.js';
import { ranUnless, result, type ReviewStep } from './step.js';

export const injectionStep: ReviewStep<'injection', { read_files: ReadFiles }, null> = {
  name: 'injection',
  run: async ({ read_files }, { deadline }) => {
    const scan = scanInjection(
      read_files.readable.map((f) => ({ path: f.diff.path, addedLines: addedLines(f.diff) })),
      deadline,
    );
    const unfinished = scan.unfinished.length > 0 ? unfinishedDetail('the injection check', scan.unfinished) : null;
    return result(ranUnless(unfinished, `${scan.findings.length} attempt(s) found`), null, scan.findings);
  },
  notRun: () => null,
};
