/**
 * The generated references match their sources: docs/configuration.md the zod schema of `.jscr.toml`,
 * docs/rules.md the rule files, docs/languages.md the language registry. Each is regenerated in memory and compared with the committed file.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configReference } from '../../src/config/reference.js';
import { builtinChecks } from '../../src/rules/checks.js';
import { loadBuiltinRules } from '../../src/rules/engine.js';
import { CONFIG_DOCS_PATH, renderConfigDocs } from '../../tools/gen-config-docs.js';
import { LANGUAGES_DOCS_PATH, renderLanguagesDocs } from '../../tools/gen-languages-docs.js';
import { RULES_DOCS_PATH, renderRulesDocs } from '../../tools/gen-rules-docs.js';

function expectUpToDate(path: string, fresh: string, command: string): void {
  const committed = readFileSync(path, 'utf8');
  if (committed !== fresh) throw new Error(`${path} is out of date; regenerate it with: ${command}`);
}

describe('generated references', () => {
  it('docs/configuration.md matches the schema', () => {
    expectUpToDate(CONFIG_DOCS_PATH, renderConfigDocs(), 'npx tsx tools/gen-config-docs.ts');
  });

  it('docs/rules.md matches rules/', async () => {
    expectUpToDate(RULES_DOCS_PATH, await renderRulesDocs(), 'npx tsx tools/gen-rules-docs.ts');
  });

  it('docs/languages.md matches the language registry', () => {
    expectUpToDate(LANGUAGES_DOCS_PATH, renderLanguagesDocs(), 'npx tsx tools/gen-languages-docs.ts');
  });

  it('name every configuration key and every rule', async () => {
    const config = renderConfigDocs();
    for (const section of configReference()) for (const key of section.keys) expect(config).toContain(`| \`${key.name}\` |`);
    const rules = await renderRulesDocs();
    for (const rule of await loadBuiltinRules()) expect(rules).toContain(`### \`${rule.id}\``);
    for (const check of builtinChecks()) expect(rules).toContain(`### \`${check.id}\``);
  });

  it('fail with the command to run when a committed file drifts', () => {
    expect(() => expectUpToDate(CONFIG_DOCS_PATH, `${renderConfigDocs()}extra\n`, 'npx tsx tools/gen-config-docs.ts')).toThrow(
      /docs\/configuration\.md is out of date; regenerate it with: npx tsx tools\/gen-config-docs\.ts/,
    );
  });
});

describe('the configuration reference', () => {
  it('describes every key of the schema, and only those', () => {
    // configReference throws for a key without a description or a description without a key
    const keys = configReference().flatMap((s) => s.keys.map((k) => k.path));
    expect(keys).toContain('review.exclude');
    expect(keys).toContain('suppress.reason');
    expect(new Set(keys).size).toBe(keys.length);
  });
});
