/**
 * Loading the data-flow rows (rules/flow/*.toml) through the one data-file loader: the zod schema
 * (flow-schema.ts), each row normalised to the strict types the engine interprets (src/flow/rows.ts),
 * then ids unique across every flow file and across the pattern rules' ids and aliases. What findings
 * say (title, message, severity, aliases) stays here, by row id, for the review to attach.
 */
import { loadDataFile, UniqueIds, type DataFileContext } from '../data-file/load.js';
import type { KeyPath } from '../data-file/key-path.js';
import { packageDirectoryFiles, packageFileText } from '../package-root.js';
import type { Severity } from '../report/finding.js';
import type { Language } from '../syntax/languages.js';
import { NO_ROWS, type CallMatcher, type CallSlot, type CheckRow, type FlowRows, type SinkRow } from '../flow/rows.js';
import { FlowRowFileSchema, type CallEntry, type FlowRowFile, type TestsEntry } from './flow-schema.js';

/** Rule ids of data-flow rows: `jscr/` and the row id. */
export function flowRuleId(rowId: string): string {
  return `jscr/${rowId}`;
}

/** What a sink or check finding says, by row id. */
export interface FlowReportMeta {
  id: string;
  cwe: string;
  title: string;
  message: string;
  severity: Severity;
  confidence: number;
  aliases: readonly string[];
  /** False: a finding in test code is not reported. */
  inTests: boolean;
}

/** One row's rule-tester snippets, with the languages of its file. */
export interface FlowRowTests {
  rowId: string;
  table: RowTable;
  languages: readonly Language[];
  flagged: readonly string[];
  quiet: readonly string[];
  origin: { file: string; line: number | null };
}

export interface LoadedFlowRows {
  byLanguage: ReadonlyMap<Language, FlowRows>;
  meta: ReadonlyMap<string, FlowReportMeta>;
  tests: readonly FlowRowTests[];
}

export type RowTable = 'source' | 'sink' | 'sanitiser' | 'guard' | 'propagator' | 'check' | 'exit';

const ID_SHAPE = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export function parseSlot(text: string): CallSlot {
  if (text === 'receiver' || text === 'return' || text === 'arguments' || text === 'callee') return { kind: text };
  const [base = '', ...path] = text.split('.');
  const into = path.length > 0 ? { path } : {};
  if (base.startsWith('named:')) return { kind: 'named', name: base.slice('named:'.length), ...into };
  return { kind: 'argument', index: Number(base.slice('arg'.length)), ...into };
}

function singleSlot(choice: string | readonly string[] | undefined, context: DataFileContext, path: KeyPath): string | undefined {
  if (choice === undefined || typeof choice === 'string') return choice;
  throw context.problem([...path, 'slot'], 'a missing-setting check is used in one slot, not a list');
}

function whenSlot(when: { slot: string | readonly string[]; matches?: string | undefined; any_bits?: number | undefined; absent?: boolean | undefined }, context: DataFileContext, path: KeyPath): NonNullable<SinkRow['when']> {
  if ((when.matches === undefined) === (when.any_bits === undefined)) throw context.problem(path, 'a slot condition needs exactly one of matches or any_bits');
  return { kind: 'slot', slots: parseSlots(when.slot), matches: when.matches === undefined ? null : context.pattern([...path, 'matches'], when.matches), anyBits: when.any_bits ?? null, absent: when.absent ?? false };
}

function parseSlots(choice: string | readonly string[]): CallSlot[] {
  return (typeof choice === 'string' ? [choice] : choice).map(parseSlot);
}

function callMatcher(entry: CallEntry, context: DataFileContext, path: KeyPath): CallMatcher {
  const pattern = (key: keyof CallEntry, text: string | undefined): RegExp | null => (text === undefined ? null : context.pattern([...path, key], text));
  return {
    names: new Set(entry.names),
    isNew: entry.new ?? null,
    receiverTypes: entry.receiver_types ? new Set(entry.receiver_types) : null,
    strictReceiver: entry.strict_receiver ?? false,
    notReceiverTypes: entry.not_receiver_types ? new Set(entry.not_receiver_types) : null,
    receiverLabel: entry.receiver_label ?? null,
    receiver: pattern('receiver', entry.receiver),
    calleeText: pattern('callee_text', entry.callee_text),
    arity: entry.arity ?? null,
    importedFrom: pattern('imported_from', entry.imported_from),
    notImportedFrom: pattern('not_imported_from', entry.not_imported_from),
    constantArguments: (entry.arguments ?? []).map((text, i) => context.pattern([...path, 'arguments', i], text)),
  };
}

interface Normalised {
  languages: readonly Language[];
  rows: FlowRows;
  meta: FlowReportMeta[];
  tests: FlowRowTests[];
}

function normaliseFile(data: FlowRowFile, context: DataFileContext, ids: UniqueIds): Normalised {
  const meta: FlowReportMeta[] = [];
  const tests: FlowRowTests[] = [];
  const origin = (path: KeyPath) => ({ file: context.file, line: context.lineOf(path) });
  const claim = (table: RowTable, index: number, id: string, rowTests: TestsEntry | undefined): KeyPath => {
    const path: KeyPath = [table, index];
    if (!ID_SHAPE.test(id)) throw context.problem([...path, 'id'], 'id must be kebab-case (`java-servlet-parameter`)');
    ids.claim(id, context, path);
    if (rowTests !== undefined) tests.push({ rowId: id, table, languages: data.languages, flagged: rowTests.flagged ?? [], quiet: rowTests.quiet ?? [], origin: origin(path) });
    return path;
  };
  const required = <T>(value: T | undefined, path: KeyPath, what: string): T => {
    if (value === undefined) throw context.problem(path, `required: ${what}`);
    return value;
  };

  const sources = (data.source ?? []).map((row, index) => {
    const path = claim('source', index, row.id, row.tests);
    const given = [row.call, row.field, row.parameter].filter((m) => m !== undefined).length;
    if (given !== 1) throw context.problem(path, 'a source needs exactly one of call, field or parameter');
    if (row.fills !== undefined && row.call === undefined) throw context.problem([...path, 'fills'], 'fills names an argument of a call: it needs call');
    if (row.fixed_route !== undefined && row.field === undefined) throw context.problem([...path, 'fixed_route'], 'fixed_route belongs to a field source');
    const label = row.label ?? 'input';
    const where = origin(path);
    if (row.call !== undefined) return { id: row.id, label, mark: row.mark ?? null, match: { kind: 'call' as const, call: callMatcher(row.call, context, [...path, 'call']), fills: row.fills ?? null }, origin: where };
    if (row.field !== undefined) {
      const fixed = row.fixed_route;
      const fixedRoute = fixed === undefined ? null : { route: context.pattern([...path, 'fixed_route', 'route'], fixed.route), literal: context.pattern([...path, 'fixed_route', 'literal'], fixed.literal) };
      return { id: row.id, label, mark: row.mark ?? null, match: { kind: 'field' as const, paths: row.field.map((p) => p.split('.')), fixedRoute }, origin: where };
    }
    const parameter = required(row.parameter, path, 'parameter');
    const p = (key: 'annotations' | 'types' | 'handler_decorators') => {
      const text = parameter[key];
      return text === undefined ? null : context.pattern([...path, 'parameter', key], text);
    };
    const match = { kind: 'parameter' as const, annotations: p('annotations'), types: p('types'), handlerDecorators: p('handler_decorators'), exceptNames: new Set(parameter.except_names ?? []), unannotated: parameter.unannotated ?? false };
    if (match.annotations === null && match.types === null && match.handlerDecorators === null) throw context.problem([...path, 'parameter'], 'a parameter source needs annotations, types or handler_decorators');
    return { id: row.id, label, match, origin: where };
  });

  const sinks = (data.sink ?? []).map((row, index) => {
    const path = claim('sink', index, row.id, row.tests);
    meta.push({ id: row.id, cwe: row.cwe, title: row.title, message: row.message, severity: row.severity, confidence: row.confidence, aliases: row.aliases ?? [], inTests: row.in_tests ?? true });
    return {
      id: row.id,
      kind: row.kind,
      cwe: row.cwe,
      accepts: new Set(row.accepts ?? ['input']),
      call: callMatcher(row.call, context, [...path, 'call']),
      slots: (row.slots ?? ['arguments']).map(parseSlot),
      when: row.when === undefined ? null : 'named' in row.when ? { kind: 'named' as const, named: row.when.named, equals: row.when.equals } : whenSlot(row.when, context, [...path, 'when']),
      argv: row.argv ?? false,
      requiresDependency: row.requires_dependency === undefined ? null : new Set(row.requires_dependency),
      requiresText: row.requires_text ?? null,
      unless: row.unless === undefined ? null : { named: row.unless.named, matches: context.pattern([...path, 'unless', 'matches'], row.unless.matches, 'i') },
      ignoresMark: row.ignores_mark ?? null,
      collectionsAreJson: row.collections_are_json ?? false,
      textTypes: row.text_types === undefined ? null : new Set(row.text_types),
      vettedForAny: row.vetted_for_any ?? false,
      origin: origin(path),
    };
  });

  const sanitisers = (data.sanitiser ?? []).map((row, index) => {
    const path = claim('sanitiser', index, row.id, row.tests);
    const strip = row.strip === undefined ? null : { pattern: parseSlot(row.strip.pattern), replacement: parseSlot(row.strip.replacement), syntax: row.strip.syntax, everyMatch: row.strip.every_match };
    return { id: row.id, clears: new Set(row.clears), call: callMatcher(row.call, context, [...path, 'call']), strip, inPlace: row.in_place ?? false, origin: origin(path) };
  });

  const guards = (data.guard ?? []).map((row, index) => {
    const path = claim('guard', index, row.id, row.tests);
    return { id: row.id, clears: new Set(row.clears), call: callMatcher(row.call, context, [...path, 'call']), vets: parseSlot(row.vets), against: row.against === undefined ? null : parseSlot(row.against), vetsKey: row.vets_key ?? false, requiresMark: row.requires_mark ?? null, raises: row.raises ?? false, vetsInReceiver: row.vets_in_receiver ?? false, origin: origin(path) };
  });

  const propagators = (data.propagator ?? []).map((row, index) => {
    const path = claim('propagator', index, row.id, row.tests);
    return { id: row.id, call: callMatcher(row.call, context, [...path, 'call']), from: row.from.map(parseSlot), to: row.to.map(parseSlot), mark: row.mark ?? null, builtin: row.builtin ?? null, origin: origin(path) };
  });

  const checks = (data.check ?? []).map((row, index): CheckRow => {
    const path = claim('check', index, row.id, row.tests);
    meta.push({ id: row.id, cwe: row.cwe, title: row.title, message: row.message, severity: row.severity, confidence: row.confidence, aliases: row.aliases ?? [], inTests: row.in_tests ?? true });
    const where = origin(path);
    if (row.kind === 'weak-value') {
      const call = callMatcher(required(row.call, path, 'call (the call whose argument is checked)'), context, [...path, 'call']);
      const weak = context.pattern([...path, 'weak'], required(row.weak, path, 'weak (the pattern of weak values)'), 'i');
      return { id: row.id, kind: 'weak-value', cwe: row.cwe, call, slots: parseSlots(row.slot ?? 'arg0'), weak, absentIsWeak: row.absent_is_weak ?? false, origin: where };
    }
    const settings = required(row.settings, path, 'settings (the calls that make the object safe)').map((setting, s) => ({
      call: callMatcher(setting.call, context, [...path, 'settings', s, 'call']),
      arguments: (setting.arguments ?? []).map((text, a) => context.pattern([...path, 'settings', s, 'arguments', a], text, 'i')),
    }));
    return {
      id: row.id,
      kind: 'missing-setting',
      cwe: row.cwe,
      createdBy: callMatcher(required(row.created_by, path, 'created_by'), context, [...path, 'created_by']),
      settings,
      need: row.need ?? 'all',
      usedBy: callMatcher(required(row.used_by, path, 'used_by'), context, [...path, 'used_by']),
      slot: parseSlot(singleSlot(row.slot, context, path) ?? 'receiver'),
      tainted: (row.tainted ?? []).map(parseSlot),
      origin: where,
    };
  });

  const exits = (data.exit ?? []).map((row, index) => {
    const path = claim('exit', index, row.id, row.tests);
    return { id: row.id, call: callMatcher(row.call, context, [...path, 'call']), origin: origin(path) };
  });

  const constants = new Map(Object.entries(data.constants ?? {}));
  return { languages: data.languages, rows: { sources, sinks, sanitisers, guards, propagators, checks, exits, constants }, meta, tests };
}

function mergeRows(a: FlowRows, b: FlowRows): FlowRows {
  return {
    sources: [...a.sources, ...b.sources],
    sinks: [...a.sinks, ...b.sinks],
    sanitisers: [...a.sanitisers, ...b.sanitisers],
    guards: [...a.guards, ...b.guards],
    propagators: [...a.propagators, ...b.propagators],
    checks: [...a.checks, ...b.checks],
    exits: [...a.exits, ...b.exits],
    constants: new Map([...a.constants, ...b.constants]),
  };
}

/** Load flow row files together: rows merged per language, ids unique across all of them. */
export function loadFlowRowSources(sources: ReadonlyArray<{ file: string; text: string }>): LoadedFlowRows {
  const ids = new UniqueIds('flow row id');
  const byLanguage = new Map<Language, FlowRows>();
  const meta = new Map<string, FlowReportMeta>();
  const tests: FlowRowTests[] = [];
  for (const source of sources) {
    const loaded = loadDataFile({ file: source.file, text: source.text, kind: 'rules', schema: FlowRowFileSchema, normalise: (data, context) => normaliseFile(data, context, ids) });
    for (const language of loaded.languages) byLanguage.set(language, mergeRows(byLanguage.get(language) ?? NO_ROWS, loaded.rows));
    for (const m of loaded.meta) meta.set(m.id, m);
    tests.push(...loaded.tests);
  }
  return { byLanguage, meta, tests };
}

let builtin: LoadedFlowRows | null = null;

/** The built-in rows of rules/flow/, loaded once per process. */
export function loadBuiltinFlowRows(): LoadedFlowRows {
  builtin ??= loadFlowRowSources(
    packageDirectoryFiles('rules', 'flow')
      .filter((name) => name.endsWith('.toml'))
      .sort()
      .map((name) => ({ file: `rules/flow/${name}`, text: packageFileText('rules', 'flow', name) })),
  );
  return builtin;
}
