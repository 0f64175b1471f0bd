/**
 * Request input inside one function, read textually like the rest of the prover: the parameters the
 * framework fills from the request (the header's `request_inputs`: `@QueryParameter String apiUri`, a
 * `StaplerRequest`), and the locals assigned from an expression that mentions one before the call.
 * An operation row with `arguments_from = "request"` is an operation only where one of its call's
 * arguments mentions such a value: a connection to an address the caller chose (server-side request
 * forgery, credential capture), not one to the address an administrator configured.
 */
import type { CallIR, FunctionIR } from '../syntax/ir-types.js';
import type { LanguageFacts } from './facts.js';
import { escape } from './branches.js';
import { callArguments } from './ownership.js';
import type { ProgramFile } from './types.js';

/** `name = value` and `Type name = value` (Java, PHP, TypeScript); the last word before `=` is the name. */
const ASSIGNMENT = /(\$?[A-Za-z_]\w*)\s*(?:\?\?)?=(?![=>])\s*(.+)$/;
/** Java/TypeScript `for (X e : list)` / `for (const e of list)`, PHP `foreach ($list as $e)`. */
const LOOPS = [/\bfor\s*\(\s*(?:final\s+|const\s+|let\s+|var\s+)?(?:[\w<>.?,\s]+\s+)?(\$?\w+)\s*(?::|\bof\b|\bin\b)\s*(.+)\)/, /foreach\s*\((.+?)\s+as\s+(?:\$\w+\s*=>\s*)?(\$\w+)/];

/** A pattern for a name read as a value (not `this.name`, not a longer word). */
function mention(name: string): RegExp {
  return new RegExp(`(?<![\\w$.>])${escape(name)}(?![\\w$])`);
}

/** True when `text` reads one of `names`. */
function mentionsAny(text: string, names: ReadonlySet<string>): boolean {
  for (const name of names) if (mention(name).test(text)) return true;
  return false;
}

/** The request-filled parameters of `fn`, then the locals derived from them up to `untilLine` (exclusive). */
export function requestValues(file: ProgramFile, fn: FunctionIR, facts: LanguageFacts, untilLine: number): Set<string> {
  const values = new Set<string>();
  for (const p of fn.parameters) {
    if (facts.requestInputs.some((re) => (p.type !== null && re.test(p.type)) || p.annotations.some((a) => re.test(a)))) values.add(p.name);
  }
  if (values.size === 0) return values;
  for (let line = fn.bodyStartLine; line < untilLine && line <= fn.endLine; line++) {
    const text = (file.lines[line - 1] ?? '').replace(/\/\/.*$/, '');
    const loop = LOOPS[0]?.exec(text);
    const phpLoop = LOOPS[1]?.exec(text);
    if (loop?.[1] && loop[2] && mentionsAny(loop[2], values)) values.add(loop[1]);
    else if (phpLoop?.[1] && phpLoop[2] && mentionsAny(phpLoop[1], values)) values.add(phpLoop[2]);
    else {
      const assigned = ASSIGNMENT.exec(text);
      if (assigned?.[1] && assigned[2] !== undefined && mentionsAny(assigned[2], values)) values.add(assigned[1]);
    }
  }
  return values;
}

/** True when an argument of `call` (inside `fn`) reads request input. */
export function argumentsFromRequest(file: ProgramFile, fn: FunctionIR, call: CallIR, facts: LanguageFacts): boolean {
  const values = requestValues(file, fn, facts, call.line);
  if (values.size === 0) return false;
  const args = callArguments(call.text, call.callee) ?? [call.text.slice(call.text.indexOf(call.callee) + call.callee.length)];
  return args.some((arg) => mentionsAny(arg, values));
}
