/**
 * Steps 8-10: ask the model, anchor what it says, verify what survives (the work is in model-calls.ts,
 * loaded only when a model will be asked, so the HTTP client is not part of every review's start-up).
 * A model finding on a line the change did not touch is not this change's, as for the rules.
 */
import { InternalError } from '../../errors.js';
import { touchesChangedLines } from '../../git/diff.js';
import type { Finding, RejectedFinding } from '../../report/finding.js';
import type { ReadFiles } from './read-files.js';
import type { Redaction } from './redaction.js';
import { incomplete, skipped, type NamedVerdict, type ReviewStep, type StepResult, type StepVerdict } from './step.js';

export interface ModelReview {
  /** Model findings refused: not anchored, rejected by the verifier, or outside the reviewed scope. */
  rejected: RejectedFinding[];
  /** Token usage as the provider reported it; null when no model was asked. */
  usage: { calls: number; input_tokens: number; output_tokens: number } | null;
}

type ModelInput = { read_files: ReadFiles; redaction: Redaction | null; findings: readonly Finding[] };

function notAsked(): ModelReview {
  return { rejected: [], usage: null };
}

export const modelStep: ReviewStep<'model', ModelInput, ModelReview> = {
  name: 'model',
  settle: ({ redaction }, { change, modelConfigured }) => {
    if (!modelConfigured) {
      const why = change.config.model.provider === 'none' ? 'no model configured (model.provider = "none")' : 'disabled by --no-model';
      return { ...skipped(why), output: notAsked(), findings: [], followedBy: [named('anchor', skipped('no model findings to anchor')), named('verify', skipped('no model findings to verify'))] };
    }
    if (redaction === null) return { ...incomplete('not_run', 'the redaction step did not run, so nothing may be sent'), output: notAsked(), findings: [] };
    return null;
  },
  run: async ({ read_files, redaction, findings }, run): Promise<StepResult<ModelReview>> => {
    if (redaction === null) throw new InternalError('the model step ran without the redaction step'); // settle() answers first
    const out = await (await import('./model-calls.js')).runModelSteps({
      config: run.change.config,
      env: run.env,
      redaction: redaction.outcome,
      book: run.book,
      segments: redaction.segments,
      deterministicFindings: findings,
      remainingMs: run.deadline.remainingMs(),
      stderr: run.diagnostics,
    });
    const wholeFiles = run.change.config.review.scope === 'changed-files';
    const kept: Finding[] = [];
    const outOfScope: RejectedFinding[] = [];
    for (const finding of out.findings) {
      const file = read_files.readableByPath.get(finding.path);
      if (file !== undefined && (wholeFiles || touchesChangedLines(file.diff, finding.line, finding.end_line))) kept.push(finding);
      else outOfScope.push({ finding, reason: 'outside the reviewed scope (not on a changed line)' });
    }
    const [own, anchor, verify] = out.steps;
    return { status: own.status, detail: own.detail, incomplete: own.incomplete, output: { rejected: [...outOfScope, ...out.rejected], usage: out.usage }, findings: kept, followedBy: [anchor, verify] };
  },
  notRun: notAsked,
};

function named(name: string, verdict: StepVerdict): NamedVerdict {
  return { name, ...verdict };
}
