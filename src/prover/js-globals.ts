/**
 * The objects every JavaScript runtime provides (`console`, `JSON`, `Math`, `Promise`, ...). A call on one
 * of them (`console.error(err)`) is the runtime's, never a project method that happens to share the name
 * (an interceptor's `error` callback), unless the file binds the name itself (an import or a declaration).
 */
import type { ProgramFile } from './types.js';

const RUNTIME_GLOBALS = new Set(['console', 'JSON', 'Math', 'Promise', 'Object', 'Array', 'Number', 'String', 'Boolean', 'Date', 'Reflect', 'Symbol', 'BigInt', 'Intl', 'globalThis', 'Buffer', 'Atomics', 'WebAssembly']);

/** Asked once per file and name: every `console.log` asks again. */
const judged = new WeakMap<ProgramFile, Map<string, boolean>>();

/** True when `root` is a runtime global the TypeScript/JavaScript `file` does not rebind. */
export function isRuntimeGlobal(file: ProgramFile, root: string): boolean {
  if (file.factsLanguage !== 'typescript' || !RUNTIME_GLOBALS.has(root)) return false;
  let names = judged.get(file);
  if (!names) judged.set(file, (names = new Map<string, boolean>()));
  let global = names.get(root);
  if (global === undefined) names.set(root, (global = !rebinds(file, root)));
  return global;
}

function rebinds(file: ProgramFile, root: string): boolean {
  if (file.ir.imports.some((imp) => imp.names.includes(root))) return true;
  return new RegExp(String.raw`\b(?:const|let|var|function|class)\s+${root}\b`).test(file.text);
}
