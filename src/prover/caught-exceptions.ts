/**
 * Exception paths of a verification: a `catch` arm runs only when its `try` threw, so what it may act
 * on is what the thrown exception carries. A helper that verifies the caller's token and throws an
 * "expired" exception carrying the record it found (`throw new TokenExpired($entry->user_id)`) has
 * already proved possession when it throws; the arm that catches that exception holds the same
 * record's data. An exception thrown before the record was found (`throw new NotFound($token)`)
 * carries nothing of anyone's. Textual, like the rest of the ownership reading.
 */
import type { FunctionIR } from '../syntax/ir-types.js';
import { indentOf } from './branches.js';
import type { ProgramFile } from './types.js';

/** `throw new X(args)` (PHP, Java, TypeScript) and `raise X(args)` (Python): the class's simple name and the arguments' text. */
const THROWN = /\b(?:throw\s+new|raise)\s+\\?([\w\\.]+)\s*\(([\s\S]*)$/;
/** `catch (A | B $e)`, `catch (A e)`, `except (A, B) as e:` / `except A as e:`. */
const CAUGHT = /\bcatch\s*\(\s*([\w\\.|\s]+?)\s+(\$?[A-Za-z_]\w*)\s*\)|\bexcept\s+\(?([\w.,\s]+?)\)?\s+as\s+([A-Za-z_]\w*)\s*:/;

function simpleName(name: string): string {
  return name.split(/[\\.]/).pop() ?? name;
}

/**
 * The exceptions `fn` throws with data the reading already owns: class name → what their arguments
 * read, for each class whose every throw in `fn` passes an owned value. `ownerOf` answers for a text.
 */
export function ownedThrows<O>(file: ProgramFile, fn: FunctionIR, ownerOf: (text: string) => O | null): Map<string, O> {
  const verdicts = new Map<string, O | null>();
  for (let line = fn.bodyStartLine; line <= fn.endLine; line++) {
    const thrown = THROWN.exec(file.lines[line - 1] ?? '');
    if (!thrown?.[1]) continue;
    const name = simpleName(thrown[1]);
    const owner = ownerOf(thrown[2] ?? '');
    // One throw of the class without owned data makes every catch of it the request's choice.
    verdicts.set(name, verdicts.has(name) && verdicts.get(name) === null ? null : owner);
  }
  const out = new Map<string, O>();
  for (const [name, owner] of verdicts) if (owner !== null) out.set(name, owner);
  return out;
}

/** A `catch` arm on `line`: the variable it binds, the simple names it catches, and the lines of its `try` body. */
export interface CatchArm {
  variable: string;
  types: string[];
  tryFrom: number;
  tryTo: number;
}

/** The catch arm that `line` of `fn` opens, with the body of the `try` it belongs to, or null. */
export function catchArmAt(file: ProgramFile, fn: FunctionIR, line: number): CatchArm | null {
  const text = file.lines[line - 1] ?? '';
  const caught = CAUGHT.exec(text);
  if (!caught) return null;
  const types = (caught[1] ?? caught[3] ?? '').split(/[|,]/).map((t) => simpleName(t.trim())).filter((t) => t !== '');
  const variable = caught[2] ?? caught[4] ?? '';
  // The `try` at this arm's level, above it (earlier arms of the same `try` sit between).
  const own = indentOf(text);
  for (let l = line - 1; l > fn.bodyStartLine; l--) {
    const above = file.lines[l - 1] ?? '';
    if (above.trim() === '' || indentOf(above) !== own) continue;
    if (/^\s*try\b/.test(above)) {
      let to = l + 1;
      while (to < line && !/^\s*\}?\s*(catch|except)\b/.test(file.lines[to - 1] ?? '')) to++;
      return { variable, types, tryFrom: l + 1, tryTo: to - 1 };
    }
    if (!/^\s*\}?\s*(catch|except)\b/.test(above)) return null;
  }
  return null;
}
