import { describe, expect, it } from 'vitest';
import { loadBuiltinFlowRows, loadFlowRowSources } from '../../src/rules/flow-load.js';
import { RuleFileError } from '../../src/errors.js';
import { runFlowRowTests } from './flow-row-tester.js';

/** Row files whose every sink and check row must carry both kinds of snippet. */
const FULLY_TESTED_FILES = ['rules/flow/java.toml'];

describe('built-in data-flow rows', () => {
  const loaded = loadBuiltinFlowRows();

  it('behave as their snippets say', async () => {
    const failures = (await runFlowRowTests(loaded)).filter((o) => o.problem !== '');
    expect(failures.map((f) => `${f.row} (${f.expectation}): ${f.problem}`)).toEqual([]);
  }, 60_000);

  it('give every sink and check row a flagged and a quiet snippet', () => {
    const tested = new Map(loaded.tests.map((t) => [t.rowId, t]));
    const missing: string[] = [];
    for (const [language, rows] of loaded.byLanguage) {
      for (const row of [...rows.sinks, ...rows.checks]) {
        if (!FULLY_TESTED_FILES.includes(row.origin.file)) continue;
        const t = tested.get(row.id);
        if (t === undefined || t.flagged.length === 0 || t.quiet.length === 0) missing.push(`${language}: ${row.id}`);
      }
    }
    expect([...new Set(missing)]).toEqual([]);
  });

  it('have ids that no pattern rule uses, in the jscr/ namespace', async () => {
    const { loadBuiltinRules } = await import('../../src/rules/engine.js');
    const patternIds = new Set((await loadBuiltinRules()).map((r) => r.id));
    const clashes = [...loaded.meta.keys()].filter((id) => patternIds.has(`jscr/${id}`));
    expect(clashes).toEqual([]);
  });
});

describe('the flow row loader', () => {
  const file = (text: string) => [{ file: 'rules/flow/test.toml', text }];

  it('refuses a row with an unknown key, naming the file, the line and the key', () => {
    const text = 'languages = ["java"]\n\n[[sink]]\nid = "x-sink"\nkind = "sql"\ncwe = "CWE-89"\ntitle = "t"\nmessage = "m"\nseverity = "high"\nconfidence = 0.5\ncall = { names = ["q"], reciever = "db" }\n';
    expect(() => loadFlowRowSources(file(text))).toThrow(RuleFileError);
    expect(() => loadFlowRowSources(file(text))).toThrow(/rules\/flow\/test\.toml: line 11: sink\[0\]\.call\.reciever: unknown key/);
  });

  it('refuses a source with two matchers, and a duplicate id across files', () => {
    const two = 'languages = ["java"]\n[[source]]\nid = "a-b"\ncall = { names = ["x"] }\nfield = ["req.q"]\n';
    expect(() => loadFlowRowSources(file(two))).toThrow(/exactly one of call, field or parameter/);
    const one = 'languages = ["java"]\n[[source]]\nid = "a-b"\nfield = ["req.q"]\n';
    expect(() => loadFlowRowSources([{ file: 'rules/flow/a.toml', text: one }, { file: 'rules/flow/b.toml', text: one }])).toThrow(/duplicate flow row id a-b \(first defined at rules\/flow\/a\.toml:2\)/);
  });

  it('refuses a regex that can backtrack catastrophically and a malformed slot', () => {
    const slow = 'languages = ["java"]\n[[sanitiser]]\nid = "s-x"\nclears = ["*"]\ncall = { names = ["f"], receiver = "(a+)+$" }\n';
    expect(() => loadFlowRowSources(file(slow))).toThrow(/backtrack/);
    const slot = 'languages = ["java"]\n[[guard]]\nid = "g-x"\nclears = ["*"]\ncall = { names = ["f"] }\nvets = "argument0"\n';
    expect(() => loadFlowRowSources(file(slot))).toThrow(/guard\[0\]\.vets.*receiver, return, arguments, callee, argN/);
  });
});
