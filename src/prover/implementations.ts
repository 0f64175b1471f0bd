/**
 * Java interface dispatch. A Spring controller calls its service through the interface it is injected
 * as (`ISysUserService userService; userService.updateUser(user)`); the method that runs is the one
 * of the repository class implementing that interface (`SysUserServiceImpl.updateUser`). A call that
 * binds to a method declared without a body (an interface method, an abstract method) is followed into
 * the implementations of the repository that declare it, so the service's checks and its writes lie on
 * the handler's paths. Only a few implementations are followed: an interface with many (a strategy, a
 * plugin point) says nothing about which one a given call reaches, and the declaration stays the target.
 */
import { ancestorNames, type ClassRecord, type ClassTable } from './resolution.js';
import type { FunctionRef, ProgramFile } from './types.js';

/** More implementations than this: the call site does not say which one runs. */
const MAX_IMPLEMENTATIONS = 3;

/** Bare supertype name → the repository classes below it, built once per class table. */
const implementorsCache = new WeakMap<ClassTable, Map<string, ClassRecord[]>>();

function implementorsByName(table: ClassTable): Map<string, ClassRecord[]> {
  const cached = implementorsCache.get(table);
  if (cached) return cached;
  const out = new Map<string, ClassRecord[]>();
  for (const records of table.values()) {
    for (const record of records) {
      if (!record.path.endsWith('.java')) continue;
      for (const name of ancestorNames(table, record)) {
        if (name === record.name) continue;
        const list = out.get(name) ?? [];
        list.push(record);
        out.set(name, list);
      }
    }
  }
  implementorsCache.set(table, out);
  return out;
}

/** True when the method is a declaration only: in an interface (not `default`/`static`), or `abstract`. */
export function isDeclarationOnly(ref: FunctionRef, file: ProgramFile | undefined): boolean {
  const { fn } = ref;
  if (fn.modifiers.includes('abstract')) return true;
  if (fn.modifiers.includes('default') || fn.modifiers.includes('static')) return false;
  const owner = file?.ir.classes.find((c) => c.name === fn.className && c.startLine <= fn.startLine && c.endLine >= fn.endLine);
  if (owner?.kind !== 'interface') return false;
  // An interface method with a body is a default method whatever its modifiers say.
  return /;\s*(\/\/.*)?$/.test(file?.lines[fn.endLine - 1] ?? '');
}

/**
 * The methods a call bound to `targets` (declared in `owner`) runs: when every target is a declaration
 * only, the same-name methods with a body in the repository classes below `owner` (at most a few), else
 * `targets` as they are.
 */
export function withImplementations(table: ClassTable, byPath: ReadonlyMap<string, ProgramFile>, owner: ClassRecord, targets: FunctionRef[], name: string, arity: number | null): FunctionRef[] {
  if (targets.length === 0 || !owner.path.endsWith('.java')) return targets;
  if (!targets.every((t) => isDeclarationOnly(t, byPath.get(t.path)))) return targets;
  const below = implementorsByName(table).get(owner.name) ?? [];
  const found: FunctionRef[] = [];
  for (const cls of below) {
    const own = cls.methods.filter((m) => m.fn.name === name && (arity === null || m.fn.parameters.length === arity));
    found.push(...own.filter((m) => !isDeclarationOnly(m, byPath.get(m.path))));
  }
  if (found.length === 0 || found.length > MAX_IMPLEMENTATIONS) return targets;
  return found;
}
