/**
 * What the JavaScript recognisers (tRPC, Next.js, Express) share: finding the function a registration
 * hands over (a lambda written in place, or a name), and the text of a module-level statement.
 */
import { reExportSources } from '../module-aliases.js';
import { moduleFilesThroughAliases as moduleFiles, type Program } from '../resolution.js';
import type { FunctionRef, MiddlewareUse, ProgramFile } from '../types.js';

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * The outermost function starting on `line` (or the line after, for `(\n async () => ...`): a lambda
 * handed to a call. One starting on `line` wins: the next line's function is another registration's
 * (`app.get('/health', (req, res) => res.send('ok'))` above a route written over several lines).
 */
export function functionStartingAt(program: Program, file: ProgramFile, line: number): FunctionRef | null {
  let best: FunctionRef | null = null;
  for (const fn of file.ir.functions) {
    if (fn.startLine < line || fn.startLine > line + 1) continue;
    const ref = program.nodeOf.get(fn);
    if (!ref || ref.fn.startLine !== fn.startLine || ref.path !== file.path) continue;
    if (!best || fn.startLine < best.fn.startLine || (fn.startLine === best.fn.startLine && fn.endLine > best.fn.endLine)) best = ref;
  }
  return best;
}

/** The nodes of a file named `name` (declared functions, `const name = () => ...`, module-level lambdas named by their constant). */
function namedInFile(program: Program, file: ProgramFile, name: string): FunctionRef[] {
  const out: FunctionRef[] = [];
  for (const fn of file.ir.functions) {
    const ref = program.nodeOf.get(fn);
    if (ref && ref.fn.name === name && ref.fn.startLine === fn.startLine && ref.fn.className === null && !out.includes(ref)) out.push(ref);
  }
  return out;
}

/** Where `name` is defined for `file`: the file itself, or the repository file it imports the name from. */
export function definingFile(program: Program, file: ProgramFile, name: string): ProgramFile | null {
  if (moduleConstantLine(file, name) !== null) return file;
  for (const imp of file.ir.imports) {
    if (!imp.names.includes(name)) continue;
    for (const target of moduleFiles(program, file.path, imp.module)) {
      if (moduleConstantLine(target, name) !== null) return target;
      // A barrel (`export * from './trpc'`, `export { x } from './x'`, or an import it passes on) hands the name over.
      const passedOn = [...target.ir.imports.filter((next) => next.names.includes(name) || next.names.includes('*')).map((next) => next.module), ...reExportSources(target, name)];
      for (const module of passedOn) {
        for (const deeper of moduleFiles(program, target.path, module)) if (moduleConstantLine(deeper, name) !== null) return deeper;
      }
    }
  }
  return null;
}

/** The function a registration names (`deleteUser`, `users.remove`): a module function of the file or of the module it imports. */
export function namedFunction(program: Program, file: ProgramFile, text: string): FunctionRef | null {
  const parts = text.split('.');
  const name = parts[parts.length - 1] ?? '';
  if (!IDENTIFIER.test(name)) return null;
  const head = parts[0] ?? '';
  const home = parts.length === 1 ? definingFile(program, file, name) : importedModule(program, file, head);
  if (!home) return null;
  const found = namedInFile(program, home, name);
  if (found.length === 1) return found[0] ?? null;
  // `users.remove` on an object literal or a class of that module: one method of the name there.
  const methods = home.ir.functions.filter((fn) => fn.name === name && !fn.isLambda).map((fn) => program.nodeOf.get(fn)).filter((r): r is FunctionRef => r !== undefined);
  return methods.length === 1 ? (methods[0] ?? null) : null;
}

function importedModule(program: Program, file: ProgramFile, alias: string): ProgramFile | null {
  for (const imp of file.ir.imports) {
    if (!imp.names.includes(alias)) continue;
    const target = moduleFiles(program, file.path, imp.module)[0];
    if (target) return target;
  }
  return null;
}

/** The line declaring `name` at module level (`const name =`, `function name(`, `export const name =`), or null. */
export function moduleConstantLine(file: ProgramFile, name: string): number | null {
  const declaration = new RegExp(String.raw`^(?:export\s+(?:default\s+)?)?(?:(?:const|let|var)\s+${escapeName(name)}\s*[=:]|(?:async\s+)?function\s*\*?\s*${escapeName(name)}\s*[(<])`);
  const index = file.lines.findIndex((text) => declaration.test(text));
  return index < 0 ? null : index + 1;
}

/** A module-level statement from `line` to the line before the next statement at column 0. */
export function moduleStatement(file: ProgramFile, line: number, max = 200): { text: string; endLine: number } {
  const out: string[] = [file.lines[line - 1] ?? ''];
  let end = line;
  for (let l = line + 1; l <= Math.min(file.lines.length, line + max); l++) {
    const text = file.lines[l - 1] ?? '';
    if (/^\S/.test(text) && !/^[)}\]]/.test(text)) break;
    out.push(text);
    end = l;
  }
  return { text: out.join('\n'), endLine: end };
}

/** Text without `//` line comments and `/* *\/` blocks (string contents are left alone). */
export function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/[^\n]*/g, '$1');
}

function escapeName(name: string): string {
  return name.replace(/\$/g, '\\$');
}

/** A function a module exports, and the wrappers around it (`export default withAuth(handler)`). */
export interface Exported {
  ref: FunctionRef | null;
  middleware: MiddlewareUse[];
}

/** Exported module functions by exported name: declarations, constants (also wrapped ones) and `export { a as GET }`. */
export function exportedFunctions(program: Program, file: ProgramFile): Map<string, Exported> {
  const out = new Map<string, Exported>();
  file.lines.forEach((text, index) => {
    const declared = /^export\s+(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)/.exec(text);
    if (declared?.[1]) {
      out.set(declared[1], { ref: functionStartingAt(program, file, index + 1), middleware: [] });
      return;
    }
    const constant = /^export\s+(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(.*)$/.exec(text);
    if (constant?.[1]) out.set(constant[1], wrapped(program, file, index + 1, constant[2] ?? ''));
  });
  for (const match of file.text.matchAll(/^export\s*\{([^}]*)\}\s*;?\s*$/gm)) {
    for (const part of (match[1] ?? '').split(',')) {
      const [local, exported] = part.trim().split(/\s+as\s+/);
      if (!local) continue;
      out.set((exported ?? local).trim(), { ref: namedFunction(program, file, local.trim()), middleware: [] });
    }
  }
  return out;
}

/** The function an expression hands over, through wrappers: `withAuth(withLogging(async (req) => ...))`, `handler`. */
export function wrapped(program: Program, file: ProgramFile, line: number, expression: string): Exported {
  const middleware: MiddlewareUse[] = [];
  const statement = moduleStatement(file, line);
  // A builder chain ending in the handler (`client.inputSchema(s).action(async (...) => ...)`, next-safe-action):
  // the client's own middleware (`.use(...)` of its definition) runs before the handler.
  const client = builderChainRoot(withoutComments(statement.text.replace(/^[^=]*=\s*/, '')));
  if (client !== null) middleware.push({ text: client, path: file.path, line, role: 'builder' });
  let rest = client !== null ? '' : expression.trim();
  for (let depth = 0; depth < 4; depth++) {
    const call = /^([A-Za-z_$][\w$.]*)\s*\(\s*(.*)$/.exec(rest);
    if (!call?.[1] || call[1] === 'async' || call[1] === 'function') break;
    middleware.push({ text: call[1], path: file.path, line, role: 'middleware' });
    rest = (call[2] ?? '').trim();
  }
  const name = /^([A-Za-z_$][\w$.]*)\s*[),;]*\s*$/.exec(rest)?.[1];
  if (name !== undefined && !/^(async|function)$/.test(name)) return { ref: namedFunction(program, file, name), middleware };
  for (let l = line; l <= statement.endLine; l++) {
    const ref = functionStartingAt(program, file, l);
    if (ref) return { ref, middleware };
  }
  return { ref: null, middleware };
}

/** The client a `.action(handler)` chain starts from (`authActionClient.inputSchema(s).action(...)`), else null. */
function builderChainRoot(expression: string): string | null {
  const chain = /^\s*([A-Za-z_$][\w$]*)\s*(?:\.[\s\S]*?)?\.\s*action\s*\(\s*(?:async\b|function\b|\()/.exec(expression);
  return chain?.[1] ?? null;
}
