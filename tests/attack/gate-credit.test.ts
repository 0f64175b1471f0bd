/**
 * Attacks on the gate's credit for a search of the changed function's name (src/profile/changed-names.ts,
 * src/gate/transcript.ts): an edit that writes a definition named after whatever was searched earlier.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGate } from '../../src/gate/gate.js';

let temp: string;
let project: string;

const SOURCE = ['function applyDiscount(order) {', '  order.total -= order.coupon;', '  return order;', '}', '', 'function renderReceipt(order) {', '  return String(order.total);', '}', ''].join('\n');

beforeAll(() => {
  temp = mkdtempSync(join(tmpdir(), 'jscr-attack-gate-'));
  project = join(temp, 'project');
  mkdirSync(join(project, 'src'), { recursive: true });
  writeFileSync(join(project, 'src', 'orders.js'), SOURCE);
});
afterAll(() => rmSync(temp, { recursive: true, force: true }));

let session = 0;
/** The gate's answer to an Edit of src/orders.js after a turn whose one earlier call was a Grep of `pattern`. */
function editAfterGrep(pattern: string, oldString: string, newString: string): string {
  session++;
  const transcript = join(temp, `t${session}.jsonl`);
  const line = (record: unknown): string => `${JSON.stringify(record)}\n`;
  writeFileSync(
    transcript,
    line({ type: 'user', uuid: 'u1', message: { role: 'user', content: 'fix the discount' } }) +
      line({ type: 'assistant', uuid: 'a1', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Grep', input: { pattern, path: 'src' } }] } }) +
      line({ type: 'user', uuid: 'u2', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'src/orders.js:6' }] } }) +
      line({ type: 'assistant', uuid: 'a2', message: { id: 'm2', role: 'assistant', content: [{ type: 'tool_use', id: 't2', name: 'Edit', input: {} }] } }),
  );
  const payload = {
    session_id: `attack-${session}`,
    transcript_path: transcript,
    cwd: project,
    hook_event_name: 'PreToolUse',
    tool_name: 'Edit',
    tool_use_id: 't2',
    tool_input: { file_path: 'src/orders.js', old_string: oldString, new_string: newString },
  };
  return runGate(Buffer.from(JSON.stringify(payload)), { env: { JSCR_GATE_STATE_DIR: join(temp, `state${session}`) }, processCwd: project, now: Date.now() }).stdout;
}

describe('attack: a definition the edit writes, named after an unrelated search', () => {
  it('a search for another function does not credit an edit that adds a definition of that name', () => {
    const out = editAfterGrep('renderReceipt', '  order.total -= order.coupon;', '  order.total -= order.coupon;\n  function renderReceipt() {}');
    expect(out).toContain('"deny"');
  });

  it('a search for the function the edit really changes still credits it', () => {
    const out = editAfterGrep('applyDiscount', '  order.total -= order.coupon;', '  order.total -= Math.min(order.coupon, order.total);');
    expect(out).not.toContain('"deny"');
    expect(out).toContain('A search earlier in this turn');
  });
});
