/**
 * Prior-search credit for a search of the function or class an Edit changes (issue #13): the
 * local-callers question asks for that name's call sites, so searching for it is the investigation.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGate } from '../../src/gate/gate.js';
import { changedNames } from '../../src/profile/changed-names.js';

let temp: string;
let project: string;

const JS = [
  'const helpers = require("./helpers");',
  '',
  'function computeInvoiceTotal(lines) {',
  '  let sum = 0;',
  '  for (const line of lines) {',
  '    sum += line.amount;',
  '  }',
  '  return sum;',
  '}',
  '',
  'function formatCurrency(value) {',
  '  return helpers.money(value);',
  '}',
  'module.exports = { computeInvoiceTotal, formatCurrency };',
  '',
].join('\n');

beforeAll(() => {
  temp = mkdtempSync(join(tmpdir(), 'jscr-gate-names-'));
  project = join(temp, 'project');
  mkdirSync(join(project, 'src'), { recursive: true });
  writeFileSync(join(project, 'src', 'billing.js'), JS);
});
afterAll(() => rmSync(temp, { recursive: true, force: true }));

let session = 0;
/** One gate call for an Edit of src/billing.js after a turn whose only earlier call was `search`. */
function gateAfterSearch(search: { name: string; input: Record<string, unknown> }, oldString: string, newString: string): string {
  session++;
  const transcript = join(temp, `t${session}.jsonl`);
  const line = (record: unknown): string => `${JSON.stringify(record)}\n`;
  writeFileSync(
    transcript,
    line({ type: 'user', uuid: 'u1', message: { role: 'user', content: 'fix the total' } }) +
      line({ type: 'assistant', uuid: 'a1', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 't1', ...search }] } }) +
      line({ type: 'user', uuid: 'u2', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'src/billing.js:3' }] } }) +
      line({ type: 'assistant', uuid: 'a2', message: { id: 'm2', role: 'assistant', content: [{ type: 'tool_use', id: 't2', name: 'Edit', input: {} }] } }),
  );
  const payload = {
    session_id: `names-${session}`,
    transcript_path: transcript,
    cwd: project,
    hook_event_name: 'PreToolUse',
    tool_name: 'Edit',
    tool_use_id: 't2',
    tool_input: { file_path: 'src/billing.js', old_string: oldString, new_string: newString },
  };
  const outcome = runGate(Buffer.from(JSON.stringify(payload)), { env: { JSCR_GATE_STATE_DIR: join(temp, `state${session}`) }, processCwd: project, now: Date.now() });
  return outcome.stdout;
}

describe('a search for the changed function credits the edit', () => {
  it('a Grep of the enclosing function name credits a body edit', () => {
    const out = gateAfterSearch({ name: 'Grep', input: { pattern: 'computeInvoiceTotal', path: 'src' } }, 'sum += line.amount;', 'sum += line.amount * line.quantity;');
    expect(out).toContain('A search earlier in this turn');
    expect(out).not.toContain('"deny"');
  });

  it('a shell search of the name credits too', () => {
    const out = gateAfterSearch({ name: 'Bash', input: { command: 'rg -n computeInvoiceTotal src' } }, 'sum += line.amount;', 'sum += 2 * line.amount;');
    expect(out).toContain('A search earlier in this turn');
  });

  it('a search for another function of the file does not credit', () => {
    const out = gateAfterSearch({ name: 'Grep', input: { pattern: 'formatCurrency', path: 'src' } }, 'sum += line.amount;', 'sum -= line.amount;');
    expect(out).toContain('"deny"');
  });

  it('a search for the name outside the folder that holds the file does not credit', () => {
    const out = gateAfterSearch({ name: 'Grep', input: { pattern: 'computeInvoiceTotal', path: 'docs' } }, 'sum += line.amount;', 'sum += line.amount + 1;');
    expect(out).toContain('"deny"');
  });

  it('a name declared on the edited line credits (a changed signature)', () => {
    const out = gateAfterSearch({ name: 'Grep', input: { pattern: 'formatCurrency' } }, 'function formatCurrency(value) {', 'function formatCurrency(value, locale) {');
    expect(out).toContain('A search earlier in this turn');
  });
});

describe('changedNames', () => {
  it('reads the enclosing definition by indentation, past blocks, in several languages', () => {
    expect(changedNames(JS, [{ oldString: 'sum += line.amount;', newString: 'x', replaceAll: false }], 'javascript')).toEqual(['computeInvoiceTotal']);
    const py = 'class Cart:\n    def add(self, item):\n        if item:\n            self.items.append(item)\n';
    expect(changedNames(py, [{ oldString: 'self.items.append(item)', newString: 'self.items.insert(0, item)', replaceAll: false }], 'python')).toEqual(['add']);
    const go = 'package cart\n\nfunc (c *Cart) Total() int {\n\tn := 0\n\treturn n\n}\n';
    expect(changedNames(go, [{ oldString: 'n := 0', newString: 'n := 1', replaceAll: false }], 'go')).toEqual(['Total']);
    const java = 'public class Cart {\n    public int totalPrice(List<Item> items) {\n        return items.size();\n    }\n}\n';
    expect(changedNames(java, [{ oldString: 'return items.size();', newString: 'return 0;', replaceAll: false }], 'java')).toEqual(['totalPrice']);
  });

  it('names nothing at top level and never a control keyword', () => {
    const top = 'const a = 1;\nif (a) {\n  run(a);\n}\n';
    expect(changedNames(top, [{ oldString: 'run(a);', newString: 'run(a, 2);', replaceAll: false }], 'javascript')).toEqual([]);
  });
});
