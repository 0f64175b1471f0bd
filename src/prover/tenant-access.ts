/**
 * Writes to a tenant's access model (ADR 0040). A team's or organisation's groups, memberships,
 * invitations and API tokens decide who may do what in the tenant. That the caller is a member of the
 * tenant (`prisma.team.findFirst({ where: { id: teamId, members: { some: { userId } } } })`,
 * `buildTeamWhereQuery({ teamId, userId })` without `roles`, a helper such as `getTeamById({ userId,
 * teamId })` that throws for a non-member) proves they belong to it, not that they administer it: any
 * member could delete the admins' group or mint a token. For an operation row marked
 * `administers_tenant`, such membership checks are dropped from what dominates the write, so only a
 * role or permission check (a where with `roles`/`role: { in: [...] }`, a refusal under a role test, an
 * admin helper, a role middleware) discharges it.
 *
 * Ownership of the row itself still counts: a lookup of the very model written, scoped by the caller
 * with no relation filter (`apiToken.findFirst({ where: { id, userId } })`, a personal token; the
 * caller's own `teamMember` row, which leaving the team deletes), a lookup keyed by a secret token the
 * caller holds (an invitation accepted by its token), a comparison of ids that leaves, and a write
 * whose own where names the caller. Where a membership check was dropped, the ownership reading does
 * not take the tenant's id for the caller's own either (the checker skips it): that is the membership again.
 */
import type { CallIR } from '../syntax/ir-types.js';
import { callsByLine } from './enforcement.js';
import { isRecordLookup, scopedByCaller, whereOf } from './prisma-binding.js';
import type { Program } from './resolution.js';
import type { OperationSite, Witness } from './types.js';

/** A relation filter or an access where-builder: the lookup reaches the caller through another table (a membership). */
const THROUGH_RELATION = /\b(some|every|none|is)\s*:|\bbuild\w*Where\w*\s*\(|\b\w*Where(Input|Query)\b/;
/** A where keyed by a secret the caller holds (an invitation token). */
const SECRET_KEYED = /\b\w*([Tt]oken|[Ss]ecret|code)\s*[:,}]/;

/** What remains of the dominating checks, and how each dropped membership check reads in a finding. */
export interface TenantAccessJudgement {
  remaining: Witness[];
  memberships: string[];
}

/** The Prisma model a call acts on (`prisma.teamGroup.delete(...)` → `teamGroup`), or null. */
export function modelOf(call: string): string | null {
  return /(?:^|[\s.(])(\w+)\.\w+\s*\(/.exec(call.replace(/^\s*(await\s+)?(this\.)?/, ' '))?.[1] ?? null;
}

/** The call a statement witness is: its lookup or helper call on the witness's line. */
function witnessCall(program: Program, w: Witness): CallIR | undefined {
  const ref = program.functions.get(w.functionId);
  const file = ref ? program.byPath.get(ref.path) : undefined;
  if (!file || w.line === null) return undefined;
  const calls = callsByLine(file).get(w.line) ?? [];
  const helper = /^([\w$]+)\(\) /.exec(w.evidence)?.[1];
  return calls.find((c) => c.callee === (helper ?? w.callee)) ?? undefined;
}

/** True when an ownership witness proves only that the caller belongs to the tenant the written row is in. */
function isMembership(program: Program, written: string | null, w: Witness): boolean {
  if (w.kind !== 'ownership_check') return false;
  // A middleware's or decorator's ownership reading (an API-token lookup authenticating the request) names no row of the tenant.
  if (w.scope !== 'statement') return true;
  const call = witnessCall(program, w);
  if (!call) return false;
  const stem = written?.toLowerCase() ?? '';
  // A project helper given the caller: a check of the row itself when its name says so (`getApiTokenById`), else of its tenant.
  if (w.dischargerId.startsWith('helper:')) return stem === '' || !call.callee.toLowerCase().includes(stem);
  if (!isRecordLookup(call)) return false;
  const where = whereOf(call) ?? call.text;
  if (SECRET_KEYED.test(where)) return false;
  return modelOf(`${call.receiver ?? ''}.${call.callee}(`) !== written || THROUGH_RELATION.test(where);
}

/** True when the write's own where names the caller (`where: { userId: user.id, teamId }`): the row is theirs. */
export function writesOwnRow(program: Program, op: OperationSite): boolean {
  const file = program.byPath.get(op.path);
  const call = file ? (callsByLine(file).get(op.line) ?? []).find((c) => op.call.includes(c.callee) && whereOf(c) !== null) : undefined;
  const where = call ? whereOf(call) : null;
  return where !== null && scopedByCaller(where);
}

/** For a write to a tenant's access model: the dominating checks without those that prove membership only. */
export function withoutMemberships(program: Program, op: OperationSite, dominating: readonly Witness[]): TenantAccessJudgement {
  const written = modelOf(op.call);
  // A write whose own where names the caller acts on their own row (leaving a team): nothing to drop.
  if (writesOwnRow(program, op)) return { remaining: [...dominating], memberships: [] };
  const remaining: Witness[] = [];
  const memberships: string[] = [];
  for (const w of dominating) {
    if (!isMembership(program, written, w)) remaining.push(w);
    else {
      const what = w.scope === 'statement' ? 'proves a membership of the tenant' : 'names no row of the tenant';
      memberships.push(`${w.evidence.split('\n')[0]?.trim() ?? w.evidence} ${what}, not a role that administers its ${written ?? 'access'} rows (tenant-access.ts)`);
    }
  }
  return { remaining, memberships };
}
