/**
 * Objects the code builds itself (docs/prover.md, "Resource-bound checks"). A resource-bound operation
 * is at risk only when the request picked its object; an object the code creates is none of the request's
 * choosing, even when the request's data went into building it. `$project =
 * $projectService->createNewProject($customer)` names the route's `$customer`, but what it returns is a
 * `new Project()` made inside the service: the team granted access to it is granted a project that did not
 * exist before this request. This module answers whether a right-hand side is such a creation one or two
 * calls deep: a call to repository functions each of whose `return`s gives back an object created there
 * (a creation expression of the language's `created_objects`, or a variable last assigned one, or another
 * such factory).
 */
import type { CallIR, FunctionIR } from '../syntax/ir-types.js';
import type { LanguageFacts } from './facts.js';
import { callsByLine } from './enforcement.js';
import { resolveCall, type Program } from './resolution.js';
import type { ProgramFile } from './types.js';

/** How many factory calls deep a creation is followed (a factory that calls a factory). */
const MAX_DEPTH = 2;
const RETURN = /^\s*return\s+(.+?);?\s*$/;

/** An assignment to `name` (`$name = ...;`, `const name = ...`); group 1 is the right-hand side. */
export const ASSIGNMENT = (name: string, php: boolean): RegExp => new RegExp(String.raw`^\s*(?:(?:const|let|var|final|[A-Z]\w*)\s+)?${php ? '\\$' : ''}${name}\s*(?:\?\?)?=(?![=>])\s*(.+?);?\s*$`);

const compact = (text: string): string => text.replace(/\s+/g, '').replace(/;$/, '');

/** The call that is the whole right-hand side `rhs` on `line` (`$service->createNew($x)`), or undefined. */
function outermostCall(file: ProgramFile, line: number, rhs: string): CallIR | undefined {
  const wanted = compact(rhs);
  const onLine = (callsByLine(file).get(line) ?? []).filter((c) => c.kind === 'call');
  return onLine.find((c) => compact(c.text) === wanted) ?? onLine.filter((c) => wanted.startsWith(compact(c.text)) && wanted.endsWith(')')).sort((a, b) => b.text.length - a.text.length)[0];
}

const isCreation = (facts: LanguageFacts, expression: string): boolean => facts.createdObjects.some((re) => re.test(expression.trim()));

/** Every `return` of `fn` gives back an object created in it (there is at least one `return`). */
function returnsCreated(program: Program, facts: LanguageFacts, file: ProgramFile, fn: FunctionIR, depth: number): boolean {
  const php = file.factsLanguage === 'php';
  const returns: { expression: string; line: number }[] = [];
  for (let line = fn.bodyStartLine; line <= fn.endLine; line++) {
    const m = RETURN.exec(file.lines[line - 1] ?? '');
    if (m?.[1]) returns.push({ expression: m[1], line });
  }
  if (returns.length === 0) return false;
  return returns.every(({ expression, line }) => {
    if (isCreation(facts, expression) || createdByCall(program, facts, file, fn, expression, line, depth + 1)) return true;
    const variable = (php ? /^\$(\w+)$/ : /^([A-Za-z_]\w*)$/).exec(expression.trim())?.[1];
    if (variable === undefined || variable === 'this') return false;
    const assignment = ASSIGNMENT(variable, php);
    // The last assignment above the return decides (a reassignment from elsewhere makes it unknown).
    for (let l = line - 1; l > fn.bodyStartLine; l--) {
      const a = assignment.exec(file.lines[l - 1] ?? '');
      if (!a?.[1]) continue;
      return isCreation(facts, a[1]) || createdByCall(program, facts, file, fn, a[1], l, depth + 1);
    }
    return false;
  });
}

/**
 * `rhs`, assigned on `line` of `fn`, is a call to repository functions that each return an object they
 * created (`createNewProject(...)` returning its `new Project()`).
 */
export function createdByCall(program: Program, facts: LanguageFacts, file: ProgramFile, fn: FunctionIR | null, rhs: string, line: number, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  const call = outermostCall(file, line, rhs);
  if (!call) return false;
  const { targets } = resolveCall(program, file, fn, call);
  if (targets.length === 0) return false;
  return targets.every((target) => {
    const targetFile = program.byPath.get(target.path);
    return targetFile !== undefined && returnsCreated(program, facts, targetFile, target.fn, depth);
  });
}
