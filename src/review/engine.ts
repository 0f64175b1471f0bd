/**
 * The review pipeline (seeds behaviour.md, SPEC 2 and 4): open the change, then run the list of steps
 * in src/review/steps/ in SPEC order. The engine records every step's result itself, once, and only it
 * decides completeness and the exit code.
 */
import { Writable } from 'node:stream';
import type { JscrConfig } from '../config/index.js';
import type { ChangeSpec } from '../git/change.js';
import { maskError, maskReport, SecretBook } from '../redact/index.js';
import type { ReviewReport, StepRecord } from '../report/finding.js';
import type { FailOn } from '../report/exit.js';
import type { RuleMeta } from '../report/options.js';
import { StepLog } from './step-log.js';
import { REVIEW_STEPS, type PipelineSeed } from './steps/index.js';
import { openChangeStep } from './steps/open-change.js';
import { reviewReport } from './steps/report.js';
import { incomplete, type AnyReviewStep, type StepList, type StepResult, type StepRun } from './steps/step.js';

export type { FailOn };

export interface ReviewRequest {
  /** Any directory inside the repository. */
  repoDir: string;
  change: ChangeSpec;
  /** `--config FILE`, overriding the base revision's `.jscr.toml`. */
  configPath?: string;
  /** `--fail-on`; defaults to `review.fail_on`. */
  failOn?: FailOn;
  /** False with `--no-model`. */
  useModel: boolean;
  env: NodeJS.ProcessEnv;
  /** Today as YYYY-MM-DD, for suppression expiry. */
  today: string;
  /** Called as each step starts (progress display). */
  onStep?: (name: string) => void;
  /** Called as each step's outcome is recorded, with its duration (the per-step lines in CI). */
  onStepRecorded?: (record: StepRecord) => void;
  /** Where one-line diagnostics go (the token estimate before a model call); none when absent. */
  diagnostics?: NodeJS.WritableStream;
}

export interface ReviewOutcome {
  report: ReviewReport;
  config: JscrConfig;
  /** Metadata of the built-in rules (titles, help) for renderers such as SARIF. */
  rules: RuleMeta[];
}

/** A review whose report and errors have passed the masking of every secret found (src/redact/mask.ts): the one choke point before any renderer. */
export async function review(request: ReviewRequest): Promise<ReviewOutcome> {
  const book = new SecretBook();
  try {
    const outcome = await runReview(request, book);
    return { ...outcome, report: maskReport(outcome.report, book) };
  } catch (error) {
    throw maskError(error, book);
  }
}

async function runReview(request: ReviewRequest, book: SecretBook): Promise<ReviewOutcome> {
  const startedAt = Date.now();
  const opening = await openChangeStep.run(request);
  const change = opening.output;
  // The deadline counts from the start of the run: reading and parsing a huge diff use it up too.
  const log = new StepLog(change.config.review.deadline_s - (Date.now() - startedAt) / 1000, request.onStep);
  if (request.onStepRecorded !== undefined) log.onRecord(request.onStepRecorded);
  log.recordResult(openChangeStep.name, opening);
  const run: StepRun = {
    change,
    deadline: log.deadline,
    book,
    env: request.env,
    today: request.today,
    modelConfigured: change.config.model.provider !== 'none' && request.useModel,
    diagnostics: request.diagnostics ?? nullStream(),
  };
  try {
    const outputs = await runSteps(REVIEW_STEPS, run, log);
    const report = reviewReport(outputs, change, log, { failOn: request.failOn ?? change.config.review.fail_on, configGiven: request.configPath !== undefined });
    return { report, config: change.config, rules: outputs.rules.ruleMeta };
  } finally {
    log.deadline.dispose();
  }
}

/** Run every step of the list in order, record each result, and pass each output on under its step's name. */
async function runSteps<Outputs extends PipelineSeed>(list: StepList<Outputs>, run: StepRun, log: StepLog): Promise<Outputs> {
  let outputs: Record<string, unknown> & PipelineSeed = { findings: [] };
  for (const step of list.steps) {
    const result = await runStep(step, outputs, run, log);
    if (step.listed !== 'when_incomplete' || result.incomplete) log.recordResult(step.name, result);
    outputs = { ...outputs, [step.name]: result.output, findings: [...outputs.findings, ...result.findings] };
  }
  return outputs as Outputs; // each step's output is there under its name, as StepList's type says
}

async function runStep(step: AnyReviewStep, outputs: unknown, run: StepRun, log: StepLog): Promise<StepResult<unknown>> {
  const input = outputs as never; // StepList checked, when the list was built, that each step's input is here
  const settled = step.settle?.(input, run) ?? null;
  if (settled !== null) return settled;
  if (step.timing === 'always') return step.run(input, run);
  if (run.deadline.expired()) return { ...incomplete('not_run', 'the review deadline (review.deadline_s) passed before this step'), output: step.notRun(), findings: [] };
  log.announce(step.name);
  return step.run(input, run);
}

/** A sink for diagnostics nobody asked to see. */
function nullStream(): NodeJS.WritableStream {
  return new Writable({ write: (_chunk, _encoding, done) => done() });
}
