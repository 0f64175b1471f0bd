/**
 * A review reply cut off by the output-token bound is a failed model step (exit 3), never "no
 * findings" and never a partial list read as complete, in both dialects, through the real model step.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configFor, modelFinding, runSteps, step } from './material.js';
import { startServer, type ScriptedServer } from './server.js';

let server: ScriptedServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(async () => {
  await server.close();
});

describe.each(['openai', 'anthropic'] as const)('%s dialect', (provider) => {
  it('a reply stopped at max_output_tokens fails the model step with the reason; nothing it held is reported', async () => {
    server.review = [{ truncated: [modelFinding()] }];
    const { outcome } = await runSteps(configFor(server, { provider }));
    expect(step(outcome, 'model')).toMatchObject({ status: 'failed', incomplete: true });
    expect(step(outcome, 'model').detail).toContain('cut off at model.max_output_tokens');
    expect(outcome.findings).toEqual([]);
    expect(server.requests.filter((r) => r.kind === 'verdict')).toHaveLength(0);
  });
});
