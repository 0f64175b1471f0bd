/**
 * A Django class-based view's `dispatch()` runs before every handler method (`get`, `post`, ...): it is
 * what calls them, through `super().dispatch(request, ...)` down to `View.dispatch`. A repository
 * mixin or base whose `dispatch` refuses before handing on (`if not self.has_permission(): return
 * self.handle_no_permission()`, as Django's own `PermissionRequiredMixin` does, or `raise
 * PermissionDenied`) checks every handler of every view that derives from it, the mixin written before
 * the view class in the bases (Django's method order).
 *
 * A refusal behind a class attribute (`if self.permission_required is not None:`, the mixin's own
 * default being None) counts for the views whose lineage sets that attribute to something else.
 *
 * It counts only when every `dispatch` the view's repository lineage defines either refuses before its
 * `super().dispatch(...)` or hands on: an override that never calls `super().dispatch` skips the
 * mixins behind it. The refusal must be unconditional in `dispatch` (not in a branch of its own).
 */
import { ancestorNames, lookupClass, type ClassRecord, type Program } from './resolution.js';
import { indentOf } from './branches.js';
import { classAttribute } from './python-class-policies.js';
import type { EntryPoint, FunctionRef, ProgramFile, Witness } from './types.js';

const SUPER_DISPATCH = /\bsuper\([^)]*\)\.dispatch\(/;
/** Django's view classes: a mixin written after one of them in the bases is never reached before it. */
const VIEW_BASE = /^(View|\w+View|\w*APIView|\w*ViewSet)$/;

/** The repository classes of a view's lineage, itself first. */
function lineage(program: Program, cls: ClassRecord): ClassRecord[] {
  const out = [cls];
  for (const name of ancestorNames(program.table, cls)) {
    const record = lookupClass(program.table, name.split('.').pop() ?? name, cls.path);
    if (record && !out.includes(record)) out.push(record);
  }
  return out;
}

/** True when `mixin` is written after a Django view class in the bases of a lineage class that lists it. */
function afterViewBase(program: Program, records: readonly ClassRecord[], mixin: ClassRecord): boolean {
  return records.some((r) => {
    const bases = [r.superclass, ...r.interfaces].filter((b): b is string => b !== null).map((b) => b.split('.').pop() ?? b);
    const at = bases.indexOf(mixin.name);
    const view = bases.findIndex((b) => VIEW_BASE.test(b) && lookupClass(program.table, b, r.path) === null);
    return at >= 0 && view >= 0 && view < at;
  });
}

/** Class witnesses of the Django handler methods whose lineage's `dispatch` refuses before handing on. */
export function djangoDispatchWitnesses(program: Program, entries: readonly EntryPoint[], byFunction: ReadonlyMap<string, readonly Witness[]>): Witness[] {
  const out: Witness[] = [];
  const judged = new Map<ClassRecord, Witness[] | null>();
  for (const entry of entries) {
    if (entry.framework !== 'django') continue;
    const ref = program.functions.get(entry.functionId);
    if (!ref?.fn.className || ref.fn.name === 'dispatch') continue;
    const cls = lookupClass(program.table, ref.fn.className, ref.path);
    if (!cls) continue;
    let proofs = judged.get(cls);
    if (proofs === undefined) {
      proofs = dispatchProofs(program, cls, byFunction);
      judged.set(cls, proofs);
    }
    for (const proof of proofs ?? []) out.push({ ...proof, functionId: entry.functionId });
  }
  return out;
}

function dispatchProofs(program: Program, cls: ClassRecord, byFunction: ReadonlyMap<string, readonly Witness[]>): Witness[] | null {
  const records = lineage(program, cls);
  const proofs: Witness[] = [];
  for (const record of records) {
    const dispatch: FunctionRef | undefined = record.methods.find((m) => m.fn.name === 'dispatch');
    if (!dispatch) continue;
    const home = program.byPath.get(dispatch.path);
    if (!home) return null;
    const lines = home.lines.slice(dispatch.fn.bodyStartLine - 1, dispatch.fn.endLine);
    const handsOn = lines.findIndex((t) => SUPER_DISPATCH.test(t));
    // An override that never hands on runs no mixin behind it (and decides itself: not read here).
    if (handsOn < 0) return null;
    if (afterViewBase(program, records, record)) continue;
    const before = dispatch.fn.bodyStartLine + handsOn;
    for (const w of byFunction.get(dispatch.id) ?? []) {
      if (w.scope !== 'statement' || w.line === null || w.line >= before || w.until !== undefined) continue;
      if (w.kind === 'csrf_guard' || w.kind === 'public') continue;
      // A refusal in a branch counts only behind `if self.permission_required is not None:` that the view sets.
      if (w.blockEnd !== undefined && !attributeGateSet(program, home, dispatch, w.line, records)) continue;
      proofs.push({ kind: w.kind, scope: 'class', functionId: '', line: null, dischargerId: 'python.django-dispatch-refusal', evidence: `${record.name}.dispatch() (${dispatch.path}:${dispatch.fn.startLine}) refuses before super().dispatch(): ${w.evidence}` });
    }
  }
  return proofs;
}

/** The gate `if self.ATTR is not None:` (or `if self.ATTR:`) at the body level of `dispatch` above `line`. */
const ATTRIBUTE_GATE = /^\s*if\s+self\.([A-Za-z_]\w*)(?:\s+is\s+not\s+None)?\s*:\s*(#.*)?$/;

/** True when the refusal on `line` is in a block gated by a class attribute some class of the view's lineage sets (not to None). */
function attributeGateSet(program: Program, file: ProgramFile, dispatch: FunctionRef, line: number, records: readonly ClassRecord[]): boolean {
  const bodyIndent = indentOf(file.lines[dispatch.fn.bodyStartLine - 1] ?? '');
  let indent = indentOf(file.lines[line - 1] ?? '');
  for (let l = line - 1; l >= dispatch.fn.bodyStartLine; l--) {
    const text = file.lines[l - 1] ?? '';
    if (text.trim() === '' || indentOf(text) >= indent) continue;
    indent = indentOf(text);
    if (indent !== bodyIndent) continue;
    const attribute = ATTRIBUTE_GATE.exec(text)?.[1];
    if (attribute === undefined) return false;
    // The nearest class of the lineage (the view first) that assigns it decides, as Python looks it up.
    for (const r of records) {
      const home = program.byPath.get(r.path);
      const own = home?.ir.classes.find((c) => c.name === r.name);
      const value = home && own ? classAttribute(home, own.startLine, own.endLine, attribute) : null;
      if (value !== null) return !/=\s*(None|\(\)|\[\]|""|'')\s*$/.test(value);
    }
    return false;
  }
  return false;
}
