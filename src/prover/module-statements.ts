/**
 * A touched line outside every function of a JS/TS module sits in a module-level statement: most
 * often a route registration (`router.put(['/', '/:id'], checkPermission('x'), controller.update)`),
 * whose handler the prover counts as touched (registration-touch.ts). The scoped selection reads the
 * functions such a statement names, as the whole proof reaches them: the handler it hands over and the
 * middleware it calls. Text only, before any parse.
 */

/** Where one module-level statement starts and ends (offsets into the file's text, end exclusive). */
export interface StatementSpan {
  start: number;
  end: number;
}

/** A statement that is a call (`router.get(`, `app.route('/x').put(`), or names one's value (`export const handler = withAuth(`): classes, imports and types are left to their own links. */
const CALL_STATEMENT = /^(?:export\s+(?:default\s+)?)?(?:(?:const|let|var)\s+[A-Za-z_$][\w$]*\s*(?::[^=]+)?=\s*)?(?:await\s+)?[A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*\s*\(/;

/** A line that continues a statement rather than starting one: indented, blank, or a closing bracket or chained call. */
const CONTINUES = /^(?:[ \t]|$|[)\]}.,?:])/;

/**
 * The module-level statement holding line `line` (1-based): from the nearest line above (or at) it
 * written at column 0 up to the next line written at column 0 that starts a statement of its own.
 * Null when the line is indented inside a block, or the statement is no call (a class, an import).
 */
export function moduleStatementAt(text: string, lineStarts: readonly number[], line: number): StatementSpan | null {
  const lineText = (n: number): string => text.slice(lineStarts[n - 1] ?? text.length, (lineStarts[n] ?? text.length + 1) - 1);
  let first = line;
  while (first > 1 && CONTINUES.test(lineText(first))) first--;
  if (CONTINUES.test(lineText(first)) || !CALL_STATEMENT.test(lineText(first))) return null;
  let last = line;
  while (last < lineStarts.length && CONTINUES.test(lineText(last + 1))) last++;
  return { start: lineStarts[first - 1] ?? 0, end: (lineStarts[last] ?? text.length + 1) - 1 };
}

/** A name the statement hands over without calling it: a member (`controller.update`) or a bare argument (`, update)`). */
export interface HandedName {
  name: string;
  /** Written on a receiver (`controller.update`): a method or an imported module's function. */
  received: boolean;
}

const MEMBER = /(?<![\w$])[A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*\s*\.\s*([A-Za-z_$][\w$]*)(?![\w$])(?!\s*\()/g;
const BARE_ARGUMENT = /[(,[]\s*([A-Za-z_$][\w$]*)\s*(?=[,)\]])/g;

/** Where a function written inside the statement begins (`async (ctx) => {`, `req => ...`, `function (req, res) {`). */
const INLINE_FUNCTION = /(?:\basync\s*)?(?:\([^()]*\)|[A-Za-z_$][\w$]*)\s*=>|\b(?:async\s+)?function\b/;
/** A quoted string: its text (`"documents.import"`) names no function. */
const STRING = /(["'`])(?:\\.|(?!\1)[^\\\n])*\1/g;

/**
 * The functions a statement names without calling them, each once (calls are followed as any body's calls are).
 * Only the statement's own arguments hand functions over: inside an inline handler's body, `ctx.request` and
 * `document.id` are property reads, and taking each for a handed function sent the selection across the
 * repository (outline's route files: every route is one such statement).
 */
export function handedNames(text: string): HandedName[] {
  const inline = INLINE_FUNCTION.exec(text);
  const statement = (inline === null ? text : text.slice(0, inline.index)).replace(STRING, '""');
  const found = new Map<string, HandedName>();
  for (const match of statement.matchAll(MEMBER)) {
    const name = match[1] ?? '';
    if (!found.has(`${name}\0r`)) found.set(`${name}\0r`, { name, received: true });
  }
  for (const match of statement.matchAll(BARE_ARGUMENT)) {
    const name = match[1] ?? '';
    if (!found.has(`${name}\0b`)) found.set(`${name}\0b`, { name, received: false });
  }
  return [...found.values()];
}
