/**
 * JS/TS held-out heads (part JSHO): checks the prover did not read, each written the way a framework's
 * projects write it, with the case that must stay a finding next to it.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

async function prove(files: Record<string, string>): Promise<{ labels: string[]; entries: number; functions: string[] }> {
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 4, fanOut: 25 });
  return { labels: result.findings.map((f) => f.label), entries: result.coverage.entryPoints, functions: result.findings.map((f) => f.function) };
}

// hoppscotch's shape: guards refusing through a project helper that always throws, imported from the package root.
const utils = `export function throwErr(message: string): never {
  throw new Error(message);
}
`;
const guard = (test: string) => `import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import { throwErr } from 'src/utils';
import { TeamService } from 'src/team/team.service';
@Injectable()
export class TeamOwnerGuard implements CanActivate {
  constructor(private readonly teamService: TeamService) {}
  async canActivate(context: ExecutionContext): Promise<boolean> {
    const gqlExecCtx = GqlExecutionContext.create(context);
    const { user } = gqlExecCtx.getContext().req;
    if (!user) throwErr('no user');
    const { inviteID } = gqlExecCtx.getArgs();
    const invitation = await this.teamService.getInvitation(inviteID);
    const teamMember = await this.teamService.getTeamMember(invitation.teamID, user.uid);
    if (!teamMember) throwErr('not a member');
    if (${test})
      throwErr('not the owner');
    return true;
  }
}
`;
const teamService = `import { Injectable } from '@nestjs/common';
@Injectable()
export class TeamService {
  constructor(private readonly prisma: PrismaService) {}
  async getInvitation(id: string) {
    return this.prisma.teamInvitation.findUnique({ where: { id } });
  }
  async getTeamMember(teamID: string, userUid: string) {
    return this.prisma.teamMember.findUnique({ where: { teamID_userUid: { teamID, userUid } } });
  }
  async revokeInvitation(inviteID: string) {
    await this.prisma.teamInvitation.delete({ where: { id: inviteID } });
    console.error('revoked');
    return true;
  }
}
`;
const resolver = `import { Args, Mutation, Resolver } from '@nestjs/graphql';
import { UseGuards } from '@nestjs/common';
import { TeamOwnerGuard } from 'src/team/team-owner.guard';
import { TeamService } from 'src/team/team.service';
@Resolver(() => TeamInvitation)
export class TeamInvitationResolver {
  constructor(private readonly teamService: TeamService) {}
  @Mutation(() => Boolean)
  @UseGuards(TeamOwnerGuard)
  async revokeTeamInvitation(@Args('inviteID') inviteID: string) {
    return this.teamService.revokeInvitation(inviteID);
  }
}
`;

describe('NestJS guards refusing through a helper that always throws', () => {
  const files = (test: string) => ({ 'packages/backend/src/utils.ts': utils, 'packages/backend/src/team/team-owner.guard.ts': guard(test), 'packages/backend/src/team/team.service.ts': teamService, 'packages/backend/src/team/team.resolver.ts': resolver });

  it('a role test before throwErr(...) is a permission: the guarded revoke is no finding', async () => {
    const out = await prove(files('teamMember.role !== TeamAccessRole.OWNER'));
    expect(out.entries).toBe(1);
    expect(out.labels).toEqual([]);
  });

  it('a guard whose throwErr tests no role (only that someone is logged in) leaves the revoke a finding', async () => {
    const out = await prove(files('!user.uid'));
    expect(out.labels).toHaveLength(1);
  });
});

// tRPC (OpenPanel's shape): a login builder, then a check in the procedure that throws a refusal error.
const trpc = `import { initTRPC, TRPCError } from '@trpc/server';
const t = initTRPC.context<Context>().create();
export const protectedProcedure = t.procedure.use(async ({ ctx, next }) => {
  if (!ctx.session) {
    throw new TRPCError({ code: 'UNAUTHORIZED' });
  }
  return next();
});
export class TRPCForbiddenError extends TRPCError {}
export class ValidationError extends Error {}
`;
const dashboard = (refusal: string) => `import { z } from 'zod';
import { db } from '@acme/db';
import { protectedProcedure, TRPCForbiddenError, ValidationError } from '../trpc';
export const updateDashboard = protectedProcedure
  .input(z.object({ id: z.string(), name: z.string() }))
  .mutation(async ({ input, ctx }) => {
    const dashboard = await db.dashboard.findUniqueOrThrow({ where: { id: input.id } });
    const access = await getProjectAccess({ projectId: dashboard.projectId, userId: ctx.session.userId });
    if (!access) {
      ${refusal}
    }
    return db.dashboard.update({ where: { id: input.id }, data: { name: input.name } });
  });
`;

describe('an error whose class names the refusal', () => {
  const run = (refusal: string) => prove({ 'src/server/trpc.ts': trpc, 'src/server/routers/dashboard.ts': dashboard(refusal) });

  it('throw new TRPCForbiddenError(...) under any test is a permission check', async () => {
    expect((await run("throw new TRPCForbiddenError('no access');")).labels).toEqual([]);
  });

  it('a factory without new (throw AuthorizationError(...)) is one too', async () => {
    expect((await run("throw AuthorizationError('no access');")).labels).toEqual([]);
  });

  it('an error naming no refusal (a validation error) under the same test is no permission check', async () => {
    expect((await run("throw new ValidationError('bad input');")).labels).toEqual(['authn_only']);
  });
});

// Formbricks' shape: a helper that returns only from inside its tests and refuses at its end.
const authorization = (early: string) => `export const checkAuthorization = async ({ userId, organizationId, access }: Input) => {
  const role = await getMembershipRole(userId, organizationId);
${early}  for (const item of access) {
    if (item.type === 'organization' && item.roles.includes(role)) return true;
    if (item.type === 'team' && (await checkTeamAccess(item, userId))) {
      return true;
    }
  }
  throw new AuthorizationError('Not authorized');
};
`;
const action = `'use server';
import { prisma } from '@acme/database';
import { checkAuthorization } from '@/lib/authorization';
export const deleteTagAction = authenticatedActionClient.action(async ({ ctx, parsedInput }) => {
  await checkAuthorization({ userId: ctx.user.id, organizationId: parsedInput.organizationId, access: [{ type: 'organization', roles: ['owner'] }] });
  await prisma.tag.delete({ where: { id: parsedInput.organizationId } });
});
`;

describe('a helper that refuses unless one of its tests lets the caller through', () => {
  const run = (early: string) => prove({ 'lib/authorization.ts': authorization(early), 'app/tags/actions.ts': action });

  it('a call to it is a permission check', async () => {
    const out = await run('');
    expect(out.entries).toBe(1);
    expect(out.labels).toEqual([]);
  });

  it('a return at its outermost level before the refusal lets everyone through: no check', async () => {
    expect((await run('  if (role) return true;\n  return false;\n')).labels).toHaveLength(1);
  });
});

// Langfuse's and Formbricks' shape: authenticating an API key updates the key it verified.
const apiAuth = (name: string) => `import { prisma } from '@acme/db';
export async function ${name}(authHeader: string) {
  const [publicKey, secretKey] = parse(authHeader);
  const key = await prisma.apiKey.findUnique({ where: { publicKey } });
  if (!key || key.secret !== hash(secretKey)) {
    return { ok: false };
  }
  await prisma.apiKey.update({ where: { publicKey }, data: { lastUsedAt: new Date() } });
  return { ok: true, projectId: key.projectId };
}
`;
const publicRoute = (name: string) => `import { ${name} } from '../../../lib/api-auth';
export async function GET(request: Request) {
  const auth = await ${name}(request.headers.get('authorization') ?? '');
  if (!auth.ok) return Response.json({ error: 'unauthorized' }, { status: 401 });
  return Response.json({ projectId: auth.projectId });
}
`;

describe('the credential an authentication verifies', () => {
  const run = (name: string) => prove({ 'lib/api-auth.ts': apiAuth(name), 'app/api/projects/route.ts': publicRoute(name) });

  it('updated by a function that authenticates the request is its bookkeeping', async () => {
    const out = await run('verifyAuthHeaderAndReturnScope');
    expect(out.entries).toBe(1);
    expect(out.labels).toEqual([]);
  });

  it('updated by a function named for anything else stays a finding', async () => {
    expect((await run('touchProjectKey')).labels).toHaveLength(1);
  });
});

// Koa (Outline's shape): the router's user in ctx.state, a cancan-style authorize(...) and a runtime global.
const koaAuth = `export default function auth() {
  return async function authMiddleware(ctx: AppContext, next: Next) {
    const token = ctx.cookies.get('accessToken');
    if (!token) {
      throw AuthenticationError('Authentication required');
    }
    ctx.state.auth = { user: await userForToken(token) };
    return next();
  };
}
`;
const koaRoute = (body: string) => `import Router from 'koa-router';
import { authorize } from '@server/policies';
import auth from '../middlewares/authentication';
const router = new Router();
router.post('searches.delete', auth(), async (ctx) => {
  const { id } = ctx.request.body;
  const { user } = ctx.state.auth;
${body}
  ctx.body = { success: true };
});
export default router;
`;

describe('Koa handlers', () => {
  const run = (body: string) => prove({ 'server/middlewares/authentication.ts': koaAuth, 'server/routes/searches.ts': koaRoute(body) });

  it('a deletion keyed by the user of ctx.state.auth as well is the caller\'s own', async () => {
    const out = await run('  await SearchQuery.destroy({ where: { id, userId: user.id } });');
    expect(out.entries).toBe(1);
    expect(out.labels).toEqual([]);
  });

  it('keyed by the request id alone it is a finding', async () => {
    expect((await run('  await SearchQuery.destroy({ where: { id } });')).labels).toHaveLength(1);
  });

  it("authorize(user, 'delete', search) before it is a permission check", async () => {
    expect((await run("  const search = await SearchQuery.findByPk(id);\n  authorize(user, 'delete', search);\n  await SearchQuery.destroy({ where: { id } });")).labels).toEqual([]);
  });

  it('an authorize call of another shape (an OAuth handshake) is no check', async () => {
    expect((await run('  await oauth.authorize(ctx.request, ctx.response);\n  await SearchQuery.destroy({ where: { id } });')).labels).toHaveLength(1);
  });
});

describe('calls on runtime globals', () => {
  const service = `export class Interceptor {
  intercept() {
    return { error: (err: Error) => this.store.bump(err) };
  }
}
export class Store {
  bump(err: Error) {
    return prisma.counter.update({ where: { id: err.message }, data: { hits: 1 } });
  }
}
`;
  const route = (call: string) => `import { Store } from './store';
export async function POST(request: Request) {
  ${call}
  return Response.json({});
}
`;

  it('console.error(...) reaches no project method named error', async () => {
    expect((await prove({ 'lib/store.ts': service, 'app/api/x/route.ts': route("console.error('failed');") })).labels).toEqual([]);
  });

  it('a project object with the same method name is still followed', async () => {
    const own = route("const store = new Store();\n  await store.bump(new Error('x'));").replace("import { Store } from './store';", "import { Store } from '../../../lib/store';");
    expect((await prove({ 'lib/store.ts': service, 'app/api/x/route.ts': own })).labels).toHaveLength(1);
  });
});

describe('Express routes registered for several paths at once', () => {
  const routes = (paths: string) => `import express from 'express';
import { prisma } from '../db';
const router = express.Router();
router.put(${paths}, async (req, res) => {
  await prisma.chatflow.update({ where: { id: req.params.id }, data: req.body });
  res.json({});
});
export default router;
`;

  it("router.put(['/', '/:id'], handler) is an entry like router.put('/:id', handler)", async () => {
    const array = await prove({ 'src/routes/chatflows.ts': routes("['/', '/:id']") });
    const single = await prove({ 'src/routes/chatflows.ts': routes("'/:id'") });
    expect(array.entries).toBe(1);
    expect(array.labels).toEqual(single.labels);
    expect(array.labels).toHaveLength(1);
  });
});

describe('a change to an Express route registration alone', () => {
  const routes = `import express from 'express';
import controller from '../controllers/stores';
const router = express.Router();
// READ
router.get('/', controller.list);
// DELETE
router.delete(['/', '/:id'], controller.remove);
export default router;
`;
  const controller = `import { prisma } from '../db';
const remove = async (req, res) => {
  await prisma.store.delete({ where: { id: req.params.id } });
  res.json({});
};
const list = async (req, res) => res.json(await prisma.store.findMany());
export default { remove, list };
`;
  const run = (line: number) => proveChange({ root: '/repo', files: [{ path: 'src/routes/stores.ts', text: routes }, { path: 'src/controllers/stores.ts', text: controller }], touched: [{ path: 'src/routes/stores.ts', lines: new Set([line]) }], maxDepth: 4, fanOut: 25 });

  it('touches the handler it registers: its unguarded deletion is reported', async () => {
    expect((await run(7)).findings.map((f) => f.function)).toEqual(['remove']);
  });

  it('a touched line elsewhere in the route file touches no handler', async () => {
    expect((await run(6)).findings).toEqual([]);
  });
});

// OpenPanel's shape before its fix: the protected builder checks the project only when the input names one,
// and refuses mutations in a demo installation; a procedure updating a rule by its id is left unchecked.
describe('a tRPC middleware whose refusals test the input shape or the deployment', () => {
  const setup = `import { initTRPC, TRPCError } from '@trpc/server';
const t = initTRPC.context<Context>().create();
export class TRPCForbiddenError extends TRPCError {}
const enforceUserIsAuthed = t.middleware(async ({ ctx, next }) => {
  if (!ctx.session.userId) {
    throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Not authenticated' });
  }
  return next();
});
const enforceAccess = t.middleware(async ({ ctx, next, type, getRawInput }) => {
  const rawInput = await getRawInput();
  if (type === 'mutation' && process.env.DEMO_USER_ID) {
    throw new TRPCForbiddenError('You are not allowed to do this in demo mode');
  }
  if (has('projectId', rawInput)) {
    const access = await getProjectAccess({ userId: ctx.session.userId, projectId: rawInput.projectId });
    if (!access) {
      throw new TRPCForbiddenError('You do not have access to this project');
    }
  }
  return next();
});
export const protectedProcedure = t.procedure.use(enforceUserIsAuthed).use(enforceAccess);
`;
  const rules = `import { db } from '@acme/db';
import { protectedProcedure } from '../trpc';
export const updateRule = protectedProcedure
  .input(zRule)
  .mutation(async ({ input }) => {
    return db.notificationRule.update({ where: { id: input.id }, data: { name: input.name } });
  });
`;

  it('checks neither the rule nor its project: the update stays authn_only', async () => {
    const out = await prove({ 'src/trpc.ts': setup, 'src/routers/notification.ts': rules });
    expect(out.entries).toBe(1);
    expect(out.labels).toEqual(['authn_only']);
  });
});

describe('a tRPC middleware with two ways in, each checked', () => {
  const setup = `import { initTRPC, TRPCError } from '@trpc/server';
const t = initTRPC.context<Context>().create();
export const authenticatedMiddleware = t.middleware(async ({ ctx, next }) => {
  const header = ctx.req.headers.get('authorization');
  if (header) {
    const apiToken = await getApiToken(header);
    if (!apiToken.user.isAdmin) {
      throw new TRPCError({ code: 'FORBIDDEN' });
    }
    return await next({ ctx: { ...ctx, user: apiToken.user } });
  }
  if (!ctx.session) {
    throw new TRPCError({ code: 'UNAUTHORIZED' });
  }
  if (!ctx.user.isAdmin) {
    throw new TRPCError({ code: 'FORBIDDEN' });
  }
  return next();
});
export const adminProcedure = t.procedure.use(authenticatedMiddleware);
`;
  const route = `import { db } from '@acme/db';
import { adminProcedure } from '../trpc';
export const removeRule = adminProcedure.input(zRule).mutation(async ({ input }) => db.rule.delete({ where: { id: input.id } }));
`;

  it('the check in the arm that hands the request on counts with the one after it', async () => {
    const out = await prove({ 'src/trpc.ts': setup, 'src/routers/rule.ts': route });
    expect(out.entries).toBe(1);
    expect(out.labels).toEqual([]);
  });
});
