/**
 * A handler-named operation (a Stapler `doTestConnection`: the method is the operation by Jenkins
 * convention) is protected by what it does, not by its name: it is discharged when the checks of its
 * body come before each line that does the work, on the control-flow graph. The work is a call to a
 * repository method (building the client, sending the test message) or a call an operation row names;
 * reading parameters and building the answer (`FormValidation.error(...)`) before the check is not.
 * A method with no such line is judged as a whole (any check in it counts), as before.
 */
import type { LanguageFacts } from './facts.js';
import { judgeHop, type CheckShape, type ControlFlow, type HopJudgement } from './dominance.js';
import { callSignature, resolveCall, type Program } from './resolution.js';
import type { Witness } from './types.js';

/** The lines of the handler's body that do its work, ascending; empty when none is found. */
export function handlerWorkLines(program: Program, facts: LanguageFacts | undefined, functionId: string, checks: readonly Witness[]): number[] {
  const ref = program.functions.get(functionId);
  const file = ref ? program.byPath.get(ref.path) : undefined;
  if (!ref || !file) return [];
  const checkLines = new Set(checks.map((w) => w.line));
  const rows = facts?.operations.filter((o) => o.calls.length > 0) ?? [];
  const lines = new Set<number>();
  for (const call of file.ir.calls) {
    if (call.line <= ref.fn.startLine || call.line > ref.fn.endLine || checkLines.has(call.line) || lines.has(call.line)) continue;
    const signature = callSignature(call);
    if (rows.some((o) => o.calls.some((re) => re.test(signature))) || resolveCall(program, file, ref.fn, call).targets.length > 0) lines.add(call.line);
  }
  return [...lines].sort((a, b) => a - b);
}

/** The checks of the handler that come before every work line (each judged as the operation's bound). */
export function judgeHandler(control: ControlFlow | undefined, functionId: string, checks: readonly Witness[], workLines: readonly number[], shapeOf: (w: Witness) => CheckShape): HopJudgement {
  if (workLines.length === 0) return judgeHop(control, functionId, checks, Number.POSITIVE_INFINITY, true, shapeOf);
  const judged = workLines.map((line) => judgeHop(control, functionId, checks, line, true, shapeOf));
  const everywhere = checks.filter((w) => judged.every((j) => j.dominating.includes(w)));
  return {
    dominating: everywhere,
    byOrder: judged.find((j) => j.byOrder !== null)?.byOrder ?? null,
    uncovered: judged.flatMap((j) => j.uncovered).filter((u, i, all) => all.findIndex((o) => o.witness === u.witness) === i),
  };
}
