import { describe, expect, it } from 'vitest';
import { FACTS_LANGUAGES, loadFacts, parseFactsFile } from '../../src/prover/facts.js';
import { RuleFileError } from '../../src/errors.js';

const HEADER = `[header]
source = "test"
version = "1"
region = "test"
language = "java"
`;
const GUARD = `
[[discharger]]
id = "g"
kind = "path_guard"
description = "a check"
calls = ['(^|\\.)checkPermission$']
`;

describe('facts', () => {
  it('loads every built-in facts file with a checked header and real rows', async () => {
    const facts = await loadFacts();
    for (const language of FACTS_LANGUAGES) {
      const f = facts[language];
      expect(f.source.length).toBeGreaterThan(10);
      expect(f.operations.length).toBeGreaterThan(4);
      expect(f.dischargers.length).toBeGreaterThan(3);
    }
    const java = facts.java;
    expect(java.operations.find((o) => o.id === 'jenkins.credentials-lookup')?.calls.some((re) => re.test('CredentialsProvider.lookupCredentials'))).toBe(true);
    expect(java.dischargers.find((d) => d.calls.some((re) => re.test('Jenkins.get().checkPermission')))?.kind).toBe('path_guard');
    // Framework reference 0.2: @RequirePOST is recognised, and only as CSRF protection.
    expect(java.dischargers.find((d) => d.decorators.some((re) => re.test('RequirePOST')))?.kind).toBe('csrf_guard');
    expect(facts.python.dischargers.find((d) => d.decorators.some((re) => re.test('tornado.web.authenticated')))?.kind).toBe('authn');
    expect(facts.php.dischargers.find((d) => d.middleware.some((re) => re.test('auth')))?.kind).toBe('authn');
    expect(facts.php.dischargers.find((d) => d.calls.some((re) => re.test('$this.denyAccessUnlessGranted')))?.kind).toBe('path_guard');
  });

  it('accepts a minimal valid file', () => {
    const facts = parseFactsFile('t.toml', `${HEADER}${GUARD}
[[operation]]
id = "op"
kind = "credential_access"
description = "x"
calls = ['lookupCredentials$']
requires = ["path_guard"]
`);
    expect(facts.operations[0]?.requires).toEqual(['path_guard']);
  });

  const refusals: [string, string, RegExp][] = [
    ['a duplicate id', `${HEADER}${GUARD}${GUARD}`, /duplicate id g/],
    ['an unknown discharger kind', `${HEADER}${GUARD.replace('path_guard', 'magic')}`, /kind/],
    ['an operation requiring CSRF protection', `${HEADER}${GUARD}\n[[operation]]\nid = "op"\nkind = "file_write"\ndescription = "x"\ncalls = ['x$']\nrequires = ["csrf_guard"]\n`, /never an authorization check/],
    ['a regex that does not compile', `${HEADER}${GUARD.replace("'(^|\\.)checkPermission$'", "'(unclosed'")}`, /does not compile|could not read/],
    ['a catastrophic regex', `${HEADER}${GUARD.replace("'(^|\\.)checkPermission$'", () => "'(a+)+$'")}`, /backtrack catastrophically/],
    ['an unknown key', `${HEADER}${GUARD}surprise = 1\n`, /surprise|Unrecognized/i],
    ['handlers without a framework', `${HEADER}${GUARD}\n[[operation]]\nid = "op"\nkind = "file_write"\ndescription = "x"\nhandlers = ['^doTest']\nrequires = ["path_guard"]\n`, /framework/],
    ['a missing header field', HEADER.replace('region = "test"\n', '') + GUARD, /region/],
  ];
  for (const [name, text, message] of refusals) {
    it(`refuses ${name}`, () => {
      expect(() => parseFactsFile('t.toml', text)).toThrow(RuleFileError);
      expect(() => parseFactsFile('t.toml', text)).toThrow(message);
    });
  }
});
