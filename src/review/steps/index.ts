/**
 * The review pipeline after the change is opened (steps/open-change.ts), in SPEC order. Each step reads
 * the outputs of steps before it by their names; `StepList` makes the compiler check that order.
 */
import type { Finding } from '../../report/finding.js';
import { contextStep } from './context.js';
import { flowStep } from './flow.js';
import { injectionStep } from './injection.js';
import { modelStep } from './model.js';
import { profileStep } from './profile.js';
import { proverStep } from './prover.js';
import { readFilesStep } from './read-files.js';
import { materialRedactionStep } from './redaction.js';
import { reportStep } from './report.js';
import { rulesStep } from './rules.js';
import { scannersStep } from './scanners.js';
import { StepList } from './step.js';
import { syntaxStep } from './syntax.js';

/** What the engine gives the first step: every step's findings so far, joined in list order. */
export interface PipelineSeed {
  findings: readonly Finding[];
}

export const REVIEW_STEPS = StepList.startingWith<PipelineSeed>()
  .then(readFilesStep)
  .then(syntaxStep)
  .then(profileStep)
  .then(contextStep)
  .then(rulesStep)
  .then(flowStep)
  .then(scannersStep)
  .then(proverStep)
  .then(injectionStep)
  .then(materialRedactionStep)
  .then(modelStep)
  .then(reportStep);
