import { describe, expect, it } from 'vitest';
import { redactionStep } from '../../../src/review/steps/redaction.js';
import { fakes } from '../../redact/fakes.js';

const material = [
  { path: 'src/a.ts', text: `const k = "${fakes.stripeLive}";\nconst j = "${fakes.jwt}";\n` },
  { path: 'src/b.ts', text: 'export const x = 1;\n' },
  { path: 'src/c.py', text: `password = "hunter2xyz"\n` },
];

describe('redactionStep', () => {
  it('blocks the send when block_on_secret is set and a model is configured', () => {
    const outcome = redactionStep({ material, blockOnSecret: true, modelConfigured: true });
    expect(outcome.blocked).toBe(true);
    expect(outcome.material).toBeNull();
    expect(outcome.secretsFound).toBe(3);
    expect(outcome.files.map((f) => [f.path, f.found, f.rules])).toEqual([
      ['src/a.ts', 2, ['jwt', 'stripe-live-key']],
      ['src/c.py', 1, ['generic-password']],
    ]);
    expect(outcome.detail).toBe('blocked the send: 3 secrets in 2 files (redaction.block_on_secret is true)');
    expect(outcome.incompleteReason).toMatch(/secret blocked the send/);
  });

  it('redacts with numbered markers unique across files when blocking is off', () => {
    const outcome = redactionStep({ material, blockOnSecret: false, modelConfigured: true });
    expect(outcome.blocked).toBe(false);
    expect(outcome.incompleteReason).toBeNull();
    const texts = outcome.material!.map((m) => m.text).join('');
    expect(texts).toContain('[REDACTED:stripe-live-key#1]');
    expect(texts).toContain('[REDACTED:jwt#2]');
    expect(texts).toContain('password = "[REDACTED:generic-password#3]"');
    expect(texts).not.toContain(fakes.stripeLive);
    expect(outcome.material!.map((m) => m.path)).toEqual(['src/a.ts', 'src/b.ts', 'src/c.py']);
    expect(outcome.detail).toBe('redacted 3 secrets in 2 files before the send');
  });

  it('says what it would have done when no model is configured, and is not a reason to be incomplete', () => {
    const blocking = redactionStep({ material, blockOnSecret: true, modelConfigured: false });
    expect(blocking.detail).toBe('no model configured; would have blocked 3 secrets in 2 files');
    expect(blocking.incompleteReason).toBeNull();
    const redacting = redactionStep({ material: material.slice(2), blockOnSecret: false, modelConfigured: false });
    expect(redacting.detail).toBe('no model configured; would have redacted 1 secret in 1 file');
  });

  it('passes clean material through unchanged', () => {
    const outcome = redactionStep({ material: [material[1]!], blockOnSecret: true, modelConfigured: true });
    expect(outcome).toMatchObject({ blocked: false, secretsFound: 0, files: [], material: [material[1]] });
    expect(outcome.detail).toBe('no secrets found in 1 file of prompt material');
  });
});
