/**
 * Privilege grants: an assignment that makes a user an administrator (`user.admin = True`,
 * `user.is_superuser = data['is_superuser']`) or copies every field the request names onto a user
 * (`setattr(user, key, value)`) is an operation of its own, named by the `assignments` of an operation
 * row. A permission to manage users (JupyterHub's `@needs_scope('admin:users')`, a project role) does
 * not settle it: whoever holds that scope could make themselves or anyone an administrator (CVE-2024-41942).
 * Only a check of the caller's own privilege discharges it, the row's `held_by`: a refusal whose
 * conditions test it (`if admin and not self.current_user.admin: raise HTTPError(403)`), or a decorator
 * that names it (`@admin_required`). Such checks are written conditional on the requested value
 * (`if data.get('admin') and ...`), which the control-flow graph cannot relate to the grant's own `if`,
 * so a held-privilege refusal counts by statement order: before the grant in its function, or before the
 * call to the next hop in an earlier one.
 */
import { indentOf } from './branches.js';
import type { Facts } from './facts.js';
import { nodeAt, type Program } from './resolution.js';
import type { OperationSite, PathRecord, Witness } from './types.js';

/** The operation sites of every assignment an `assignments` row names: one a line, of the first row that holds. */
export function privilegeGrantSites(program: Program, facts: Facts): OperationSite[] {
  const sites: OperationSite[] = [];
  for (const file of program.files) {
    const rows = facts[file.factsLanguage].operations.filter((o) => o.assignments.length > 0);
    if (rows.length === 0) continue;
    file.lines.forEach((text, index) => {
      if (!text.includes('=') && !text.includes('setattr')) return;
      if (/^\s*(#|\/\/|\*)/.test(text)) return;
      const matching = rows.filter((o) => o.assignments.some((re) => re.test(text)));
      if (matching.length === 0) return;
      const node = nodeAt(program, file.ir, index + 1);
      if (!node) return;
      // The first row whose value test holds: a copy onto a user from a parameter's model dump is no grant
      // of the request's choosing, but still the record write of a later, wider row.
      const row = matching.find((o) => !o.valueFrom || valueFromRequest(file.lines, node.fn.startLine, index + 1, o.valueFrom));
      if (!row) return;
      sites.push({
        operationId: row.id,
        kind: row.kind,
        functionId: node.id,
        path: file.path,
        line: index + 1,
        call: text.trim(),
        handlerNamed: false,
        requires: row.requires,
        severity: row.severity,
        cwe: row.cwe,
        ...(row.heldBy ? { heldBy: row.heldBy } : {}),
      });
    });
  }
  return sites;
}

/**
 * True when the grant's value reads the request: its right-hand side (the arguments after the object, for
 * `setattr`), or for a literal `True` the conditions around it (`if admin: user.admin = True`), mention
 * a request read or a local derived from one earlier in the function (`data = self.get_json_body()`,
 * `admin = data.get('admin')`, `for key, value in data.items()`). The derivation is textual, as for the
 * logged-in user (ownership.ts). A flag an authenticator returns on login is not the caller's choice.
 */
export function valueFromRequest(lines: readonly string[], startLine: number, line: number, request: RegExp): boolean {
  // Each derived local's word pattern, built once when it is found (not once per line it is looked for in).
  const derived = new Map<string, RegExp>();
  const mentions = (text: string): boolean => request.test(text) || [...derived.values()].some((re) => re.test(text));
  for (let at = startLine; at < line; at++) {
    const text = lines[at - 1] ?? '';
    const assigned = /^\s*([A-Za-z_][\w, ]*?)\s*=(?!=)(.*)$/.exec(text) ?? /^\s*for\s+([A-Za-z_][\w, ]*?)\s+in\s+(.*):\s*$/.exec(text);
    if (!assigned || !mentions(assigned[2] ?? '')) continue;
    for (const local of (assigned[1] ?? '').split(',').map((name) => name.trim())) if (/^\w+$/.test(local) && !derived.has(local)) derived.set(local, new RegExp(`\\b${local}\\b`));
  }
  const text = lines[line - 1] ?? '';
  const value = /^\s*setattr\((?:[^,]*),(.*)$/.exec(text)?.[1] ?? text.slice(text.indexOf('=') + 1);
  if (/^\s*True\b/.test(value)) return enclosingConditions(lines, startLine, line).slice(1).some(mentions);
  return mentions(value);
}

/** How a privilege grant stands on a path: discharged by a held-privilege check, or the checks that still count. */
export interface GrantJudgement {
  discharged: boolean;
  /** The dominating checks without permissions that are not the caller's own privilege (they cannot settle a grant). */
  remaining: Witness[];
}

/** Judge a privilege grant on one path (see the module comment). */
export function judgeGrant(program: Program, byFunction: ReadonlyMap<string, Witness[]>, path: PathRecord, op: OperationSite, dominating: readonly Witness[]): GrantJudgement {
  const held = op.heldBy;
  const remaining = dominating.filter((w) => w.kind !== 'path_guard');
  if (!held) return { discharged: false, remaining };
  const discharged = path.hops.some((hop, i) => {
    const isLast = i === path.hops.length - 1;
    const bound = isLast ? op.line : (hop.callLine ?? 0);
    const ref = program.functions.get(hop.functionId);
    const lines = ref ? program.byPath.get(ref.path)?.lines : undefined;
    if (!ref || !lines) return false;
    return (byFunction.get(hop.functionId) ?? []).some((w) => {
      if (w.kind === 'csrf_guard' || w.kind === 'public') return false;
      if (w.scope !== 'statement') return held.test(w.evidence);
      if (w.line === null || w.line >= bound) return false;
      return held.test(w.evidence) || enclosingConditions(lines, ref.fn.startLine, w.line).some((c) => held.test(c));
    });
  });
  return { discharged, remaining };
}

/** The line itself and the `if`/`elif`/`while` lines that enclose it by indentation, up to the function's first line. */
export function enclosingConditions(lines: readonly string[], startLine: number, line: number): string[] {
  const own = lines[line - 1] ?? '';
  const found = [own];
  let indent = indentOf(own);
  for (let at = line - 1; at >= startLine && indent > 0; at--) {
    const text = lines[at - 1] ?? '';
    if (text.trim() === '') continue;
    const depth = indentOf(text);
    if (depth >= indent) continue;
    indent = depth;
    if (/^\s*(\}\s*)?(if|elif|elseif|else\s+if|while|unless)\b/.test(text)) found.push(text);
  }
  return found;
}
