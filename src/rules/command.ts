import type { CommandIO, ExitCode } from '../io.js';
import { loadBuiltinRules } from './engine.js';

/**
 * `jscr rules list`: the built-in rules sorted by id. Text is one rule a line (id, severity, CWE,
 * title); JSON is `{ schema_version, rules: [{ id, title, severity, confidence, cwe, languages, message }] }`.
 */
export async function rulesListCommand(io: CommandIO, format: 'text' | 'json' = 'text'): Promise<ExitCode> {
  const rules = [...(await loadBuiltinRules())].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (format === 'json') {
    const listed = rules.map((rule) => ({
      id: rule.id,
      title: rule.title,
      severity: rule.severity,
      confidence: rule.confidence,
      cwe: rule.cwe,
      languages: [...rule.languages],
      message: rule.message,
    }));
    io.stdout.write(`${JSON.stringify({ schema_version: 1, rules: listed }, null, 2)}\n`);
    return 0;
  }
  const idWidth = Math.max(...rules.map((rule) => rule.id.length));
  const cweWidth = Math.max(...rules.map((rule) => rule.cwe.length));
  const lines = rules.map(
    (rule) => `${rule.id.padEnd(idWidth)}  ${rule.severity.padEnd(8)}  ${rule.cwe.padEnd(cweWidth)}  ${rule.title}`,
  );
  io.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
