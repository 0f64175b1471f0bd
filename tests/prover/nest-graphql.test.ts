/**
 * NestJS GraphQL resolvers proved end to end (recognisers/nestjs.ts): a `@Mutation` that updates a row
 * by a client-given id behind a login guard alone is reported `authn_only`, like a REST handler; a guard
 * on the resolver method is judged by its `canActivate` (nest-guards.ts), and a guard answering with
 * the user's admin flag (`return user.isAdmin`) is a permission. The user a NestJS param decorator hands
 * over (`@GqlUser()`, `@CurrentUser()`) is the logged-in user: a write keyed by it is the caller's own.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

const guards = `import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
@Injectable()
export class GqlAuthGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const user = context.getArgByIndex(2).req.user;
    if (!user) throw new UnauthorizedException();
    return true;
  }
}
@Injectable()
export class GqlAdminGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const user = context.getArgByIndex(2).req.user;
    return user.isAdmin;
  }
}
`;

const resolver = (guard: string) => `import { Args, Mutation, Resolver } from '@nestjs/graphql';
import { UseGuards } from '@nestjs/common';
import { GqlAuthGuard, GqlAdminGuard } from './guards';
@Resolver(() => Environment)
export class EnvironmentResolver {
  constructor(private readonly environments: EnvironmentService) {}
  @Mutation(() => Environment)
  @UseGuards(${guard})
  async renameEnvironment(@GqlUser() user: User, @Args('id') id: string, @Args('name') name: string) {
    return this.environments.rename(id, name, user.uid);
  }
}
`;

const service = (where: string) => `import { Injectable } from '@nestjs/common';
@Injectable()
export class EnvironmentService {
  constructor(private readonly prisma: PrismaService) {}
  async rename(id: string, name: string, uid: string) {
    return this.prisma.environment.update({ where: ${where}, data: { name } });
  }
}
`;

async function labels(guard: string, where = '{ id }'): Promise<string[]> {
  const files = { 'src/guards.ts': guards, 'src/environment.resolver.ts': resolver(guard).replace("from './guards';", "from './guards';\nimport { EnvironmentService } from './environment.service';"), 'src/environment.service.ts': service(where) };
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.entryPoints).toBe(1);
  return result.findings.map((f) => f.label);
}

describe('NestJS GraphQL resolvers', () => {
  it('a mutation updating a row by the id the client sends, behind a login guard only', async () => {
    expect(await labels('GqlAuthGuard')).toEqual(['authn_only']);
  });

  it('the row keyed by the logged-in user (the @GqlUser() parameter) as well is the caller\'s own', async () => {
    expect(await labels('GqlAuthGuard', '{ id, userUid: uid }')).toEqual([]);
  });

  it('the same mutation behind a guard answering with the admin flag', async () => {
    expect(await labels('GqlAuthGuard, GqlAdminGuard')).toEqual([]);
  });
});
