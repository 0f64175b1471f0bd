import { describe, expect, it } from 'vitest';
import { loadBuiltinRules } from '../../src/rules/engine.js';
import { allCases } from './cases.js';
import { checkTable, ruleTester, type RuleCases } from './rule-tester.js';

const rules = await loadBuiltinRules();

ruleTester(rules, allCases);

describe('the built-in rule set', () => {
  it('has at least 45 rules across the required languages and file kinds', () => {
    expect(rules.length).toBeGreaterThanOrEqual(45);
    const covered = new Set(rules.flatMap((rule) => rule.languages));
    for (const language of ['python', 'javascript', 'typescript', 'java', 'php', 'go', 'shell', 'dockerfile', 'github-actions']) {
      expect(covered, language).toContain(language);
    }
  });

  it('has a table entry with valid and invalid cases for every rule, and none for rules that do not exist', () => {
    const tested = new Map(allCases.map((entry) => [entry.rule, entry]));
    const missing = rules.map((rule) => rule.id).filter((id) => {
      const entry = tested.get(id);
      return !entry || entry.valid.length === 0 || entry.invalid.length === 0;
    });
    expect(missing).toEqual([]);
    expect([...tested.keys()].sort()).toEqual(rules.map((rule) => rule.id).sort());
  });

  it('never includes a hardcoded-secret rule (the secret detector owns that id)', () => {
    expect(rules.map((rule) => rule.id)).not.toContain('jscr/hardcoded-secret');
  });
});

describe('the rule tester refuses a bad table', () => {
  const known = new Set(['jscr/python-pickle-load']);
  const good: RuleCases = {
    rule: 'jscr/python-pickle-load',
    valid: [{ path: 'a.py', code: 'pickle.dumps(x)\n' }],
    invalid: [{ path: 'a.py', code: 'pickle.loads(x)\n', lines: [1] }],
  };

  it('accepts a good table', () => {
    expect(() => checkTable([good], known)).not.toThrow();
  });
  it('refuses an invalid case that expects no finding', () => {
    expect(() => checkTable([{ ...good, invalid: [{ path: 'a.py', code: 'pickle.loads(y)\n', lines: [] }] }], known)).toThrow(/expects no finding/);
  });
  it('refuses an unknown rule id', () => {
    expect(() => checkTable([{ ...good, rule: 'jscr/no-such-rule' }], known)).toThrow(/unknown rule id jscr\/no-such-rule/);
  });
  it('refuses a duplicate case', () => {
    expect(() => checkTable([{ ...good, valid: [good.valid[0]!, { ...good.valid[0]! }] }], known)).toThrow(/duplicate valid case/);
  });
});
