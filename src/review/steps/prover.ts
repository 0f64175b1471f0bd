/**
 * Step 5c: the access-control prover as a built-in scanner over the change (`prover.enabled`), reusing
 * the syntax step's IRs. A file it could not read or prove makes the review incomplete.
 */
import { removedLines, touchedLines } from '../../git/diff.js';
import { incompleteDegradationLines } from '../../prover/degradation.js';
import { toReviewFinding } from '../../prover/render.js';
import { proveFromReader } from '../../prover/source.js';
import type { ReadFiles } from './read-files.js';
import { incomplete, ran, result, skipped, type ReviewStep } from './step.js';
import type { Syntax } from './syntax.js';

export const proverStep: ReviewStep<'prover', { read_files: ReadFiles; syntax: Syntax }, null> = {
  name: 'prover',
  run: async ({ read_files, syntax }, { change, deadline }) => {
    const settings = change.config.prover;
    if (!settings.enabled) return result(skipped('prover.enabled is false'), null);
    const touched = read_files.readable.map((f) => ({ path: f.diff.path, lines: touchedLines(f.diff), removed: removedLines(f.diff) }));
    const outcome = await proveFromReader({ root: change.root, reader: change.reader, touched, maxDepth: settings.max_depth, fanOut: settings.fan_out, irs: syntax.irs, deadline, scoped: settings.scope, declarations: { guards: settings.guards, public: settings.public }, exclude: change.config.review.exclude });
    const c = outcome.result.coverage;
    const bounds = outcome.selection?.bounds ?? [];
    const declared = outcome.result.declared;
    // Entries left out as public are said where the step reports (stale declarations are `prove`'s to list: a review reads a part of the repository).
    const publicNote = declared && declared.publicSkipped.length > 0 ? `, ${declared.publicSkipped.length} entry point(s) skipped as public ([prover] public)` : '';
    const detail = `${outcome.readDetail}, ${c.entryPoints} entry point(s), ${c.operationsChecked} operation(s) checked, ${outcome.result.findings.length} unguarded operation(s)${publicNote}`;
    const verdict = outcome.incomplete ? incomplete('failed', `${detail}; ${[...bounds, ...incompleteDegradationLines(outcome.result.degradations)].slice(0, 3).join('; ')}`) : ran(detail);
    return result(verdict, null, outcome.result.findings.map(toReviewFinding));
  },
  notRun: () => null,
};
