/**
 * Where a function's statements are, whatever the language writes around them. A brace body opens on
 * its `{` line and closes on its `}` line, neither holding a statement of the body; a Python block
 * starts on its first statement and ends on its last, so a scan that skips the first and last lines of
 * a brace body would skip real statements there (a helper whose first statement is its guard clause).
 */
import type { FunctionIR } from '../syntax/ir-types.js';
import type { ProgramFile } from './types.js';

/** Languages whose function body is a block of statements with no delimiter lines of its own. */
function indentedBody(file: ProgramFile): boolean {
  return file.factsLanguage === 'python';
}

/** The last line above the body's first statement: a backward scan for the enclosing head stops after it. */
export function bodyTop(file: ProgramFile, fn: FunctionIR): number {
  return indentedBody(file) && fn.bodyStartLine > fn.startLine ? fn.bodyStartLine - 1 : fn.bodyStartLine;
}

/** The first and last lines that can hold a statement of the body. */
export function statementRange(file: ProgramFile, fn: FunctionIR): { first: number; last: number } {
  if (indentedBody(file) && fn.bodyStartLine > fn.startLine) return { first: fn.bodyStartLine, last: fn.endLine };
  return { first: fn.bodyStartLine + 1, last: fn.endLine - 1 };
}
