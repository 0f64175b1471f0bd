import type { CommandIO, ExitCode } from '../io.js';
import { loadBuiltinRules } from './engine.js';

/** `jscr rules list`: the built-in rules, one a line, sorted by id: id, severity, CWE, title. */
export async function rulesListCommand(io: CommandIO): Promise<ExitCode> {
  const rules = [...(await loadBuiltinRules())].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const idWidth = Math.max(...rules.map((rule) => rule.id.length));
  const cweWidth = Math.max(...rules.map((rule) => rule.cwe.length));
  const lines = rules.map(
    (rule) => `${rule.id.padEnd(idWidth)}  ${rule.severity.padEnd(8)}  ${rule.cwe.padEnd(cweWidth)}  ${rule.title}`,
  );
  io.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
