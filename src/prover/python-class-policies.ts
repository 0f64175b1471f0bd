/**
 * Checks a Python view class declares for its handlers elsewhere than on the handler:
 * - Flask-RESTful/RESTX `method_decorators = [admin_required]` (every verb) or `{'delete': [...]}` (that
 *   verb only), and Flask `MethodView.decorators = [login_required]`, on the class or an ancestor: each
 *   decorator wraps the verb method as if written on it.
 * - DRF per-action permissions: `@action(detail=True, permission_classes=[IsAdminUser])` on an extra
 *   action, and a `get_permissions()` override that picks classes by `self.action` (or by
 *   `self.request.method` on an APIView). The branch naming the handler decides, else the `else`; when
 *   the override tests something else, or negates the action, it says nothing here and the class's
 *   `permission_classes` decide as before.
 */
import { indentOf } from './branches.js';
import { lookupClass, type ClassRecord, type Program } from './resolution.js';
import type { FunctionRef, ProgramFile } from './types.js';

/** A decorator a class declares for its handler methods. */
export interface ClassDecoratorUse {
  /** The file that writes it (where its import is looked up). */
  file: ProgramFile;
  text: string;
  where: string;
}

/** The decorators `method_decorators`/`decorators` of the handler's class chain apply to this verb method. */
export function classMethodDecorators(program: Program, ref: FunctionRef): ClassDecoratorUse[] {
  const uses: ClassDecoratorUse[] = [];
  for (const { home, start, end, name } of classChain(program, ref)) {
    for (const attribute of ['method_decorators', 'decorators']) {
      const text = classAttribute(home, start, end, attribute);
      if (text === null) continue;
      const value = text.slice(text.indexOf('=') + 1).trim();
      const list = value.startsWith('{') ? dictEntry(value, ref.fn.name) : value;
      for (const decorator of listItems(list ?? '')) uses.push({ file: home, text: decorator, where: `${name}.${attribute}` });
      // The nearest class that declares the attribute wins: Python looks it up once.
      return uses;
    }
  }
  return uses;
}

/**
 * The permission classes DRF applies to this handler through a per-action declaration, written as a
 * `permission_classes = [...]` assignment (what the discharger rows read), or null when none applies.
 */
export function actionPermissions(program: Program, ref: FunctionRef): { text: string; where: string } | null {
  const action = ref.fn.decorators.find((d) => /^action\(/.test(d));
  const declared = action ? /\bpermission_classes\s*=\s*([[(][^\])]*[\])])/.exec(action)?.[1] : undefined;
  if (declared !== undefined) return { text: `permission_classes = ${normalised(declared)}`, where: `@${action ?? 'action'}` };
  for (const { home, name } of classChain(program, ref)) {
    const override = (program.byName.get('get_permissions') ?? []).find((f) => f.path === home.path && f.fn.qualifiedName === `${name}.get_permissions`);
    if (!override) continue;
    const chosen = branchFor(home, override, ref.fn.name);
    return chosen === null ? null : { text: `permission_classes = ${normalised(chosen)}`, where: `${name}.get_permissions() for ${ref.fn.name}` };
  }
  return null;
}

/** A class-body assignment `name = [...]` (to its closing bracket), directly in the class, or null. */
export function classAttribute(file: ProgramFile, start: number, end: number, name: string): string | null {
  const bodyIndent = indentOf(file.lines[start] ?? '');
  const assignment = new RegExp(String.raw`^\s*${name}\s*=`);
  for (let line = start + 1; line <= end; line++) {
    const text = file.lines[line - 1] ?? '';
    if (indentOf(text) !== bodyIndent || !assignment.test(text)) continue;
    return bracketed(file, line).trim();
  }
  return null;
}

/** The text from `line` until its brackets close. */
export function bracketed(file: ProgramFile, line: number): string {
  let depth = 0;
  const out: string[] = [];
  for (let l = line; l <= Math.min(file.lines.length, line + 20); l++) {
    const text = (file.lines[l - 1] ?? '').replace(/#.*$/, '');
    out.push(text);
    for (const ch of text) {
      if ('([{'.includes(ch)) depth++;
      if (')]}'.includes(ch)) depth--;
    }
    if (depth <= 0) break;
  }
  return out.join(' ');
}

/** The handler's class and its in-repository ancestors, nearest first, with where each is written. */
function classChain(program: Program, ref: FunctionRef): { home: ProgramFile; start: number; end: number; name: string }[] {
  const cls = ref.fn.className === null ? null : lookupClass(program.table, ref.fn.className, ref.path);
  if (!cls) return [];
  const chain: { home: ProgramFile; start: number; end: number; name: string }[] = [];
  for (const record of pythonBases(program, cls)) {
    const home = program.byPath.get(record.path);
    const own = home?.ir.classes.find((c) => c.name === record.name);
    if (home && own) chain.push({ home, start: own.startLine, end: own.endLine, name: record.name });
  }
  return chain;
}

/** The value a `{'get': [...], 'post': [...]}` literal gives the verb, or null. */
function dictEntry(dict: string, verb: string): string | null {
  const entry = new RegExp(String.raw`['"]${verb}['"]\s*:\s*([[(][^\])]*[\])])`, 'i').exec(dict);
  return entry?.[1] ?? null;
}

/** The names of a `[a, b(c)]` list, each as written. */
function listItems(list: string): string[] {
  const inner = list.trim().replace(/^[[(]/, '').replace(/[\])]$/, '');
  const items: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of inner) {
    if ('([{'.includes(ch)) depth++;
    if (')]}'.includes(ch)) depth--;
    if (ch === ',' && depth === 0) {
      items.push(current.trim());
      current = '';
    } else current += ch;
  }
  items.push(current.trim());
  return items.filter((item) => /^[A-Za-z_]/.test(item));
}

/** `[IsAdminUser(), IsOwner()]` → `[IsAdminUser, IsOwner]`: what a class attribute would say. */
function normalised(list: string): string {
  return list.replace(/\(\s*\)/g, '').replace(/\s+/g, ' ');
}

/**
 * The permission list a `get_permissions()` override gives the handler: the branch whose test names it
 * (`if self.action in ('destroy', 'update'):`, `elif self.request.method == 'POST':`), else the `else`
 * branch; each branch says it by `return [...]` or `permission_classes = [...]`. Null when a test is
 * negated or reads anything else, or when the chosen branch defers to the class (`super()`).
 */
function branchFor(file: ProgramFile, override: FunctionRef, handler: string): string | null {
  const branches: { names: string[] | 'else'; lists: string[] }[] = [];
  let current: { names: string[] | 'else'; lists: string[] } | null = null;
  let branchIndent = -1;
  for (let line = override.fn.bodyStartLine; line <= override.fn.endLine; line++) {
    const text = (file.lines[line - 1] ?? '').replace(/#.*$/, '');
    if (text.trim() === '') continue;
    const head = /^\s*(if|elif)\s+(.*):\s*$/.exec(text);
    if (head && (branchIndent < 0 || indentOf(text) === branchIndent)) {
      const test = head[2] ?? '';
      if (!/\bself\.(action|request\.method)\b/.test(test) || /\bnot\b|!=/.test(test)) return null;
      branchIndent = indentOf(text);
      current = { names: [...test.matchAll(/['"](\w+)['"]/g)].map((m) => (m[1] ?? '').toLowerCase()), lists: [] };
      branches.push(current);
      continue;
    }
    if (/^\s*else\s*:\s*$/.test(text) && indentOf(text) === branchIndent) {
      current = { names: 'else', lists: [] };
      branches.push(current);
      continue;
    }
    if (branchIndent >= 0 && indentOf(text) <= branchIndent) current = null;
    const list = /^\s*(?:return|permission_classes\s*=)\s*([[(].*[\])])\s*$/.exec(text)?.[1] ?? (/\bsuper\(\)\.get_permissions\(/.test(text) ? 'super' : undefined);
    if (current && list !== undefined) current.lists.push(list);
  }
  const chosen = branches.find((b) => b.names !== 'else' && b.names.includes(handler.toLowerCase())) ?? branches.find((b) => b.names === 'else');
  const list = chosen?.lists[0];
  return list === undefined || list === 'super' || /\bfor\b/.test(list) ? null : list;
}

/** The class and its in-repository bases, every base and not only the first (mixins come first in Python), depth first as Python's MRO mostly is. */
export function pythonBases(program: Program, cls: ClassRecord): ClassRecord[] {
  const out: ClassRecord[] = [];
  const visit = (record: ClassRecord): void => {
    if (out.includes(record)) return;
    out.push(record);
    for (const base of [record.superclass, ...record.interfaces]) {
      const found = base === null ? null : lookupClass(program.table, base, record.path);
      if (found) visit(found);
    }
  };
  visit(cls);
  return out;
}
