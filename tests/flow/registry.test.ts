/** The front-end registry lists every front end in src/flow/lower/, each under every language it claims. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FlowFrontEnd } from '../../src/flow/ir.js';
import { frontEndFor } from '../../src/flow/lower/index.js';

const LOWER = join(import.meta.dirname, '..', '..', 'src', 'flow', 'lower');

describe('the flow front-end registry', () => {
  it('maps each language of each front-end module to that front end', async () => {
    const unlisted: string[] = [];
    let frontEnds = 0;
    for (const name of readdirSync(LOWER).filter((n) => n.endsWith('.ts') && n !== 'index.ts')) {
      const module = (await import(join(LOWER, name))) as Record<string, unknown>;
      for (const [exported, value] of Object.entries(module)) {
        if (!exported.endsWith('FrontEnd')) continue;
        frontEnds++;
        const frontEnd = value as FlowFrontEnd;
        for (const language of frontEnd.languages) if (frontEndFor(language) !== frontEnd) unlisted.push(`${name}: ${exported} for ${language}`);
      }
    }
    expect(unlisted).toEqual([]);
    expect(frontEnds).toBeGreaterThan(0);
  });
});
