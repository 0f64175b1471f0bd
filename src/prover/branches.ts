/**
 * How a boolean check's value is used where it is computed: the code leaves when it is false
 * (`if (!can(x)) { throw }`, `abort_unless(can(x))`), guards one branch (`if (can(x)) { ... }`), hands it
 * to the caller (`return user.can(x)`: the function is a predicate), or lets it fall through (`$ok =
 * can(x);` and nothing branches on `$ok`, or a failing arm that does not leave). Textual, per function;
 * prover part 2 replaces it with the control-flow graph.
 */
import { blankStrings } from './string-literals.js';
import type { FunctionIR } from '../syntax/ir-types.js';
import type { ProgramFile } from './types.js';
import { bodyTop } from './function-body.js';

/**
 * Request data in a check's text (PHP, JavaScript, Python): what it names is the caller's choice, so an
 * ability, a role or an id taken from it checks nothing. The logged-in user (`$request->user()`) is not.
 */
export const REQUEST_DATA = /\brequest\s*\(|\$request->(?!user\s*\()\w+|\$_(GET|POST|REQUEST|COOKIE|SERVER)\b|\breq\.(query|body|params|headers|cookies)\b|\brequest\.(GET|POST|args|form|json|query|body|params|headers|cookies|values|data)\b|\bRequest::/;

/**
 * Whether an `abort_if`/`abort_unless`-style assertion on `line` refuses on the check's own failure:
 * `_unless` with no alternative that passes without it (`|| other`), `_if` on a negated test with no
 * other condition required (`&& other`), and no request data deciding the outcome.
 */
export function assertionDecides(line: string): boolean {
  const asserting = ASSERTING.exec(line);
  if (!asserting) return true;
  const argument = line.slice(asserting.index + asserting[0].length);
  if (REQUEST_DATA.test(argument)) return false;
  if (/_if$/.test(asserting[1] ?? '')) return !/&&|\band\b/.test(argument) && /!|\b(cannot|cant|denies|none|not)\b|===?\s*false/.test(argument);
  return !/\|\||\bor\b|\?\?|\?:/.test(argument);
}

/** What the code does with a boolean check. */
export type BooleanUse =
  /** `narrowedBy`: the other terms of the denial, when the check is required only where they hold. */
  | { kind: 'leaves'; narrowedBy?: string }
  | { kind: 'branch'; until: number }
  | { kind: 'returned' }
  /** Tested, but the failing arm does not leave (or the test is mixed with other conditions). */
  | { kind: 'fell_through' }
  /** Stored in a variable that no later condition reads. */
  | { kind: 'unused' }
  /** A shape this reading does not know (ternaries, chains): the caller decides. */
  | { kind: 'other' };

/** Says whether lines `from..to` of the function leave it (throw, return, abort, an always-throwing helper). */
export type LeavesBetween = (from: number, to: number) => boolean;

/** The keywords that open a test in the languages read (`elif`: Python, `elseif`: PHP, `unless`: Ruby/Perl-style helpers). */
export const CONDITION_KEYWORDS = 'if|elif|elseif|unless';
const CONDITION = new RegExp(String.raw`\b(${CONDITION_KEYWORDS})\b`);
/** Laravel/PHP and assertion helpers that end the request when their argument is false (or true, for `_if`). */
const ASSERTING = /^\s*(?:return\s+)?(abort_unless|throw_unless|abort_if|throw_if|assert|invariant)\s*\(/;

/** `text` as a literal inside a regular expression. */
export function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Leading whitespace width of a line. */
export function indentOf(text: string): number {
  return /^\s*/.exec(text)?.[0].length ?? 0;
}

/** True when `name` sits under a `!`/`not` in `condition` (through a receiver chain), or is compared with false. */
function negatedIn(condition: string, name: string): boolean {
  const n = escape(name);
  const chain = String.raw`(?:[\w$]+(?:\([^()]*\))?\s*(?:->|\?->|\.|\?\.|::)\s*)*`;
  if (new RegExp(String.raw`(?:!|\bnot\s+)\s*\(?\s*(?:await\s+)?${chain}\$?${n}\b`).test(condition)) return true;
  return new RegExp(String.raw`\$?${n}\b(?:\([^()]*\))?\s*(?:===?\s*false|!==?\s*true|is\s+False)`).test(condition);
}

/** The lines a text offset falls on, for a text joined from `firstLine` on. */
function lineOfOffset(starts: readonly number[], firstLine: number, offset: number): number {
  let i = 0;
  while (i + 1 < starts.length && (starts[i + 1] ?? Infinity) <= offset) i++;
  return firstLine + i;
}

/** The offset of the bracket closing the one at `open`, skipping quoted strings; -1 when unbalanced. */
export function closing(text: string, open: number): number {
  const pair: Record<string, string> = { '(': ')', '{': '}', '[': ']' };
  const want = pair[text[open] ?? ''];
  if (want === undefined) return -1;
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"' || ch === "'" || ch === '`') {
      const end = text.indexOf(ch, i + 1);
      if (end < 0) return -1;
      i = end;
      continue;
    }
    if (ch === text[open]) depth++;
    else if (ch === want && --depth === 0) return i;
  }
  return -1;
}

/** The condition text and the lines of the branch it guards, for the `if` on `line`. */
export function conditionalAt(file: ProgramFile, fn: FunctionIR, line: number): { condition: string; keyword: string; from: number; to: number } | null {
  const first = file.lines[line - 1] ?? '';
  const keyword = CONDITION.exec(first);
  if (!keyword) return null;
  const lines = file.lines.slice(line - 1, fn.endLine);
  const starts: number[] = [];
  let offset = 0;
  for (const text of lines) {
    starts.push(offset);
    offset += text.length + 1;
  }
  const text = lines.join('\n');
  const afterKeyword = keyword.index + keyword[0].length;
  const open = /^\s*\(/.exec(text.slice(afterKeyword));
  if (!open) {
    // `if not user.can(x):` and an indented block (Python).
    const colon = first.lastIndexOf(':');
    if (colon < afterKeyword) return null;
    let to = line;
    for (let l = line + 1; l <= fn.endLine && (file.lines[l - 1]?.trim() === '' || indentOf(file.lines[l - 1] ?? '') > indentOf(first)); l++) to = l;
    const rest = first.slice(colon + 1).trim();
    return { condition: first.slice(afterKeyword, colon), keyword: keyword[0], from: rest === '' ? line + 1 : line, to };
  }
  const parenAt = afterKeyword + open[0].length - 1;
  const parenEnd = closing(text, parenAt);
  if (parenEnd < 0) return null;
  const condition = text.slice(parenAt + 1, parenEnd);
  const after = /^\s*/.exec(text.slice(parenEnd + 1))?.[0].length ?? 0;
  const bodyAt = parenEnd + 1 + after;
  if (text[bodyAt] === '{') {
    const end = closing(text, bodyAt);
    if (end < 0) return null;
    return { condition, keyword: keyword[0], from: lineOfOffset(starts, line, bodyAt), to: lineOfOffset(starts, line, end) };
  }
  // One statement as the branch: up to its `;` (or the end of its line).
  const semi = text.indexOf(';', bodyAt);
  const end = semi < 0 ? text.indexOf('\n', bodyAt) : semi;
  return { condition, keyword: keyword[0], from: lineOfOffset(starts, line, bodyAt), to: lineOfOffset(starts, line, end < 0 ? text.length - 1 : end) };
}

/** `text` split at `operator` where no bracket is open. */
export function splitTopLevel(text: string, operator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] ?? '';
    if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) depth--;
    else if (depth === 0 && text.startsWith(operator, i)) {
      parts.push(text.slice(start, i).trim());
      start = i + operator.length;
      i += operator.length - 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts;
}

/**
 * A denial split by cases: every `||` alternative is a null test of one variable and one negated
 * check (`context == null && !jenkins.hasPermission(A) || context != null && !context.hasPermission(B)`),
 * and the tests cover both cases, so whichever case holds, a failed check leaves.
 */
function caseSplitDenial(condition: string): boolean {
  const alternatives = splitTopLevel(condition, '||');
  if (alternatives.length < 2) return false;
  const cases = new Map<string, Set<boolean>>();
  for (const alternative of alternatives) {
    const parts = splitTopLevel(alternative.replace(/^\((.*)\)$/s, '$1'), '&&');
    if (parts.length !== 2) return false;
    const test = parts.map((p) => /^(\$?[\w.]+)\s*(===?|!==?)\s*null$|^null\s*(===?|!==?)\s*(\$?[\w.]+)$/.exec(p));
    const at = test.findIndex((m) => m !== null);
    const match = test[at];
    const check = parts[1 - at] ?? '';
    if (!match || !/^!\s*\S/.test(check)) return false;
    const variable = match[1] ?? match[4] ?? '';
    const isNull = (match[2] ?? match[3] ?? '').startsWith('=');
    cases.set(variable, (cases.get(variable) ?? new Set()).add(isNull));
  }
  return cases.size === 1 && [...cases.values()].every((seen) => seen.size === 2);
}

/** `text` split at a top-level boolean operator, in either spelling (`&&`/`and`, `||`/`or`). */
export function splitBoolean(text: string, operator: '&&' | '||'): string[] {
  const word = operator === '&&' ? 'and' : 'or';
  return splitTopLevel(text.replace(new RegExp(String.raw`\s\b${word}\b\s`, 'g'), ` ${operator} `), operator);
}

/**
 * A term that is the check negated as a whole: `!can(x)`, `can(x) === false`, or `!(can(a) || can(b))`
 * (which fails only when every alternative, each the check, fails), not a part of a larger test.
 */
function isNegatedCheck(term: string, mentions: RegExp): boolean {
  const inner = term.replace(/^\s*(?:!|\bnot\b)\s*/, '').replace(/^\((.*)\)$/s, '$1');
  return splitBoolean(inner, '&&').length === 1 && splitBoolean(inner, '||').every((d) => mentions.test(d));
}

/**
 * A denying condition in which the check's failure leaves on every path that evaluates it:
 * `a || !check` leaves when the check fails whatever `a` is (the check holds afterwards), and
 * `a && !check` or `!check && a` leave when it fails and `a` holds (the check holds afterwards
 * whenever `a` does: `a` narrows the obligation to the case the check is about). The narrowing terms
 * may not read request data (the caller would choose whether the check applies). Returns what narrows
 * it ('' when nothing does), or null when a failure can pass: the check inside a test of its own
 * (`!(a && check)`, `!(check || a)`), or narrowed by request data.
 */
export function denialNarrowing(condition: string, name: string): string | null {
  const mentions = new RegExp(String.raw`\b${escape(name)}\b`);
  const narrowings: string[] = [];
  const denials = splitBoolean(condition, '||').filter((d) => mentions.test(d));
  for (const disjunct of denials) {
    const conjuncts = splitBoolean(disjunct.replace(/^\((.*)\)$/s, '$1'), '&&');
    // `!can(a) && !can(b)` leaves only when both fail, as `!(can(a) || can(b))` does: one of them holds afterwards.
    const checks = conjuncts.filter((c) => mentions.test(c));
    if (checks.length === 0 || checks.some((c) => !negatedIn(c, name) || !isNegatedCheck(c, mentions))) return null;
    const others = conjuncts.filter((c) => !mentions.test(c));
    if (others.some((c) => REQUEST_DATA.test(c))) return null;
    if (others.length > 0) narrowings.push(others.join(' && '));
  }
  if (narrowings.length === 0) return '';
  // `!can(a) || (x && !can(b))`: the un-narrowed denial leaves whenever its check fails, whatever the others add.
  if (narrowings.length < denials.length) return '';
  // Two narrowed denials (`a && !x || b && !y`) each hold only in their own case: leave that to the case split.
  return narrowings.length === 1 && denials.length === 1 ? (narrowings[0] ?? '') : null;
}

/** The variable a narrowing only tests for null (`ctx != null`, `null === $item`), or null for any other narrowing. */
export function nullTestOf(narrowing: string): string | null {
  const test = /^(\$?[\w.]+)\s*(?:===?|!==?)\s*null$|^null\s*(?:===?|!==?)\s*(\$?[\w.]+)$|^(?:is_null|isset)\(\s*(\$[\w]+)\s*\)$|^!\s*(\$?[\w.]+)$/.exec(narrowing.trim());
  return test ? (test[1] ?? test[2] ?? test[3] ?? test[4] ?? null) : null;
}

/** What a test does, once it is known whether its truth means "allowed" (`negated` false) or "refused". */
/**
 * A condition with what its calls and groups hold blanked (`user.id === Number(process.env.ADMIN || 1)`
 * is one comparison: the `||` is inside an argument, not a second way through).
 */
function outerTerms(condition: string): string {
  let text = blankStrings(condition, "''");
  for (let previous = ''; previous !== text; ) {
    previous = text;
    text = text.replace(/(\w|\))\s*\([^()]*\)/g, '$1()');
  }
  return text;
}

function judge(at: { to: number; from: number; condition: string; keyword: string }, negated: boolean, leaves: LeavesBetween, name: string): BooleanUse {
  if (negated) {
    // A case split that covers every case (`ctx == null && !a || ctx != null && !b`), or a denial whose
    // other terms only narrow where it applies (`exported && !can(x)`, `a || !can(x)`). An `unless`
    // (the check itself is the condition) and a comparison (no callee) are read as a whole.
    let narrowedBy = '';
    if (name !== '' && at.keyword !== 'unless' && !caseSplitDenial(at.condition)) {
      const narrowing = denialNarrowing(at.condition, name);
      if (narrowing === null) return { kind: 'fell_through' };
      narrowedBy = narrowing;
    } else if (/&&|\band\b/.test(outerTerms(at.condition)) && !caseSplitDenial(at.condition)) return { kind: 'fell_through' };
    if (!leaves(at.from, at.to)) return { kind: 'fell_through' };
    return narrowedBy === '' ? { kind: 'leaves' } : { kind: 'leaves', narrowedBy };
  }
  if (/\|\||\bor\b/.test(outerTerms(at.condition))) return { kind: 'fell_through' };
  return { kind: 'branch', until: at.to };
}

/** The use of `name` (a check's callee, or the variable holding its value) in the `if` on `line`. */
function useInCondition(file: ProgramFile, fn: FunctionIR, line: number, name: string, leaves: LeavesBetween): BooleanUse {
  const at = conditionalAt(file, fn, line);
  if (!at || !new RegExp(String.raw`\b${escape(name)}\b`).test(at.condition)) return { kind: 'other' };
  const negated = negatedIn(at.condition, name) !== (at.keyword === 'unless');
  const use = judge(at, negated, leaves, name);
  // PHP's `elseif (!can(x)) { $flashes[] = denied; } else { act }`: a denial that goes on guards the arms after it.
  if (use.kind === 'fell_through' && negated && file.factsLanguage === 'php' && at.keyword !== 'unless' && denialNarrowing(at.condition, name) === '') {
    const end = elseChainEnd(file, fn, at.to);
    if (end !== null) return { kind: 'branch', until: end };
    // `if (!can($item)) { $errors[] = denied; continue; }` in a loop: the rest of the item's turn is guarded.
    const last = file.lines.slice(at.from - 1, at.to).map((l) => l.replace(/}\s*$/, '').trim()).filter((l) => l !== '').pop() ?? '';
    const loopEnd = /^continue\s*;/.test(last) ? nestedReach(file, fn, line) : undefined;
    if (loopEnd !== undefined) return { kind: 'branch', until: loopEnd };
  }
  return use;
}

/** The last line of the `elseif`/`else` arms that follow a block closing on `to`, or null when none follows. */
function elseChainEnd(file: ProgramFile, fn: FunctionIR, to: number): number | null {
  let end = to;
  for (let arm = 0; arm < 100; arm++) {
    const text = file.lines[end - 1] ?? '';
    const after = text.slice(text.lastIndexOf('}') + 1);
    if (/^\s*(elseif|else\s+if)\b/.test(after)) {
      const next = conditionalAt(file, fn, end);
      if (next === null || next.to <= end) return null;
      end = next.to;
      continue;
    }
    if (!/^\s*else\s*\{/.test(after)) return end === to ? null : end;
    const lines = file.lines.slice(end - 1, fn.endLine);
    let offset = 0;
    const starts = lines.map((l) => (offset += l.length + 1) - l.length - 1);
    const joined = lines.join('\n');
    const open = joined.indexOf('{', text.lastIndexOf('}') + 1);
    const close = open < 0 ? -1 : closing(joined, open);
    return close < 0 ? null : lineOfOffset(starts, end, close);
  }
  return null;
}

/**
 * A condition that is itself a credential comparison (`token !== process.env.X`, `hash_equals(...)`):
 * a mismatch test must leave; a match test guards only its own branch.
 */
export function comparisonUse(file: ProgramFile, fn: FunctionIR, line: number, leaves: LeavesBetween): BooleanUse {
  const at = conditionalAt(file, fn, line);
  if (!at) return { kind: 'other' };
  const mismatch = /!==?|<>|\bnot\b|!\s*[\w$.:>-]*\(/.test(at.condition);
  return judge(at, mismatch !== (at.keyword === 'unless'), leaves, '');
}

/**
 * How a condition on `line` that is true exactly when the check fails (`if (auth()->guest())`, `if
 * (user()->isGuest())`) is used: it leaves when its arm ends the function, or falls through.
 */
export function failedTestUse(file: ProgramFile, fn: FunctionIR, line: number, leaves: LeavesBetween): BooleanUse & { condition?: string } {
  const at = conditionalAt(file, fn, line);
  if (!at) return { kind: 'other' };
  return { ...judge(at, at.keyword !== 'unless', leaves, ''), condition: at.condition };
}

/** A line whose brackets all close and that does not continue on the next line (`if (x) return y`). */
function closedStatement(text: string): boolean {
  let depth = 0;
  for (const ch of blankStrings(text, '')) {
    if ('([{'.includes(ch)) depth++;
    if (')]}'.includes(ch)) depth--;
  }
  return depth === 0 && !/(\(|\{|&&|\|\||,|=|\?|:|\bif\s*\([^)]*\))\s*$/.test(text.trim()) && /\)\s*\S/.test(text);
}

/** The nearest condition line at or above `line` inside the same statement (three lines up at most). */
function conditionLineAbove(file: ProgramFile, fn: FunctionIR, line: number): number | null {
  for (let l = line; l >= Math.max(fn.startLine, line - 3); l--) {
    const text = file.lines[l - 1] ?? '';
    // A comment line above (`// check if the team exists`) is no condition.
    if (l < line && /^\s*(\/\/|#|\*|\/\*)/.test(text)) return null;
    if (l < line && /[;{}]\s*$/.test(text)) return null;
    // `if (!token) return redirect('/x')` above, written without a `;`: a statement of its own.
    if (l < line && CONDITION.test(text) && closedStatement(text)) return null;
    if (CONDITION.test(text)) return l;
  }
  return null;
}

/** How the boolean that `name(...)` returns on `line` of `fn` is used. */
export function booleanUse(file: ProgramFile, fn: FunctionIR, line: number, name: string, leaves: LeavesBetween): BooleanUse {
  const own = file.lines[line - 1] ?? '';
  const before = own.slice(0, Math.max(0, own.indexOf(name)));
  const asserting = ASSERTING.exec(own);
  if (asserting) {
    // `abort_unless(can(x))` leaves when the check fails; `abort_if` only when the check is negated.
    const whenTrue = /_if$/.test(asserting[1] ?? '');
    // `abort_unless(can(x) || other)` lets `other` pass without the check, as `abort_if(!can(x) && other)` does.
    const argument = own.slice(asserting.index + asserting[0].length);
    if (whenTrue && /&&|\band\b/.test(argument)) {
      // `abort_if(exported && !can(x), 403)`: a denial narrowed by the other terms, as in an `if`.
      const narrowedBy = denialNarrowing(argument.replace(/,[^,()]*\)\s*;?\s*$/, ''), name);
      return narrowedBy === null ? { kind: 'fell_through' } : { kind: 'leaves', ...(narrowedBy === '' ? {} : { narrowedBy }) };
    }
    if (!whenTrue && /\|\||\bor\b|\?\?|\?:/.test(argument)) return { kind: 'fell_through' };
    return negatedIn(own, name) === whenTrue ? { kind: 'leaves' } : { kind: 'fell_through' };
  }
  // An arrow function whose body is the check returns it too (`const canEdit = (u) => u.can('edit')`).
  if (/^\s*return\b/.test(own) || (line === fn.startLine && before.includes('=>'))) {
    // `return !can(x)` is a denial test, and `return other || can(x)` may be true without the check: neither is a predicate.
    return negatedIn(own, name) || /\|\||\bor\b|\?\?/.test(own) ? { kind: 'fell_through' } : { kind: 'returned' };
  }
  const conditionLine = conditionLineAbove(file, fn, line);
  if (conditionLine !== null) return useInCondition(file, fn, conditionLine, name, leaves);
  const assigned = /^\s*(?:(?:const|let|var|final|val|bool|boolean)\s+)?\$?([A-Za-z_]\w*)\s*=(?!=)/.exec(own);
  if (assigned?.[1] && before.length >= assigned[0].length - 1) {
    const variable = assigned[1];
    for (let l = line + 1; l <= fn.endLine; l++) {
      const text = file.lines[l - 1] ?? '';
      if (!new RegExp(String.raw`\b${escape(variable)}\b`).test(text)) continue;
      if (CONDITION.test(text)) return useInCondition(file, fn, l, variable, leaves);
      if (ASSERTING.test(text)) return booleanUse(file, fn, l, variable, leaves);
    }
    return { kind: 'unused' };
  }
  return { kind: 'other' };
}

/**
 * For a check written as a guard clause (`if (user.role !== 'ADMIN') { throw forbidden }`), the line of
 * the `if` that holds it: the clause runs on every path when that line does. Other lines come back unchanged.
 */
export function guardClauseHead(file: ProgramFile, fn: FunctionIR, line: number): number {
  const own = file.lines[line - 1] ?? '';
  if (!/^\s*(throw|raise|abort\w*\s*\()/.test(own)) return line;
  for (let l = line - 1; l > bodyTop(file, fn) && l >= line - 3; l--) {
    const text = file.lines[l - 1] ?? '';
    if (text.trim() === '') continue;
    if (indentOf(text) < indentOf(own)) return CONDITION.test(text) && !/\belse\b/.test(text) ? l : (conditionOpening(file, fn, l) ?? line);
  }
  return line;
}

/** `) {` closing a test written one clause a line (`if (\n  a &&\n  !b\n) {`): the `if` line that opened it. */
function conditionOpening(file: ProgramFile, fn: FunctionIR, close: number): number | null {
  const closing = file.lines[close - 1] ?? '';
  if (!/^\s*\)\s*\{?\s*$/.test(closing)) return null;
  for (let l = close - 1; l > bodyTop(file, fn) && l >= close - 8; l--) {
    const text = file.lines[l - 1] ?? '';
    if (text.trim() === '' || indentOf(text) > indentOf(closing)) continue;
    return indentOf(text) === indentOf(closing) && CONDITION.test(text) && !/\belse\b/.test(text) && /\(\s*$/.test(text) ? l : null;
  }
  return null;
}

/** A line that opens a block which may not run, or may run later: a branch, a loop, a handler, a closure. */
const CONDITIONAL_HEAD = /^\s*(?:\}\s*)?(?:if|elif|elseif|else|unless|for|foreach|while|do|switch|case|default|try|catch|except|finally)\b|\bfunction\s*\(|\bfn\s*\(|=>\s*\{?\s*$/;
/** Refusals that throw by themselves, with no `throw` written (Next.js `forbidden()`, `unauthorized()`, `notFound()`). */
const SELF_THROWING = /^(forbidden|unauthorized|notFound)$/;
const ONE_LINE_HEAD = /^\s*(?:\}\s*)?(if|elif|elseif|unless|else\s+if|else|for|foreach|while|try|catch|case|default)\b/;

/**
 * The last line that a check on `line` of `fn` (its callee `name`) covers, when it sits in a block that
 * may not run: nested under an `if`, a loop, a `try` (whose catch may swallow the refusal) or a
 * closure, or after a one-line condition (`if (x) { authorize(); }`). Undefined when it runs on every
 * path through its own level. A check in the condition itself is judged by `booleanUse`, not here.
 */
export function conditionalReach(file: ProgramFile, fn: FunctionIR, line: number, name: string): number | undefined {
  // A check on a continuation line of a condition (`if (ctx == null\n ? !a.can(x)\n : !b.can(y)) {`) is
  // that condition's: booleanUse judges it, as it does a check on the `if` line itself.
  const conditionLine = conditionLineAbove(file, fn, line);
  if (conditionLine !== null && conditionLine < line) {
    const at = conditionalAt(file, fn, conditionLine);
    if (at && new RegExp(String.raw`\b${escape(name)}\b`).test(at.condition)) return undefined;
  }
  const own = file.lines[line - 1] ?? '';
  const at = own.indexOf(name);
  // Flask's `abort(403)` raises by itself, as Next.js's `forbidden()` throws.
  const selfThrowing = SELF_THROWING.test(name) || (file.factsLanguage === 'python' && name === 'abort');
  if (/\b(throw|return|raise|abort\w*)\b/.test(own.slice(0, at < 0 ? own.length : at)) || selfThrowing) {
    // A refusal (`if (!ok) throw forbidden`): the guard clause around it is the check, so what counts
    // is where that clause sits.
    return nestedReach(file, fn, ONE_LINE_HEAD.test(own) ? line : clauseHead(file, fn, line));
  }
  const head = ONE_LINE_HEAD.exec(own);
  if (head) {
    const branch = /^(if|elif|elseif|unless|else\s+if)$/.test(head[1] ?? '') ? conditionalAt(file, fn, line) : null;
    if (branch === null) return line;
    if (!new RegExp(String.raw`\b${escape(name)}\b`).test(branch.condition)) return branch.to;
  }
  return nestedReach(file, fn, line);
}

/** The `if` line a refusal on `line` is the failing arm of (the nearest line above at a shallower indent), or `line`. */
const CLAUSE_HEAD = new RegExp(String.raw`^\s*(?:\}\s*)?(${CONDITION_KEYWORDS})\b`);

function clauseHead(file: ProgramFile, fn: FunctionIR, line: number): number {
  const indent = indentOf(file.lines[line - 1] ?? '');
  for (let l = line - 1; l > bodyTop(file, fn); l--) {
    const text = file.lines[l - 1] ?? '';
    if (text.trim() === '' || indentOf(text) >= indent) continue;
    return CLAUSE_HEAD.test(text) ? l : line;
  }
  return line;
}

/** The last line covered by a statement on `line`, when a branch, loop, handler or closure head above it nests it. */
function nestedReach(file: ProgramFile, fn: FunctionIR, line: number): number | undefined {
  let indent = indentOf(file.lines[line - 1] ?? '');
  for (let l = line - 1; l > bodyTop(file, fn); l--) {
    const text = file.lines[l - 1] ?? '';
    if (text.trim() === '' || indentOf(text) >= indent) continue;
    indent = indentOf(text);
    if (!CONDITIONAL_HEAD.test(text) && !/:\s*(#.*)?$/.test(text)) continue;
    // The block ends before the next line back at the head's level.
    for (let end = line + 1; end < fn.endLine; end++) {
      const next = file.lines[end - 1] ?? '';
      if (next.trim() !== '' && indentOf(next) <= indent) return end;
    }
    return fn.endLine;
  }
  return undefined;
}
