/**
 * tRPC, Next.js and Express entries proved end to end: a handler with no check that reaches a protected
 * operation is reported; behind login middleware only, an operation that needs a permission is still
 * unchecked (authn_only); a middleware or check that tests a role discharges it. Middleware counts by
 * what its code does, not by its name.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

function prove(files: Record<string, string>) {
  return proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
}

const trpcSetup = `import { initTRPC, TRPCError } from '@trpc/server';
const t = initTRPC.context<Context>().create();
export const router = t.router;
export const publicProcedure = t.procedure;
export const isAuthed = t.middleware(async ({ ctx, next }) => {
  if (!ctx.session) {
    throw new TRPCError({
      code: 'UNAUTHORIZED',
      message: 'Sign in first',
    });
  }
  return next({ ctx: { user: ctx.session.user } });
});
const isAdmin = t.middleware(async ({ ctx, next }) => {
  const admin = ctx.user.role === 'ADMIN';
  if (!admin) {
    throw new TRPCError({ code: 'UNAUTHORIZED' });
  }
  return next();
});
export const protectedProcedure = t.procedure.use(isAuthed);
export const adminProcedure = protectedProcedure.use(isAdmin);
// Named like a check, but it only logs.
export const loggedProcedure = t.procedure.use(async ({ path, next }) => {
  console.log(path);
  return next();
});
`;

const groupRoute = (builder: string, extra = '') => `import { z } from 'zod';
import { prisma } from '@acme/prisma';
import { ${builder} } from '../trpc';
export const deleteGroupRoute = ${builder}
  .input(z.object({ groupId: z.string() }))
  .mutation(async ({ input, ctx }) => {
${extra}    await prisma.teamGroup.delete({ where: { id: input.groupId } });
  });
`;

async function groupFindings(builder: string, extra = '') {
  const result = await prove({ 'src/server/trpc.ts': trpcSetup, 'src/server/team/delete-group.ts': groupRoute(builder, extra) });
  return result.findings.filter((f) => f.path === 'src/server/team/delete-group.ts');
}

describe('tRPC procedures', () => {
  it('reports a mutation on a public procedure that deletes a record by the client input', async () => {
    const findings = await groupFindings('publicProcedure');
    expect(findings).toHaveLength(1);
    expect(findings[0]?.label).toBe('unguarded_path');
    expect(findings[0]?.entry.framework).toBe('trpc');
    expect(findings[0]?.line).toBe(7);
  });

  it('behind the login middleware only, the deletion is still unchecked: authn_only', async () => {
    const findings = await groupFindings('protectedProcedure');
    expect(findings.map((f) => f.label)).toEqual(['authn_only']);
  });

  it('a builder chaining a middleware that tests a role discharges it, through two builder definitions', async () => {
    expect(await groupFindings('adminProcedure')).toEqual([]);
  });

  it('a middleware that only logs is no check, whatever the builder is called', async () => {
    expect((await groupFindings('loggedProcedure')).map((f) => f.label)).toEqual(['unguarded_path']);
  });

  it('a role test in the handler itself discharges it', async () => {
    const extra = "    if (ctx.user.role !== 'OWNER') {\n      throw new TRPCError({ code: 'FORBIDDEN' });\n    }\n";
    expect(await groupFindings('protectedProcedure', extra)).toEqual([]);
  });

  it('a builder from a package is read by its name only', async () => {
    const result = await prove({ 'src/server/team/delete-group.ts': groupRoute('protectedProcedure').replace("from '../trpc'", "from '@acme/api'") });
    expect(result.findings.map((f) => f.label)).toEqual(['authn_only']);
  });
});
