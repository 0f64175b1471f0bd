/**
 * FastAPI dependencies hidden in a type alias: `CurrentUser = Annotated[User, Depends(get_current_user)]`
 * and a parameter `current_user: CurrentUser`, or an alias a factory builds, `DeleteToken =
 * require_scopes(Scopes.TOKEN_DELETE)` where `require_scopes` returns `Annotated[User,
 * Security(get_current_user, scopes=[...])]`. FastAPI reads the `Annotated` metadata of the parameter's
 * type, so the dependency runs as if written on the parameter. This module finds, for a function's
 * parameter types, the text that declares those dependencies and the file it is written in; the
 * dependency functions are then judged as any other (python-web-checks.ts, dependencyProofs).
 */
import { bracketed } from './python-class-policies.js';
import type { Program } from './resolution.js';
import type { FunctionIR } from '../syntax/ir-types.js';
import type { ProgramFile } from './types.js';

export interface AliasText {
  file: ProgramFile;
  text: string;
}

/** `Name = ...` or `Name: type[X] = ...` at module level: the name and what follows `=`. */
const MODULE_ASSIGNMENT = /^([A-Z]\w*)\s*(?::[^=]*)?=(?!=)\s*(.*)$/;
/** A module-level function's `return Annotated[...]`. */
const RETURNS_ANNOTATED = /^\s*return\s+Annotated\[/;

/** Every module-level alias of the program's Python files, by name (one definition per name; two: none). */
function aliasTable(program: Program): Map<string, AliasText | null> {
  const table = new Map<string, AliasText | null>();
  for (const file of program.files) {
    if (file.factsLanguage !== 'python') continue;
    file.lines.forEach((line, index) => {
      const assigned = MODULE_ASSIGNMENT.exec(line);
      if (!assigned?.[1]) return;
      const name = assigned[1];
      const whole = bracketed(file, index + 1);
      const text = whole.slice(whole.indexOf('=') + 1);
      table.set(name, table.has(name) ? null : { file, text });
    });
  }
  return table;
}

const tables = new WeakMap<Program, Map<string, AliasText | null>>();

/** The `return Annotated[...]` texts of a module-level function named `name` in the alias's file or its imports. */
function factoryReturns(program: Program, alias: AliasText): AliasText[] {
  const called = /^\s*([a-z_]\w*)\s*\(/.exec(alias.text)?.[1];
  if (!called) return [];
  const out: AliasText[] = [];
  for (const ref of program.byName.get(called) ?? []) {
    if (ref.fn.qualifiedName !== called) continue;
    const home = program.byPath.get(ref.path);
    if (!home) continue;
    for (let line = ref.fn.bodyStartLine; line <= ref.fn.endLine; line++) {
      if (RETURNS_ANNOTATED.test(home.lines[line - 1] ?? '')) out.push({ file: home, text: bracketed(home, line) });
    }
  }
  return out;
}

/** The dependency declarations the parameter types of `fn` carry through module-level aliases. */
export function aliasDependencyTexts(program: Program, fn: FunctionIR): AliasText[] {
  let table = tables.get(program);
  if (!table) {
    table = aliasTable(program);
    tables.set(program, table);
  }
  const out: AliasText[] = [];
  for (const parameter of fn.parameters) {
    const name = /^[A-Za-z_][\w.]*$/.test(parameter.type ?? '') ? (parameter.type ?? '').split('.').pop() ?? '' : '';
    const alias = name === '' ? undefined : table.get(name);
    if (!alias) continue;
    if (/^\s*Annotated\[/.test(alias.text)) out.push(alias);
    else out.push(...factoryReturns(program, alias));
  }
  return out;
}
