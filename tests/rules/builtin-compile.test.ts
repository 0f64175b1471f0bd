/**
 * The review compiles each query on first use; this checks every built-in rule file the eager way, so a
 * query that does not compile for one of its languages fails here and not in a user's review.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinRulesDirectory, loadBuiltinRules } from '../../src/rules/engine.js';
import { loadRuleSources } from '../../src/rules/load.js';

describe('built-in rule files', () => {
  it('compile completely when loaded eagerly, with the same rules the lazy load gives', async () => {
    const dir = builtinRulesDirectory();
    const sources = readdirSync(dir)
      .filter((n) => n.endsWith('.toml'))
      .sort()
      .map((n) => ({ file: `rules/${n}`, text: readFileSync(join(dir, n), 'utf8') }));
    const eager = await loadRuleSources(sources);
    const lazy = await loadBuiltinRules();
    expect(eager.map((r) => r.id)).toEqual(lazy.map((r) => r.id));
    for (const rule of eager) {
      if (rule.matcher.kind === 'query') expect(rule.matcher.compiled.size, rule.id).toBe(rule.matcher.languages.length);
    }
  });
});
