/**
 * The descriptions of jscr's built-in checks that are code, not rules (the prover, the secret detector,
 * prompt-injection, the suppression and configuration checks, the model), read from
 * rules/checks/built-in-checks.toml. Reports describe these rules from here, never from the text of
 * one of their findings.
 */
import { z } from 'zod';
import { loadDataFile, UniqueIds } from '../data-file/load.js';
import { packageFileText } from '../package-root.js';
import { SEVERITIES } from '../report/finding.js';
import type { RuleMeta } from '../report/options.js';

const CHECKS_FILE = 'rules/checks/built-in-checks.toml';

const CheckSchema = z.strictObject({
  id: z.string().regex(/^jscr\/[a-z0-9]+(-[a-z0-9]+)*$/, 'expected jscr/<kebab-case-name>'),
  /** Which part of jscr reports it (the finding's `source`). */
  source: z.enum(['rule', 'prover', 'injection', 'model']),
  title: z.string().min(1),
  severity: z.enum(SEVERITIES),
  cwe: z.string().regex(/^CWE-[1-9]\d*$/).optional(),
  message: z.string().min(1),
});

const ChecksFileSchema = z.strictObject({ check: z.array(CheckSchema).min(1) });

/** One built-in check as the rules reference lists it. */
export type BuiltinCheck = z.infer<typeof CheckSchema>;

/** Parse the checks file; an invalid file is a RuleFileError naming it. */
export function parseChecks(text: string, file = CHECKS_FILE): BuiltinCheck[] {
  return loadDataFile({
    file,
    text,
    kind: 'rules',
    schema: ChecksFileSchema,
    normalise: (data, context) => {
      const ids = new UniqueIds('check id');
      data.check.forEach((check, index) => ids.claim(check.id, context, ['check', index, 'id']));
      return data.check;
    },
  });
}

let cached: BuiltinCheck[] | null = null;

/** The built-in checks, read once per process. */
export function builtinChecks(): BuiltinCheck[] {
  cached ??= parseChecks(packageFileText('rules', 'checks', 'built-in-checks.toml'));
  return cached;
}

/** The checks as renderer rule metadata (SARIF `rules`). */
export function builtinCheckMeta(): RuleMeta[] {
  return builtinChecks().map((c) => ({ id: c.id, title: c.title, severity: c.severity, cwe: c.cwe ?? null, message: c.message }));
}
