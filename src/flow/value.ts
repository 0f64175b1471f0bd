/**
 * The abstract values the engine computes: for each expression, the taints it may carry (each with the
 * path it came by), its constant value when known, its declared type, its slots (fields, map keys,
 * list positions) and, for objects a value check follows, which of their safe settings were made.
 */
import type { FlowLiteral } from './ir.js';

/** One place on a taint's path. */
export interface PathStep {
  role: 'source' | 'step' | 'sink';
  line: number;
  /** What is there: the source expression, the variable written, the sink call. */
  text: string;
}

export interface Taint {
  /** `input`, `weak-random`, or for summaries `param:<i>` / `field:<name>`. */
  label: string;
  /** Sink kinds this value was sanitised or vetted for; `*` for all. */
  cleared: ReadonlySet<string>;
  /** Marks put by propagators (`normalised`). */
  marks: ReadonlySet<string>;
  /** Source first. Kept short: the first steps and the last ones. */
  steps: readonly PathStep[];
  /** Row id of the source (for the rule tester and the report). */
  sourceRow: string | null;
  /** Propagator row ids the value went through. */
  via: readonly string[];
}

/** A value-check object (a cookie, a parser factory): the check and which of its settings were seen. */
export interface TrackedObject {
  checkId: string;
  settingsDone: ReadonlySet<number>;
  line: number;
}

export interface Value {
  taints: readonly Taint[];
  /** Known constant; `undefined` when not known. */
  constant?: FlowLiteral;
  /** Simple type name (`Statement`, `List`), or null. */
  type: string | null;
  /** Fields and map entries with constant keys. */
  slots?: ReadonlyMap<string, Value>;
  /**
   * `slots` holds every key the map can have (an options object written out in full), so a key not
   * there is left out rather than unknown.
   */
  exact?: true;
  /** List positions, when every position is known. */
  elements?: readonly Value[];
  objects?: readonly TrackedObject[];
  /**
   * The text a built string starts with, as far as it is known: constants as written, a part with no
   * outside data (a setting) as one placeholder character; `complete` when nothing unknown follows.
   */
  start?: { text: string; complete: boolean };
}

export const CLEAN: Value = { taints: [], type: null };

/**
 * The label of a value whose origin flow cannot see: the result of a call it has no row or summary
 * for (a fetched document, a library's answer). No sink counts it; it tells a review that a value is
 * not provably the module's own data.
 */
export const UNSEEN = 'unseen';

/**
 * The label of the request object itself (Flask's `request`), not of its data: no sink counts it, and
 * for the review it is as unseen as a library's answer. A method called on something built from it
 * (`RequestWrapper(request).get_form_parameter("id")`) is worth looking up in the project's other files.
 */
export const REQUEST_OBJECT = 'request-object';

const MAX_TAINTS = 4;
/** Labels of the symbolic taints summaries use for a parameter, a field or a free name. */
const STAND_IN = /^(param|field|free):/;
const MAX_STEPS = 10;
const EMPTY: ReadonlySet<string> = new Set();

export function constant(value: FlowLiteral): Value {
  return { taints: [], constant: value, type: typeof value === 'string' ? 'String' : null };
}

export function hasConstant(value: Value): value is Value & { constant: FlowLiteral } {
  return value.constant !== undefined;
}

export function newTaint(label: string, step: PathStep, sourceRow: string | null): Taint {
  return { label, cleared: EMPTY, marks: EMPTY, steps: [step], sourceRow, via: [] };
}

function taintKey(t: Taint): string {
  if (t.label === UNSEEN) return UNSEEN;
  return `${t.label}|${sortedText(t.cleared)}|${sortedText(t.marks)}|${t.steps[0]?.line ?? 0}`;
}

/** A set's members sorted and joined (most sets are empty or hold one member: no array for those). */
function sortedText(set: ReadonlySet<string>): string {
  if (set.size === 0) return '';
  if (set.size === 1) for (const only of set) return only;
  return [...set].sort().join(',');
}

/** Where a taint goes when a cap must choose (lower first): see uniqueTaints. */
function taintRank(t: Taint): number {
  return t.cleared.size * 4 + (STAND_IN.test(t.label) ? 2 : 0) + (t.marks.size > 0 ? 1 : 0);
}

function uniqueTaints(taints: readonly Taint[]): Taint[] {
  // Most values carry no taint or one: nothing to merge, rank or cap.
  if (taints.length <= 1) return taints.length === 0 ? [] : [taints[0] as Taint];
  const seen = new Map<string, Taint>();
  for (const t of taints) {
    const key = taintKey(t);
    if (!seen.has(key)) seen.set(key, t);
  }
  // Uncleared taints first, then outside data before stand-ins for a parameter or a free name, then
  // unmarked ones, so a cap keeps the ones that matter (an object of many fields keeps its request data);
  // an unseen origin never takes the place of one. The order is otherwise the order of first sight.
  let kept: Taint[] = [];
  let unseen: Taint | null = null; // one at most: every unseen taint has the same key
  for (const t of seen.values()) {
    if (t.label === UNSEEN) unseen = t;
    else kept.push(t);
  }
  if (kept.length > 1) {
    const ranks = kept.map(taintRank);
    if (ranks.some((r) => r !== ranks[0])) {
      kept = kept
        .map((t, i) => ({ t, rank: ranks[i] ?? 0, i }))
        .sort((a, b) => a.rank - b.rank || a.i - b.i)
        .map((x) => x.t);
    }
  }
  if (kept.length > MAX_TAINTS) kept.length = MAX_TAINTS;
  if (unseen !== null) kept.push(unseen);
  return kept;
}

export function withStep(taint: Taint, step: PathStep): Taint {
  const last = taint.steps[taint.steps.length - 1];
  if (last !== undefined && last.line === step.line && last.text === step.text) return taint;
  let steps = [...taint.steps, step];
  if (steps.length > MAX_STEPS) steps = [...steps.slice(0, 3), ...steps.slice(steps.length - (MAX_STEPS - 3))];
  return { ...taint, steps };
}

/** Every taint of a value, its slots and elements included (what reading the whole value gives). */
export function allTaints(value: Value): Taint[] {
  if (value.slots === undefined && value.elements === undefined) return uniqueTaints(value.taints);
  const out: Taint[] = [...value.taints];
  for (const slot of value.slots?.values() ?? []) out.push(...allTaints(slot));
  for (const element of value.elements ?? []) out.push(...allTaints(element));
  return uniqueTaints(out);
}

/** `value` with `taints` added: a write the slots cannot say where, so its keys are no longer all known. */
export function addTaints(value: Value, taints: readonly Taint[]): Value {
  const { exact: _exact, ...rest } = value;
  return { ...rest, taints: [...value.taints, ...taints] };
}

/** A value holding the taints of all `values` (no constant, no slots): what an operation over them gives. */
export function mix(values: readonly Value[], type: string | null = null): Value {
  // uniqueTaints is idempotent: the taints of the one value that has any are already the mix's.
  let first: Taint[] | null = null;
  let all: Taint[] | null = null;
  for (const value of values) {
    const taints = allTaints(value);
    if (taints.length === 0) continue;
    if (first === null) first = taints;
    else (all ??= [...first]).push(...taints);
  }
  return { taints: all !== null ? uniqueTaints(all) : (first ?? []), type };
}

export function mapTaints(value: Value, change: (t: Taint) => Taint | null): Value {
  // Nothing to change in a value without taints, slots or elements (values are never written in place).
  if (value.taints.length === 0 && value.slots === undefined && value.elements === undefined) return value;
  const taints = value.taints.map(change).filter((t): t is Taint => t !== null);
  const slots = value.slots ? new Map([...value.slots].map(([k, v]) => [k, mapTaints(v, change)])) : undefined;
  const elements = value.elements?.map((v) => mapTaints(v, change));
  const out: { -readonly [K in keyof Value]: Value[K] } = { ...value, taints: uniqueTaints(taints) };
  if (slots) out.slots = slots;
  if (elements) out.elements = elements;
  return out;
}

export function clearFor(value: Value, kinds: ReadonlySet<string>): Value {
  return mapTaints(value, (t) => ({ ...t, cleared: new Set([...t.cleared, ...kinds]) }));
}

export function markWith(value: Value, mark: string): Value {
  return mapTaints(value, (t) => ({ ...t, marks: new Set([...t.marks, mark]) }));
}

/** Whether `taint` still counts for a sink of `kind` accepting `labels`. `*` clears only `input` taints. */
export function taintCounts(taint: Taint, kind: string, labels: ReadonlySet<string>): boolean {
  if (!labels.has(taint.label)) return false;
  if (taint.cleared.has(kind)) return false;
  return !(taint.cleared.has('*') && taint.label === 'input');
}

/** A slot one side does not have holds what reading it there gives: that side's own taints (readSlot). */
function joinMaps(a: Value, b: Value): Map<string, Value> | undefined {
  if (a.slots === undefined && b.slots === undefined) return undefined;
  const unlisted = (side: Value): Value => (side.taints.length === 0 ? CLEAN : { taints: side.taints, type: null });
  const out = new Map<string, Value>();
  for (const key of new Set([...(a.slots?.keys() ?? []), ...(b.slots?.keys() ?? [])])) out.set(key, join(a.slots?.get(key) ?? unlisted(a), b.slots?.get(key) ?? unlisted(b)));
  return out;
}

/** The value at a merge point: either of the two. */
export function join(a: Value, b: Value): Value {
  if (a === b) return a;
  const taints = uniqueTaints([...a.taints, ...b.taints]);
  const out: { -readonly [K in keyof Value]: Value[K] } = { taints, type: a.type ?? b.type };
  if (hasConstant(a) && hasConstant(b) && a.constant === b.constant) out.constant = a.constant;
  const slots = joinMaps(a, b);
  if (slots) out.slots = slots;
  if (a.exact && b.exact) out.exact = true;
  if (a.elements && b.elements && a.elements.length === b.elements.length) out.elements = a.elements.map((e, i) => join(e, b.elements?.[i] ?? CLEAN));
  else if (a.elements || b.elements) out.taints = uniqueTaints([...taints, ...(a.elements ?? []).flatMap(allTaints), ...(b.elements ?? []).flatMap(allTaints)]);
  const objects = [...(a.objects ?? []), ...(b.objects ?? [])];
  if (objects.length > 0) {
    // An object is safe after the merge only if it was safe on both paths: keep the settings both saw.
    const byCheck = new Map<string, TrackedObject>();
    for (const o of objects) {
      const seen = byCheck.get(o.checkId);
      byCheck.set(o.checkId, seen === undefined ? o : { ...seen, settingsDone: new Set([...seen.settingsDone].filter((s) => o.settingsDone.has(s))) });
    }
    out.objects = [...byCheck.values()];
  }
  return out;
}

/** Whether two values carry the same taints and constant (for loop fixpoints). */
export function sameValue(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (a.constant !== b.constant) return false;
  const ka = allTaints(a).map(taintKey).sort().join(';');
  const kb = allTaints(b).map(taintKey).sort().join(';');
  return ka === kb && (a.slots?.size ?? 0) === (b.slots?.size ?? 0) && (a.elements?.length ?? -1) === (b.elements?.length ?? -1);
}

/** `java.util.List<String>` -> `List`; `String[]` stays `String[]`. */
export function simpleType(type: string | null): string | null {
  if (type === null) return null;
  const noGenerics = type.replace(/<[^]*>/g, '').trim();
  const last = noGenerics.split(/[.\\]/).pop() ?? noGenerics;
  return last.replace(/^\?/, '') || null;
}

/** The simple name of a class as the lowering writes it (`Outer.Inner` gives `Inner`). */
export function simpleClassName(className: string): string {
  return className.split('.').pop() ?? className;
}
