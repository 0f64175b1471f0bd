/** Whether a call of the flow IR is one a row names (src/flow/rows.ts CallMatcher). */
import type { FlowExpr, FlowFile, FlowLiteral } from './ir.js';
import { renderExpr } from './render.js';
import type { CallMatcher, FlowRows } from './rows.js';
import { simpleType } from './value.js';
import type { Language } from '../syntax/languages.js';

const NO_LABELS: ReadonlySet<string> = new Set();

/** The form a name of a function, method or class is compared in. */
export type NameKey = (name: string) => string;

const asWritten: NameKey = (name) => name;
const anyCase: NameKey = (name) => name.toLowerCase();

/**
 * PHP reads function, method and class names in any case (`HtmlSpecialChars` is `htmlspecialchars`,
 * `SyStEm` is `system`), so rows, calls and definitions meet lower-cased there; variables are not
 * names of this kind and keep their case. Every other language compares names as written.
 */
export function nameKeyFor(language: Language): NameKey {
  return language === 'php' ? anyCase : asWritten;
}

const foldedSets = new WeakMap<ReadonlySet<string>, ReadonlySet<string>>();
const foldedClassNames = new WeakMap<ReadonlySet<string>, ReadonlySet<string>>();

function folded(cache: WeakMap<ReadonlySet<string>, ReadonlySet<string>>, names: ReadonlySet<string>, key: NameKey, keep: (name: string) => boolean): ReadonlySet<string> {
  let set = cache.get(names);
  if (set === undefined) cache.set(names, (set = new Set([...names].filter(keep).map(key))));
  return set;
}

/**
 * Whether `names` (a row's, as the file wrote them) holds `name`, compared by `key`. A class made with
 * `new` meets only the row names written with a capital, as PHP's classes are (`SplFileObject`), or
 * the very same text: PHP keeps functions and classes apart, and a row's `file` is the function, not
 * `new File(...)`.
 */
function holds(names: ReadonlySet<string>, name: string, key: NameKey, isNew = false): boolean {
  if (key === asWritten || names.has(name)) return names.has(name);
  const candidates = isNew ? folded(foldedClassNames, names, key, (n) => /[A-Z]/.test(n)) : folded(foldedSets, names, key, () => true);
  return candidates.has(key(name));
}

export type CallExpr = Extract<FlowExpr, { kind: 'call' }>;

/** The name a call is matched by: the callee, or for `new` the simple class name. */
export function calledName(call: CallExpr): string {
  return call.isNew ? (simpleType(call.constructed ?? call.callee) ?? call.callee) : call.callee;
}

/** `constants[i]`: the constant value of argument i, or undefined when it is not known. */
export function callMatches(matcher: CallMatcher, call: CallExpr, receiverType: string | null, file: FlowFile, constants: readonly (FlowLiteral | undefined)[] = [], receiverLabels: ReadonlySet<string> = NO_LABELS): boolean {
  // A method call meets a row that says nothing of its receiver by the name as written: in PHP such a
  // row mostly names a built-in function (`setcookie`), and `$headers->setCookie(...)` is not it.
  const unconstrained = matcher.receiverTypes === null && matcher.receiver === null && matcher.calleeText === null && matcher.receiverLabel === null;
  const key = call.receiver !== null && unconstrained ? asWritten : nameKeyFor(file.language);
  if (!matcher.names.has('*') && !holds(matcher.names, calledName(call), key, call.isNew)) return false;
  if (matcher.receiverLabel !== null && !receiverLabels.has(matcher.receiverLabel)) return false;
  if (matcher.notReceiverTypes !== null && holds(matcher.notReceiverTypes, simpleType(receiverType) ?? '', key)) return false;
  for (const [i, pattern] of matcher.constantArguments.entries()) {
    const value = constants[i];
    if (value === undefined || !pattern.test(String(value))) return false;
  }
  if (matcher.isNew !== null && matcher.isNew !== call.isNew) return false;
  if (matcher.arity !== null && matcher.arity !== call.arguments.length) return false;
  if (matcher.receiverTypes !== null) {
    const type = simpleType(receiverType);
    if (type === null ? matcher.strictReceiver : !holds(matcher.receiverTypes, type, key)) return false;
  }
  if (matcher.receiver !== null && !matcher.receiver.test(call.receiver ? renderExpr(call.receiver) : '')) return false;
  if (matcher.calleeText !== null && !matcher.calleeText.test(call.calleeText)) return false;
  if (matcher.importedFrom !== null || matcher.notImportedFrom !== null) {
    const module = file.imports[call.receiver === null ? call.callee : call.calleeText.split(/[.:>-]/)[0] ?? ''];
    if (matcher.importedFrom !== null && (module === undefined || !matcher.importedFrom.test(module))) return false;
    if (matcher.notImportedFrom !== null && module !== undefined && matcher.notImportedFrom.test(module)) return false;
  }
  return true;
}

/**
 * The rows of one list a call can match, by the name it is called by (rows naming `*` are tried on
 * every call), names compared by `key`. The list's order is kept, since the first row that matches
 * decides; `callMatches` still checks every candidate in full.
 */
export class RowsByName<Row> {
  private readonly byName = new Map<string, readonly Row[]>();
  private readonly anyName: readonly Row[];

  constructor(
    rows: readonly Row[],
    matcherOf: (row: Row) => CallMatcher | null,
    private readonly key: NameKey = asWritten,
  ) {
    const accepts = (row: Row, name: string) => {
      const matcher = matcherOf(row);
      return matcher !== null && (matcher.names.has('*') || holds(matcher.names, name, key));
    };
    this.anyName = rows.filter((row) => accepts(row, '*'));
    for (const row of rows) {
      for (const name of matcherOf(row)?.names ?? []) if (!this.byName.has(key(name))) this.byName.set(key(name), rows.filter((r) => accepts(r, name)));
    }
  }

  for(call: CallExpr): readonly Row[] {
    return this.forName(calledName(call));
  }

  forName(name: string): readonly Row[] {
    return this.byName.get(this.key(name)) ?? this.anyName;
  }
}

/** The call-matched row lists of a set of rows, indexed by name (built once per set of rows). */
export interface FlowRowIndex {
  sources: RowsByName<FlowRows['sources'][number]>;
  sinks: RowsByName<FlowRows['sinks'][number]>;
  sanitisers: RowsByName<FlowRows['sanitisers'][number]>;
  propagators: RowsByName<FlowRows['propagators'][number]>;
  guards: RowsByName<FlowRows['guards'][number]>;
  exits: RowsByName<FlowRows['exits'][number]>;
}

const rowIndexes = new WeakMap<FlowRows, Map<NameKey, FlowRowIndex>>();

/** The index of `rows` for files of `language` (its names compared as that language reads them). */
export function rowIndex(rows: FlowRows, language: Language): FlowRowIndex {
  const key = nameKeyFor(language);
  const byKey = rowIndexes.get(rows) ?? new Map<NameKey, FlowRowIndex>();
  rowIndexes.set(rows, byKey);
  let index = byKey.get(key);
  if (index === undefined) {
    index = {
      sources: new RowsByName(rows.sources, (row) => (row.match.kind === 'call' ? row.match.call : null), key),
      sinks: new RowsByName(rows.sinks, (row) => row.call, key),
      sanitisers: new RowsByName(rows.sanitisers, (row) => row.call, key),
      propagators: new RowsByName(rows.propagators, (row) => row.call, key),
      guards: new RowsByName(rows.guards, (row) => row.call, key),
      exits: new RowsByName(rows.exits, (row) => row.call, key),
    };
    byKey.set(key, index);
  }
  return index;
}
