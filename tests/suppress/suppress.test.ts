import { describe, expect, it } from 'vitest';
import type { Suppression } from '../../src/config/schema.js';
import type { Finding } from '../../src/report/finding.js';
import { atOccurrence, makeFinding } from '../../src/report/fingerprint.js';
import { RuleAliases } from '../../src/rules/aliases.js';
import {
  applySuppressions,
  baseLineCounts,
  describeEntry,
  parseInlineSuppressions,
  type SuppressionInput,
} from '../../src/review/suppress.js';

function finding(path: string, line: number, evidence: string, rule = 'jscr/sql-string-concat'): Finding {
  return makeFinding({
    rule,
    source: 'rule',
    severity: 'high',
    confidence: 0.9,
    path,
    line,
    end_line: line,
    title: 'SQL built by concatenation',
    message: 'Use parameters.',
    evidence,
    cwe: 'CWE-89',
  });
}

const NO_ALIASES = new RuleAliases([]);

const query = 'db.query("SELECT * FROM users WHERE id = " + req.params.id)';

function run(overrides: Partial<SuppressionInput>) {
  return applySuppressions({
    findings: [],
    fileTexts: new Map(),
    addedLines: new Map(),
    baseLines: new Map(),
    configEntries: [],
    entriesAddedByChange: [],
    today: '2025-06-01',
    aliases: NO_ALIASES,
    ...overrides,
  });
}

describe('config entries', () => {
  it('suppress by fingerprint, and the match survives the line moving', () => {
    const original = finding('src/users.js', 10, query);
    const entry: Suppression = { rule: original.rule, fingerprint: original.fingerprint, reason: 'admin-only route, ids are integers' };
    const moved = finding('src/users.js', 42, `    ${query}`);
    const result = run({ findings: [moved], configEntries: [entry] });
    expect(result.kept).toEqual([]);
    expect(result.suppressed).toEqual([{ finding: moved, by: describeEntry(entry) }]);
    expect(result.unused).toEqual([]);
  });

  it('accept the finding id (a 12-digit prefix) as the fingerprint', () => {
    const target = finding('src/users.js', 10, query);
    const result = run({ findings: [target], configEntries: [{ rule: target.rule, fingerprint: target.id, reason: 'ok' }] });
    expect(result.suppressed).toHaveLength(1);
  });

  it('do not match a different finding of the same rule by fingerprint', () => {
    const target = finding('src/users.js', 10, query);
    const other = finding('src/users.js', 10, 'db.query("DELETE FROM t WHERE id=" + id)');
    const result = run({ findings: [other], configEntries: [{ rule: target.rule, fingerprint: target.fingerprint, reason: 'ok' }] });
    expect(result.kept).toEqual([other]);
    expect(result.unused.map((u) => u.reason)).toEqual(['unused']);
  });

  it('match rule + path glob', () => {
    const inTests = finding('tests/fixtures/sql/build.js', 3, query);
    const inSrc = finding('src/build.js', 3, query);
    const otherRule = finding('tests/x.js', 3, query, 'jscr/eval-call');
    const result = run({
      findings: [inTests, inSrc, otherRule],
      configEntries: [{ rule: 'jscr/sql-string-concat', path: 'tests/**', reason: 'fixtures are deliberately unsafe' }],
    });
    expect(result.suppressed.map((s) => s.finding)).toEqual([inTests]);
    expect(result.kept).toEqual([inSrc, otherRule]);
  });

  it('refuse an entry the change itself adds, and report it as a finding on .jscr.toml', () => {
    const target = finding('src/users.js', 10, query);
    const entry: Suppression = { rule: target.rule, path: 'src/**', reason: 'trust me' };
    const configText = '[review]\nfail_on = "low"\n\n[[suppress]]\nrule = "jscr/sql-string-concat"\npath = "src/**"\nreason = "trust me"\n';
    const result = run({
      findings: [target],
      configEntries: [entry],
      entriesAddedByChange: [entry],
      fileTexts: new Map([['.jscr.toml', configText]]),
    });
    expect(result.kept).toEqual([target]);
    expect(result.added).toHaveLength(1);
    expect(result.added[0]).toMatchObject({
      rule: 'jscr/suppression-added-by-change',
      severity: 'medium',
      cwe: 'CWE-693',
      path: '.jscr.toml',
      line: 4,
      evidence: describeEntry(entry),
    });
  });

  it('honour the expiry date: the last day counts, the day after does not', () => {
    const target = finding('src/users.js', 10, query);
    const entry: Suppression = { rule: target.rule, path: 'src/**', reason: 'until the migration', expires: '2025-06-01' };
    expect(run({ findings: [target], configEntries: [entry], today: '2025-06-01' }).suppressed).toHaveLength(1);
    const after = run({ findings: [target], configEntries: [entry], today: '2025-06-02' });
    expect(after.kept).toEqual([target]);
    expect(after.unused).toEqual([{ entry: describeEntry(entry), reason: 'expired' }]);
  });

  it('list entries that silenced nothing', () => {
    const entry: Suppression = { rule: 'jscr/eval-call', path: 'legacy/**', reason: 'old code' };
    expect(run({ configEntries: [entry] }).unused).toEqual([{ entry: describeEntry(entry), reason: 'unused' }]);
  });

  it('refuse entries without a reason or a rule id, as findings', () => {
    const target = finding('src/users.js', 10, query);
    const result = run({
      findings: [target],
      configEntries: [
        { rule: target.rule, path: '**', reason: '   ' },
        { rule: 'everything', reason: 'noise' },
      ],
    });
    expect(result.kept).toEqual([target]);
    expect(result.added.map((f) => [f.rule, f.severity])).toEqual([
      ['jscr/invalid-suppression', 'low'],
      ['jscr/invalid-suppression', 'low'],
    ]);
  });
});

describe('inline comments', () => {
  const text = [
    'const db = require("./db");',
    '// jscr-ignore: jscr/sql-string-concat id is validated as an integer by the router',
    query,
    `${query} # jscr-ignore: jscr/sql-string-concat same-line form`,
    '<!-- jscr-ignore: jscr/xss-inner-html -->',
    '/* jscr-ignore: jscr/eval-call sandboxed interpreter */',
  ].join('\n');

  it('parse every comment syntax and split rule from reason', () => {
    expect(parseInlineSuppressions(text).map((c) => [c.line, c.rule, c.reason, c.standalone])).toEqual([
      [2, 'jscr/sql-string-concat', 'id is validated as an integer by the router', true],
      [4, 'jscr/sql-string-concat', 'same-line form', false],
      [5, 'jscr/xss-inner-html', null, true],
      [6, 'jscr/eval-call', 'sandboxed interpreter', true],
    ]);
    expect(parseInlineSuppressions('-- jscr-ignore: jscr/sql-in-plpgsql dynamic table name is a constant')[0]?.reason).toBe(
      'dynamic table name is a constant',
    );
  });

  it('bind to the line below (standalone) or the same line, for the named rule only', () => {
    const below = finding('src/users.js', 3, query);
    const same = finding('src/users.js', 4, query);
    const otherRule = finding('src/users.js', 3, query, 'jscr/eval-call');
    const result = run({ findings: [below, same, otherRule], fileTexts: new Map([['src/users.js', text]]) });
    expect(result.suppressed.map((s) => s.finding)).toEqual([below, same]);
    expect(result.suppressed[0]!.by).toBe('jscr-ignore comment at src/users.js:2: id is validated as an integer by the router');
    expect(result.kept).toEqual([otherRule]);
    expect(result.added).toEqual([]);
  });

  it('move with the code: after lines are inserted above, the comment still binds', () => {
    const shifted = `\n\n\n${text}`;
    const moved = finding('src/users.js', 6, query);
    expect(run({ findings: [moved], fileTexts: new Map([['src/users.js', shifted]]) }).suppressed).toHaveLength(1);
  });

  it('are refused and reported when the change adds them', () => {
    const target = finding('src/users.js', 3, query);
    const result = run({
      findings: [target],
      fileTexts: new Map([['src/users.js', text]]),
      addedLines: new Map([['src/users.js', new Set([2, 3])]]),
    });
    expect(result.kept).toEqual([target]);
    expect(result.added.map((f) => [f.rule, f.line, f.evidence])).toEqual([
      ['jscr/suppression-added-by-change', 2, '// jscr-ignore: jscr/sql-string-concat id is validated as an integer by the router'],
    ]);
  });

  it('without a reason are not honoured and are reported', () => {
    const html = '<div>\n<!-- jscr-ignore: jscr/xss-inner-html -->\nel.innerHTML = input;\n';
    const target = finding('web/page.html', 3, 'el.innerHTML = input;', 'jscr/xss-inner-html');
    const result = run({ findings: [target], fileTexts: new Map([['web/page.html', html]]) });
    expect(result.kept).toEqual([target]);
    expect(result.added).toHaveLength(1);
    expect(result.added[0]).toMatchObject({ rule: 'jscr/invalid-suppression', severity: 'low', line: 2 });
    expect(result.added[0]!.message).toMatch(/gives no reason/);
  });

  it('that name no rule are reported on added lines', () => {
    const result = run({
      fileTexts: new Map([['a.py', 'x = 1  # jscr-ignore: trust me\n']]),
      addedLines: new Map([['a.py', new Set([1])]]),
    });
    expect(result.added.map((f) => f.message)).toEqual([expect.stringMatching(/names no rule id/)]);
  });
});

describe('a suppression covers only the content it covered in the base', () => {
  const rule = 'jscr/sql-string-concat';
  const comment = `// jscr-ignore: ${rule} ids are integers here`;

  it('a standalone comment the change did not touch does not cover the rewritten or added line below it', () => {
    const text = `${comment}\n${query}\n`;
    const target = finding('src/users.js', 2, query);
    const rewritten = run({ findings: [target], fileTexts: new Map([['src/users.js', text]]), addedLines: new Map([['src/users.js', new Set([2])]]) });
    expect(rewritten.kept).toEqual([target]);
    const untouched = run({ findings: [target], fileTexts: new Map([['src/users.js', text]]), addedLines: new Map([['src/users.js', new Set<number>()]]) });
    expect(untouched.suppressed).toHaveLength(1);
  });

  it('a comment does not cover a finding when the change rewrote any line the finding spans', () => {
    const text = `${comment}\ndb.query(\n  "SELECT * FROM users WHERE id = " + req.params.id)\n`;
    const spanning = { ...finding('src/users.js', 2, query), end_line: 3 };
    const result = run({ findings: [spanning], fileTexts: new Map([['src/users.js', text]]), addedLines: new Map([['src/users.js', new Set([3])]]) });
    expect(result.kept).toEqual([spanning]);
  });

  it('a fingerprint covers an added line only when the base had that content as often', () => {
    const target = finding('src/users.js', 3, query);
    const entry: Suppression = { rule, fingerprint: target.fingerprint, reason: 'admin only' };
    const base = baseLineCounts(`x\n${query}\n`);
    const input = (text: string, baseLines: Map<string, Map<string, number>>) =>
      run({ findings: [target], configEntries: [entry], fileTexts: new Map([['src/users.js', text]]), addedLines: new Map([['src/users.js', new Set([3])]]), baseLines });
    // Moved (re-indented) from line 2 to 3: the content was there.
    expect(input(`x\ny\n  ${query}\n`, new Map([['src/users.js', base]])).suppressed).toHaveLength(1);
    // A second copy: one more than the base had.
    expect(input(`x\n${query}\n${query}\n`, new Map([['src/users.js', base]])).kept).toEqual([target]);
    // A new file, or content the base never had.
    expect(input(`x\ny\n${query}\n`, new Map()).kept).toEqual([target]);
  });
});

describe('fingerprint versions and old rule ids', () => {
  const first = atOccurrence(finding('src/users.js', 10, query), { scope: 'show', index: 0 });
  const copy = atOccurrence(finding('src/users.js', 20, query), { scope: 'show', index: 1 });

  it('a version 2 fingerprint covers its own occurrence only', () => {
    const result = run({ findings: [first, copy], configEntries: [{ rule: copy.rule, fingerprint: copy.fingerprint, reason: 'ok' }] });
    expect(result.suppressed.map((s) => s.finding)).toEqual([copy]);
    expect(result.kept).toEqual([first]);
    expect(result.notes).toEqual([]);
  });

  it('a version 1 fingerprint shared by two copies covers the first and reports the other, with a note to re-pin', () => {
    const entry: Suppression = { rule: first.rule, fingerprint: first.fingerprint_v1, reason: 'admin only' };
    const result = run({ findings: [copy, first], configEntries: [entry] });
    expect(result.suppressed.map((s) => s.finding)).toEqual([first]);
    expect(result.kept).toEqual([copy]);
    expect(result.notes).toHaveLength(1);
    expect(result.notes[0]).toContain(describeEntry(entry));
    expect(result.notes[0]).toContain(`line 10`);
    expect(result.notes[0]).toContain(`fingerprint = "${first.fingerprint}"`);
  });

  it('a version 2 fingerprint follows its code into another function while it is the one copy, never to another copy', () => {
    const entry: Suppression = { rule: first.rule, fingerprint: first.fingerprint, reason: 'ok' };
    const movedAlone = atOccurrence(first, { scope: 'Cleaner.show', index: 0 });
    expect(run({ findings: [movedAlone], configEntries: [entry] }).suppressed).toHaveLength(1);
    // with a second copy about, the moved one is not told apart from it: both are reported
    const movedWithCopy = atOccurrence(copy, { scope: 'Cleaner.show', index: 1 });
    const both = run({ findings: [movedAlone, movedWithCopy], configEntries: [entry] });
    expect(both.kept).toEqual([movedAlone, movedWithCopy]);
    // a 12-digit id names the occurrence only
    expect(run({ findings: [movedAlone], configEntries: [{ ...entry, fingerprint: first.id }] }).kept).toEqual([movedAlone]);
  });

  it('a version 1 fingerprint of a line that is there once still covers it, without a note', () => {
    const result = run({ findings: [first], configEntries: [{ rule: first.rule, fingerprint: first.fingerprint_v1.slice(0, 12), reason: 'ok' }] });
    expect(result.suppressed).toHaveLength(1);
    expect(result.notes).toEqual([]);
  });

  const aliases = new RuleAliases([{ old: 'jscr/sql-concat-old', now: 'jscr/sql-string-concat', reason: 'renamed' }]);

  it('an entry naming the old id of a renamed rule covers its findings, by rule and by the fingerprint it had then', () => {
    const byRule = run({ findings: [first], configEntries: [{ rule: 'jscr/sql-concat-old', reason: 'ok' }], aliases });
    expect(byRule.suppressed).toHaveLength(1);
    const old = atOccurrence({ ...first, rule: 'jscr/sql-concat-old' }, { scope: 'show', index: 0 });
    for (const fingerprint of [old.fingerprint, old.fingerprint_v1]) {
      const byFingerprint = run({ findings: [first, copy], configEntries: [{ rule: 'jscr/sql-concat-old', fingerprint, reason: 'ok' }], aliases });
      expect(byFingerprint.suppressed.map((s) => s.finding)).toEqual([first]);
    }
    // without the alias the old id names nothing
    expect(run({ findings: [first], configEntries: [{ rule: 'jscr/sql-concat-old', reason: 'ok' }] }).kept).toEqual([first]);
    // an entry keeping the old id with the fingerprint of today's report matches too
    expect(run({ findings: [first], configEntries: [{ rule: 'jscr/sql-concat-old', fingerprint: first.fingerprint, reason: 'ok' }], aliases }).suppressed).toHaveLength(1);
  });

  it('an inline comment naming the old id still covers the finding on its line', () => {
    const text = `// jscr-ignore: jscr/sql-concat-old ids are integers\n${query}\n`;
    const target = finding('src/users.js', 2, query);
    const fileTexts = new Map([['src/users.js', text]]);
    expect(run({ findings: [target], fileTexts, aliases }).suppressed).toHaveLength(1);
    expect(run({ findings: [target], fileTexts }).kept).toEqual([target]);
  });
});
