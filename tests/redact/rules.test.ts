import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RuleFileError } from '../../src/errors.js';
import { builtInSecretRules, catastrophicBacktrackingHazard, parseSecretRules, secretRulesPath } from '../../src/redact/index.js';

const header = `[placeholders]
contains = ["changeme"]
patterns = ['^<[^>]*>$']
[generic]
bare_reference_patterns = ['^[a-z]+$']
word_like_patterns = ['^[a-z]+$']
`;

function ruleFile(...rules: string[]): string {
  return header + rules.map((body) => `[[rule]]\n${body}\n`).join('');
}

const goodRule = (id: string, pattern = "'''(?<value>tok_[a-z0-9]{8})'''"): string =>
  `id = "${id}"\ntitle = "a token"\nseverity = "high"\nconfidence = 0.9\nkeywords = ["tok_"]\npattern = ${pattern}`;

function loadError(source: string): RuleFileError {
  try {
    parseSecretRules(source, 'secrets.toml');
  } catch (error) {
    if (error instanceof RuleFileError) return error;
    throw error;
  }
  throw new Error('expected the rule file to be refused');
}

describe('secret rule file loading', () => {
  it('loads the built-in rule set with every provider the review promises', () => {
    const ids = builtInSecretRules().rules.map((rule) => rule.id);
    for (const id of [
      'aws-access-key-id', 'aws-secret-access-key', 'github-token', 'gitlab-token', 'slack-token', 'slack-webhook',
      'stripe-live-key', 'google-api-key', 'google-service-account-key', 'azure-storage-account-key',
      'azure-client-secret', 'npm-token', 'pypi-token', 'openai-api-key', 'anthropic-api-key', 'private-key', 'jwt',
      'database-url-password', 'generic-password', 'generic-secret', 'generic-api-key', 'generic-token',
    ]) {
      expect(ids).toContain(id);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('finds rules/secrets.toml from the source tree', () => {
    expect(readFileSync(secretRulesPath(), 'utf8')).toContain('[[rule]]');
  });

  it('accepts a minimal valid file', () => {
    expect(parseSecretRules(ruleFile(goodRule('demo-token')), 'x.toml').rules).toHaveLength(1);
  });

  it('refuses duplicate ids, naming the line', () => {
    const error = loadError(ruleFile(goodRule('demo-token'), goodRule('demo-token')));
    expect(error.message).toMatch(/duplicate rule id demo-token/);
    expect(error.line).toBe(15); // the second `id = "demo-token"`
  });

  it('refuses a regex that does not compile', () => {
    expect(loadError(ruleFile(goodRule('demo-token', "'''(?<value>tok_[a-z'''"))).message).toMatch(/does not compile/);
  });

  it('refuses a catastrophic shape', () => {
    expect(loadError(ruleFile(goodRule('demo-token', "'''(?<value>(?:a+b?)+)'''"))).message).toMatch(/nested repetition/);
  });

  it('refuses a pattern without a value group', () => {
    expect(loadError(ruleFile(goodRule('demo-token', "'''tok_[a-z0-9]{8}'''"))).message).toMatch(/no \(\?<value>/);
  });

  it('a block rule has begin and end markers and no pattern; a line rule has a pattern and no markers', () => {
    const block = `id = "demo-key"\ntitle = "a key"\nseverity = "critical"\nconfidence = 0.9\nkeywords = ["demo key"]\nscope = "block"`;
    const markers = `\nbegin = '''-----BEGIN DEMO KEY-----'''\nend = '''-----END DEMO KEY-----'''`;
    const rules = parseSecretRules(ruleFile(block + markers), 'secrets.toml');
    expect(rules.rules[0]?.matcher.scope).toBe('block');
    expect(rules.maxMatchesPerFile).toBe(200);
    expect(loadError(ruleFile(block)).message).toMatch(/block rule has begin and end/);
    expect(loadError(ruleFile(`${block}${markers}\npattern = '''(?<value>x)'''`)).message).toMatch(/no pattern/);
    expect(loadError(ruleFile(`${goodRule('demo-token')}${markers}`)).message).toMatch(/line rule has a pattern, and no begin or end/);
    expect(loadError(ruleFile(`${block}\nbegin = '''(?:a+)+'''\nend = '''x'''`)).message).toMatch(/nested repetition/);
  });

  it('reads the per-file match cap from [limits]', () => {
    expect(parseSecretRules(`[limits]\nmax_matches_per_file = 7\n${ruleFile(goodRule('demo-token'))}`, 'secrets.toml').maxMatchesPerFile).toBe(7);
    expect(loadError(`[limits]\nmax_matches_per_file = 0\n${ruleFile(goodRule('demo-token'))}`).message).toMatch(/limits\.max_matches_per_file/);
  });

  it('refuses unknown keys and wrong types with the dotted path', () => {
    expect(loadError(ruleFile(`${goodRule('demo-token')}\nseverit = "low"`)).message).toMatch(/rule\[0\]\.severit/);
    expect(loadError(ruleFile(goodRule('demo-token').replace('"high"', '"low"'))).message).toMatch(/rule\[0\]\.severity/);
  });

  it('reports TOML syntax errors with a 1-based line', () => {
    const error = loadError(`${header}[[rule]\n`);
    expect(error.message).toMatch(/invalid TOML/);
    expect(error.line).toBe(7);
  });
});

describe('catastrophicBacktrackingHazard (secret rule shapes)', () => {
  it.each(['(a+)+', '(?:\\w+\\s?)*', '(x*){2,}', '((ab)*c)+', '(?<v>[a-z]+)*', '(a|ab)*', '(?<w>a+)\\k<w>+'])('refuses %s', (source) => {
    expect(catastrophicBacktrackingHazard(source)).not.toBeNull();
  });
  it.each(['(?:proj-)?[a-z]{20,}', '(a+)?b', '[(+*]+', '\\(a+\\)+', '(?:ab|cd){3}', 'a{2}(b{3})', '^(.)\\1+$'])('accepts %s', (source) => {
    expect(catastrophicBacktrackingHazard(source)).toBeNull();
  });
});
