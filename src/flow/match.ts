/** Whether a call of the flow IR is one a row names (src/flow/rows.ts CallMatcher). */
import type { FlowExpr, FlowFile, FlowLiteral } from './ir.js';
import { renderExpr } from './render.js';
import type { CallMatcher } from './rows.js';
import { simpleType } from './value.js';

const NO_LABELS: ReadonlySet<string> = new Set();

export type CallExpr = Extract<FlowExpr, { kind: 'call' }>;

/** The name a call is matched by: the callee, or for `new` the simple class name. */
export function calledName(call: CallExpr): string {
  return call.isNew ? (simpleType(call.constructed ?? call.callee) ?? call.callee) : call.callee;
}

/** `constants[i]`: the constant value of argument i, or undefined when it is not known. */
export function callMatches(matcher: CallMatcher, call: CallExpr, receiverType: string | null, file: FlowFile, constants: readonly (FlowLiteral | undefined)[] = [], receiverLabels: ReadonlySet<string> = NO_LABELS): boolean {
  if (!matcher.names.has('*') && !matcher.names.has(calledName(call))) return false;
  if (matcher.receiverLabel !== null && !receiverLabels.has(matcher.receiverLabel)) return false;
  if (matcher.notReceiverTypes !== null && matcher.notReceiverTypes.has(simpleType(receiverType) ?? '')) return false;
  for (const [i, pattern] of matcher.constantArguments.entries()) {
    const value = constants[i];
    if (value === undefined || !pattern.test(String(value))) return false;
  }
  if (matcher.isNew !== null && matcher.isNew !== call.isNew) return false;
  if (matcher.arity !== null && matcher.arity !== call.arguments.length) return false;
  if (matcher.receiverTypes !== null) {
    const type = simpleType(receiverType);
    if (type === null ? matcher.strictReceiver : !matcher.receiverTypes.has(type)) return false;
  }
  if (matcher.receiver !== null && !matcher.receiver.test(call.receiver ? renderExpr(call.receiver) : '')) return false;
  if (matcher.calleeText !== null && !matcher.calleeText.test(call.calleeText)) return false;
  if (matcher.importedFrom !== null) {
    const module = file.imports[call.receiver === null ? call.callee : call.calleeText.split(/[.:>-]/)[0] ?? ''];
    if (module === undefined || !matcher.importedFrom.test(module)) return false;
  }
  return true;
}
