/** Whether a call of the flow IR is one a row names (src/flow/rows.ts CallMatcher). */
import type { FlowExpr, FlowFile, FlowLiteral } from './ir.js';
import { renderExpr } from './render.js';
import type { CallMatcher, FlowRows } from './rows.js';
import { simpleType } from './value.js';

const NO_LABELS: ReadonlySet<string> = new Set();

export type CallExpr = Extract<FlowExpr, { kind: 'call' }>;

/** The name a call is matched by: the callee, or for `new` the simple class name. */
export function calledName(call: CallExpr): string {
  return call.isNew ? (simpleType(call.constructed ?? call.callee) ?? call.callee) : call.callee;
}

/** `constants[i]`: the constant value of argument i, or undefined when it is not known. */
export function callMatches(matcher: CallMatcher, call: CallExpr, receiverType: string | null, file: FlowFile, constants: readonly (FlowLiteral | undefined)[] = [], receiverLabels: ReadonlySet<string> = NO_LABELS): boolean {
  if (!matcher.names.has('*') && !matcher.names.has(calledName(call))) return false;
  if (matcher.receiverLabel !== null && !receiverLabels.has(matcher.receiverLabel)) return false;
  if (matcher.notReceiverTypes !== null && matcher.notReceiverTypes.has(simpleType(receiverType) ?? '')) return false;
  for (const [i, pattern] of matcher.constantArguments.entries()) {
    const value = constants[i];
    if (value === undefined || !pattern.test(String(value))) return false;
  }
  if (matcher.isNew !== null && matcher.isNew !== call.isNew) return false;
  if (matcher.arity !== null && matcher.arity !== call.arguments.length) return false;
  if (matcher.receiverTypes !== null) {
    const type = simpleType(receiverType);
    if (type === null ? matcher.strictReceiver : !matcher.receiverTypes.has(type)) return false;
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
 * every call). The list's order is kept, since the first row that matches decides; `callMatches`
 * still checks every candidate in full.
 */
export class RowsByName<Row> {
  private readonly byName = new Map<string, readonly Row[]>();
  private readonly anyName: readonly Row[];

  constructor(rows: readonly Row[], matcherOf: (row: Row) => CallMatcher | null) {
    const accepts = (row: Row, name: string) => {
      const matcher = matcherOf(row);
      return matcher !== null && (matcher.names.has('*') || matcher.names.has(name));
    };
    this.anyName = rows.filter((row) => accepts(row, '*'));
    for (const row of rows) {
      for (const name of matcherOf(row)?.names ?? []) if (!this.byName.has(name)) this.byName.set(name, rows.filter((r) => accepts(r, name)));
    }
  }

  for(call: CallExpr): readonly Row[] {
    return this.forName(calledName(call));
  }

  forName(name: string): readonly Row[] {
    return this.byName.get(name) ?? this.anyName;
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

const rowIndexes = new WeakMap<FlowRows, FlowRowIndex>();

export function rowIndex(rows: FlowRows): FlowRowIndex {
  let index = rowIndexes.get(rows);
  if (index === undefined) {
    index = {
      sources: new RowsByName(rows.sources, (row) => (row.match.kind === 'call' ? row.match.call : null)),
      sinks: new RowsByName(rows.sinks, (row) => row.call),
      sanitisers: new RowsByName(rows.sanitisers, (row) => row.call),
      propagators: new RowsByName(rows.propagators, (row) => row.call),
      guards: new RowsByName(rows.guards, (row) => row.call),
      exits: new RowsByName(rows.exits, (row) => row.call),
    };
    rowIndexes.set(rows, index);
  }
  return index;
}
