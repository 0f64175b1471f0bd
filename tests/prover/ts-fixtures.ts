/** TypeScript fixtures shared by the prover tests. NestJS guards: a RolesGuard reading `@Roles`, a guard that allows everything, a JWT guard skipping `@Public()`. */
export const NEST_AUTH = `import { CanActivate, ExecutionContext, Injectable, SetMetadata, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
export const ROLES_KEY = 'roles';
export const Roles = (...roles: string[]) => SetMetadata(ROLES_KEY, roles);
export const IS_PUBLIC_KEY = 'isPublic';
export function Public() {
  return SetMetadata(IS_PUBLIC_KEY, true);
}

@Injectable()
export class RolesGuard implements CanActivate {
  constructor(private reflector: Reflector) {}
  canActivate(context: ExecutionContext): boolean {
    const roles = this.reflector.getAllAndOverride<string[]>(ROLES_KEY, [context.getHandler(), context.getClass()]);
    if (!roles) {
      // No specific roles required
      return true;
    }
    const { user } = context.switchToHttp().getRequest();
    return roles.some((role) => user.roles?.includes(role));
  }
}

@Injectable()
export class AllowAllGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    return true;
  }
}

@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {
  constructor(private reflector: Reflector) {
    super();
  }
  canActivate(context: ExecutionContext) {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_KEY, [context.getHandler(), context.getClass()]);
    if (isPublic) {
      return true;
    }
    return super.canActivate(context);
  }
}
`;

/** A tRPC `authenticatedProcedure` whose middleware refuses a request without a user (a login). */
export const TRPC_AUTHENTICATED = `import { initTRPC, TRPCError } from '@trpc/server';
const t = initTRPC.create();
export const authenticatedProcedure = t.procedure.use(({ ctx, next }) => {
  if (!ctx.user) {
    throw new TRPCError({ code: 'UNAUTHORIZED' });
  }
  return next();
});
`;

/** A Prisma helper module that opens with `getTeamById`, which throws unless the caller is a member of the team. */
export const PRISMA_TEAM_MEMBERSHIP = `import { prisma } from './prisma';
import { TRPCError } from '@trpc/server';
export const getTeamById = async ({ userId, teamId }: { userId: number; teamId: number }) => {
  const team = await prisma.team.findFirst({
    where: { id: teamId, members: { some: { userId } } },
  });
  if (!team) {
    throw new TRPCError({ code: 'NOT_FOUND' });
  }
  return team;
};
`;
