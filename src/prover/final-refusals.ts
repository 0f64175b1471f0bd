/**
 * A helper that lets the caller through only from inside its tests and refuses at its end:
 *
 *   for (const item of access) {
 *     if (item.type === 'organization' && allowed(item, role)) return true;
 *     if (item.type === 'team' && (await teamAccess(item, userId))) return true;
 *   }
 *   throw new AuthorizationError('Not authorized');
 *
 * Every way out that does not throw is a `return` nested under a test, and the last statement of the
 * body, at its outermost level, is the refusal: a call to it is the refusal's check whatever the tests
 * are (Formbricks' `checkAuthorizationUpdated`). A `return` at the outermost level before the refusal
 * lets every caller through, and a refusal under a test is judged by the tests as before.
 */
import { indentOf } from './branches.js';
import { statementRange } from './function-body.js';
import type { FunctionIR } from '../syntax/ir-types.js';
import type { ProgramFile } from './types.js';

/** True when `line` is the last statement of `fn`, at its outermost level, and every earlier `return` is nested deeper. */
export function refusesUnlessAllowed(file: ProgramFile, fn: FunctionIR, line: number): boolean {
  const { first, last } = statementRange(file, fn);
  const body: { line: number; text: string }[] = [];
  for (let l = first; l <= last; l++) {
    const text = file.lines[l - 1] ?? '';
    if (!/^\s*[{}()\];,]*\s*$/.test(text)) body.push({ line: l, text });
  }
  const outermost = Math.min(...body.map((b) => indentOf(b.text)));
  const own = body.find((b) => b.line === line);
  if (!own || indentOf(own.text) !== outermost || !/^\s*throw\b/.test(own.text)) return false;
  // The refusal's own statement may run over several lines; nothing at the outermost level follows it.
  if (body.some((b) => b.line > line && indentOf(b.text) <= outermost)) return false;
  const returns = body.filter((b) => b.line < line && /\breturn\b/.test(b.text));
  return returns.length > 0 && returns.every((b) => indentOf(b.text) > outermost);
}
