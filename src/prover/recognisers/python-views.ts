/**
 * What the Python web recognisers (Django/DRF, Flask, FastAPI) share: which frameworks a file imports,
 * the handler methods of a view class, a route decorator's receiver and path, and the view a
 * registration names (`views.remove_bookmark`, `login_required(views.edit)`, `X.as_view()`).
 */
import { lookupClass, moduleFiles, type Program } from '../resolution.js';
import type { EntryPoint, FunctionRef, ProgramFile } from '../types.js';
import { lineage, methodsOf } from './shared.js';
import { namedFunction } from './js-handlers.js';
import { callArguments } from '../ownership.js';

export const HTTP_VERBS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options']);

/** True when the file imports a module whose dotted name starts with one of `roots` (`flask`, `flask_restx`). */
export function importsFramework(file: ProgramFile, roots: RegExp): boolean {
  return file.ir.imports.some((imp) => roots.test(imp.module) || imp.names.some((n) => roots.test(n)));
}

/** Simple names of a class's lineage (its own name included), module prefixes dropped (`generic.View` → `View`). */
export function lineageNames(program: Program, className: string, path: string): string[] {
  return [...lineage(program, className, path)].map((n) => n.split('.').pop() ?? n);
}

/** The named methods of `className` (in `file`) whose names `wanted` accepts. */
export function handlerMethods(program: Program, file: ProgramFile, className: string, wanted: (name: string, ref: FunctionRef) => boolean): FunctionRef[] {
  return methodsOf(program, file, className).filter((ref) => wanted(ref.fn.name, ref));
}

/** `bp.route("/x", methods=[...])` → { receiver: 'bp', verb: 'route', path: '/x' }; null for other decorators. */
export function routeDecorator(text: string, verbs: RegExp): { receiver: string; verb: string; path: string } | null {
  const match = /^([A-Za-z_][\w.]*)\.(\w+)\(\s*(?:(?:rule|path)\s*=\s*)?(?:[rfu]?['"]([^'"]*)['"])?/.exec(text);
  if (!match?.[1] || !match[2] || !verbs.test(match[2])) return null;
  return { receiver: match[1], verb: match[2], path: match[3] ?? '' };
}

/** What a registration hands over: a view function, or a view class (`X.as_view(...)`), and the wrappers around it. */
export interface NamedView {
  fn: FunctionRef | null;
  cls: { name: string; path: string } | null;
  /** Wrapper calls around the view, outermost first (`login_required`, `staff_member_required`). */
  wrappers: string[];
}

/** The view an argument text names: `views.x`, `x`, `login_required(views.x)`, `views.X.as_view()`, `X.as_view({'get': 'list'})`. */
export function namedView(program: Program, file: ProgramFile, expression: string): NamedView {
  const wrappers: string[] = [];
  let rest = expression.trim();
  for (let depth = 0; depth < 4; depth++) {
    const call = /^([A-Za-z_][\w.]*)\s*\(\s*([\s\S]*)\)\s*$/.exec(rest);
    if (!call?.[1] || /\.as_view$/.test(call[1])) break;
    wrappers.push(call[1]);
    rest = (call[2] ?? '').split(/,(?![^(]*\))/)[0]?.trim() ?? '';
  }
  const asView = /^([A-Za-z_][\w.]*)\.as_view\s*\(/.exec(rest);
  if (asView?.[1]) {
    const name = asView[1].split('.').pop() ?? asView[1];
    const record = lookupClass(program.table, name, file.path);
    return { fn: null, cls: record ? { name: record.name, path: record.path } : null, wrappers };
  }
  const name = /^([A-Za-z_][\w.]*)$/.exec(rest)?.[1];
  if (name === undefined) return { fn: null, cls: null, wrappers };
  const local = name.includes('.') ? undefined : program.moduleFunctions.get(file.path)?.get(name)?.find((f) => f.fn.qualifiedName === name);
  const fn = local ?? namedFunction(program, file, name) ?? submoduleFunction(program, file, name);
  if (fn) return { fn, cls: null, wrappers };
  // A class handed over by name (DRF routers, Flask-RESTful `add_resource(X, ...)`).
  const record = /^[A-Z]/.test(name.split('.').pop() ?? '') ? lookupClass(program.table, name.split('.').pop() ?? name, file.path) : null;
  return { fn: null, cls: record ? { name: record.name, path: record.path } : null, wrappers };
}

/** `views.x` where `views` is a submodule imported from its package (`from . import views`, `from app import views`). */
function submoduleFunction(program: Program, file: ProgramFile, dotted: string): FunctionRef | null {
  const [alias, name, ...more] = dotted.split('.');
  if (alias === undefined || name === undefined || more.length > 0) return null;
  for (const imp of file.ir.imports) {
    if (!imp.names.includes(alias)) continue;
    const module = imp.module.endsWith('.') ? `${imp.module}${alias}` : `${imp.module}.${alias}`;
    for (const target of moduleFiles(program, file.path, module)) {
      const found = program.moduleFunctions.get(target.path)?.get(name)?.filter((f) => f.fn.qualifiedName === name) ?? [];
      if (found.length === 1) return found[0] ?? null;
    }
  }
  return null;
}

/** One entry of a Python view. */
export function viewEntry(ref: FunctionRef, framework: string, evidence: string, extra: Partial<EntryPoint> = {}): EntryPoint {
  return { functionId: ref.id, path: ref.path, function: ref.fn.qualifiedName, line: ref.fn.startLine, framework, kind: 'route', access: 'protected', evidence, ...extra };
}

/** Adds entries once per function (a view named by two URLs, or recognised by its class and its URL). */
export function pushOnce(entries: EntryPoint[], seen: Set<string>, entry: EntryPoint): void {
  if (seen.has(entry.functionId)) return;
  seen.add(entry.functionId);
  entries.push(entry);
}

/** The full text of a call starting on `line` (its arguments may span lines), from the callee's name on. */
export function callText(file: ProgramFile, line: number, callee: string, max = 12): string {
  const text = file.lines.slice(line - 1, line - 1 + max).join('\n');
  const from = text.indexOf(`${callee}(`);
  if (from < 0) return '';
  let depth = 0;
  for (let i = from + callee.length; i < text.length; i++) {
    const ch = text[i];
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    if (ch === ')' || ch === ']' || ch === '}') depth--;
    if (depth === 0) return text.slice(from, i + 1);
  }
  return text.slice(from);
}

/** The top-level arguments of a call's text (`path("a/", views.a, name="a")` → [`"a/"`, `views.a`, `name="a"`]). */
export function callArgumentsOf(text: string, callee: string): string[] {
  return callArguments(text, callee) ?? [];
}

/** The first route decorator of a function (`bp.route("/x")`) whose verb `verbs` accepts and that `accept` allows, with its text. */
export function firstRoute(decorators: readonly string[], verbs: RegExp, accept: (verb: string) => boolean = () => true): { receiver: string; verb: string; path: string; text: string } | null {
  for (const text of decorators) {
    const route = routeDecorator(text, verbs);
    if (route && accept(route.verb)) return { ...route, text };
  }
  return null;
}
