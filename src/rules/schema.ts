/**
 * The shape of a rule file (`rules/*.toml`) as a zod schema: phase one of loading. The JSON Schema in
 * `schema/rules.schema.json` is generated from it (`tools/gen-rules-schema.ts`) and a test fails when
 * the two drift.
 */
import { z } from 'zod';
import { SEVERITIES } from '../report/finding.js';
import { FILE_KINDS, GRAMMARS } from '../languages/registry.js';

/** A rule targets tree-sitter languages, the registry's file kinds, or `any` (every file). */
const RULE_LANGUAGES = [...GRAMMARS, ...FILE_KINDS, 'any'] as const;
export type RuleLanguage = (typeof RULE_LANGUAGES)[number];

const regexText = (what: string) => z.string().min(1).describe(what);
const regexList = (what: string, meaning: string) => z.array(regexText(what)).min(1).optional().describe(meaning);

const RuleEntrySchema = z
  .strictObject({
    id: z.string().describe('`jscr/<kebab-case-name>`, unique across all rule files'),
    title: z.string().min(1).describe('one line naming the problem'),
    severity: z.enum(SEVERITIES),
    confidence: z.number().min(0).max(1).describe('how often a match is a real problem, 0..1'),
    cwe: z.string().regex(/^CWE-[1-9]\d*$/, 'expected a CWE id such as CWE-78').describe('e.g. CWE-78'),
    languages: z
      .array(z.enum(RULE_LANGUAGES))
      .min(1)
      .describe('tree-sitter language names, or the file kinds shell, dockerfile, github-actions, or any'),
    message: z.string().min(1).describe('what is wrong and what to do instead'),
    pattern: regexText('a JavaScript regex tested against each added line').optional(),
    not_pattern: regexText('cancels a `pattern` match on the same line').optional(),
    ignore_case: z.boolean().optional().describe('match `pattern` and `not_pattern` without regard to case'),
    unless_later: regexText('cancels a `pattern` match when any later line of the file matches').optional(),
    inside_block: regexText(
      'a `pattern` match counts only on a line matching this, or indented under (a descendant of) a line matching this',
    ).optional(),
    requires_in_file: regexText('the rule applies only to files where this regex matches somewhere').optional(),
    query: z
      .string()
      .min(1)
      .describe('a tree-sitter query over the new file; the start line of the `@match` capture is the finding line')
      .optional(),
    paths: z.array(z.string().min(1)).min(1).optional().describe('globs over the repository-relative path'),
    not_paths: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe('globs over the repository-relative path of files the rule never applies to'),
    safe_values: regexList(
      'a regex over the text of the `value` group',
      'pattern rules: a match whose named group `value` matches one of these whole is cancelled (literals, known-safe producers)',
    ),
    safe_producers: regexList(
      'a regex over a called function',
      'query rules: a call whose callee text matches one of these whole yields a safe `@value` (escapers, sanitisers)',
    ),
    safe_wrappers: regexList(
      'a regex over a called function',
      'query rules: a call whose callee text matches one of these whole is safe when all its arguments are (a translation of a literal)',
    ),
    safe_imports: regexList(
      'a regex over an import source',
      "query rules: a name imported from a module matching one of these is a safe `@value` (the application's own static assets)",
    ),
    line_check: z
      .enum(['bidi-reorders-code'])
      .optional()
      .describe('a check in code that a `pattern` match must also pass (see docs/rules.md)'),
    fix: z
      .strictObject({
        allowed_imports: z.array(z.string().min(1)).describe('modules a fix for this rule may import'),
      })
      .optional(),
  })
  .describe('one built-in rule');

export const RuleFileSchema = z.strictObject({
  rule: z.array(RuleEntrySchema).min(1),
});

/** A rule exactly as written in TOML, after the schema accepted it. */
export type RuleEntry = z.infer<typeof RuleEntrySchema>;

/** The JSON Schema of a rule file, as committed text (stable key order, trailing newline). */
export function rulesJsonSchemaText(): string {
  const schema = z.toJSONSchema(RuleFileSchema, { target: 'draft-2020-12' });
  const document = {
    ...schema,
    title: 'jscr built-in rule file (rules/*.toml)',
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
