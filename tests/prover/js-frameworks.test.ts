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
${extra}    await prisma.project.delete({ where: { id: input.groupId } });
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

  it('a lookup scoped by the acting user that leaves on a miss discharges it, also under a comment that says "if"', async () => {
    const extra = "    // Check if the group exists and the user may manage it\n    const group = await prisma.project.findFirst({\n      where: { id: input.groupId, team: { members: { some: { userId: ctx.user.id } } } },\n    });\n    if (!group) {\n      throw new TRPCError({ code: 'NOT_FOUND' });\n    }\n";
    expect(await groupFindings('protectedProcedure', extra)).toEqual([]);
    // The same lookup whose result nobody tests proves nothing.
    const untested = extra.replace(/    if \(!group\) \{\n.*\n    \}\n/, '');
    expect((await groupFindings('protectedProcedure', untested)).map((f) => f.label)).toEqual(['authn_only']);
  });

  it('a public sign-in procedure writing the challenge of the account signing in is an authentication flow; another name is not', async () => {
    const route = (name: string) => `import { prisma } from '@acme/prisma';
import { publicProcedure } from '../trpc';
export const ${name} = publicProcedure.mutation(async ({ input }) => {
  await prisma.verificationChallenge.update({ where: { id: input.sessionId }, data: { value: input.challenge } });
});
`;
    const flow = await prove({ 'src/server/trpc.ts': trpcSetup, 'src/server/auth/sign-in.ts': route('createPasskeySigninOptionsRoute') });
    expect(flow.findings).toEqual([]);
    const other = await prove({ 'src/server/trpc.ts': trpcSetup, 'src/server/auth/sign-in.ts': route('updateChallengeRoute') });
    expect(other.findings.map((f) => f.label)).toEqual(['unguarded_path']);
  });

  // A session id computed from the token (`sessionId = hash(input.token)`) is not read as possession yet: the
  // variable's name proves nothing of where the value came from (a request's `sessionId` is no secret it holds).
  it('a session record looked up by the token the caller holds is the caller\'s own; one looked up by a request id is not', async () => {
    const store = (key: string) => `import { prisma } from '@acme/prisma';
import { publicProcedure } from '../trpc';
export const refreshSessionRoute = publicProcedure.mutation(async ({ input }) => {
  const sessionId = hash(input.token);
  const session = await prisma.session.findUnique({
    where: { id: ${key} },
  });
  if (!session) {
    return null;
  }
  await prisma.session.delete({ where: { id: session.id } });
});
`;
    expect((await prove({ 'src/server/trpc.ts': trpcSetup, 'src/server/auth/session.ts': store('sessionId').replace('where: { id: sessionId }', 'where: { token: input.token }') })).findings).toEqual([]);
    expect((await prove({ 'src/server/trpc.ts': trpcSetup, 'src/server/auth/session.ts': store('input.id') })).findings.map((f) => f.label)).toEqual(['unguarded_path']);
  });

  it('a builder from a package is read by its name only', async () => {
    const result = await prove({ 'src/server/team/delete-group.ts': groupRoute('protectedProcedure').replace("from '../trpc'", "from '@acme/api'") });
    expect(result.findings.map((f) => f.label)).toEqual(['authn_only']);
  });
});

describe('Next.js server actions and route handlers', () => {
  const actions = (check: string) => `'use server';
import { auth } from '@/auth';
import { db } from '@/lib/db';
import { forbidden, unauthorized } from 'next/navigation';
export async function deleteProject(projectId: string) {
  const session = await auth();
${check}  await db.project.delete({ where: { id: projectId } });
}
`;

  it('reports an action with no check, and one behind a login check only as authn_only', async () => {
    const open = await prove({ 'app/projects/actions.ts': actions('') });
    expect(open.findings.map((f) => [f.label, f.entry.framework, f.line])).toEqual([['unguarded_path', 'nextjs', 7]]);
    const login = await prove({ 'app/projects/actions.ts': actions('  if (!session) unauthorized();\n') });
    expect(login.findings.map((f) => f.label)).toEqual(['authn_only']);
  });

  it('a role test that refuses discharges the action', async () => {
    const result = await prove({ 'app/projects/actions.ts': actions("  if (!session) unauthorized();\n  if (session.user.role !== 'admin') forbidden();\n") });
    expect(result.findings).toEqual([]);
  });

  it('a route handler that refuses non-admins with a 403 response is discharged; one without is not', async () => {
    const route = (check: string) => `import { db } from '@/lib/db';
export async function DELETE(request: Request, { params }: { params: { id: string } }) {
  const session = await getSession();
${check}  await db.export.delete({ where: { id: params.id } });
  return new Response(null, { status: 204 });
}
`;
    expect((await prove({ 'app/api/exports/[id]/route.ts': route('') })).findings.map((f) => f.entry.function)).toEqual(['DELETE']);
    const checked = await prove({ 'app/api/exports/[id]/route.ts': route("  if (!session?.user.isAdmin) return new Response(null, { status: 403 });\n") });
    expect(checked.findings).toEqual([]);
  });
});

describe('Express routes and middleware', () => {
  const auth = `export function ensureLoggedIn(req, res, next) {
  if (req.isAuthenticated()) return next();
  res.redirect('/login');
}
export function requireRole(role) {
  return (req, res, next) => {
    if (!req.user || !req.user.roles.includes(role)) {
      return res.status(403).send('forbidden');
    }
    next();
  };
}
// Its name promises a check; its body lets everyone through.
export function ensureAdmin(req, res, next) {
  next();
}
`;
  const routes = (middleware: string, use = '') => `import express from 'express';
import { ensureLoggedIn, requireRole, ensureAdmin } from './auth';
import { db } from './db';
const router = express.Router();
${use}router.delete('/users/:id', ${middleware}async (req, res) => {
  await db.user.delete({ where: { id: req.params.id } });
  res.sendStatus(204);
});
export default router;
`;
  const findings = async (middleware: string, use = '') => (await prove({ 'src/auth.ts': auth, 'src/users.ts': routes(middleware, use) })).findings.map((f) => f.label);

  it('reports a route with no middleware', async () => {
    expect(await findings('')).toEqual(['unguarded_path']);
  });

  it('login middleware only (judged by its gated next()) leaves the deletion authn_only', async () => {
    expect(await findings('ensureLoggedIn, ')).toEqual(['authn_only']);
  });

  it('a role middleware factory discharges it, in the route or through router.use above it', async () => {
    expect(await findings("ensureLoggedIn, requireRole('admin'), ")).toEqual([]);
    expect(await findings('', "router.use(requireRole('admin'));\n")).toEqual([]);
  });

  it('router.use below the route, under another path, or a middleware that checks nothing does not', async () => {
    const below = (await prove({ 'src/auth.ts': auth, 'src/users.ts': routes('').replace('export default router;', "router.use(requireRole('admin'));\nexport default router;") })).findings;
    expect(below.map((f) => f.label)).toEqual(['unguarded_path']);
    expect(await findings('', "router.use('/admin', requireRole('admin'));\n")).toEqual(['unguarded_path']);
    expect(await findings('ensureAdmin, ')).toEqual(['unguarded_path']);
  });
});

describe('React Router route-config modules', () => {
  const config = 'import { route } from "@react-router/dev/routes";\nexport default [route("runs/:runId", "modules/runs/run.route.tsx")];\n';
  const action = (check: string) => `import { redirect } from "react-router";
export async function action({ request, params }: Route.ActionArgs) {
${check}  await RunService.deleteById(params.runId);
  return {};
}
`;
  const labels = async (check: string) => (await prove({ 'app/routes.ts': config, 'app/modules/runs/run.route.tsx': action(check) })).findings.map((f) => f.label);

  it('reports an action deleting through a service with no check; a returned redirect on a failed login leaves it authn_only', async () => {
    expect(await labels('')).toEqual(['unguarded_path']);
    expect(await labels('  const user = await getSessionUser({ request });\n  if (!user) return redirect("/");\n')).toEqual(['authn_only']);
  });

  it('a returned redirect when a permission predicate fails discharges it', async () => {
    const check = '  const user = await getSessionUser({ request });\n  if (!user) return redirect("/");\n  const project = await ProjectService.findById(params.projectId);\n  if (!project || !ProjectAuthorization.canManage(user, project)) {\n    return redirect("/");\n  }\n';
    expect(await labels(check)).toEqual([]);
  });
});
