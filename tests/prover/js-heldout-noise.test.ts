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
