import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createProgress } from '../../src/report/progress.js';

/** A real stream that remembers what was written. */
function captureStream(): { stream: PassThrough; written: () => string } {
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  return { stream, written: () => chunks.join('') };
}

describe('createProgress', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('prints nothing when the stream is not a terminal, however long the run', async () => {
    const { stream, written } = captureStream();
    const progress = createProgress({ stream, isTTY: false, quiet: false, delayMs: 10 });
    progress.step('rules');
    vi.advanceTimersByTime(5000);
    progress.step('scanners');
    progress.done();
    await vi.runAllTimersAsync();
    expect(written()).toBe('');
  });

  it('prints nothing when quiet, even on a terminal', async () => {
    const { stream, written } = captureStream();
    const progress = createProgress({ stream, isTTY: true, quiet: true, delayMs: 10 });
    progress.step('rules');
    vi.advanceTimersByTime(5000);
    progress.done();
    await vi.runAllTimersAsync();
    expect(written()).toBe('');
  });

  it('prints nothing for a run shorter than the delay', async () => {
    const { stream, written } = captureStream();
    const progress = createProgress({ stream, isTTY: true, quiet: false });
    progress.step('read-change');
    vi.advanceTimersByTime(400);
    progress.step('rules');
    vi.advanceTimersByTime(400);
    progress.done();
    vi.advanceTimersByTime(5000);
    await vi.runAllTimersAsync();
    expect(written()).toBe('');
  });

  it('after the delay shows the current step on one rewritten line, and clears it at the end', async () => {
    const { stream, written } = captureStream();
    const progress = createProgress({ stream, isTTY: true, quiet: false, delayMs: 1000 });
    progress.step('read-change');
    vi.advanceTimersByTime(600);
    progress.step('context');
    vi.advanceTimersByTime(500); // the timer fires during "context"
    progress.step('model');
    progress.done();
    progress.step('late'); // after done: ignored
    await vi.runAllTimersAsync();
    expect(written()).toBe('\r\u001b[2Kjscr: context…\r\u001b[2Kjscr: model…\r\u001b[2K');
    expect(written()).not.toContain('\n');
  });

  it('escapes control characters in step names', async () => {
    const { stream, written } = captureStream();
    const progress = createProgress({ stream, isTTY: true, quiet: false, delayMs: 0 });
    progress.step('scanner \u001b[2J');
    progress.done();
    await vi.runAllTimersAsync();
    expect(written()).toBe('\r\u001b[2Kjscr: scanner \\x1b[2J…\r\u001b[2K');
  });
});
