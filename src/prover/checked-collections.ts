/**
 * A collection built only from checked items. Batch actions check each item the request named in a
 * loop and keep the ones that pass (`elseif (!$security->hasEntityAccess(...)) { $flashes[] = denied; }
 * else { $deleteIds[] = $id; }`), then act on the kept ones once (`$model->deleteEntities($deleteIds)`).
 * The check does not dominate the call (its failing arm goes on to the next item and then to the call),
 * but every item the call receives passed it: a check that covers each line adding to the collection
 * covers the call. The collection must start empty and grow only by appends (`$ids[] = ...`,
 * `$ids[$k] = ...`, `array_push($ids, ...)`); any other write, or a parameter of that name, and the call
 * is judged as it stands. PHP only: its `$` names make the variable's writes readable from the text.
 */
import { blankStrings } from './string-literals.js';
import type { FunctionIR } from '../syntax/ir-types.js';
import type { Program } from './resolution.js';
import type { ProgramFile, Witness } from './types.js';

const EMPTY_INIT = /^\s*\$(\w+)\s*=\s*(\[\s*\]|array\(\s*\))\s*;/;

/** The lines of `fn` that append to a collection the call on `line` receives, when it is built only by appends; else null. */
export function checkedCollectionAppends(file: ProgramFile, fn: FunctionIR, line: number): number[] | null {
  if (file.factsLanguage !== 'php') return null;
  const callText = blankStrings(file.lines[line - 1] ?? '', "''");
  // The variables handed to a call on the line (inside its parentheses).
  const args = /\w\s*\((.*)\)/.exec(callText)?.[1] ?? '';
  const header = file.lines.slice(fn.startLine - 1, fn.bodyStartLine).join(' ');
  for (const name of new Set([...args.matchAll(/\$(\w+)\b(?!\s*(->|\[|::))/g)].map((m) => m[1] ?? ''))) {
    if (name === '' || name === 'this' || new RegExp(String.raw`\$${name}\b`).test(header)) continue;
    const appends = appendLines(file, fn, name, line);
    if (appends !== null) return appends;
  }
  return null;
}

/** The append lines of `$name` in `fn` before `line`, or null when it is written any other way (or never appended). */
function appendLines(file: ProgramFile, fn: FunctionIR, name: string, line: number): number[] | null {
  const written = new RegExp(String.raw`\$${name}\b\s*(\[[^\]]*\])?\s*([.+\-*/?]|\?\?)?=(?![=>])|(?<!&)&(?!&)\s*\$${name}\b|\b(unset|array_(pop|shift|splice|unshift|merge))\s*\(\s*\$${name}\b`);
  const append = new RegExp(String.raw`^\s*(\$${name}\s*\[[^\]]*\]\s*=(?![=>])|array_push\(\s*\$${name}\s*,)`);
  const appends: number[] = [];
  let initialised = false;
  for (let l = fn.bodyStartLine; l <= fn.endLine; l++) {
    const text = blankStrings(file.lines[l - 1] ?? '', "''");
    if (!written.test(text) && !/array_push\(/.test(text)) continue;
    if (EMPTY_INIT.exec(text)?.[1] === name && l < line) initialised = true;
    else if (append.test(text) && l < line) appends.push(l);
    else if (written.test(text) || new RegExp(String.raw`array_push\(\s*\$${name}\b`).test(text)) return null;
  }
  return initialised && appends.length > 0 ? appends : null;
}

/**
 * The checks that cover every append to a collection the call on `line` of the function receives
 * (`judgeAt` gives the checks covering one line), or none when the call takes no checked collection.
 */
export function collectionChecks(program: Program, functionId: string, line: number, judgeAt: (line: number) => readonly Witness[]): Witness[] {
  const ref = program.functions.get(functionId);
  const file = ref ? program.byPath.get(ref.path) : undefined;
  if (!ref || !file) return [];
  const appends = checkedCollectionAppends(file, ref.fn, line);
  if (appends === null) return [];
  const [first, ...rest] = appends.map(judgeAt);
  return (first ?? []).filter((w) => rest.every((list) => list.includes(w)));
}
