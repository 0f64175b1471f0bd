/**
 * The record of what each step of a review did, and the one deadline for the whole run. Steps report
 * their status here; only the engine decides what that means for completeness and the exit code.
 */
import type { StepRecord, StepStatus } from '../report/finding.js';
import { Deadline } from './deadline.js';

export class StepLog {
  readonly records: StepRecord[] = [];
  readonly incompleteReasons: string[] = [];
  /** Passed into the steps that do long work, so they stop inside the step, not only before it. */
  readonly deadline: Deadline;

  constructor(
    deadlineSeconds: number,
    private readonly onStep: (name: string) => void = () => {},
    now: () => number = Date.now,
  ) {
    this.deadline = new Deadline(deadlineSeconds, now);
  }

  /** Milliseconds left before the deadline (never negative). */
  remainingMs(): number {
    return this.deadline.remainingMs();
  }

  expired(): boolean {
    return this.deadline.expired();
  }

  record(name: string, status: StepStatus, detail: string): void {
    this.records.push({ name, status, detail });
  }

  /** A step that was meant to run and did not (or only in part): the review is incomplete (exit 3). */
  incomplete(name: string, status: StepStatus, detail: string): void {
    this.record(name, status, detail);
    this.incompleteReasons.push(`${name}: ${detail}`);
  }

  /**
   * Run a step unless the deadline has passed; a passed deadline makes it `not_run` and the review
   * incomplete. The step's own function records its status.
   */
  async run<T>(name: string, body: () => Promise<T>, whenSkipped: T): Promise<T> {
    if (this.expired()) {
      this.incomplete(name, 'not_run', 'the review deadline (review.deadline_s) passed before this step');
      return whenSkipped;
    }
    this.onStep(name);
    return body();
  }
}
