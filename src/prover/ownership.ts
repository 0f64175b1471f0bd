/**
 * Ownership through the current user: an operation whose receiver is the logged-in user, or a value
 * derived from it (`$user->podcasts()->detach(...)`, a collection fetched "for" the user), acts on the
 * caller's own records. The value is followed along the path: from the expressions and injected
 * parameter types the facts name (`$request->user()`, `Authenticatable $user`, `self.current_user`),
 * through local assignments and loops, and into the next hop's parameters when it is passed as an
 * argument (`$this->userService->updateUser($this->user, ...)`). Textual and intra-path only: a value is
 * "derived" when its right-hand side mentions the user at all.
 */
import type { CallIR, FunctionIR } from '../syntax/ir-types.js';
import type { LanguageFacts } from './facts.js';
import { callSignature, lookupClass, superChain, type Program } from './resolution.js';
import { statementAt } from './recognisers/shared.js';
import type { OperationSite, PathRecord, ProgramFile } from './types.js';

const CONSTRUCTORS = new Set(['__construct', '__init__', 'constructor']);

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The names bound to the logged-in user: parameters and `$this->x`/`self.x`/`this.x` fields. */
class Bindings {
  readonly names = new Map<string, string>();
  private patterns: { re: RegExp; origin: string }[] = [];

  constructor(
    private readonly facts: LanguageFacts,
    private readonly helpers: readonly RegExp[] = [],
  ) {}

  bind(name: string, origin: string): void {
    if (this.names.has(name)) return;
    this.names.set(name, origin);
    const bare = name.replace(/^\$/, '');
    const prefix = name.startsWith('$') ? '\\$' : '(?<![\\w$.])';
    this.patterns.push({ re: new RegExp(`${prefix}${escape(bare)}(?![\\w$])`), origin });
  }

  /** Why `text` denotes (or derives from) the logged-in user, or null. */
  origin(text: string): string | null {
    for (const re of [...this.facts.currentUser, ...this.helpers]) {
      const match = re.exec(text);
      if (match) return match[0];
    }
    for (const { re, origin } of this.patterns) if (re.test(text)) return origin;
    return null;
  }

  /** Where in `text` the logged-in user is named, each as [start, end). */
  references(text: string): { start: number; end: number }[] {
    const all = [...this.facts.currentUser, ...this.helpers, ...this.patterns.map((p) => p.re)];
    return all.flatMap((re) => [...text.matchAll(new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`))].map((m) => ({ start: m.index, end: m.index + m[0].length })));
  }
}

/** Criteria a lookup can meet without the user: an OR of conditions, a spread that may override the user's key. */
const SHARED_CRITERIA = /\bOR\s*:|['"]?\$or['"]?\s*:|\borWhere\w*\s*\(|\.\.\.\s*[\w$]|\bor\s*\(/;
/** Before the user in a lookup: the start of the statement (a chain on the user), a criterion's key, a call's argument slot. */
const USER_VALUE_START = /(?:^\s*(?:await\s+)?|[{(,[]\s*(?:['"]?[\w$.]+['"]?\s*(?::|=>)\s*)?)$/;
/** After it: its call and an accessor chain (`(request)`, `.id`, `->getId()`), then the end of that value or statement. */
const USER_VALUE_END = /^(?:\s*(?:->|\?->|\.|\?\.)\s*\w+(?:\([^()]*\))?|\s*\([^()]*\))*\s*(?:[,}\])]|;?\s*$)/;

/**
 * Whether a lookup is scoped by the user alone: the user is the chain it runs on or the whole value of
 * one of its criteria, and no OR or spread lets a row through without it. `userId: user.id ||
 * params.userId`, `params.userId ?? user.id` and `OR: [{ userId: user.id }, { public: true }]` are not.
 */
function scopedByUserAlone(rhs: string, bindings: Bindings): boolean {
  if (SHARED_CRITERIA.test(rhs)) return false;
  return bindings.references(rhs).some(({ start, end }) => USER_VALUE_START.test(rhs.slice(0, start)) && USER_VALUE_END.test(rhs.slice(pastOpenCall(rhs, end))));
}

/** A reference that ends inside a call's parenthesis (`requireUser(`) ends after the call. */
function pastOpenCall(text: string, end: number): number {
  if (text[end - 1] !== '(') return end;
  let depth = 1;
  for (let i = end; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i + 1;
  }
  return text.length;
}

const helperCache = new WeakMap<Program, Map<LanguageFacts, RegExp[]>>();

/**
 * Call patterns of the repository's own functions that return the logged-in user (a PHP helper
 * `function user() { return auth()->user() ?: User::guest(); }`): a call to one denotes that user too.
 */
export function currentUserHelpers(program: Program, facts: LanguageFacts): RegExp[] {
  let byFacts = helperCache.get(program);
  if (!byFacts) helperCache.set(program, (byFacts = new Map<LanguageFacts, RegExp[]>()));
  const cached = byFacts.get(facts);
  if (cached) return cached;
  const found: RegExp[] = [];
  for (const [path, byName] of program.moduleFunctions) {
    const file = program.byPath.get(path);
    if (file?.factsLanguage !== facts.language) continue;
    for (const [name, refs] of byName) {
      const returnsUser = refs.some((ref) => file.lines.slice(ref.fn.startLine - 1, ref.fn.endLine).some((l) => /\breturn\b/.test(l) && facts.currentUser.some((re) => re.test(l))));
      if (returnsUser && /^\w+$/.test(name)) found.push(new RegExp(`(?<![\\w$>:.])${name}\\(\\)`));
    }
  }
  byFacts.set(facts, found);
  return found;
}

/**
 * The values an expression can take, split at its top level: `a || b`, `a or b`, `a ?? b`, `a ?: b`,
 * `c ? a : b` (the condition is not a value). Strings and brackets are skipped; `?->`/`?.` are not operators.
 */
export function alternatives(expression: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  let ternary = -1;
  const cut = (from: number, to: number): void => {
    parts.push(expression.slice(from, to).trim());
  };
  for (let i = 0; i < expression.length; i++) {
    const ch = expression[i] ?? '';
    if (quote) {
      if (ch === quote && expression[i - 1] !== '\\') quote = null;
      continue;
    }
    if (ch === '"' || ch === "'" || ch === '`') quote = ch;
    else if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) depth--;
    if (depth !== 0 || quote) continue;
    const two = expression.slice(i, i + 2);
    if (two === '||' || two === '??' || two === '?:') {
      cut(start, i);
      start = i + 2;
      i++;
    } else if (/^\sor\s/i.test(expression.slice(i, i + 4))) {
      cut(start, i);
      start = i + 3;
    } else if (ch === '?' && !/[-.>]/.test(expression[i + 1] ?? '')) {
      ternary = i; // the condition before it is not one of the values
      start = i + 1;
    } else if (ch === ':' && ternary >= 0 && expression[i + 1] !== ':' && expression[i - 1] !== ':') {
      cut(start, i);
      start = i + 1;
      ternary = -1;
    }
  }
  cut(start, expression.length);
  return parts.filter((p) => p.length > 0);
}

/** `[property, value]` of an object literal's top-level entries: `{ user, id: params.id }` → user→user, id→params.id. */
function objectProperties(literal: string): [string, string][] {
  const entries = callArguments(`o(${literal.replace(/^\{|\}$/g, '')})`, 'o') ?? [];
  const out: [string, string][] = [];
  for (const entry of entries) {
    const pair = /^(\w+)\s*(?::\s*([\s\S]+))?$/.exec(entry.trim());
    if (pair?.[1]) out.push([pair[1], pair[2] ?? pair[1]]);
  }
  return out;
}

/** `[property, local name]` of a destructuring parameter: `{ user, code: c }` → user→user, code→c. */
function destructured(name: string): [string, string][] {
  if (!name.trim().startsWith('{')) return [];
  return objectProperties(name.trim()).filter(([, local]) => /^\w+$/.test(local));
}

/** The arguments of the first call to `callee` in `text`, split at top-level commas. */
export function callArguments(text: string, callee: string): string[] | null {
  const at = new RegExp(`(?<![\\w$])${escape(callee)}\\s*\\(`).exec(text);
  if (!at) return null;
  const args: string[] = [];
  let depth = 0;
  let current = '';
  let quote: string | null = null;
  for (let i = at.index + at[0].length; i < text.length; i++) {
    const ch = text[i] ?? '';
    if (quote) {
      current += ch;
      if (ch === quote && text[i - 1] !== '\\') quote = null;
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    if (ch === ')' || ch === ']' || ch === '}') {
      if (depth === 0) {
        if (current.trim().length > 0) args.push(current.trim());
        return args;
      }
      depth--;
    }
    if (ch === ',' && depth === 0) {
      args.push(current.trim());
      current = '';
      continue;
    }
    current += ch;
  }
  return args;
}

/** Parameters and constructor-injected fields the framework fills with the logged-in user. */
function bindInjected(program: Program, facts: LanguageFacts, bindings: Bindings, path: string, fn: FunctionIR): void {
  const typed = (p: { type: string | null; annotations: string[] }): boolean =>
    facts.currentUserTypes.some((re) => (p.type !== null && re.test(p.type)) || p.annotations.some((a) => re.test(a)));
  for (const p of fn.parameters) if (typed(p)) bindings.bind(p.name, `${p.type ?? p.annotations.join(' ')} ${p.name} in ${fn.qualifiedName}`);
  if (fn.className === null) return;
  const cls = lookupClass(program.table, fn.className, path);
  if (!cls) return;
  for (const record of superChain(program.table, cls)) {
    for (const ctor of record.methods.filter((m) => CONSTRUCTORS.has(m.fn.name) || m.fn.name === record.name)) {
      for (const p of ctor.fn.parameters) {
        if (!typed(p)) continue;
        const bare = p.name.replace(/^\$/, '');
        const origin = `${p.type ?? p.annotations.join(' ')} ${p.name} injected into ${record.name}`;
        bindings.bind(`$this->${bare}`, origin);
        bindings.bind(`self.${bare}`, origin);
        bindings.bind(`this.${bare}`, origin);
      }
    }
  }
}

const ASSIGNMENT = /([$\w]+)\s*(?:\?\?)?=(?![=>])\s*(.+)$/;
const LOOPS = [
  /foreach\s*\((.+?)\s+as\s+(?:\$\w+\s*=>\s*)?(\$\w+)/, // PHP
  /\bfor\s+(\w+)\s+in\s+(.+):/, // Python (target first)
  /\bfor\s*\(\s*(?:const|let|var|final)?\s*(?:[\w<>.]+\s+)?([$\w]+)\s*(?::|\bof\b|\bin\b)\s*(.+)\)/, // Java, JS
];

/** The statement starting at `line` up to where its brackets close and its chain ends (at most twelve lines): TypeScript may omit `;`. */
function balancedStatement(file: ProgramFile, line: number): { text: string; end: number } {
  let depth = 0;
  const out: string[] = [];
  for (let l = line; l < line + 12 && l <= file.lines.length; l++) {
    const text = file.lines[l - 1] ?? '';
    out.push(text);
    for (const ch of text.replace(/(['"`])(?:\\.|(?!\1).)*\1/g, '')) {
      if ('([{'.includes(ch)) depth++;
      if (')]}'.includes(ch)) depth--;
    }
    // A chain continued on the next line (`->where(...)`, `.filter(...)`) is the same statement.
    const continued = /^\s*(\?->|->|\?\.|\.)/.test(file.lines[l] ?? '');
    if (depth <= 0 && !continued) return { text: out.join('\n'), end: l };
  }
  return { text: out.join('\n'), end: line };
}

/** The id a lookup is keyed by besides the user: `id: params.callId`, `'id' => $id`, a shorthand `{ id, userId }`. */
function lookupKey(statement: string): string | null {
  const keyed = /(?:\bid|['"]id['"])\s*(?::|=>)\s*([$\w.]+(?:\[['"]?\w+['"]?\])?)/.exec(statement);
  if (keyed?.[1]) return keyed[1];
  return /[{,]\s*id\s*[,}]/.test(statement) ? 'id' : null;
}

/** True when the lines after `end` leave the function when `variable` came back empty (`if (!call) { ... return ... }`). */
function exitsWhenMissing(file: ProgramFile, variable: string, end: number): boolean {
  const v = escape(variable);
  const missing = new RegExp(`\\bif\\s*\\(\\s*(!\\s*${v}(?![\\w$])|${v}\\s*===?\\s*(null|undefined)|(null|undefined)\\s*===?\\s*${v}(?![\\w$])|is_null\\(\\s*${v}\\s*\\))\\s*\\)`);
  for (let line = end + 1; line <= Math.min(file.lines.length, end + 3); line++) {
    const head = file.lines[line - 1] ?? '';
    if (!missing.test(head)) continue;
    const own = /^\s*/.exec(head)?.[0].length ?? 0;
    for (let l = line; l <= Math.min(file.lines.length, line + 8); l++) {
      const text = file.lines[l - 1] ?? '';
      if (l > line && text.trim() !== '' && (/^\s*/.exec(text)?.[0].length ?? 0) <= own) return false;
      if (/\b(return|throw|abort\w*|redirect)\b/.test(l === line ? text.slice(text.indexOf(')')) : text)) return true;
    }
    return false;
  }
  return false;
}

/** Follow assignments and loops in `fn` from its body to `untilLine` (exclusive). */
function propagate(file: ProgramFile, fn: FunctionIR, untilLine: number, bindings: Bindings): void {
  for (let line = fn.bodyStartLine; line < untilLine && line <= fn.endLine; line++) {
    const text = file.lines[line - 1] ?? '';
    for (const [i, re] of LOOPS.entries()) {
      const m = re.exec(text);
      if (!m) continue;
      const [source, target] = i === 0 ? [m[1], m[2]] : i === 1 ? [m[2], m[1]] : [m[2], m[1]];
      if (source && target) {
        const origin = bindings.origin(source);
        if (origin) bindings.bind(target, origin);
      }
    }
    const assign = ASSIGNMENT.exec(text);
    if (assign?.[1] && assign[2] && !/^\s*(if|elif|while|return)\b/.test(text)) {
      // A lookup written over several lines is read whole: its user constraint may sit on a later line.
      const statement = balancedStatement(file, line);
      const rhs = statement.text.slice(statement.text.indexOf(assign[2]));
      // Every value the right-hand side can take must come from the user (`find($id) ?? ...` does not).
      const values = alternatives(rhs.replace(/;[\s\S]*$/, ''));
      const origin = values.length > 0 && values.every((v) => bindings.origin(v) !== null) && scopedByUserAlone(rhs, bindings) ? bindings.origin(rhs) : null;
      if (origin) {
        bindings.bind(assign[1], origin);
        // A lookup scoped by the user that leaves when nothing came back proves its key is the user's too.
        const key = lookupKey(rhs);
        if (key && exitsWhenMissing(file, assign[1], statement.end)) bindings.bind(key, `${key}, found for the user in the lookup at line ${line}`);
      }
    }
  }
}

/** A call's plain arguments: the ones that can name the object acted on (not object or array literals, strings or named data). */
function objectArguments(call: CallIR): string[] {
  return (callArguments(call.text, call.callee) ?? []).filter((arg) => !/^[[{'"`]/.test(arg) && !/^\w+\s*:(?!:)/.test(arg));
}

/** The operation row's `queued_by` patterns: calls whose argument it writes (Doctrine's persist/remove before flush). */
function queuedBy(facts: LanguageFacts, op: OperationSite): RegExp[] {
  return facts.operations.find((o) => o.id === op.operationId)?.queuedBy ?? [];
}

/**
 * Where the object an operation acts on comes from, when that is the logged-in user: its receiver
 * (`$user->tokens()->delete()`), a plain argument (`$em->remove($bookmark)`, `db.update(userTable,
 * user.id, {...})`), or, for a write of queued changes (`flush()`), every object queued before it in the
 * same function.
 */
function operatedObjectOwner(file: ProgramFile, fn: FunctionIR, call: CallIR, bindings: Bindings, queued: readonly RegExp[]): string | null {
  if (call.receiver) {
    const origin = bindings.origin(call.receiver);
    if (origin) return origin;
  }
  for (const arg of objectArguments(call)) {
    const origin = bindings.origin(arg);
    if (origin) return origin;
  }
  if (queued.length === 0 || objectArguments(call).length > 0) return null;
  const before = file.ir.calls.filter((c) => c.line >= fn.bodyStartLine && c.line < call.line && queued.some((re) => re.test(callSignature(c))));
  if (before.length === 0) return null;
  let origin: string | null = null;
  for (const queuedCall of before) {
    const first = objectArguments(queuedCall)[0];
    origin = first === undefined ? null : bindings.origin(first);
    if (!origin) return null;
  }
  return origin;
}

/**
 * When the operation acts on the logged-in user or a value derived from them, a description of where
 * that user came from; otherwise null.
 */
export function ownedByCurrentUser(program: Program, facts: LanguageFacts, path: PathRecord, op: OperationSite): string | null {
  if (facts.currentUser.length === 0 && facts.currentUserTypes.length === 0) return null;
  let passed = new Map<number | string, string>();
  for (const [i, hop] of path.hops.entries()) {
    const ref = program.functions.get(hop.functionId);
    const file = ref ? program.byPath.get(ref.path) : undefined;
    if (!ref || !file) return null;
    const bindings = new Bindings(facts, currentUserHelpers(program, facts));
    bindInjected(program, facts, bindings, ref.path, ref.fn);
    ref.fn.parameters.forEach((p, index) => {
      const origin = passed.get(index) ?? passed.get(p.name.replace(/^\$/, ''));
      if (origin) bindings.bind(p.name, origin);
      // A destructured parameter `{ user, code }` takes the properties of an object argument by name.
      for (const [property, local] of destructured(p.name)) {
        const fromProperty = passed.get(`.${property}`);
        if (fromProperty) bindings.bind(local, fromProperty);
      }
    });
    const isLast = i === path.hops.length - 1;
    const until = isLast ? op.line : hop.callLine ?? ref.fn.endLine;
    propagate(file, ref.fn, until, bindings);
    if (isLast) {
      const call = file.ir.calls.find((c) => c.line === op.line && c.text === op.call) ?? file.ir.calls.find((c) => c.line === op.line);
      if (!call) return null;
      return operatedObjectOwner(file, ref.fn, call, bindings, queuedBy(facts, op));
    }
    // Hand the user to the next hop's parameters, by position or by name.
    const next = path.hops[i + 1] ? program.functions.get(path.hops[i + 1]?.functionId ?? '') : undefined;
    if (!next || hop.callLine === null) return null;
    const args = callArguments(statementAt(file, hop.callLine, 6), next.fn.name) ?? [];
    passed = new Map();
    args.forEach((arg, index) => {
      // An object argument `{ user, code }` hands over each property the user flows into.
      if (arg.startsWith('{')) {
        for (const [property, value] of objectProperties(arg)) {
          const origin = bindings.origin(value);
          if (origin) passed.set(`.${property}`, origin);
        }
        return;
      }
      const named = /^(\w+)\s*[:=](?![:=])\s*(.+)$/s.exec(arg);
      const origin = bindings.origin(named?.[2] ?? arg);
      if (!origin) return;
      if (named?.[1]) passed.set(named[1], origin);
      else passed.set(index, origin);
    });
  }
  return null;
}
