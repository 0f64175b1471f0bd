/** The languages jscr parses with tree-sitter, and how file names map to them (a view of the language registry). */
import { fileTypeOf, fileTypeOfFile, GRAMMARS, type Grammar } from '../languages/registry.js';

export const LANGUAGES = GRAMMARS;
export type Language = Grammar;

/** The tree-sitter language for a path, or null when jscr does not parse that kind of file. */
export function languageForPath(path: string): Language | null {
  return fileTypeOf(path)?.grammar ?? null;
}

/** The tree-sitter language for a file whose content is at hand: its extension, or the interpreter its `#!` line names. */
export function languageForFile(path: string, text: string): Language | null {
  return fileTypeOfFile(path, text)?.grammar ?? null;
}
