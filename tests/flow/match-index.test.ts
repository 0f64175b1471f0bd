/**
 * The engine tries a call only against the rows its name can match (RowsByName). Which rows match,
 * and in which order (the first decides), must be what trying every row gives.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FlowFile } from '../../src/flow/ir.js';
import { callMatches, RowsByName, type CallExpr } from '../../src/flow/match.js';
import type { CallMatcher } from '../../src/flow/rows.js';

const NAMES = ['execute', 'query', 'File', 'get', '*'];
const FILE: FlowFile = { path: 'a.py', language: 'python', functions: [], classes: [], imports: {}, degradations: [] };

function matcher(names: string[], isNew: boolean | null): CallMatcher {
  return { names: new Set(names), notReceiverTypes: null, receiverLabel: null, isNew, receiverTypes: null, strictReceiver: false, receiver: null, calleeText: null, arity: null, importedFrom: null, notImportedFrom: null, constantArguments: [] };
}

function call(callee: string, isNew: boolean): CallExpr {
  return { kind: 'call', callee, receiver: null, calleeText: callee, arguments: [], named: [], isNew, constructed: isNew ? `java.io.${callee}` : null, line: 1, column: 0 };
}

const rowsArb = fc.array(fc.record({ id: fc.nat(), names: fc.uniqueArray(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 }), isNew: fc.constantFrom(true, false, null) }), { maxLength: 12 });

describe('rows by name', () => {
  it('gives the rows trying every row gives, in the same order', () => {
    fc.assert(
      fc.property(rowsArb, fc.constantFrom('execute', 'query', 'File', 'get', 'other'), fc.boolean(), (specs, callee, isNew) => {
        const rows = specs.map((spec, i) => ({ id: i, call: matcher(spec.names, spec.isNew) }));
        const index = new RowsByName(rows, (row) => row.call);
        const c = call(callee, isNew);
        const matching = (list: readonly (typeof rows)[number][]) => list.filter((row) => callMatches(row.call, c, null, FILE)).map((row) => row.id);
        expect(matching(index.for(c))).toEqual(matching(rows));
      }),
      { numRuns: 500 },
    );
  });

  it('leaves out rows that name other callees, and rows without a call matcher', () => {
    const rows = [
      { id: 'a', call: matcher(['execute'], null) },
      { id: 'any', call: matcher(['*'], null) },
      { id: 'none', call: null },
      { id: 'b', call: matcher(['query', 'execute'], null) },
      { id: 'file', call: matcher(['File'], true) },
    ];
    const index = new RowsByName(rows, (row) => row.call);
    expect(index.for(call('execute', false)).map((r) => r.id)).toEqual(['a', 'any', 'b']);
    expect(index.for(call('unrelated', false)).map((r) => r.id)).toEqual(['any']);
    // `new java.io.File(...)` is matched by its simple class name.
    expect(index.for(call('File', true)).map((r) => r.id)).toEqual(['any', 'file']);
  });
});
