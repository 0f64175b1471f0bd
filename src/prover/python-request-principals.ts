/**
 * The caller's principal put on the request by the project's own decorator: healthchecks' `@authorize`
 * looks the project up by the API key, answers 401 when there is none, and sets `request.project =
 * project` before it calls the view. In the views it wraps, `request.project` is the caller's, so a
 * 403 under a comparison of a record with it (`if check.project_id != request.project.id: return
 * HttpResponseForbidden()`) refuses a record that is not the caller's: an ownership check.
 *
 * A decorator counts when it refuses (a 401 or 403 answer, `PermissionDenied`, `abort(...)`) and
 * assigns `request.<name>`; only those names, and only in the functions it decorates.
 */
import type { FunctionIR } from '../syntax/ir-types.js';
import type { Program } from './resolution.js';
import type { DischargeKind, ProgramFile } from './types.js';

const REFUSES = /\b(401|403)\b|\bPermissionDenied\b|\bHttpResponseForbidden\(|\babort\(/;
/** `request.<name> = <value>` on a line: the name and the value. */
export const REQUEST_ATTRIBUTE_SET = /^\s*request\.([a-z_]\w*)\s*=(?!=)\s*(.+)$/;
/** A value the decorator found or computed (a local or a call), not a constant. */
const LOOKED_UP = /^[a-z_]\w*(\(.*\))?$|^[A-Za-z_][\w.]*\(.*\)$/;
/** A comparison that fails for a record that is not the principal's (`!=`, `is not`, `not in`). */
const MISMATCH = /!=|\bis not\b|\bnot in\b/;

const cache = new WeakMap<Program, Map<string, Set<string>>>();

/** The `request.<name>` principals the repository decorator `name` sets, empty when it is none. */
function principalsOf(program: Program, name: string): Set<string> {
  let byName = cache.get(program);
  if (!byName) {
    byName = new Map();
    cache.set(program, byName);
  }
  const known = byName.get(name);
  if (known) return known;
  const out = new Set<string>();
  const refs = (program.byName.get(name) ?? []).filter((ref) => program.byPath.get(ref.path)?.factsLanguage === 'python' && ref.fn.className === null);
  const ref = refs.length === 1 ? refs[0] : undefined;
  const file = ref ? program.byPath.get(ref.path) : undefined;
  if (ref && file) {
    const body = file.lines.slice(ref.fn.bodyStartLine - 1, ref.fn.endLine);
    if (body.some((line) => REFUSES.test(line))) {
      for (const line of body) {
        const match = REQUEST_ATTRIBUTE_SET.exec(line);
        if (match?.[1] && LOOKED_UP.test((match[2] ?? '').trim())) out.add(match[1]);
      }
    }
  }
  byName.set(name, out);
  return out;
}

/** Ownership when `condition` compares a record with a principal a decorator of `fn` set on the request, else null. */
export function principalMismatchKind(program: Program, file: ProgramFile, fn: FunctionIR, condition: string): DischargeKind | null {
  if (file.factsLanguage !== 'python' || !MISMATCH.test(condition)) return null;
  for (const text of fn.decorators) {
    const name = /^([A-Za-z_][\w.]*)/.exec(text)?.[1]?.split('.').pop() ?? '';
    for (const principal of principalsOf(program, name)) {
      if (new RegExp(String.raw`\brequest\.${principal}\b`).test(condition)) return 'ownership_check';
    }
  }
  return null;
}
