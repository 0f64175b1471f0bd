/**
 * Check helpers that check nothing. Some discharger rows trust a call by its conventional name
 * (`check_permission(...)`, `require_admin`), and some trust a refusal by the words of the `if` above it
 * (`if not is_admin_user(u): abort(403)`). Both are right for a library's helper, whose body the prover
 * cannot read; a helper the repository defines itself is read: when its body does nothing at all, or
 * only answers a constant (`return True`, `pass`), the name is a costume and the call is no check. The
 * same holds for a Python decorator named like a check (`@require_admin`, `@admin_only`) that the
 * repository defines as a wrapper calling the view with nothing before it.
 */
import type { CallIR, FunctionIR } from '../syntax/ir-types.js';
import type { DischargerFact } from './facts.js';
import { resolveCall, type Program } from './resolution.js';
import { repositoryFunction } from './python-web-checks.js';
import { callsByLine } from './enforcement.js';
import { CONDITION_KEYWORDS } from './branches.js';
import { blankStrings } from './string-literals.js';
import type { FunctionRef, ProgramFile } from './types.js';

/** A statement that decides nothing: no statement, a constant answer, a docstring or a comment. */
const INERT_STATEMENT = /^(?:pass|\.\.\.|return(?:\s+(?:True|true|1|None|null|undefined|!0|\(\s*true\s*\)))?|(?:"""|'''|"|'|`)[^]*|#[^]*|\/\/[^]*|\/\*[^]*\*\/)$/;

/** The text of a function's body, without its header (decorators, signature) and outer braces. */
function bodyText(file: ProgramFile, fn: FunctionIR): string | null {
  const source = file.lines.slice(fn.startLine - 1, fn.endLine).join('\n');
  const python = file.language === 'python';
  if (python) {
    const header = /^(?:[ \t]*@[^\n]*\n)*[ \t]*(?:async[ \t]+)?def\b[^]*?\)[ \t]*(?:->[^\n:]*)?:/.exec(source);
    return header === null ? null : source.slice(header[0].length);
  }
  const arrow = /=>\s*(?!\s*\{)([^]*)$/.exec(source);
  if (arrow !== null && !/\bfunction\b/.test(source.slice(0, arrow.index))) return `return ${(arrow[1] ?? '').replace(/[;,)\s]*$/, '')}`;
  const open = source.indexOf('{');
  const close = source.lastIndexOf('}');
  return open < 0 || close <= open ? null : source.slice(open + 1, close);
}

/** A method declared to be overridden: `@abstractmethod` (Python), the `abstract` keyword (TypeScript, PHP, Java). */
function isAbstract(fn: FunctionIR): boolean {
  return fn.modifiers.includes('abstract') || fn.decorators.some((d) => /^(?:abc\.)?abstract(?:method|property)\b/.test(d.replace(/^@/, '')));
}

/** A function whose body cannot refuse anything: every statement is inert (and there is at least a body). */
export function checksNothing(file: ProgramFile, fn: FunctionIR): boolean {
  // An abstract method's empty body is never what runs: the call reaches a subclass's override.
  if (isAbstract(fn)) return false;
  const body = bodyText(file, fn);
  if (body === null) return false;
  const statements = body
    .split(/\n|;/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  return statements.every((s) => INERT_STATEMENT.test(s));
}

function repositoryTargets(program: Program, file: ProgramFile, caller: FunctionIR | null, call: CallIR): FunctionRef[] {
  return resolveCall(program, file, caller, call).targets;
}

/** Each helper is judged once: every call site of a check helper asks about the same definition. */
const inertDefinitions = new WeakMap<FunctionIR, boolean>();

function inertTarget(program: Program, target: FunctionRef): boolean {
  const home = program.byPath.get(target.path);
  if (home === undefined) return false;
  let inert = inertDefinitions.get(target.fn);
  if (inert === undefined) inertDefinitions.set(target.fn, (inert = checksNothing(home, target.fn)));
  return inert;
}

const TEST_HEAD = new RegExp(String.raw`\b(?:${CONDITION_KEYWORDS})\b\s*`);

/** The test of an `if` line: inside its parentheses (JavaScript, PHP, Java) or before its colon (Python). */
function testOf(line: string): string | null {
  const head = TEST_HEAD.exec(line);
  if (head === null) return null;
  const rest = line.slice(head.index + head[0].length);
  if (!rest.startsWith('(')) {
    const colon = rest.lastIndexOf(':');
    return colon < 0 ? null : rest.slice(0, colon);
  }
  let depth = 0;
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '(') depth++;
    else if (rest[i] === ')' && --depth === 0) return rest.slice(1, i);
  }
  return null;
}

export interface FakeCheckInput {
  program: Program;
  file: ProgramFile;
  /** The function the call sits in (the view or a helper on its path). */
  caller: FunctionIR;
  call: CallIR;
  row: DischargerFact;
  /** The nearest `if` line above the call (the test that guards it), or null. */
  condition: string | null;
}

/**
 * Why a call a discharger row matched is no check, or null when it may be one: a repository helper that checks nothing, or a refusal whose condition names a check
 * only through repository functions that check nothing.
 */
export function fakeCheckReason(input: FakeCheckInput): string | null {
  const { program, file, caller, call, row } = input;
  const targets = repositoryTargets(program, file, caller, call);
  if (targets.length > 0 && targets.every((t) => inertTarget(program, t))) {
    return `${call.callee}() is defined in the repository and checks nothing`;
  }
  if (input.condition === null) return null;
  const deployment = deploymentSwitch(input.condition);
  if (deployment !== null) return deployment;
  // The test that guards the refusal, without the calls to repository functions that check nothing.
  let remainder = input.condition;
  let removed = false;
  const byLine = callsByLine(file);
  const nearby: CallIR[] = [];
  for (let line = call.line - 3; line <= call.line; line++) for (const c of byLine.get(line) ?? []) if (c !== call) nearby.push(c);
  for (const inner of nearby) {
    const text = inner.text.split('\n')[0] ?? '';
    if (!remainder.includes(text)) continue;
    const innerTargets = repositoryTargets(program, file, caller, inner);
    if (innerTargets.length === 0 || !innerTargets.every((t) => inertTarget(program, t))) continue;
    remainder = remainder.split(text).join('');
    removed = true;
  }
  if (!removed) return null;
  const test = testOf(remainder);
  // Nothing left to test (`if (!checkPermission(user))` with a `return true` helper), or not the words
  // that made the row count it: the refusal's test is a constant.
  if ((test !== null && !/[A-Za-z_$][\w$]*/.test(test.replace(/\b(not|and|or)\b/g, ''))) || (row.condition && !row.condition.test(remainder))) {
    return `its test calls only repository functions that check nothing (${input.condition.trim()})`;
  }
  return null;
}

/**
 * `if (type === 'mutation' && process.env.DEMO_USER_ID) throw new TRPCForbiddenError(...)`: a test of the
 * deployment (an environment variable) and of the kind of request only refuses every caller alike in a
 * demo or read-only installation; it tells no caller from another, so it is no check.
 */
function deploymentSwitch(condition: string): string | null {
  const test = testOf(condition);
  if (test === null || !/\b(process|import\.meta)\.env\b/.test(test)) return null;
  const rest = blankStrings(test, "''")
    .replace(/\b(?:process|import\.meta)\.env(?:\.\w+|\[[^\]]*\])*/g, '')
    .replace(/\b\d+\b|\b(true|false|null|undefined)\b/g, '')
    .replace(/\b(type|method|req\.method|request\.method|ctx\.method)\b/g, '');
  return /[A-Za-z_$]/.test(rest) ? null : `its test reads only the deployment's environment (${test.trim()}), the same for every caller`;
}

/** Lines of a pass-through decorator that do nothing but wrap: nested `def`s, `@wraps`, returning the wrapper or calling the view. */
const WRAPPING_LINE = /^(?:(?:async\s+)?def\b[^]*:|@(?:functools\.)?wraps\([^]*\)|return\s+[A-Za-z_]\w*|return\s+(?:await\s+)?[A-Za-z_]\w*\(\s*\*\w+\s*(?:,\s*\*\*\w+\s*)?\))$/;

/**
 * A Python decorator the repository defines (found from `file` by the name `text` starts with) whose
 * whole body only wraps the view: no test, no refusal, no call but the view's. Its name checks nothing.
 */
export function pythonDecoratorChecksNothing(program: Program, file: ProgramFile, text: string): boolean {
  if (file.language !== 'python') return false;
  const name = /^([A-Za-z_][\w.]*)/.exec(text)?.[1]?.split('.').pop() ?? '';
  const decorator = repositoryFunction(program, file, name);
  const home = decorator ? program.byPath.get(decorator.path) : undefined;
  if (!decorator || !home) return false;
  const statements = home.lines
    .slice(decorator.fn.startLine - 1, decorator.fn.endLine)
    .map((l) => l.trim())
    .filter((l) => l.length > 0 && !l.startsWith('#'));
  return statements.length > 1 && statements.every((s) => WRAPPING_LINE.test(s) || INERT_STATEMENT.test(s));
}
