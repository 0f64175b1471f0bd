/** Small helpers the recognisers share. */
import { ancestorNames, lookupClass, type Program } from '../resolution.js';
import type { FunctionRef, ProgramFile } from '../types.js';
import type { FunctionIR } from '../../syntax/ir-types.js';

/** The declaration text of a function: from its first line to the line with its name and `(`. */
export function declarationText(file: ProgramFile, fn: FunctionIR): string {
  const out: string[] = [];
  for (let line = fn.startLine; line <= Math.min(fn.endLine, fn.startLine + 12); line++) {
    const text = file.lines[line - 1] ?? '';
    out.push(text);
    if (text.includes(`${fn.name}(`) || text.includes(`${fn.name} (`)) break;
  }
  return out.join('\n');
}

/** Names of a class's ancestors plus its own name (superclasses and interfaces, in the repository or not). */
export function lineage(program: Program, className: string, path: string): Set<string> {
  const record = lookupClass(program.table, className, path);
  if (!record) return new Set([className]);
  const names = ancestorNames(program.table, record);
  names.add(className);
  return names;
}

/** The named functions (call-graph nodes) of a file that are methods of `className`. */
export function methodsOf(program: Program, file: ProgramFile, className: string): FunctionRef[] {
  const out: FunctionRef[] = [];
  for (const fn of file.ir.functions) {
    if (fn.className !== className || fn.isLambda) continue;
    const ref = program.nodeOf.get(fn);
    if (ref && ref.fn === fn) out.push(ref);
  }
  return out;
}

/** The doc comment (`/** ... *\/`) right above a line, or ''. */
export function docCommentAbove(file: ProgramFile, line: number): string {
  let end = line - 1;
  while (end >= 1 && (file.lines[end - 1] ?? '').trim() === '') end--;
  if (!(file.lines[end - 1] ?? '').trim().endsWith('*/')) return '';
  const out: string[] = [];
  for (let l = end; l >= 1 && l > end - 40; l--) {
    const text = file.lines[l - 1] ?? '';
    out.unshift(text);
    if (text.includes('/**')) break;
  }
  return out.join('\n');
}

/** The statement starting at `line`: lines up to the first one holding `;` (at most `max` lines). */
export function statementAt(file: ProgramFile, line: number, max = 12): string {
  const out: string[] = [];
  for (let l = line; l < line + max && l <= file.lines.length; l++) {
    const text = file.lines[l - 1] ?? '';
    out.push(text);
    if (text.includes(';')) break;
  }
  return out.join('\n');
}
