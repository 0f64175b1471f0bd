/**
 * FastAPI dependencies written as an instance of a repository class: `Depends(RoleChecker(["admin"]))`,
 * `Depends(PermissionsDependency([CaseEditPermission]))`. FastAPI calls the instance, so its class's
 * `__call__` (declared there or on an ancestor) runs for the request; and a class handed to the instance
 * (a permission class the dependency instantiates or asks) checks in its own `__init__` or `__call__`.
 * Those methods are judged as the dependency's function is (python-web-checks.ts, dependencyProofs).
 */
import { findMethod, lookupClass, type Program } from './resolution.js';
import type { FunctionRef, ProgramFile } from './types.js';

/** The text between the parenthesis at `open` and its match, or null when it does not close. */
function parenthesised(text: string, open: number): string | null {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) return text.slice(open + 1, i);
    }
  }
  return null;
}

/** A repository class's method FastAPI or the dependency runs: `__call__`, else `__init__`. */
function runMethod(program: Program, name: string, near: string, methods: readonly string[]): FunctionRef[] {
  const cls = lookupClass(program.table, name, near);
  if (!cls) return [];
  for (const method of methods) {
    const found = findMethod(program.table, cls, method, null);
    if (found) return found.methods;
  }
  return [];
}

/**
 * The functions a class-instance dependency runs, when `name` (written at `at` in `text`, a path
 * operation's declaration) is a repository class instantiated in place: the instance's `__call__`, and
 * the `__call__` or `__init__` of each repository class named among the constructor's arguments.
 */
export function classDependencyFunctions(program: Program, file: ProgramFile, text: string, name: string, at: number): FunctionRef[] {
  if (!/^[A-Z]/.test(name) || text[at] !== '(') return [];
  const called = runMethod(program, name, file.path, ['__call__']);
  if (called.length === 0) return [];
  const argumentsText = parenthesised(text, at) ?? '';
  const handed = [...argumentsText.matchAll(/\b([A-Z]\w*)\b/g)].flatMap((m) => runMethod(program, m[1] ?? '', file.path, ['__call__', '__init__']));
  return [...called, ...handed];
}
