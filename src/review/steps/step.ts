/**
 * The shape every review step has: a name (the one in the report), a typed input made of the outputs
 * of the steps before it, and a result that says what happened. Steps never record themselves; the
 * engine records every result, so no step can forget to.
 */
import type { SecretBook } from '../../redact/index.js';
import type { Finding, StepStatus } from '../../report/finding.js';
import type { Deadline } from '../deadline.js';
import type { OpenedChange } from './open-change.js';

/** What a step did, as the report's step record says it. */
export interface StepVerdict {
  status: StepStatus;
  /** One line for the report. */
  detail: string;
  /** True when this outcome makes the review incomplete (exit 3); `detail` is then the reason. */
  incomplete: boolean;
}

/** A verdict with the name it is recorded under (a step's further records, such as `verify`). */
export interface NamedVerdict extends StepVerdict {
  name: string;
  /** Set when the step measured the time itself (the work happened before the step log existed). */
  durationMs?: number;
}

export interface StepResult<Out> extends StepVerdict {
  /** What later steps read; the same type whether or not the step found anything. */
  output: Out;
  /** Findings, in the order the step made them; the engine joins every step's in list order. */
  findings: readonly Finding[];
  /** Records that follow this step's own in the report (the model step's `anchor` and `verify`). */
  followedBy?: readonly NamedVerdict[];
  /** Set when the step measured its own time. */
  durationMs?: number;
}

/** What every step may use and none may change: the change under review and the run's shared services. */
export interface StepRun {
  change: OpenedChange;
  /** The one deadline of the run; long steps check it inside themselves. */
  deadline: Deadline;
  /** Learns every secret value found, so the report and errors are masked at the end. */
  book: SecretBook;
  env: NodeJS.ProcessEnv;
  /** Today as YYYY-MM-DD, for suppression expiry. */
  today: string;
  /** A model provider is configured and `--no-model` was not given. */
  modelConfigured: boolean;
  /** Where one-line diagnostics go (the token estimate before a model call). */
  diagnostics: NodeJS.WritableStream;
}

interface StepBody<Name extends string, In, Out> {
  readonly name: Name;
  /** `when_incomplete`: listed in the report only when it makes the review incomplete. */
  readonly listed?: 'always' | 'when_incomplete';
  /**
   * An outcome known without running, decided before the deadline is consulted: a step that was never
   * meant to run is `skipped`, not `not_run`, whatever the time.
   */
  readonly settle?: (input: In, run: StepRun) => StepResult<Out> | null;
  readonly run: (input: In, run: StepRun) => Promise<StepResult<Out>>;
}

/** Not started once the deadline has passed, which makes it `not_run` and the review incomplete. */
interface DeadlineStep<Name extends string, In, Out> extends StepBody<Name, In, Out> {
  readonly timing?: 'deadline';
  /** The output later steps get when this step did not run. */
  readonly notRun: () => Out;
}

/** Runs even after the deadline, because the report must still say what was read and what was found. */
interface AlwaysStep<Name extends string, In, Out> extends StepBody<Name, In, Out> {
  readonly timing: 'always';
}

export type ReviewStep<Name extends string, In, Out> = DeadlineStep<Name, In, Out> | AlwaysStep<Name, In, Out>;

/** Any step, its input type forgotten; `StepList` checked it when the list was built. */
export type AnyReviewStep = ReviewStep<string, never, unknown>;

/**
 * An ordered list of steps. `then` accepts a step only if its input is made of what the steps before it
 * produce (each step's output is read under the step's name), so the order is checked by the compiler.
 */
export class StepList<Have> {
  private constructor(readonly steps: readonly AnyReviewStep[]) {}

  static startingWith<Seed>(): StepList<Seed> {
    return new StepList<Seed>([]);
  }

  then<Name extends string, Out>(step: ReviewStep<Name, Have, Out>): StepList<Have & Record<Name, Out>> {
    return new StepList<Have & Record<Name, Out>>([...this.steps, step]);
  }
}

export function ran(detail: string): StepVerdict {
  return { status: 'ran', detail, incomplete: false };
}

export function skipped(detail: string): StepVerdict {
  return { status: 'skipped', detail, incomplete: false };
}

/** A step that did not do all it was meant to: the review is incomplete, with `detail` as the reason. */
export function incomplete(status: StepStatus, detail: string): StepVerdict {
  return { status, detail, incomplete: true };
}

/** `incomplete` when there is something unfinished to say, `ran` otherwise. */
export function ranUnless(unfinished: string | null, detail: string): StepVerdict {
  return unfinished === null ? ran(detail) : incomplete('failed', `${detail}; ${unfinished}`);
}

export function result<Out>(verdict: StepVerdict, output: Out, findings: readonly Finding[] = []): StepResult<Out> {
  return { ...verdict, output, findings };
}
