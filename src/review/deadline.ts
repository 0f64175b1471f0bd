/**
 * The one deadline of a run (`review.deadline_s`), handed to every step that does long work. Steps
 * check it between files and inside long loops, give child processes and model calls what is left as
 * their timeout, and stop waiting when its signal fires; what they did not finish they name, and the
 * engine makes the review incomplete with those names.
 */

export class Deadline {
  private readonly at: number;
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    seconds: number,
    private readonly now: () => number = Date.now,
  ) {
    this.at = this.now() + Math.max(0, seconds) * 1000;
  }

  /** Milliseconds left (never negative). */
  remainingMs(): number {
    return Math.max(0, this.at - this.now());
  }

  expired(): boolean {
    return this.remainingMs() === 0;
  }

  /**
   * Aborts when the deadline passes, for waits (child processes, HTTP, workers). Synchronous loops
   * cannot see it fire, so they ask `expired()` instead. The timer never keeps the process alive.
   */
  get signal(): AbortSignal {
    if (this.timer === null && !this.controller.signal.aborted) {
      // Node's timers overflow above 2^31-1 ms and would fire at once; a longer deadline is re-armed.
      const arm = (): void => {
        const left = this.remainingMs();
        if (left === 0) {
          this.controller.abort(new Error('the review deadline (review.deadline_s) passed'));
          return;
        }
        this.timer = setTimeout(arm, Math.min(left, 2_000_000_000));
        this.timer.unref();
      };
      arm();
    }
    return this.controller.signal;
  }

  /** Stops the timer (the run is over). */
  dispose(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}

/** The detail line for work a deadline cut short: what was not finished, named. */
export function unfinishedDetail(what: string, unfinished: readonly string[], cause = 'the review deadline (review.deadline_s) passed'): string {
  const shown = unfinished.slice(0, 5).join(', ');
  return `${cause}; ${what} not finished for ${unfinished.length} file(s): ${shown}${unfinished.length > 5 ? ', ...' : ''}`;
}
