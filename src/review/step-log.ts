/**
 * The record of what each step of a review did, and the one deadline for the whole run. The engine
 * records each step's result here; a step never records itself.
 */
import type { StepRecord, StepStatus } from '../report/finding.js';
import type { NamedVerdict, StepVerdict } from './steps/step.js';
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

  /** A step is starting (the progress display names it). */
  announce(name: string): void {
    this.onStep(name);
  }

  /** Record a step's result under its name, then the records it is followed by, each once. */
  recordResult(name: string, result: StepVerdict & { durationMs?: number; followedBy?: readonly NamedVerdict[] }): void {
    for (const entry of [{ ...result, name }, ...(result.followedBy ?? [])]) {
      this.record(entry.name, entry.status, entry.detail, entry.durationMs);
      if (entry.incomplete) this.incompleteReasons.push(`${entry.name}: ${entry.detail}`);
    }
  }
}
