import type { CommandIO, ExitCode } from '../io.js';
import { builtinChecks } from '../rules/checks.js';
import { loadBuiltinRules } from '../rules/engine.js';

/** One line of the list: a rule from rules/*.toml, or a check jscr makes in code. */
interface ListedRule {
  id: string;
  kind: 'rule' | 'check';
  title: string;
  severity: string;
  /** The declared confidence of a rule; checks have none (each finding carries its own). */
  confidence: number | null;
  cwe: string | null;
  /** Languages and file kinds a rule applies to; checks apply to every change. */
  languages: string[];
  message: string;
}

/**
 * `jscr rules list`: every rule id jscr can report, sorted by id. Text is one a line (id, severity, CWE,
 * title); JSON is `{ schema_version: 1, rules: [...] }` with the fields of ListedRule.
 */
export async function rulesListCommand(io: CommandIO, format: 'text' | 'json' = 'text'): Promise<ExitCode> {
  const listed: ListedRule[] = [
    ...(await loadBuiltinRules()).map((rule) => ({
      id: rule.id,
      kind: 'rule' as const,
      title: rule.title,
      severity: rule.severity,
      confidence: rule.confidence,
      cwe: rule.cwe,
      languages: [...rule.languages],
      message: rule.message,
    })),
    ...builtinChecks().map((check) => ({
      id: check.id,
      kind: 'check' as const,
      title: check.title,
      severity: check.severity,
      confidence: null,
      cwe: check.cwe ?? null,
      languages: ['any'],
      message: check.message,
    })),
  ].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (format === 'json') {
    io.stdout.write(`${JSON.stringify({ schema_version: 1, rules: listed }, null, 2)}\n`);
    return 0;
  }
  const idWidth = Math.max(...listed.map((rule) => rule.id.length));
  const cweWidth = Math.max(...listed.map((rule) => (rule.cwe ?? '-').length));
  const lines = listed.map((rule) => `${rule.id.padEnd(idWidth)}  ${rule.severity.padEnd(8)}  ${(rule.cwe ?? '-').padEnd(cweWidth)}  ${rule.title}`);
  io.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
