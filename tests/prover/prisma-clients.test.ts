/**
 * Prisma clients reached through the request context or a wrapper object (`ctx.prisma`, `ctx.db`,
 * `prisma.client`; src/prover/prisma-binding.ts `PRISMA_CLIENT`, the ts.orm rows): their writes are
 * operations like `prisma.x.delete`, and their lookups bind rows like a plain client's. Other members
 * of the context (`ctx.cache.delete`) stay no operation.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';
import { TRPC_AUTHENTICATED as trpc } from './ts-fixtures.js';

/** A tRPC mutation whose body is `body`, with `projectId` and `id` from the input. */
const procedure = (body: string) => `import { authenticatedProcedure } from './trpc';
import prisma from './prisma';
import { TRPCError } from '@trpc/server';
export const removeMemberRoute = authenticatedProcedure.mutation(async ({ input, ctx }) => {
  const { projectId, id } = input;
${body}
});
`;

const projectMembership = `  const project = await ctx.prisma.project.findFirst({
    where: { id: projectId, members: { some: { userId: ctx.user.id } } },
  });
  if (!project) {
    throw new TRPCError({ code: 'NOT_FOUND' });
  }`;

async function proved(body: string): Promise<{ checked: number; labels: string[] }> {
  const files = { 'src/trpc.ts': trpc, 'src/remove-member.ts': procedure(body) };
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  return { checked: result.coverage.operationsChecked, labels: result.findings.map((f) => f.label) };
}

const TABLE: { name: string; body: string; checked: boolean; labels: string[] }[] = [
  { name: 'ctx.prisma delete behind a login only', body: '  await ctx.prisma.membership.delete({ where: { id } });', checked: true, labels: ['authn_only'] },
  { name: 'ctx.db update behind a login only', body: "  await ctx.db.membership.update({ where: { id }, data: { role: 'ADMIN' } });", checked: true, labels: ['authn_only'] },
  { name: 'prisma.client delete behind a login only', body: '  await prisma.client.report.delete({ where: { id } });', checked: true, labels: ['authn_only'] },
  { name: 'a ctx.prisma membership lookup of the project the deleted row is keyed by', body: `${projectMembership}\n  await ctx.prisma.membership.delete({ where: { id, projectId } });`, checked: true, labels: [] },
  { name: 'a ctx.prisma membership lookup of a project the deleted row is not keyed by', body: `${projectMembership}\n  await ctx.prisma.membership.delete({ where: { id } });`, checked: true, labels: ['resource_unbound'] },
  { name: 'a cache entry deleted through the context', body: '  await ctx.cache.delete(id);', checked: false, labels: [] },
];

describe('Prisma clients through the context or a wrapper', () => {
  for (const row of TABLE) {
    it(row.name, async () => {
      const { checked, labels } = await proved(row.body);
      expect(checked > 0).toBe(row.checked);
      expect(labels).toEqual(row.labels);
    });
  }
});
