/**
 * Routes that exist only outside production. Node servers follow the `NODE_ENV` convention, which
 * Express itself reads (`app.get('env')` is `NODE_ENV`; a production deployment sets `production`): a
 * route registered under `if (process.env.NODE_ENV !==
 * 'production')`, or by a function that is only called under such a test (`if (process.env.NODE_ENV
 * !== 'production') bootDebugRoutes(app);`), is not served by a production deployment, so it is no
 * entry point of the application an attacker reaches. A test with another alternative (`|| flag`)
 * decides nothing, and neither does an `else` branch: only the `if` arm of a development-only test counts.
 */
import { indentOf } from './branches.js';
import type { Program } from './resolution.js';
import type { ProgramFile } from './types.js';

/** `NODE_ENV !== 'production'`, `NODE_ENV === 'development'|'test'`, also through Express's `app.get('env')`. */
const DEVELOPMENT_TEST = /(?:\bprocess\.env\.NODE_ENV|\bprocess\.env\[\s*['"]NODE_ENV['"]\s*\]|\b[A-Za-z_$][\w$]*\.get\(\s*['"]env['"]\s*\))\s*(?:!==?\s*['"]production['"]|===?\s*['"](?:development|dev|test|local)['"])/;
/** An `if` head and its condition, the statement it guards possibly on the same line. */
const IF_HEAD = /^\s*(?:\}\s*)?if\s*\((.*)\)\s*(?:\{\s*)?(.*)$/;

/** True when the condition holds only outside production: a development test and nothing it is `||`-ed with. */
function developmentCondition(condition: string): boolean {
  return DEVELOPMENT_TEST.test(condition) && !condition.includes('||');
}

/** True when `line` of `file` runs only under a development-only `if` (on the line itself or a block head above it). */
export function developmentOnlyAt(file: ProgramFile, line: number): boolean {
  const own = file.lines[line - 1] ?? '';
  const sameLine = IF_HEAD.exec(own);
  if (sameLine && sameLine[2] !== '' && developmentCondition(sameLine[1] ?? '')) return true;
  let indent = indentOf(own);
  for (let l = line - 1; l >= 1 && indent > 0; l--) {
    const text = file.lines[l - 1] ?? '';
    if (text.trim() === '' || indentOf(text) >= indent) continue;
    indent = indentOf(text);
    const head = IF_HEAD.exec(text);
    if (head && !/\belse\b/.test(text) && developmentCondition(head[1] ?? '')) return true;
  }
  return false;
}

/** Call sites by callee name (calls with no receiver: `bootDebugRoutes(app)`), built once per program. */
const callSites = new WeakMap<Program, Map<string, { file: ProgramFile; line: number }[]>>();

function sitesOf(program: Program, name: string): { file: ProgramFile; line: number }[] {
  let sites = callSites.get(program);
  if (sites === undefined) {
    sites = new Map();
    for (const file of program.files) {
      if (file.factsLanguage !== 'typescript') continue;
      for (const call of file.ir.calls) {
        if (call.receiver !== null) continue;
        const list = sites.get(call.callee) ?? [];
        list.push({ file, line: call.line });
        sites.set(call.callee, list);
      }
    }
    callSites.set(program, sites);
  }
  return sites.get(name) ?? [];
}

/** True when the program calls the function `name` and every call sits under a development-only test. */
export function onlyCalledInDevelopment(program: Program, name: string): boolean {
  const sites = sitesOf(program, name);
  return sites.length > 0 && sites.every((site) => developmentOnlyAt(site.file, site.line));
}
