/**
 * The guard's vocabulary: the seventeen refusal words, in the order the checks run (ADR seed D1, with
 * SPEC 5's departure for word 2), and the absolute limits the checks use. A closed set: the fix
 * command's counts by word and the docs are keyed on these strings.
 */

/** The refusal words, in check order. The first check that fails names the refusal. */
export const REFUSAL_WORDS = [
  // May this file be touched?
  'path_outside_root',
  'path_not_supported_language',
  'path_not_the_consulted_file',
  'file_changed_since_read',
  // Is this an answer to the question asked?
  'outside_the_context',
  'site_not_replaced',
  'symbol_mismatch',
  'replaced_text_differs',
  // Is the result code in the file's language that brings nothing in?
  'replacement_too_large',
  'replacement_not_displayable',
  'replacement_carries_redaction',
  'replacement_not_encodable',
  'output_does_not_compile',
  'output_does_not_parse',
  'replacement_runs_past_its_range',
  'import_outside_the_target',
  'name_outside_the_question',
] as const;

/** One refusal word. */
export type RefusalWord = (typeof REFUSAL_WORDS)[number];

/**
 * The most lines either side of an edit may hold: the context sent to the model (what a replacement
 * may remove) and the replacement itself, whatever it replaces. One limit, not two that agree: an
 * answer is bounded by the same size as the question it answers.
 */
export const EDIT_LINE_LIMIT = 80;
/** The most UTF-8 bytes a replacement may hold (bounds one huge line). */
export const REPLACEMENT_BYTE_LIMIT = 1024 * EDIT_LINE_LIMIT;
/** The most tokens one statement of a replacement may hold (a statement is never deeper than its tokens). */
export const REPLACEMENT_STATEMENT_TOKENS = 500;
/** The deepest syntax tree the IR walks; a result nested deeper is refused. One number, the IR's own. */
export { DEFAULT_MAX_DEPTH as SYNTAX_DEPTH_LIMIT } from '../syntax/ir.js';
/** The marker redaction leaves where a secret stood. */
export const REDACTION_MARKER = '[REDACTED';

/**
 * Builtins a replacement may read without the replaced lines naming them: ones that compute a value
 * from their arguments and reach nothing else (no I/O, no reflection, no code loading).
 */
export const PURE_BUILTINS: Readonly<Record<'python' | 'javascript', readonly string[]>> = {
  python: [
    'abs', 'all', 'any', 'ascii', 'bin', 'bool', 'bytes', 'chr', 'dict', 'divmod', 'enumerate', 'filter',
    'float', 'format', 'frozenset', 'hex', 'int', 'isinstance', 'issubclass', 'iter', 'len', 'list', 'map',
    'max', 'min', 'next', 'oct', 'ord', 'pow', 'range', 'repr', 'reversed', 'round', 'set', 'slice', 'sorted',
    'str', 'sum', 'tuple', 'zip', 'None', 'True', 'False', 'NotImplemented', 'Ellipsis',
    'Exception', 'ValueError', 'TypeError', 'KeyError', 'IndexError', 'LookupError', 'RuntimeError',
    'PermissionError', 'NotImplementedError', 'AssertionError', 'ArithmeticError', 'OverflowError',
  ],
  javascript: [
    'undefined', 'NaN', 'Infinity', 'Math', 'JSON', 'Number', 'String', 'Boolean', 'Array', 'Map', 'Set',
    'RegExp', 'Date', 'parseInt', 'parseFloat', 'isNaN', 'isFinite', 'encodeURIComponent',
    'decodeURIComponent', 'encodeURI', 'decodeURI', 'Error', 'TypeError', 'RangeError', 'SyntaxError',
  ],
};

/** A dunder name (`__class__`, `__proto__`): never licensed, it reaches the language's machinery. */
export function isDunder(name: string): boolean {
  return /^__\w+__$/.test(name);
}

/**
 * JavaScript's dunders without the underscores: `x.constructor.constructor(code)` is the Function
 * constructor (code from a string, the way to `require` without naming it), `prototype` rewrites
 * every object of a kind. Names are compared after escapes are decoded.
 */
const JS_MACHINERY = new Set(['constructor', 'prototype']);

/** A name no replacement may read or reach as an attribute, in the language given. */
export function isMachineryName(name: string, language: 'python' | 'javascript' | 'typescript'): boolean {
  return isDunder(name) || (language !== 'python' && JS_MACHINERY.has(name));
}
