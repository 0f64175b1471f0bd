/** Old rule ids (rules/aliases/renamed-rules.toml): the table's checks, and the built-in table against the rules. */
import { describe, expect, it } from 'vitest';
import { flowRuleId, loadBuiltinFlowRows } from '../../src/rules/flow-load.js';
import { builtinRuleAliases, parseRuleAliases, RuleAliases } from '../../src/rules/aliases.js';
import { builtinChecks } from '../../src/rules/checks.js';
import { loadBuiltinRules } from '../../src/rules/engine.js';

const entry = (old: string, now: string): string => `[[alias]]\nold = "${old}"\nnow = "${now}"\nreason = "renamed"\n`;

describe('rule aliases', () => {
  it('resolve chains: a finding of the newest rule answers to every id it had', () => {
    const aliases = parseRuleAliases(entry('jscr/a', 'jscr/b') + entry('jscr/b', 'jscr/c'));
    expect(aliases.namesOf('jscr/c')).toEqual(['jscr/c', 'jscr/b', 'jscr/a']);
    expect(aliases.names('jscr/a', 'jscr/c')).toBe(true);
    expect(aliases.names('jscr/c', 'jscr/a')).toBe(false);
    expect(aliases.namesOf('jscr/unrelated')).toEqual(['jscr/unrelated']);
  });

  it.each([
    ['an old id listed twice', entry('jscr/a', 'jscr/b') + entry('jscr/a', 'jscr/c'), /line 6: alias\[1\]\.old: duplicate old rule id jscr\/a \(first defined at rules\/aliases\/renamed-rules\.toml:2\)/],
    ['an alias to itself', entry('jscr/a', 'jscr/a'), /alias\[0\]\.now: an alias must name a different rule/],
    ['a loop', entry('jscr/a', 'jscr/b') + entry('jscr/b', 'jscr/a'), /lead back to themselves/],
    ['a key it does not know', `${entry('jscr/a', 'jscr/b')}since = "1.2"\n`, /since/],
    ['no reason', '[[alias]]\nold = "jscr/a"\nnow = "jscr/b"\n', /reason/],
    ['an id that is not one', entry('sql', 'jscr/b'), /alias\[0\]\.old: expected a rule id/],
  ])('refuse %s, naming the file and key', (_name, text, message) => {
    expect(() => parseRuleAliases(text, 'rules/aliases/renamed-rules.toml')).toThrow(message);
    expect(() => parseRuleAliases(text, 'rules/aliases/renamed-rules.toml')).toThrow(/rules\/aliases\/renamed-rules\.toml/);
  });

  it('the built-in table loads, every "now" is reported by jscr and no renamed old id still is', async () => {
    const reported = new Set([...(await loadBuiltinRules()).map((r) => r.id), ...builtinChecks().map((c) => c.id)]);
    const flowRules = new Set([...loadBuiltinFlowRows().meta.keys()].map(flowRuleId));
    const table = builtinRuleAliases();
    expect(table).toBeInstanceOf(RuleAliases);
    for (const alias of table.entries) {
      if (flowRules.has(alias.now)) {
        // a pattern rule a flow row supersedes: the rule may stay (outside fully analysed functions), but it must exist or have been renamed
        expect(reported.has(alias.old) || table.entries.some((a) => a.old === alias.old && !flowRules.has(a.now)), `${alias.old} is superseded by ${alias.now} but is no rule`).toBe(true);
        continue;
      }
      expect(reported.has(alias.old), `${alias.old} is retired but still a rule`).toBe(false);
      const current = table.entries.some((a) => a.old === alias.now) ? null : alias.now;
      if (current !== null) expect(reported.has(current), `${alias.old} points at ${current}, which jscr does not report`).toBe(true);
    }
  });

  it('a suppression written for a pattern rule covers the flow finding that supersedes it', () => {
    const table = builtinRuleAliases();
    expect(table.names('jscr/js-eval-dynamic', 'jscr/js-code-evaluation')).toBe(true);
    expect(table.names('jscr/js-eval-dynamic', 'jscr/java-sql-query')).toBe(false);
  });
});
