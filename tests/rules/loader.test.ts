import { describe, expect, it } from 'vitest';
import { RuleFileError } from '../../src/errors.js';
import { loadRuleSources } from '../../src/rules/load.js';
import { catastrophicBacktrackingHazard } from '../../src/data-file/regex-shape.js';

/** A valid pattern rule as TOML, with fields overridable by appending lines. */
function ruleToml(id: string, extra = "pattern = 'danger\\('"): string {
  return [
    '[[rule]]',
    `id = "${id}"`,
    'title = "A test rule"',
    'severity = "high"',
    'confidence = 0.5',
    'cwe = "CWE-78"',
    'languages = ["python"]',
    'message = "Do not do this."',
    extra,
    '',
  ].join('\n');
}

async function loadError(files: { file: string; text: string }[]): Promise<RuleFileError> {
  try {
    await loadRuleSources(files);
  } catch (error) {
    if (error instanceof RuleFileError) return error;
    throw error;
  }
  throw new Error('expected a RuleFileError, but the rules loaded');
}

describe('loading rule files', () => {
  it('loads a good file into strict rules', async () => {
    const [rule] = await loadRuleSources([{ file: 'rules/test.toml', text: ruleToml('jscr/test-rule') + '[rule.fix]\nallowed_imports = ["shlex"]\n' }]);
    expect(rule?.id).toBe('jscr/test-rule');
    expect(rule?.matcher.kind).toBe('pattern');
    expect(rule?.fix.allowedImports).toEqual(['shlex']);
    expect(rule?.origin).toEqual({ file: 'rules/test.toml', line: 1 });
  });

  it('refuses a regex that does not compile, naming file, line and key', async () => {
    const error = await loadError([{ file: 'rules/bad.toml', text: ruleToml('jscr/bad-regex', "pattern = 'open(('") }]);
    expect(error.file).toBe('rules/bad.toml');
    expect(error.line).toBe(9);
    expect(error.problem).toMatch(/^rule\[0\]\.pattern: regex does not compile/);
  });

  it.each([
    ['(a+)+$', /nested unbounded repetition/],
    ['(.*)*x', /nested unbounded repetition/],
    ['^(a|a)*$', /repeated alternatives/],
    ['(\\w+\\s?)*end', /nested unbounded repetition/],
  ])('refuses the catastrophic regex %s', async (regex, reason) => {
    const error = await loadError([{ file: 'rules/slow.toml', text: ruleToml('jscr/slow-regex', `not_pattern = '${regex}'\npattern = 'x'`) }]);
    expect(error.problem).toMatch(/^rule\[0\]\.not_pattern: regex may backtrack catastrophically/);
    expect(error.problem).toMatch(reason);
    expect(error.line).toBe(9);
  });

  it('refuses a duplicate id across files, naming both places', async () => {
    const error = await loadError([
      { file: 'rules/a.toml', text: ruleToml('jscr/same-rule') },
      { file: 'rules/b.toml', text: `# comment\n${ruleToml('jscr/same-rule')}` },
    ]);
    expect(error.file).toBe('rules/b.toml');
    expect(error.line).toBe(2);
    expect(error.problem).toMatch(/duplicate rule id jscr\/same-rule \(first defined at rules\/a.toml:1\)/);
  });

  it('refuses an unknown key, naming it and its line', async () => {
    const error = await loadError([{ file: 'rules/typo.toml', text: ruleToml('jscr/typo-rule', "pattern = 'x'\nseverty = \"low\"") }]);
    expect(error.problem).toMatch(/severty/);
    expect(error.line).toBe(10);
  });

  it('refuses a query that does not compile against its grammar', async () => {
    const text = ruleToml('jscr/bad-query', "query = '(call_expresion) @match'").replace('["python"]', '["javascript"]');
    const error = await loadError([{ file: 'rules/query.toml', text }]);
    expect(error.problem).toMatch(/query does not compile for javascript/);
    expect(error.line).toBe(9);
  });

  it('refuses a query without a @match capture', async () => {
    const error = await loadError([{ file: 'rules/query.toml', text: ruleToml('jscr/no-capture', "query = '(call) @call'") }]);
    expect(error.problem).toMatch(/no @match capture/);
  });

  it.each([
    ['an id of the wrong shape', ruleToml('jscr/Bad_Name'), /id must look like jscr\/<kebab-case-name>/],
    ['an unknown language', ruleToml('jscr/cobol-rule').replace('["python"]', '["cobol"]'), /languages/],
    ['both pattern and query', ruleToml('jscr/two-matchers', "pattern = 'x'\nquery = '(call) @match'"), /exactly one of pattern or query/],
    ['no matcher', ruleToml('jscr/no-matcher', ''), /exactly one of pattern or query/],
    ['a query on a file kind', ruleToml('jscr/shell-query', "query = '(x) @match'").replace('["python"]', '["shell"]'), /only tree-sitter languages/],
    ['a bad CWE', ruleToml('jscr/bad-cwe').replace('CWE-78', '78'), /CWE id/],
    ['broken TOML', '[[rule]\nid = 1\n', /invalid TOML/],
  ])('refuses %s', async (_name, text, problem) => {
    const error = await loadError([{ file: 'rules/x.toml', text }]);
    expect(error.file).toBe('rules/x.toml');
    expect(error.problem).toMatch(problem);
    expect(error.message.startsWith('rules/x.toml')).toBe(true);
  });
});

describe('the catastrophic-backtracking check', () => {
  it.each(['(a+)+', '(a*)*', '(.*)*', '(a|a)*', '(a|ab)+', '([a-z]+\\d?)+', '(x+){2,}'])('flags %s', (regex) => {
    expect(catastrophicBacktrackingHazard(regex)).not.toBeNull();
  });
  it.each([
    '\\bsubprocess\\.run\\(',
    'a+b+c*',
    '(get|post)+',
    '(\\w+\\s*,\\s*)?x',
    '([&\\w.]+\\s*,\\s*){0,2}y',
    '[\\u202A-\\u202E\\u2066-\\u2069]',
    '(?<![\\w>:$])eval\\s*\\(',
    "\\bdocument\\.write(ln)?\\s*\\((?!\\s*(['\"])[^'\"]*\\2\\s*\\))",
  ])('accepts %s', (regex) => {
    expect(catastrophicBacktrackingHazard(regex)).toBeNull();
  });
});

describe('safe values and line checks in rule files', () => {
  it('refuses safe_values without a value group, and each matcher\'s keys on the other kind', async () => {
    const noGroup = await loadError([{ file: 'rules/t.toml', text: ruleToml('jscr/no-group', "pattern = 'danger\\('\nsafe_values = ['^x$']") }]);
    expect(noGroup.problem).toMatch(/safe_values needs a \(\?<value>\.\.\.\) group/);
    const onPattern = await loadError([{ file: 'rules/t.toml', text: ruleToml('jscr/producers-on-pattern', "pattern = 'danger\\('\nsafe_producers = ['^escape$']") }]);
    expect(onPattern.problem).toMatch(/safe_producers applies to query rules only/);
    const onQuery = await loadError([
      { file: 'rules/t.toml', text: ruleToml('jscr/values-on-query', "query = '(call) @match'\nsafe_values = ['^x$']") },
    ]);
    expect(onQuery.problem).toMatch(/safe_values applies to pattern rules only/);
  });

  it('refuses a safe regex that may backtrack catastrophically, naming its index', async () => {
    const error = await loadError([{ file: 'rules/t.toml', text: ruleToml('jscr/slow-safe', "pattern = 'x(?<value>.*)'\nsafe_values = ['^ok$', '^(a+)+$']") }]);
    expect(error.problem).toMatch(/^rule\[0\]\.safe_values\[1\]: regex may backtrack catastrophically/);
  });

  it('refuses an unknown line check', async () => {
    const error = await loadError([{ file: 'rules/t.toml', text: ruleToml('jscr/odd-check', "pattern = 'x'\nline_check = 'no-such-check'") }]);
    expect(error.problem).toMatch(/line_check/);
  });

  it('applies not_paths: a file they match is never checked by the rule', async () => {
    const [rule] = await loadRuleSources([{ file: 'rules/t.toml', text: ruleToml('jscr/not-here', "pattern = 'x'\nnot_paths = ['**/*.po']") }]);
    expect(rule!.appliesToPath('src/app.py')).toBe(true);
    expect(rule!.appliesToPath('locale/de/LC_MESSAGES/django.po')).toBe(false);
  });
});
