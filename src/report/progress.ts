/**
 * Progress on stderr for long runs: nothing unless the stream is a terminal and the user did not ask
 * for quiet, and nothing for runs shorter than `delayMs`, so fast reviews and CI logs stay clean.
 */
import { escapeOneLine } from './escape.js';
import type { StepRecord } from './finding.js';

export interface ProgressOptions {
  /** Where progress goes (stderr); never the report stream. */
  stream: NodeJS.WritableStream;
  /** Whether `stream` is a terminal; the caller knows (`process.stderr.isTTY`). */
  isTTY: boolean;
  /** `--quiet`: never print progress. */
  quiet: boolean;
  /** Show progress only once the run has lasted this long (default 1000 ms). */
  delayMs?: number;
}

export interface Progress {
  /** The run entered a new step; shown (or scheduled to be shown) as a single rewritten line. */
  step(name: string): void;
  /** The run ended: clear the progress line, if one was drawn. Further calls do nothing. */
  done(): void;
}

const CLEAR_LINE = '\r\u001b[2K';

/** Create a progress reporter; it writes only to `opts.stream`. */
export function createProgress(opts: ProgressOptions): Progress {
  if (!opts.isTTY || opts.quiet) return { step: () => undefined, done: () => undefined };

  const delayMs = opts.delayMs ?? 1000;
  const startedAt = Date.now();
  let current: string | null = null;
  let drawn = false;
  let finished = false;
  let timer: NodeJS.Timeout | null = null;

  const draw = (): void => {
    if (finished || current === null) return;
    // keep to one terminal row: a wrapped line cannot be rewritten with \r
    const columns = (opts.stream as { columns?: number }).columns ?? 80;
    const text = `jscr: ${escapeOneLine(current)}…`.slice(0, Math.max(10, columns - 1));
    opts.stream.write(`${CLEAR_LINE}${text}`);
    drawn = true;
  };

  return {
    step(name: string): void {
      if (finished) return;
      current = name;
      const elapsed = Date.now() - startedAt;
      if (elapsed >= delayMs) {
        draw();
      } else if (timer === null) {
        timer = setTimeout(draw, delayMs - elapsed);
        timer.unref();
      }
    },
    done(): void {
      if (finished) return;
      finished = true;
      if (timer !== null) clearTimeout(timer);
      if (drawn) opts.stream.write(CLEAR_LINE);
    },
  };
}

/** A CI log (no terminal, `CI=true` as GitHub Actions and GitLab set it) gets one line per step, unless --quiet. */
export function wantsStepLines(opts: { env: NodeJS.ProcessEnv; isTTY: boolean; quiet: boolean }): boolean {
  return !opts.isTTY && !opts.quiet && /^(true|1)$/i.test(opts.env.CI ?? '');
}

/** The CI line of one finished step: its name, status and duration. */
export function stepLine(record: StepRecord): string {
  return `jscr: step ${escapeOneLine(record.name)} ${record.status} in ${record.duration_ms ?? 0} ms\n`;
}
