/**
 * Writes to a tenant's access model (src/prover/tenant-access.ts, ADR 0040): a team's groups, members,
 * invitations and API tokens are changed only by someone holding a role in the team. A check that the
 * caller is a member (a lookup through `members: { some: { userId } }`, a where-builder without roles,
 * a lookup of the caller's membership row, a helper that throws for a non-member) leaves the write
 * `authn_only`; a role in the where, a refusal under a role test or an admin helper discharges it. The
 * caller's own row (leaving the team), an invitation found by its secret token and ordinary tenant data
 * keep their readings.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';
import { comparesRoles } from '../../src/prover/role-hierarchy.js';
import { PRISMA_TEAM_MEMBERSHIP as membershipHelper, TRPC_AUTHENTICATED as trpc } from './ts-fixtures.js';

const helpers = `${membershipHelper}export const assertTeamAdmin = async ({ userId, teamId }: { userId: number; teamId: number }) => {
  const member = await prisma.teamMember.findFirst({ where: { teamId, userId } });
  if (!member || member.role !== 'ADMIN') {
    throw new TRPCError({ code: 'FORBIDDEN' });
  }
  return member;
};
export const buildTeamWhereQuery = ({ teamId, userId, roles }: { teamId: number; userId: number; roles?: string[] }) => ({
  id: teamId,
  members: { some: { userId, ...(roles ? { role: { in: roles } } : {}) } },
});
export const canExecuteTeamAction = (action: string, role: string) => role === 'ADMIN';
`;

/** A mutation whose body is `body`, with `groupId`, `teamId`, `memberId` and `token` taken from the input. */
const route = (body: string) => `import { authenticatedProcedure } from './trpc';
import { prisma } from './prisma';
import { TRPCError } from '@trpc/server';
import { getTeamById, assertTeamAdmin, buildTeamWhereQuery, canExecuteTeamAction } from './teams';
export const teamAccessRoute = authenticatedProcedure.mutation(async ({ input, ctx }) => {
  const { groupId, teamId, memberId } = input;
${body}
});
`;

const leave = `  if (!team) {
    throw new TRPCError({ code: 'NOT_FOUND' });
  }`;
const membership = `  const team = await prisma.team.findFirst({
    where: { id: teamId, members: { some: { userId: ctx.user.id } } },
  });
${leave}`;
const memberRow = `  const member = await prisma.teamMember.findFirst({ where: { teamId, userId: ctx.user.id } });
  if (!member) {
    throw new TRPCError({ code: 'NOT_FOUND' });
  }`;

async function findings(body: string) {
  const files = { 'src/trpc.ts': trpc, 'src/teams.ts': helpers, 'src/team-access.ts': route(body) };
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.operationsChecked).toBeGreaterThan(0);
  return result.findings;
}

const TABLE: { name: string; body: string; labels: string[] }[] = [
  // Membership only: any member could change who may do what in the team.
  { name: 'a membership lookup of the team, then its group deleted', body: `${membership}\n  await prisma.teamGroup.delete({ where: { id: groupId, teamId } });`, labels: ['authn_only'] },
  { name: 'a where-builder without roles, then a group updated', body: `  const team = await prisma.team.findFirst({ where: buildTeamWhereQuery({ teamId, userId: ctx.user.id }) });\n${leave}\n  await prisma.teamGroup.update({ where: { id: groupId, teamId }, data: { role: input.role } });`, labels: ['authn_only'] },
  { name: "the caller's membership row, then the team's API token deleted", body: `${memberRow}\n  await prisma.apiToken.delete({ where: { id: input.tokenId, teamId } });`, labels: ['authn_only'] },
  { name: 'a helper that throws for a non-member, then another member removed', body: `  await getTeamById({ userId: ctx.user.id, teamId });\n  await prisma.teamMember.delete({ where: { id: memberId, teamId } });`, labels: ['authn_only'] },
  { name: "the group looked up through the caller's membership, then updated", body: `  const group = await prisma.organisationGroup.findFirst({ where: { id: groupId, organisation: { members: { some: { userId: ctx.user.id } } } } });\n  if (!group) {\n    throw new TRPCError({ code: 'NOT_FOUND' });\n  }\n  await prisma.organisationGroup.update({ where: { id: groupId }, data: { name: input.name } });`, labels: ['authn_only'] },
  { name: "a refusal on the owner's account status is no role test", body: `${membership}\n  if (team.owner.disabled) {\n    throw new Error('The team is disabled');\n  }\n  await prisma.teamGroup.delete({ where: { id: groupId, teamId } });`, labels: ['authn_only'] },
  // Membership and a role: the caller administers the team.
  { name: 'a where-builder given the roles, then a group deleted', body: `  const team = await prisma.team.findFirst({ where: buildTeamWhereQuery({ teamId, userId: ctx.user.id, roles: ['ADMIN', 'MANAGER'] }) });\n${leave}\n  await prisma.teamGroup.delete({ where: { id: groupId, teamId } });`, labels: [] },
  { name: 'a role in the where of the membership lookup', body: `  const team = await prisma.team.findFirst({\n    where: { id: teamId, members: { some: { userId: ctx.user.id, role: { in: ['ADMIN'] } } } },\n  });\n${leave}\n  await prisma.teamGroup.delete({ where: { id: groupId, teamId } });`, labels: [] },
  { name: "a refusal under a test of the member's role", body: `${memberRow}\n  if (!canExecuteTeamAction('MANAGE_TEAM', member.role)) {\n    throw new TRPCError({ code: 'FORBIDDEN' });\n  }\n  await prisma.apiToken.delete({ where: { id: input.tokenId, teamId } });`, labels: [] },
  { name: 'an admin helper that throws unless the caller is an administrator', body: `  await assertTeamAdmin({ userId: ctx.user.id, teamId });\n  await prisma.teamMember.delete({ where: { id: memberId, teamId } });`, labels: [] },
  { name: 'a role lookup of one team, then a group of any team deleted', body: `  const team = await prisma.team.findFirst({ where: buildTeamWhereQuery({ teamId, userId: ctx.user.id, roles: ['ADMIN'] }) });\n${leave}\n  await prisma.teamGroup.delete({ where: { id: groupId } });`, labels: ['resource_unbound'] },
  // The caller's own rows and secrets keep their readings.
  { name: "the caller's own membership row deleted (leaving the team)", body: `  const own = await prisma.teamMember.findFirst({ where: { id: memberId, userId: ctx.user.id } });\n  if (!own) {\n    throw new TRPCError({ code: 'NOT_FOUND' });\n  }\n  await prisma.teamMember.delete({ where: { id: memberId } });`, labels: [] },
  { name: "a delete scoped by the caller's own id", body: `  await prisma.teamMember.deleteMany({ where: { teamId, userId: ctx.user.id } });`, labels: [] },
  { name: 'an invitation found by its secret token, then deleted', body: `  const invite = await prisma.teamInvite.findFirst({ where: { token: input.token } });\n  if (!invite) {\n    throw new TRPCError({ code: 'NOT_FOUND' });\n  }\n  await prisma.teamInvite.delete({ where: { id: invite.id } });`, labels: [] },
  { name: "the team's ordinary data after a membership lookup", body: `${membership}\n  await prisma.document.delete({ where: { id: input.documentId, teamId } });`, labels: [] },
];

describe('writes to a tenant\'s access model need a role there, not a membership', () => {
  for (const row of TABLE) {
    it(row.name, async () => {
      expect((await findings(row.body)).map((f) => f.label)).toEqual(row.labels);
    });
  }

  it('the finding says the membership check proves no role', async () => {
    const [finding] = await findings(`${membership}\n  await prisma.teamGroup.delete({ where: { id: groupId, teamId } });`);
    expect(finding?.operation.id).toBe('ts.tenant-access-write');
    expect(finding?.weakerChecks.some((w) => w.includes('proves a membership of the tenant, not a role'))).toBe(true);
  });
});

/** Two mutations on organisation groups behind a role lookup of the organisation; `compare` adds the role comparison to each. */
const groupRoute = (name: string, write: string, compare: boolean) => `import { authenticatedProcedure } from './trpc';
import { prisma } from './prisma';
import { TRPCError } from '@trpc/server';
import { getMemberRole, isRoleWithinUserHierarchy } from './roles';
export const ${name} = authenticatedProcedure.mutation(async ({ input, ctx }) => {
  const { groupId, organisationId } = input;
  const organisation = await prisma.organisation.findFirst({
    where: { id: organisationId, members: { some: { userId: ctx.user.id, role: { in: ['ADMIN', 'MANAGER'] } } } },
  });
  if (!organisation) {
    throw new TRPCError({ code: 'NOT_FOUND' });
  }
  const group = await prisma.organisationGroup.findFirst({ where: { id: groupId, organisationId } });
  if (!group) {
    throw new TRPCError({ code: 'NOT_FOUND' });
  }
${compare ? `  const currentUserRole = await getMemberRole({ organisationId, userId: ctx.user.id });
  if (!isRoleWithinUserHierarchy(currentUserRole, group.organisationRole)) {
    throw new TRPCError({ code: 'FORBIDDEN' });
  }
` : ''}  await prisma.organisationGroup.${write};
});
`;
const roles = `export const getMemberRole = async ({ organisationId, userId }: { organisationId: number; userId: number }) => 'ADMIN';
export const isRoleWithinUserHierarchy = (current: string, target: string) => current === 'ADMIN' || current === target;
`;

const updateGroup = (compare: boolean) => groupRoute('updateGroupRoute', 'update({ where: { id: groupId, organisationId }, data: { name: input.name } })', compare);

/** The proof of the group routes beside the tRPC setup and the role helpers. */
async function proveGroups(routes: Record<string, string>) {
  const files = { 'src/trpc.ts': trpc, 'src/roles.ts': roles, ...routes };
  return proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
}

async function groupLabels(update: boolean, remove: boolean): Promise<Record<string, string[]>> {
  const result = await proveGroups({ 'src/update-group.ts': updateGroup(update), 'src/delete-group.ts': groupRoute('deleteGroupRoute', 'delete({ where: { id: groupId, organisationId } })', remove) });
  const out: Record<string, string[]> = {};
  for (const f of result.findings) out[f.path] = [...(out[f.path] ?? []), f.label];
  return out;
}

describe("the project's role-hierarchy norm on access rows", () => {
  it('a group deleted under a managing role, where the project compares roles before updating groups, breaks the norm', async () => {
    expect(await groupLabels(true, false)).toEqual({ 'src/delete-group.ts': ['sibling_norm'] });
  });

  it('every writer comparing the caller\'s role with the group\'s keeps the norm', async () => {
    expect(await groupLabels(true, true)).toEqual({});
  });

  it('no writer comparing roles sets no norm: a managing role is enough', async () => {
    expect(await groupLabels(false, false)).toEqual({});
  });

  it("the caller's own row is not judged by the norm: leaving needs no role", async () => {
    const result = await proveGroups({ 'src/update-group.ts': updateGroup(true), 'src/leave.ts': groupRoute('leaveGroupRoute', 'deleteMany({ where: { id: groupId, userId: ctx.user.id } })', false) });
    expect(result.findings).toEqual([]);
  });

  it('the finding names the function that sets the norm', async () => {
    const result = await proveGroups({ 'src/update-group.ts': updateGroup(true), 'src/delete-group.ts': groupRoute('deleteGroupRoute', 'delete({ where: { id: groupId, organisationId } })', false) });
    expect(result.findings[0]?.weakerChecks.some((w) => w.includes('updateGroupRoute') && w.includes('no role comparison before organisationGroup'))).toBe(true);
  });
});

describe('a comparison of two roles', () => {
  const CASES: [string, boolean][] = [
    ['!isTeamRoleWithinUserHierarchy(currentUserTeamRole, group.teamRole)', true],
    ['member?.role !== target.role', true],
    ['!membersToCreate.every((member) => isTeamRoleWithinUserHierarchy(currentUserTeamRole, member.teamRole))', true],
    ['group.organisationGroup.organisationRole !== OrganisationMemberRole.MEMBER', false],
    ["teamMember?.role !== TeamMemberRole.ADMIN && role !== 'OWNER'", false],
    ['!member || !canManage(member.role, invite.organisationRole)', true],
    ["teamMember?.role !== 'ADMIN'", false],
  ];
  for (const [condition, expected] of CASES) {
    it(`${condition}: ${expected ? 'compares' : 'does not compare'}`, () => {
      expect(comparesRoles(condition)).toBe(expected);
    });
  }
});
