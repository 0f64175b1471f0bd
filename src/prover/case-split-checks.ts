/**
 * A case split written as two denials (Jenkins' idiom for a descriptor reached at the root and in an
 * item): `if (context == null && !Jenkins.get().hasPermission(ADMINISTER)) return;` and
 * `if (context != null && !context.hasPermission(Item.CONFIGURE)) return;`. Each denial alone checks
 * one case only; the pair covers both, so a narrowed denial counts when the same function holds a
 * denial of the same kind narrowed by the opposite null test of the same variable.
 */
import type { CallIR, FunctionIR } from '../syntax/ir-types.js';
import type { BooleanUse } from './branches.js';

/** A null test as narrowing: the variable and whether the test holds when it is null. */
export function nullCase(narrowing: string): { variable: string; whenNull: boolean } | null {
  const text = narrowing.trim();
  const equal = /^(\$?[\w.]+)\s*(===?|!==?)\s*null$/.exec(text) ?? /^null\s*(===?|!==?)\s*(\$?[\w.]+)$/.exec(text);
  if (equal) {
    const variable = (/^null/.test(text) ? equal[2] : equal[1]) ?? '';
    const operator = (/^null/.test(text) ? equal[1] : equal[2]) ?? '';
    return { variable, whenNull: !operator.startsWith('!') };
  }
  const isNull = /^is_null\(\s*(\$\w+)\s*\)$/.exec(text);
  if (isNull?.[1]) return { variable: isNull[1], whenNull: true };
  const isSet = /^isset\(\s*(\$\w+)\s*\)$/.exec(text);
  if (isSet?.[1]) return { variable: isSet[1], whenNull: false };
  const negated = /^!\s*(\$?[\w.]+)$/.exec(text);
  if (negated?.[1]) return { variable: negated[1], whenNull: true };
  return null;
}

/** What `complementedInFunction` needs: the function's calls, which are checks of the same kind, and how each is acted on. */
export interface CaseSplitInput {
  fn: FunctionIR;
  calls: readonly CallIR[];
  /** The check being judged. */
  call: CallIR;
  narrowedBy: string;
  isSameKindCheck: (call: CallIR) => boolean;
  useOf: (call: CallIR) => BooleanUse;
}

/** True when another denial of the function covers the case the judged one leaves open. */
export function complementedInFunction(input: CaseSplitInput): boolean {
  const own = nullCase(input.narrowedBy);
  if (own === null) return false;
  return input.calls.some((other) => {
    if (other === input.call || other.line === input.call.line || other.line < input.fn.startLine || other.line > input.fn.endLine || !input.isSameKindCheck(other)) return false;
    const use = input.useOf(other);
    if (use.kind !== 'leaves' || use.narrowedBy === undefined) return false;
    const theirs = nullCase(use.narrowedBy);
    return theirs !== null && theirs.variable === own.variable && theirs.whenNull !== own.whenNull;
  });
}
