/**
 * Pattern matching on a worker thread, for files with long lines. A single regex test cannot be
 * interrupted in JavaScript and a crafted line can make one slow (or, with many hits, hungry); on a
 * worker the file's budget is enforced from outside: past it, or past its heap limit, the worker is
 * ended and the file is reported as not finished instead of stalling or killing the review.
 */
import { Worker } from 'node:worker_threads';
import { createLineMatcher, type MatchRequest, type MatchResult, type PatternJob } from './line-match.js';

export type BoundedMatch = { kind: 'done'; result: MatchResult } | { kind: 'stopped'; reason: string; outOfTime: boolean };

/** Heap for one file's matching: far above what a 2 MiB file needs, far below the machine. */
const WORKER_HEAP_MB = 256;
/** The worker stops itself between lines at `stopAt`; this much later it is ended from outside. */
const GRACE_MS = 500;

// The matcher runs from its own source text, so the worker needs no file of its own: the same code
// runs from the bundle, from the sources under test, and in-process for short lines.
function workerSource(): string {
  return [
    "'use strict';",
    "const { parentPort, workerData } = require('node:worker_threads');",
    // Transpilers that keep function names (tsx, esbuild's keepNames) wrap them in this helper.
    'const __name = (target) => target;',
    `const match = (${createLineMatcher.toString()})(workerData.jobs);`,
    "parentPort.on('message', (request) => parentPort.postMessage(match(request)));",
  ].join('\n');
}

export class MatchWorker {
  private worker: Worker | null = null;

  constructor(private readonly jobs: readonly PatternJob[]) {}

  /** Match one file; never throws. A stopped worker is replaced for the next file. */
  match(request: MatchRequest): Promise<BoundedMatch> {
    const worker = (this.worker ??= new Worker(workerSource(), {
      eval: true,
      workerData: { jobs: this.jobs },
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    }));
    return new Promise((resolve) => {
      const finish = (outcome: BoundedMatch, end: boolean): void => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (end) void this.discard(worker);
        resolve(outcome);
      };
      const onMessage = (result: MatchResult): void => finish({ kind: 'done', result }, false);
      const onError = (error: Error & { code?: string }): void =>
        finish(
          {
            kind: 'stopped',
            reason: error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `matching needed more than ${WORKER_HEAP_MB} MB` : `the matcher failed: ${error.message}`,
            outOfTime: false,
          },
          true,
        );
      const onExit = (): void => finish({ kind: 'stopped', reason: 'the matcher stopped unexpectedly', outOfTime: false }, true);
      const timer = setTimeout(
        () => finish({ kind: 'stopped', reason: 'one line took longer to match than the time left for the file', outOfTime: true }, true),
        Math.max(0, request.stopAt - Date.now()) + GRACE_MS,
      );
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage(request);
    });
  }

  async close(): Promise<void> {
    if (this.worker !== null) await this.discard(this.worker);
  }

  private async discard(worker: Worker): Promise<void> {
    if (this.worker === worker) this.worker = null;
    await worker.terminate();
  }
}
