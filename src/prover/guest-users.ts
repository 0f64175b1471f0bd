/**
 * Who the "current user" is when nobody is logged in. Some applications hand back a shared guest
 * account instead of null (BookStack's `function user() { return auth()->user() ?: User::getDefault(); }`,
 * which public access uses), so two readings of the current user change:
 *
 * - a comparison with such a helper (`$userId === user()->id`) is true for every anonymous visitor when
 *   the id is the guest's: it proves ownership only where a login check also runs (the witness is
 *   `guestOpen`, check.ts drops it when no login check dominates);
 * - a function that answers true only when someone is logged in (`return auth()->user() &&
 *   !auth()->user()->isDefault();`, `return Auth::check();`) is a login predicate: where the code leaves
 *   when it is false, that is a login check (`if (!signedInUser()) $this->showPermissionError();`).
 *
 * Both are read from the repository's own functions, never from their names.
 */
import type { LanguageFacts } from './facts.js';
import { splitBoolean } from './branches.js';
import { cached, currentUserHelpers, moduleFunctionsOf } from './ownership.js';
import type { Program } from './resolution.js';
import type { FunctionRef, ProgramFile } from './types.js';
import type { FunctionIR } from '../syntax/ir-types.js';

/** Said of a check whose ownership holds only for a logged-in caller. */
export const GUEST_OPEN_NOTE = ' (against a current user that is the shared guest account when nobody is logged in: ownership only where a login check runs too)';

/** A value given when the first is empty: `a ?: b`, `a ?? b`, `a ? a : b`, `a || b` (JavaScript). */
const FALLBACK = /\?:|\?\?|\?(?![.\->])[^:]*:|\|\|/;
/** A fallback that gives nothing: `?: null`, `?? null`. */
const NULL_FALLBACK = /(?:\?:|\?\?|\|\|)\s*(?:null|false|undefined|None)\s*;?\s*$/;

const fallbackCache = new WeakMap<Program, Map<LanguageFacts, RegExp[]>>();
const predicateCache = new WeakMap<Program, Map<LanguageFacts, FunctionRef[]>>();
const guestTestCache = new WeakMap<Program, Map<LanguageFacts, RegExp[]>>();

/** Each `return` statement of a file: the line it starts on and the value it hands back, in order. */
const returnsByFile = new WeakMap<ProgramFile, { line: number; value: string }[]>();
/** The values of the returns between two lines of a file, by `start:end`. */
const returnsBySpan = new WeakMap<ProgramFile, Map<string, string[]>>();

/**
 * The `return` statements of a file, found in one pass over its text (a statement may span lines, up
 * to its `;`). Once per file, not once per function: a function's body sliced from the file's text
 * made a bundled file (thousands of functions on one line) quadratic.
 */
function fileReturns(file: ProgramFile): { line: number; value: string }[] {
  let found = returnsByFile.get(file);
  if (found) return found;
  found = [];
  const text = file.lines.join('\n');
  let after = 0;
  let line = 1;
  let counted = 0;
  for (const m of text.matchAll(/\breturn\b/g)) {
    if (m.index < after) continue;
    const start = m.index + m[0].length;
    const end = text.indexOf(';', start);
    if (end === -1) break;
    for (let i = text.indexOf('\n', counted); i !== -1 && i < m.index; i = text.indexOf('\n', i + 1)) {
      line++;
      counted = i + 1;
    }
    found.push({ line, value: text.slice(start, end).replace(/\s+/g, ' ').trim() });
    after = end + 1;
  }
  returnsByFile.set(file, found);
  return found;
}

/**
 * The expressions a function's `return` statements hand back, nested functions' included (the lines of
 * its body). Python has no `;` to end one, and its returns are not read.
 */
function returnedValues(file: ProgramFile, fn: FunctionIR): string[] {
  if (file.factsLanguage === 'python') return [];
  let bySpan = returnsBySpan.get(file);
  if (!bySpan) returnsBySpan.set(file, (bySpan = new Map<string, string[]>()));
  const key = `${String(fn.bodyStartLine)}:${String(fn.endLine)}`;
  let values = bySpan.get(key);
  if (!values) {
    values = fileReturns(file).filter((r) => r.line >= fn.bodyStartLine && r.line <= fn.endLine).map((r) => r.value);
    bySpan.set(key, values);
  }
  return values;
}

/**
 * Call patterns of current-user helpers that answer another account when nobody is logged in: a
 * `return` of the logged-in user with a non-null fallback (`auth()->user() ?: User::getDefault()`).
 */
export function guestFallbackHelpers(program: Program, facts: LanguageFacts): RegExp[] {
  return cached(fallbackCache, program, facts, () => [...new Set([...fallbackReturns(program, facts)].map((r) => r.name))].map((name) => new RegExp(`(?<![\\w$>:.])${name}\\(\\)`)));
}

const fallbackReturnCache = new WeakMap<Program, Map<LanguageFacts, { name: string; value: string }[]>>();

/** The `return` values of module functions that hand back the logged-in user or, failing that, another account. */
function fallbackReturns(program: Program, facts: LanguageFacts): { name: string; value: string }[] {
  return cached(fallbackReturnCache, program, facts, () => {
    const found: { name: string; value: string }[] = [];
    for (const { file, name, fn } of moduleFunctionsOf(program, facts)) {
      for (const value of returnedValues(file, fn)) {
        if (FALLBACK.test(value) && !NULL_FALLBACK.test(value) && facts.currentUser.some((re) => re.test(value))) found.push({ name, value });
      }
    }
    return found;
  });
}

/**
 * The test that tells the fallback apart, per guest-fallback helper: `user()->isGuest()` for a helper
 * whose fallback is `User::getGuest()` (the getter's word after `get`, or the factory's name).
 */
function guestTests(program: Program, facts: LanguageFacts): RegExp[] {
  return cached(guestTestCache, program, facts, () => {
    const tests: RegExp[] = [];
    for (const { name, value } of fallbackReturns(program, facts)) {
      const factory = /(?:\?:|\?\?|:)\s*\\?[A-Z][\w\\]*::(?:get)?([A-Za-z]\w*)\s*\(\s*\)\s*$/.exec(value)?.[1];
      if (factory) tests.push(new RegExp(`^${name}\\(\\)->is${factory[0]!.toUpperCase()}${factory.slice(1)}\\(\\)$`));
    }
    return tests;
  });
}

/**
 * Conditions that are true exactly when nobody is logged in: the facts' login tests (`auth()->guest()`,
 * `!Auth::check()`), and the guest-fallback helper's own test (`user()->isGuest()`).
 */
export function anonymousCallerTest(program: Program, facts: LanguageFacts, condition: string): boolean {
  const c = condition.trim();
  return facts.loginTests.some((re) => re.test(c)) || guestTests(program, facts).some((re) => re.test(c));
}

/** Whether `text` is written with one of the guest-fallback helpers. */
export function mentionsGuestFallback(program: Program, facts: LanguageFacts, text: string): boolean {
  return guestFallbackHelpers(program, facts).some((re) => re.test(text));
}

const wholeUserCache = new WeakMap<Program, Map<LanguageFacts, RegExp[]>>();

/** The logged-in user's expressions (the facts' and the repository's helpers, guest fallbacks left out), each matching a whole term. */
function wholeUserExpressions(program: Program, facts: LanguageFacts): RegExp[] {
  return cached(wholeUserCache, program, facts, () => {
    const fallback = guestFallbackHelpers(program, facts);
    const users = [...facts.currentUser, ...currentUserHelpers(program, facts).filter((re) => !fallback.some((f) => f.source === re.source))];
    return users.map((re) => new RegExp(`^(?:${re.source})$`));
  });
}

/**
 * A term true only when someone is logged in: the negation of a login test of the facts
 * (`auth()->check()`, `!auth()->guest()`), or the logged-in user itself, or it compared unequal with null
 * (`auth()->user()`, `$request->user() !== null`). A guest-fallback helper is never empty, so it is none.
 */
function positiveLoginTerm(program: Program, facts: LanguageFacts, term: string, alone: boolean): boolean {
  const t = term.trim().replace(/^\(bool\)\s*/, '').replace(/^!!\s*/, '');
  if (facts.loginTests.some((re) => re.test(`!${t}`) || (t.startsWith('!') && re.test(t.slice(1).trim())))) return true;
  // `return auth()->user();` alone is a getter of the user, not a test.
  if (alone && !/(!==?\s*null|is_null)/.test(t) && !/^\(bool\)|^!!/.test(term.trim())) return false;
  const subject = /^(.+?)\s*!==?\s*null$/.exec(t)?.[1] ?? /^!\s*is_null\((.+)\)$/.exec(t)?.[1] ?? t;
  return wholeUserExpressions(program, facts).some((re) => re.test(subject.trim()));
}

/** A conjunction one of whose terms is a login term. */
function loginConjunction(program: Program, facts: LanguageFacts, value: string): boolean {
  const terms = splitBoolean(value, '&&');
  return terms.some((term) => positiveLoginTerm(program, facts, term, terms.length === 1));
}

/**
 * Functions of the repository whose every `return` answers a conjunction with a login term, and so
 * answer true only for a logged-in caller (a disjunction, `return true` or a second value may answer true
 * for anybody). The prover treats them as predicates of kind `authn`.
 */
export function loginPredicates(program: Program, facts: LanguageFacts): FunctionRef[] {
  return cached(predicateCache, program, facts, () => {
    const found: FunctionRef[] = [];
    if (facts.currentUser.length + facts.loginTests.length === 0) return found;
    const judged = new Map<string[], boolean>();
    const byValue = new Map<string, boolean>();
    for (const ref of program.functions.values()) {
      const file = program.byPath.get(ref.path);
      if (file?.factsLanguage !== facts.language || ref.fn.isLambda) continue;
      const values = returnedValues(file, ref.fn);
      if (values.length === 0) continue;
      // Functions on the same lines (a bundle's one line) return the same values: judged once.
      let loginOnly = judged.get(values);
      if (loginOnly === undefined) {
        loginOnly = values.every((v) => {
          let answer = byValue.get(v);
          if (answer === undefined) byValue.set(v, (answer = !FALLBACK.test(v) && splitBoolean(v, '||').length === 1 && loginConjunction(program, facts, v)));
          return answer;
        });
        judged.set(values, loginOnly);
      }
      if (loginOnly) found.push(ref);
    }
    return found;
  });
}
