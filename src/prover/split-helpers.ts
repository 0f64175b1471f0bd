/**
 * A check helper that splits the cases with `if`/`else` and checks in every arm (Jenkins' idiom for a
 * descriptor reached at the root and in an item):
 *
 *     private void throwIfNoPermission(Item context) {
 *         if (context != null) { context.checkPermission(Item.CONFIGURE); }
 *         else { Jenkins.get().checkPermission(Jenkins.ADMINISTER); }
 *     }
 *
 * No single check is on every path, yet every path checks: the helper checks what all its arms check.
 * Only a chain at the body's top level that ends in a plain `else`, with no `return` above it, counts,
 * and an arm counts only for checks written directly in it (not under a further condition) or when it
 * throws and never returns.
 */
import type { FunctionIR } from '../syntax/ir-types.js';
import type { DischargeKind, ProgramFile, Witness } from './types.js';

interface BodyLine {
  line: number;
  text: string;
}

function indentOf(text: string): number {
  return /^\s*/.exec(text)?.[0].length ?? 0;
}

/** The kinds every arm of a top-level `if`/`else if`/`else` chain of `fn` checks. */
export function ifElseKinds(file: ProgramFile, fn: FunctionIR, candidates: readonly Witness[]): Set<DischargeKind> {
  const kinds = new Set<DischargeKind>();
  const body: BodyLine[] = [];
  for (let line = fn.bodyStartLine + 1; line < fn.endLine; line++) {
    const text = file.lines[line - 1] ?? '';
    if (text.trim() !== '') body.push({ line, text });
  }
  if (body.length === 0) return kinds;
  const outermost = Math.min(...body.map((l) => indentOf(l.text)));
  for (let i = 0; i < body.length; i++) {
    const head = body[i];
    if (!head || indentOf(head.text) !== outermost) continue;
    if (/^\s*return\b/.test(head.text)) break; // a chain after an early exit is not on every path
    if (!/^\s*if\s*\(.*\{\s*$/.test(head.text)) continue;
    const arms = armsOf(body, i, outermost);
    if (arms === null) continue;
    let common: Set<DischargeKind> | null = null;
    for (const arm of arms) {
      const armIndent = Math.min(...arm.map((l) => indentOf(l.text)));
      const direct = candidates.filter((w) => arm.some((l) => l.line === w.line && indentOf(l.text) === armIndent)).map((w) => w.kind);
      const returns = arm.some((l) => /\breturn\b/.test(l.text));
      const throws = !returns && arm.some((l) => /^\s*throw\b/.test(l.text));
      const covered: Set<DischargeKind> = throws ? new Set(candidates.map((w) => w.kind)) : new Set(returns ? [] : direct);
      common = common === null ? covered : new Set([...common].filter((kind: DischargeKind) => covered.has(kind)));
    }
    for (const kind of common ?? []) kinds.add(kind);
  }
  return kinds;
}

/**
 * The arms of the chain opened at `body[start]`, each the lines between its braces, when the chain is
 * written with braces on the separators (`} else if (...) {`, `} else {`) and ends in a plain `else`.
 */
function armsOf(body: readonly BodyLine[], start: number, outermost: number): BodyLine[][] | null {
  const arms: BodyLine[][] = [];
  let current: BodyLine[] = [];
  let sawElse = false;
  for (let j = start + 1; j < body.length; j++) {
    const line = body[j];
    if (!line) break;
    if (indentOf(line.text) > outermost) {
      current.push(line);
      continue;
    }
    const text = line.text.trim();
    if (/^\}\s*else\s+if\s*\(.*\{$/.test(text)) {
      arms.push(current);
      current = [];
      continue;
    }
    if (/^\}\s*else\s*\{$/.test(text)) {
      arms.push(current);
      current = [];
      sawElse = true;
      continue;
    }
    if (text === '}') {
      arms.push(current);
      return sawElse && arms.every((arm) => arm.length > 0) ? arms : null;
    }
    return null;
  }
  return null;
}
