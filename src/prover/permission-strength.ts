/**
 * Whether the permission a check names grants the operation it guards. Using a stored secret needs a
 * permission to use or configure (Jenkins' `CredentialsProvider.USE_ITEM`, `Item.CONFIGURE`,
 * `Jenkins.ADMINISTER`); `Item.BUILD`, `Item.EXTENDED_READ` or `Item.READ` do not grant it. A check on
 * such a permission, or a disjunction that offers one as an alternative (`!(item.hasPermission(CONFIGURE)
 * || item.hasPermission(BUILD))` lets a builder through), discharges nothing for an operation whose row
 * lists it in `insufficient_permissions`.
 *
 * Cases: the checks that remain must still cover every case of a root/item split (`context == null`
 * and `context != null`): when one of them was dropped for its permission and the others each cover
 * one case of the same variable only, the other case is open and nothing discharges. When no check
 * names a listed permission, the judgement is the graph's alone (this module changes nothing).
 */
import { splitBoolean } from './branches.js';
import { nullCase } from './case-split-checks.js';
import type { Program } from './resolution.js';
import type { ProgramFile, Witness } from './types.js';

/** A permission constant in a check's text: `Item.CONFIGURE`, `CredentialsProvider.USE_ITEM`, `Jenkins.ADMINISTER`. */
const PERMISSION = /\b([A-Z]\w*\.[A-Z][A-Z0-9_]+)\b/g;

/** What a statement check tests: its permission alternatives and the case it applies to. */
interface CheckedPermission {
  alternatives: string[];
  /** The null test of the case it covers (`context == null`), or null when it covers every case. */
  covers: { variable: string; whenNull: boolean } | null;
}

/** The condition of the `if` whose head is at or at most four lines above `line`, with its parentheses balanced. */
function conditionAround(file: ProgramFile, line: number): string | null {
  for (let head = line; head >= Math.max(1, line - 4); head--) {
    const text = file.lines[head - 1] ?? '';
    const at = /\bif\s*\(/.exec(text);
    if (!at) continue;
    let depth = 0;
    let out = '';
    for (let l = head; l <= Math.min(file.lines.length, head + 8); l++) {
      const chunk = l === head ? text.slice(at.index + at[0].length - 1) : (file.lines[l - 1] ?? '');
      for (const ch of chunk) {
        if (ch === '(') depth++;
        if (ch === ')') depth--;
        out += ch;
        if (depth === 0) return out.slice(1, -1).replace(/\s+/g, ' ').trim();
      }
      out += ' ';
    }
    return null;
  }
  return null;
}

/** The innermost `!( ... || ... )` group of `condition` that holds `call`, as its alternatives. */
function negatedDisjunction(condition: string, call: string): string[] | null {
  for (let at = condition.indexOf('!('); at !== -1; at = condition.indexOf('!(', at + 1)) {
    let depth = 0;
    for (let i = at + 1; i < condition.length; i++) {
      if (condition[i] === '(') depth++;
      if (condition[i] === ')' && --depth === 0) {
        const group = condition.slice(at + 2, i);
        const alternatives = splitBoolean(group, '||');
        if (alternatives.length > 1 && group.includes(call)) return alternatives;
        break;
      }
    }
  }
  return null;
}

/**
 * An item's permission asked of the root (`Jenkins.get().hasPermission(Item.CONFIGURE)`): granted to
 * whoever holds it on every item, a role far below an administrator's; rows name it `Item.X@root`.
 */
const ROOT_ITEM_PERMISSION = /\b(?:Jenkins|Hudson)\.(?:get|getInstance|getActiveInstance|getInstanceOrNull)\(\)\s*\.\s*(?:has|check)(?:Any)?Permission2?\(\s*(Item\.[A-Z][A-Z0-9_]*)\s*\)/g;

function permissionsIn(text: string): string[] {
  const named = [...text.matchAll(PERMISSION)].map((m) => m[1] ?? '').filter((p) => p !== '');
  return [...named, ...[...text.matchAll(ROOT_ITEM_PERMISSION)].map((m) => `${m[1] ?? ''}@root`)];
}

/** The permissions a statement check tests and the case it covers, or null when its text names none. */
function checkedPermission(file: ProgramFile, w: Witness): CheckedPermission | null {
  const own = permissionsIn(w.evidence.replace(/\s*\(required where.*$/s, ''));
  if (own.length === 0 || w.line === null) return null;
  const condition = conditionAround(file, w.line);
  const call = (w.evidence.split('(')[0] ?? '').trim();
  let alternatives = own;
  let covers = w.narrowedBy === undefined ? null : nullCase(w.narrowedBy);
  if (condition !== null && call !== '') {
    const group = negatedDisjunction(condition, call);
    if (group) alternatives = group.flatMap(permissionsIn);
    // A case split in one condition: `ctx == null && !a(..) || ctx != null && !b(..)`.
    const piece = splitBoolean(condition, '||').find((p) => p.includes(w.evidence.split('\n')[0]?.trim() ?? '\0') || own.some((perm) => p.includes(perm)));
    if (covers === null && piece !== undefined && splitBoolean(condition, '||').length > 1) {
      covers = splitBoolean(piece.replace(/^\((.*)\)$/s, '$1'), '&&').map((term) => nullCase(term)).find((c) => c !== null) ?? null;
    }
  }
  return { alternatives, covers };
}

/**
 * The dominating checks that still discharge an operation whose row lists `insufficient` permissions:
 * `dominating` itself when no statement check names one of them.
 */
export function sufficientChecks(program: Program, insufficient: readonly RegExp[], dominating: readonly Witness[]): Witness[] {
  if (insufficient.length === 0) return [...dominating];
  const judged = dominating.map((w) => {
    if (w.scope !== 'statement' || w.kind !== 'path_guard') return { w, checked: null };
    const fn = program.functions.get(w.functionId);
    const file = fn ? program.byPath.get(fn.path) : undefined;
    return { w, checked: file ? checkedPermission(file, w) : null };
  });
  const weak = judged.filter((j) => j.checked !== null && j.checked.alternatives.some((p) => insufficient.some((re) => re.test(p))));
  if (weak.length === 0) return [...dominating];
  const kept = judged.filter((j) => !weak.includes(j));
  const guards = kept.filter((j) => j.w.kind === 'path_guard');
  const everyCase = guards.some((j) => j.checked === null || j.checked.covers === null) || guards.some((a) => guards.some((b) => a.checked?.covers && b.checked?.covers && a.checked.covers.variable === b.checked.covers.variable && a.checked.covers.whenNull !== b.checked.covers.whenNull));
  return kept.filter((j) => everyCase || j.w.kind !== 'path_guard').map((j) => j.w);
}
