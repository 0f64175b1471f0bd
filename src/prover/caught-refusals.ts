/**
 * Whether a JavaScript middleware's refusal survives the `try` it is thrown in. A wrapper that checks
 * inside `try` and answers from `catch` (`catch (err) { return NextResponse.json({ error }, { status }) }`,
 * dub's `withWorkspace`) refuses the caller; a `catch` that logs and hands the request on anyway
 * (`catch (e) { console.error(e) } return next()`, or `catch { return handler(...) }`) turns the refusal
 * into nothing. Read from the text by indentation, like the other branch readings of middleware.
 */
import type { FunctionIR } from '../syntax/ir-types.js';
import { indentOf } from './branches.js';
import type { ProgramFile } from './types.js';

const TRY_OPEN = /^\s*(?:\}\s*)?try\s*\{\s*$/;
const CATCH_OPEN = /^\s*\}\s*catch\b/;
const LEAVES = /^\s*(?:return|throw)\b/;
/** A statement that answers the request without leaving (`reply.send(err)`, `res.status(401).json(...)`): fastify-jwt's documented `authenticate`. */
const ANSWERS = /^\s*(?:await\s+)?(?:reply|res|response|ctx)\b(?:\.(?:code|status)\([^)]*\))?\.(?:send|json|end|sendStatus|redirect)\s*\(/;

/** The lines of the `catch` arm of the nearest `try` enclosing `line` in `fn`, or null when `line` is in no `try`. */
function enclosingCatch(file: ProgramFile, fn: FunctionIR, line: number): { from: number; to: number } | null {
  let indent = indentOf(file.lines[line - 1] ?? '');
  for (let l = line - 1; l > fn.startLine; l--) {
    const text = file.lines[l - 1] ?? '';
    if (text.trim() === '' || indentOf(text) >= indent) continue;
    indent = indentOf(text);
    if (!TRY_OPEN.test(text)) continue;
    for (let k = line + 1; k <= fn.endLine; k++) {
      const close = file.lines[k - 1] ?? '';
      if (close.trim() === '' || indentOf(close) !== indent) continue;
      if (!CATCH_OPEN.test(close)) return null;
      // The arm ends at the first `}` back at the `try`'s indentation.
      let end = k + 1;
      while (end <= fn.endLine && !(indentOf(file.lines[end - 1] ?? '') === indent && /^\s*\}/.test(file.lines[end - 1] ?? ''))) end++;
      return { from: k + 1, to: end - 1 };
    }
    return null;
  }
  return null;
}

/** The parameters of `fn` and of the functions around it: the `handler` and `next` a middleware hands on to. */
function handOnNames(file: ProgramFile, fn: FunctionIR): Set<string> {
  const names = new Set(['next']);
  for (const outer of file.ir.functions) {
    if (outer.startLine <= fn.startLine && outer.endLine >= fn.endLine) for (const p of outer.parameters) names.add(p.name);
  }
  return names;
}

/**
 * True when the refusal on `line` of middleware `fn` is thrown inside a `try` whose `catch` does not
 * answer: it falls through (no `return`/`throw` of its own) or hands the request on (calls `next` or a
 * function the middleware was given).
 */
export function refusalSwallowed(file: ProgramFile, fn: FunctionIR, line: number): boolean {
  const arm = enclosingCatch(file, fn, line);
  if (!arm) return false;
  const body = file.lines.slice(arm.from - 1, arm.to);
  const names = handOnNames(file, fn);
  const handsOnIn = (lines: readonly string[]): boolean => lines.some((text) => [...text.matchAll(/\b([A-Za-z_$][\w$]*)\s*\(/g)].some((m) => names.has(m[1] ?? '')));
  if (handsOnIn(body)) return true;
  // Only a statement of the arm itself answers every error; one under an `if` answers some. An answer
  // that does not leave (`reply.send(err)`) counts when nothing after the `try` hands the request on.
  const own = Math.min(...body.filter((text) => text.trim() !== '').map(indentOf));
  const top = body.filter((text) => indentOf(text) === own);
  if (top.some((text) => LEAVES.test(text))) return false;
  return !(top.some((text) => ANSWERS.test(text)) && !handsOnIn(file.lines.slice(arm.to, fn.endLine)));
}
