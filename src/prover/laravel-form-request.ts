/**
 * Laravel form requests: a controller action whose parameter is typed with a `FormRequest` subclass runs
 * that class's `authorize()` before its body, and a false answer ends the request with 403. The answer is
 * a check when every `return` of `authorize()` gives one: a permission or policy test (`can(...)`,
 * `Gate::allows`, a role predicate on the user), a comparison of the user with the object's owner, or a
 * login test. `return true;` checks nothing, and a missing `authorize()` is Laravel's default `true`.
 */
import type { LanguageFacts } from './facts.js';
import { classNamed } from './laravel-middleware.js';
import { alternatives } from './ownership.js';
import { statementAt } from './recognisers/shared.js';
import { REQUEST_DATA } from './branches.js';
import { callSignature, findMethod, superChain, type Program } from './resolution.js';
import type { DischargeKind, FunctionRef, ProgramFile } from './types.js';

/** What an entry's form request checks. */
export interface FormRequestCheck {
  kind: DischargeKind;
  evidence: string;
}

/** `$this->user()` is the form request's own accessor for the logged-in user. */
const OWN_USER = /\$this->user\(\)/;
const COMPARISON = /(===|!==|==|!=)/;
const ROLE_PREDICATE = /->(is[A-Z]\w*|has[A-Z]\w*|can\w*)\(/;
/**
 * The form request's own input in the answer: its accessors and magic properties (`$this->user_id` reads
 * the input). An ability it names, or an owner id it compares with, is the caller's choice, as with
 * any other request data (REQUEST_DATA).
 */
const OWN_INPUT = /\$this->(input|get|query|post|boolean|string|integer|float|all|only|except|header|cookie|json|validated|safe|collect|date|enum)\s*\(|\$this->\w+\b(?!\s*\()/;
/** Operators and forms that give the answer a value of their own: bitwise or/xor, a match, a sum. */
const OPAQUE = /(?<!\|)\|(?!\|)|\^|\bxor\b|\bmatch\s*\(|[+*]/;

/** The checks the form requests among an entry's parameters make before its body runs. */
export function formRequestChecks(program: Program, facts: LanguageFacts, ref: FunctionRef): FormRequestCheck[] {
  const file = program.byPath.get(ref.path);
  if (!file) return [];
  const out: FormRequestCheck[] = [];
  for (const param of ref.fn.parameters) {
    if (param.type === null) continue;
    const cls = classNamed(program, param.type.replace(/^\?/, ''), file);
    if (!cls) continue;
    const chain = superChain(program.table, cls);
    const top = chain[chain.length - 1];
    if (!top?.superclass || !/(^|\\)FormRequest$/.test(top.superclass)) continue;
    const authorize = findMethod(program.table, cls, 'authorize', null)?.methods[0];
    const authorizeFile = authorize ? program.byPath.get(authorize.path) : undefined;
    if (!authorize || !authorizeFile) continue;
    for (const kind of answerKinds(facts, authorizeFile, authorize)) out.push({ kind, evidence: `${cls.name}::authorize() (form request ${param.name}) answers with a ${kind === 'authn' ? 'login' : kind === 'ownership_check' ? 'owner' : 'permission'} test` });
  }
  return out;
}

/** The kinds every `return` of `authorize()` checks (a `return false` denies everyone, so it checks all). */
function answerKinds(facts: LanguageFacts, file: ProgramFile, fn: FunctionRef): DischargeKind[] {
  let common = null as Set<DischargeKind> | null;
  const all: DischargeKind[] = ['authn', 'path_guard', 'ownership_check'];
  for (let line = fn.fn.bodyStartLine; line <= fn.fn.endLine; line++) {
    const text = file.lines[line - 1] ?? '';
    if (!/\breturn\b/.test(text)) continue;
    const statement = statementAt(file, line, 6);
    const expression = statement.slice(statement.indexOf('return') + 'return'.length).replace(/;[\s\S]*$/, '').trim();
    // Each value the answer can take must be a check: `can(...) || true` lets everyone through.
    let kinds: Set<DischargeKind> | null = null;
    for (const value of alternatives(expression)) {
      const own: Set<DischargeKind> = /^false$/i.test(value) ? new Set(all) : expressionKinds(facts, file, line, value);
      kinds = kinds === null ? own : new Set([...kinds].filter((k: DischargeKind) => own.has(k)));
    }
    kinds ??= new Set();
    common = common === null ? kinds : new Set([...common].filter((k: DischargeKind) => kinds.has(k)));
  }
  return common === null ? [] : [...common];
}

function expressionKinds(facts: LanguageFacts, file: ProgramFile, line: number, expression: string): Set<DischargeKind> {
  const kinds = new Set<DischargeKind>();
  if (expression === '' || /^true$/i.test(expression) || OPAQUE.test(expression) || OWN_INPUT.test(expression) || REQUEST_DATA.test(expression)) return kinds;
  const user = (text: string): boolean => OWN_USER.test(text) || facts.currentUser.some((re) => re.test(text));
  // A discharger call in the answer: booleans count here, the framework acts on the value.
  for (const call of file.ir.calls) {
    if (call.line < line || call.line > line + 5 || !expression.includes(call.callee)) continue;
    const row = facts.dischargers.find((d) => d.calls.some((re) => re.test(callSignature(call))));
    if (row && row.kind !== 'public' && row.kind !== 'csrf_guard') kinds.add(row.kind);
  }
  if (user(expression) && ROLE_PREDICATE.test(expression)) kinds.add('path_guard');
  if (user(expression) && COMPARISON.test(expression) && !/null\b/.test(expression)) kinds.add('ownership_check');
  // The facts' login tests are true when nobody is logged in; the answer allows, so its negation is one.
  if (facts.loginTests.some((re) => re.test(`!${expression}`)) || (user(expression) && /null\b|^\(bool\)|^!!/.test(expression))) kinds.add('authn');
  return kinds;
}
