/**
 * Resource binding for Prisma writes (src/prover/prisma-binding.ts, ADR 0034): a tRPC mutation that
 * deletes or updates a team's ordinary rows (its templates) named by a `where` chosen by the request is
 * discharged by a check bound to the same rows: a membership lookup of the team the rows are keyed by (`where: { id: teamId, members: {
 * some: { userId } } }`), a thrower helper given that team (`getTeamById({ userId, teamId })`), or a
 * lookup of the row itself scoped by the caller's membership. A check bound to another team or row
 * leaves a `resource_unbound` finding; a login alone stays `authn_only`. (The team's access model, its
 * groups, members and tokens, needs a role besides: tests/prover/tenant-access.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';
import { PRISMA_TEAM_MEMBERSHIP as membershipHelper, TRPC_AUTHENTICATED as trpc } from './ts-fixtures.js';


const helpers = `${membershipHelper}export const buildTeamWhere = async ({ id, userId }: { id: { type: string; id: number }; userId: number }) => {
  return { teamWhereInput: { id: id.id, members: { some: { userId } } } };
};
`;

/** A mutation whose body is `body`, with `templateId`, `teamId` and `id` taken from the input. */
const route = (body: string) => `import { authenticatedProcedure } from './trpc';
import { prisma } from './prisma';
import { TRPCError } from '@trpc/server';
import { getTeamById, buildTeamWhere } from './get-team';
export const deleteTeamGroupRoute = authenticatedProcedure.mutation(async ({ input, ctx }) => {
  const { templateId, teamId } = input;
${body}
});
`;

const membership = `  const team = await prisma.team.findFirst({
    where: { id: teamId, members: { some: { userId: ctx.user.id } } },
  });
  if (!team) {
    throw new TRPCError({ code: 'NOT_FOUND' });
  }`;

/** The child row is looked up by `key`, its team checked through a where-input helper, then the row `templateId` names is deleted. */
const childOfCheckedParent = (key: string, leavesOnMiss: boolean) => `  const attachment = await prisma.attachment.findFirst({ where: { id: ${key} } });
${leavesOnMiss ? "  if (!attachment) {\n    throw new TRPCError({ code: 'NOT_FOUND' });\n  }\n" : ''}  const { teamWhereInput } = await buildTeamWhere({
    id: { type: 'teamId', id: attachment.teamId },
    userId: ctx.user.id,
  });
  const parent = await prisma.team.findFirst({
    where: teamWhereInput,
  });
  if (!parent) {
    throw new TRPCError({ code: 'NOT_FOUND' });
  }
  await prisma.attachment.delete({ where: { id: templateId } });`;

async function labels(body: string): Promise<string[]> {
  const files = { 'src/trpc.ts': trpc, 'src/get-team.ts': helpers, 'src/delete-team-group.ts': route(body) };
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.operationsChecked).toBeGreaterThan(0);
  return result.findings.map((f) => f.label);
}

const TABLE: { name: string; body: string; labels: string[] }[] = [
  { name: 'a membership lookup of the team the deleted row is keyed by', body: `${membership}\n  await prisma.template.delete({ where: { id: templateId, teamId } });`, labels: [] },
  { name: "the deleted row keyed by the found team's id", body: `${membership}\n  await prisma.template.delete({ where: { id: templateId, teamId: team.id } });`, labels: [] },
  { name: 'a membership lookup of a team the deleted row is not keyed by', body: `${membership}\n  await prisma.template.delete({ where: { id: templateId } });`, labels: ['resource_unbound'] },
  { name: 'a thrower helper given the team the deleted row is keyed by', body: `  await getTeamById({ userId: ctx.user.id, teamId });\n  await prisma.template.delete({ where: { id: templateId, teamId } });`, labels: [] },
  { name: 'a thrower helper given a team the deleted row is not keyed by', body: `  await getTeamById({ userId: ctx.user.id, teamId });\n  await prisma.template.delete({ where: { id: templateId } });`, labels: ['resource_unbound'] },
  {
    name: "a lookup of the row itself scoped by the caller's membership",
    body: `  const group = await prisma.template.findFirst({
    where: { id: templateId, team: { members: { some: { userId: ctx.user.id } } } },
  });
  if (!group) {
    throw new TRPCError({ code: 'NOT_FOUND' });
  }
  await prisma.template.update({ where: { id: templateId }, data: { name: input.name } });`,
    labels: [],
  },
  { name: "a child looked up by the request's id, its parent checked through a where-input helper", body: childOfCheckedParent('templateId', true), labels: [] },
  { name: 'a child looked up by one id, a parent checked through a where-input helper for another', body: childOfCheckedParent('input.otherId', false), labels: ['resource_unbound'] },
  { name: 'a login only', body: `  await prisma.template.delete({ where: { id: templateId, teamId } });`, labels: ['authn_only'] },
  { name: "a write scoped by the caller's own id", body: `${membership}\n  await prisma.apiToken.delete({ where: { id: templateId, userId: ctx.user.id } });`, labels: [] },
];

describe('Prisma writes bound to the checked team', () => {
  for (const row of TABLE) {
    it(row.name, async () => {
      expect(await labels(row.body)).toEqual(row.labels);
    });
  }

  it('a resource_unbound finding names the where it acts on and the check on the other team', async () => {
    const files = { 'src/trpc.ts': trpc, 'src/get-team.ts': helpers, 'src/delete-team-group.ts': route(`${membership}\n  await prisma.template.delete({ where: { id: templateId } });`) };
    const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
    const [finding] = result.findings;
    expect(finding?.unboundResource?.variable).toBe('where { id: templateId }');
    expect(finding?.unboundResource?.sentence).toContain('binds another object');
    expect(finding?.cwe).toBe('CWE-639');
  });
});
