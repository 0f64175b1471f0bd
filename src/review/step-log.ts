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
  /** When the step being recorded began: the previous record, or the start of the log. */
  private lastMark: number;
  private readonly recordListeners: ((record: StepRecord) => void)[] = [];

  constructor(
    deadlineSeconds: number,
    private readonly onStep: (name: string) => void = () => {},
    private readonly now: () => number = Date.now,
  ) {
    this.deadline = new Deadline(deadlineSeconds, now);
    this.lastMark = this.now();
  }

  /** Be told of each record as it is made (the per-step lines of a CI log). */
  onRecord(listener: (record: StepRecord) => void): void {
    this.recordListeners.push(listener);
  }

  /** Milliseconds left before the deadline (never negative). */
  remainingMs(): number {
    return this.deadline.remainingMs();
  }

  expired(): boolean {
    return this.deadline.expired();
  }

  /**
   * Record a step's outcome. Its duration is the time since the previous record (the pipeline runs one
   * step at a time), unless the caller measured it itself (`durationMs`).
   */
  record(name: string, status: StepStatus, detail: string, durationMs?: number): void {
    const at = this.now();
    const record: StepRecord = { name, status, detail, duration_ms: Math.max(0, Math.round(durationMs ?? at - this.lastMark)) };
    this.lastMark = at;
    this.records.push(record);
    for (const listener of this.recordListeners) listener(record);
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
