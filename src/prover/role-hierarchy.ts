/**
 * The project's own role-hierarchy norm for a tenant's access rows (ADR 0040). Where roles are ranked
 * (owner, admin, manager, member), holding a managing role is not enough to change a group, member or
 * invitation that carries a role above one's own: the project refuses unless the caller's role is
 * within reach of the row's (`if (!isOrganisationRoleWithinUserHierarchy(currentUserRole,
 * group.organisationRole)) throw ...`). Which rows carry a ranked role is the project's knowledge, not
 * the prover's, so the rule reads the norm off the code: when some function writing a model refuses on
 * such a comparison of two roles before the write, a role-guarded write to the same model whose path
 * makes no such comparison is the one the author forgot (documenso's organisation groups, pull request
 * #3029). A model nobody compares roles for sets no norm and the rule is silent; a write that no role
 * check guards (the caller's own row, leaving a team) is not judged here.
 *
 * Textual: a comparison is an `if` condition, with a `throw` or `return` within four lines after it,
 * one of whose terms (split at `&&`, `||`) names two different values whose last name ends in `role`
 * (`currentUserTeamRole`, `group.teamRole`, `member.role`); enum constants (`TeamMemberRole.ADMIN`)
 * are no values, and two tests of one role each against constants compare nothing.
 */
import { blankStrings } from './string-literals.js';
import { modelOf, writesOwnRow } from './tenant-access.js';
import type { Program } from './resolution.js';
import type { FunctionRef, OperationSite, PathRecord, ProgramFile } from './types.js';

/** A Prisma write's receiver and method (`tx.organisationGroup` `.delete`), transactions included. */
const PRISMA_WRITE_RECEIVER = /^(this\.)?(db|prisma|prismaService|tx|trx)\.(\w+)$/;
const PRISMA_WRITE = /^(update|updateMany|upsert|delete|deleteMany)$/;
/** A value whose last name is a role: `currentUserTeamRole`, `group.teamRole`, `member?.role`. */
const ROLE_VALUE = /(?<![\w$.])([a-z_$][\w$]*(?:\??\.[\w$]+)*)(?![\w$]|\??\.[\w$])/g;
const LEAVES = /\b(throw|return)\b/;

/** The conditions of the `if`s between `from` and `to` (exclusive) whose failing arm leaves. */
function leavingConditions(file: ProgramFile, from: number, to: number): string[] {
  const out: string[] = [];
  for (let head = from; head < to; head++) {
    const text = file.lines[head - 1] ?? '';
    const at = /\bif\s*\(/.exec(text);
    if (!at) continue;
    let depth = 0;
    let condition = '';
    let end = head;
    scan: for (let l = head; l <= Math.min(to - 1, head + 8); l++) {
      const chunk = l === head ? text.slice(at.index + at[0].length - 1) : (file.lines[l - 1] ?? '');
      for (const ch of chunk) {
        if (ch === '(') depth++;
        if (ch === ')') depth--;
        condition += ch;
        if (depth === 0) {
          end = l;
          break scan;
        }
      }
      condition += ' ';
    }
    // The failing arm: what follows the condition on its last line, and the four lines after it.
    const closing = file.lines[end - 1] ?? '';
    const after = [closing.slice(closing.lastIndexOf(')') + 1), ...file.lines.slice(end, Math.min(to - 1, end + 4))].join('\n');
    if (depth === 0 && LEAVES.test(after)) out.push(condition);
  }
  return out;
}

/** True when one term of a condition (split at `&&` and `||`) names two different role values: a comparison of the two. */
export function comparesRoles(condition: string): boolean {
  const text = blankStrings(condition, '""');
  return text.split(/&&|\|\|/).some((term) => {
    const roles = new Set<string>();
    for (const m of term.matchAll(ROLE_VALUE)) {
      const value = (m[1] ?? '').replace(/\?\./g, '.');
      if (/role$/i.test(value.split('.').pop() ?? '')) roles.add(value);
    }
    return roles.size >= 2;
  });
}

/** True when the function refuses on a role comparison before `line`. */
function comparesBefore(program: Program, ref: FunctionRef, line: number): boolean {
  const file = program.byPath.get(ref.path);
  return file !== undefined && leavingConditions(file, ref.fn.bodyStartLine + 1, line).some(comparesRoles);
}

/** Model → the functions whose write to it follows a role comparison: the project's norm. */
const norms = new WeakMap<Program, Map<string, string[]>>();

function normsOf(program: Program): Map<string, string[]> {
  const cached = norms.get(program);
  if (cached) return cached;
  const out = new Map<string, string[]>();
  const byPath = new Map<string, FunctionRef[]>();
  for (const ref of program.functions.values()) byPath.set(ref.path, [...(byPath.get(ref.path) ?? []), ref]);
  for (const file of program.files) {
    if (file.factsLanguage !== 'typescript') continue;
    for (const call of file.ir.calls) {
      const model = PRISMA_WRITE.test(call.callee) ? PRISMA_WRITE_RECEIVER.exec(call.receiver ?? '')?.[3] : undefined;
      if (model === undefined) continue;
      // The innermost function around the write.
      const owner = (byPath.get(file.path) ?? []).filter((r) => r.fn.startLine <= call.line && call.line <= r.fn.endLine).sort((a, b) => a.fn.endLine - a.fn.startLine - (b.fn.endLine - b.fn.startLine))[0];
      if (owner && comparesBefore(program, owner, call.line)) out.set(model, [...new Set([...(out.get(model) ?? []), owner.fn.qualifiedName])]);
    }
  }
  norms.set(program, out);
  return out;
}

/**
 * For a role-guarded write to a tenant's access rows: the project's example of the norm it breaks (a
 * function comparing roles before writing the same model) when no hop of the path compares roles
 * before it, else null.
 */
export function missingHierarchy(program: Program, path: PathRecord, op: OperationSite): string | null {
  const model = modelOf(op.call);
  if (model === null || writesOwnRow(program, op)) return null;
  const onPath = new Set(path.hops.map((hop) => program.functions.get(hop.functionId)?.fn.qualifiedName));
  const examples = (normsOf(program).get(model) ?? []).filter((name) => !onPath.has(name));
  if (examples.length === 0) return null;
  const last = path.hops.length - 1;
  const compared = path.hops.some((hop, i) => {
    const ref = program.functions.get(hop.functionId);
    return ref !== undefined && comparesBefore(program, ref, i === last ? op.line : (hop.callLine ?? 0));
  });
  return compared ? null : `no role comparison before ${model} is written: the project compares the caller's role with the row's before writing ${model} elsewhere (${examples.slice(0, 2).join(', ')}), so holding a managing role may not reach a row whose role is above the caller's (role-hierarchy.ts)`;
}
