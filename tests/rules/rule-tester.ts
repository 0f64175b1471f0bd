/**
 * A RuleTester-style table harness: literal valid and invalid cases per rule id. An invalid case names
 * the rule and the lines it must be reported on (exactly those lines, for that rule); a valid case must
 * give no finding of its rule. The harness refuses a table with an invalid case that expects nothing,
 * an unknown rule id, or a duplicate case, before any test runs.
 */
import { describe, expect, it } from 'vitest';
import { fileKind, runRules, type Rule } from '../../src/rules/engine.js';
import { languageForPath } from '../../src/syntax/languages.js';

interface ValidCase {
  /** Repository-relative path; its name decides the language or file kind. */
  path: string;
  code: string;
}

interface InvalidCase extends ValidCase {
  /** The 1-based lines the case's rule must report, and no others. */
  lines: number[];
}

export interface RuleCases {
  rule: string;
  valid: ValidCase[];
  invalid: InvalidCase[];
}

/** Throws when the table itself is wrong; returns nothing otherwise. */
export function checkTable(table: readonly RuleCases[], knownIds: ReadonlySet<string>): void {
  const seenRules = new Set<string>();
  const seenCases = new Set<string>();
  for (const entry of table) {
    if (!knownIds.has(entry.rule)) throw new Error(`rule tester: unknown rule id ${entry.rule}`);
    if (seenRules.has(entry.rule)) throw new Error(`rule tester: ${entry.rule} has two table entries`);
    seenRules.add(entry.rule);
    for (const [kind, cases] of [['valid', entry.valid], ['invalid', entry.invalid]] as const) {
      for (const testCase of cases) {
        const key = `${entry.rule}\0${testCase.path}\0${testCase.code}`;
        if (seenCases.has(key)) throw new Error(`rule tester: duplicate ${kind} case for ${entry.rule}: ${JSON.stringify(testCase.code)}`);
        seenCases.add(key);
        if (kind === 'invalid' && (testCase as InvalidCase).lines.length === 0) {
          throw new Error(`rule tester: invalid case for ${entry.rule} expects no finding: ${JSON.stringify(testCase.code)}`);
        }
      }
    }
  }
}

/** The lines on which `rule` fires for one file, every line scanned. */
async function linesReported(rules: readonly Rule[], ruleId: string, path: string, code: string): Promise<number[]> {
  const { findings } = await runRules({
    files: [{ path, language: languageForPath(path), kind: fileKind(path, code), text: code, scanLines: 'all' }],
    rules,
  });
  return findings.filter((finding) => finding.rule === ruleId).map((finding) => finding.line);
}

/** Declare one vitest block per rule with a test per case. */
export function ruleTester(rules: readonly Rule[], table: readonly RuleCases[]): void {
  checkTable(table, new Set(rules.map((rule) => rule.id)));
  for (const entry of table) {
    describe(entry.rule, () => {
      entry.valid.forEach((testCase, index) => {
        it(`valid #${index + 1} (${testCase.path})`, async () => {
          expect(await linesReported(rules, entry.rule, testCase.path, testCase.code)).toEqual([]);
        });
      });
      entry.invalid.forEach((testCase, index) => {
        it(`invalid #${index + 1} (${testCase.path})`, async () => {
          expect(await linesReported(rules, entry.rule, testCase.path, testCase.code)).toEqual(testCase.lines);
        });
      });
    });
  }
}
