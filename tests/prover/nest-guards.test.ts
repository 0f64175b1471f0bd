/**
 * NestJS controllers proved end to end: a handler reaching a repository write with no guard is reported;
 * `@UseGuards` at class or handler level and global guards count by what the guard's `canActivate` does
 * (a guard that always returns true is no check); a `RolesGuard` checks only handlers carrying `@Roles`,
 * and a global login guard skips handlers marked `@Public()` when its reflector check says so.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';
import { NEST_AUTH as auth } from './ts-fixtures.js';

function prove(files: Record<string, string>) {
  return proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
}

const controller = (classDecorators: string, methodDecorators: string) => `import { Controller, Delete, Param, UseGuards } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { RolesGuard, AllowAllGuard, Roles, Public } from './auth';
@Controller('users')
${classDecorators}
export class UsersController {
  constructor(private readonly usersRepository: Repository<User>) {}
${methodDecorators}
  @Delete(':id')
  async remove(@Param('id') id: string) {
    await this.usersRepository.delete(id);
  }
}
`;


const appModule = `import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtAuthGuard } from './auth';
@Module({
  providers: [{ provide: APP_GUARD, useClass: JwtAuthGuard }],
})
export class AppModule {}
`;

async function labels(files: Record<string, string>): Promise<string[]> {
  const result = await prove({ 'src/auth.ts': auth, ...files });
  return result.findings.filter((f) => f.path === 'src/users.controller.ts').map((f) => f.label);
}

describe('NestJS guards', () => {
  it('reports a handler with no guard that deletes by a route parameter', async () => {
    const result = await prove({ 'src/auth.ts': auth, 'src/users.controller.ts': controller('', '') });
    const findings = result.findings.filter((f) => f.path === 'src/users.controller.ts');
    expect(findings.map((f) => [f.label, f.entry.framework, f.line])).toEqual([['unguarded_path', 'nestjs', 11]]);
  });

  it("AuthGuard('jwt') on the controller is a login only", async () => {
    expect(await labels({ 'src/users.controller.ts': controller("@UseGuards(AuthGuard('jwt'))", '') })).toEqual(['authn_only']);
  });

  it('RolesGuard checks a handler carrying @Roles, and nothing on one without', async () => {
    expect(await labels({ 'src/users.controller.ts': controller("@UseGuards(AuthGuard('jwt'), RolesGuard)", "  @Roles('admin')") })).toEqual([]);
    expect(await labels({ 'src/users.controller.ts': controller("@UseGuards(AuthGuard('jwt'), RolesGuard)", '') })).toEqual(['authn_only']);
  });

  it('a guard whose canActivate always returns true is no check', async () => {
    expect(await labels({ 'src/users.controller.ts': controller('', '  @UseGuards(AllowAllGuard)') })).toEqual(['unguarded_path']);
  });

  it('a global APP_GUARD login guard covers every handler except those marked @Public()', async () => {
    expect(await labels({ 'src/app.module.ts': appModule, 'src/users.controller.ts': controller('', '') })).toEqual(['authn_only']);
    expect(await labels({ 'src/app.module.ts': appModule, 'src/users.controller.ts': controller('', '  @Public()') })).toEqual(['unguarded_path']);
  });

  it('a guard of the repository that throws ForbiddenException on a failed test is a permission', async () => {
    const adminGuard = `import { CanActivate, ExecutionContext, ForbiddenException, Injectable } from '@nestjs/common';
@Injectable()
export class AdminGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest();
    if (!request.user?.isAdmin) {
      throw new ForbiddenException();
    }
    return true;
  }
}
`;
    const files = { 'src/admin.guard.ts': adminGuard, 'src/users.controller.ts': controller('', '  @UseGuards(AdminGuard)').replace("import { RolesGuard", "import { AdminGuard } from './admin.guard';\nimport { RolesGuard") };
    expect(await labels(files)).toEqual([]);
  });

  it('a global rate-limit guard is no check, though it throws under a test of what is allowed', async () => {
    const quota = `import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
@Injectable()
export class QuotaGuard implements CanActivate {
  async canActivate(context: ExecutionContext): Promise<boolean> {
    const result = await this.tracking.checkAndIncrement(context.switchToHttp().getRequest().ip);
    if (!result.allowed) {
      throw new RateLimitExceededException(result.retryAfter);
    }
    return true;
  }
}
`;
    const module = appModule.replaceAll('JwtAuthGuard', 'QuotaGuard').replace("from './auth'", "from './quota.guard'");
    expect(await labels({ 'src/quota.guard.ts': quota, 'src/app.module.ts': module, 'src/users.controller.ts': controller('', '') })).toEqual(['unguarded_path']);
  });

  it('a service that throws when the role it looked up is missing checks no role', async () => {
    const service = `import { Injectable, NotFoundException } from '@nestjs/common';
@Injectable()
export class RolesService {
  constructor(private readonly roleRepository: Repository<Role>) {}
  async deleteRole(id: string) {
    const role = await this.roleRepository.findOne({ where: { id } });
    if (!role) {
      throw new NotFoundException('no such role');
    }
    await this.roleRepository.delete(id);
  }
}
`;
    const rolesController = `import { Controller, Delete, Param } from '@nestjs/common';
import { RolesService } from './roles.service';
@Controller('roles')
export class RolesController {
  constructor(private readonly rolesService: RolesService) {}
  @Delete(':id')
  remove(@Param('id') id: string) {
    return this.rolesService.deleteRole(id);
  }
}
`;
    const result = await prove({ 'src/roles.service.ts': service, 'src/roles.controller.ts': rolesController });
    expect(result.findings.map((f) => [f.label, f.entry.function])).toEqual([['unguarded_path', 'RolesController.remove']]);
  });

  it('a handler throwing HttpException(FORBIDDEN) on a failed permission test checks; a user it just created is its own', async () => {
    const handler = `import { Controller, HttpException, Post, Put, UseGuards } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
@Controller('user')
export class UserController {
  constructor(private readonly prismaService: PrismaService) {}
  @Put('setting')
  @UseGuards(AuthGuard('jwt'))
  async updateSetting(@Body() data: SettingsDto) {
    if (!hasPermission(this.request.user.permissions, 'updateSettings')) {
      throw new HttpException(
        getReasonPhrase(StatusCodes.FORBIDDEN),
        StatusCodes.FORBIDDEN
      );
    }
    await this.prismaService.settings.update({ where: { id: data.id }, data });
  }
  @Post()
  async signup() {
    const user = await this.prismaService.user.create({ data: {} });
    await this.prismaService.user.update({ where: { id: user.id }, data: { token: 'x' } });
  }
}
`;
    expect((await prove({ 'src/user.controller.ts': handler })).findings).toEqual([]);
    const unchecked = handler.replace(/    if \(!hasPermission[\s\S]*?\n    \}\n/, '');
    expect((await prove({ 'src/user.controller.ts': unchecked })).findings.map((f) => [f.label, f.entry.function])).toEqual([['authn_only', 'UserController.updateSetting']]);
  });

  it('a service refusing when the record is not the caller\'s (record.userId !== userId) checks the owner; a token refresh renews its own account', async () => {
    const files = {
      'src/notifications.service.ts': `import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
@Injectable()
export class NotificationsService {
  constructor(private readonly notificationRepository: Repository<Notification>) {}
  async markRead(id: string, userId: string) {
    const notification = await this.notificationRepository.findOne({ where: { id } });
    if (!notification) {
      throw new NotFoundException('no such notification');
    }
    if (notification.userId !== userId) {
      throw new BadRequestException('You do not own this notification');
    }
    notification.readAt = new Date();
    await this.notificationRepository.save(notification);
  }
}
`,
      'src/notifications.controller.ts': `import { Controller, Param, Patch, Post, Req, UseGuards } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { NotificationsService } from './notifications.service';
@Controller('notifications')
@UseGuards(AuthGuard('jwt'))
export class NotificationsController {
  constructor(private readonly notificationsService: NotificationsService, private readonly userRepository: Repository<User>) {}
  @Patch(':id/read')
  markRead(@Req() req: any, @Param('id') id: string) {
    return this.notificationsService.markRead(id, req.user.id);
  }
  @Post('refresh')
  async refreshTokens(@Body() dto: RefreshTokenDto) {
    const userId = await this.verify(dto.refreshToken);
    await this.userRepository.update(userId, { refreshToken: null });
  }
}
`,
    };
    expect((await prove(files)).findings).toEqual([]);
    const unscoped = { ...files, 'src/notifications.service.ts': files['src/notifications.service.ts'].replace(/    if \(notification\.userId[\s\S]*?\n    \}\n/, '') };
    expect((await prove(unscoped)).findings.map((f) => [f.label, f.entry.function])).toEqual([['authn_only', 'NotificationsController.markRead']]);
  });

  it('a decorator composed with applyDecorators carries the guards and the metadata it applies', async () => {
    const authDecorator = `import { applyDecorators, UseGuards } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { Roles, RolesGuard } from './auth';
export function Auth(...roles: string[]) {
  return applyDecorators(Roles(...roles), UseGuards(AuthGuard('jwt'), RolesGuard));
}
export const LoggedIn = () => applyDecorators(UseGuards(AuthGuard('jwt')));
`;
    const withDecorator = (decorator: string) => ({ 'src/auth.decorator.ts': authDecorator, 'src/users.controller.ts': controller('', decorator).replace('import { RolesGuard', "import { Auth, LoggedIn } from './auth.decorator';\nimport { RolesGuard") });
    expect(await labels(withDecorator("  @Auth('admin')"))).toEqual([]);
    expect(await labels(withDecorator('  @LoggedIn()'))).toEqual(['authn_only']);
  });

  it('an interceptor that refuses before next.handle() checks; one that refuses only in the answer, or only logs, does not', async () => {
    const interceptors = `import { CallHandler, ExecutionContext, ForbiddenException, Injectable, NestInterceptor } from '@nestjs/common';
import { Observable, tap } from 'rxjs';
@Injectable()
export class AdminOnlyInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest();
    if (!request.user?.isAdmin) {
      throw new ForbiddenException();
    }
    return next.handle();
  }
}
@Injectable()
export class LateInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest();
    return next.handle().pipe(tap(() => {
      if (!request.user?.isAdmin) {
        throw new ForbiddenException();
      }
    }));
  }
}
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    console.log(context.getHandler().name);
    return next.handle();
  }
}
`;
    const using = (name: string) => ({ 'src/interceptors.ts': interceptors, 'src/users.controller.ts': controller('', `  @UseInterceptors(${name})`).replace('UseGuards }', 'UseGuards, UseInterceptors }').replace('import { RolesGuard', `import { ${name} } from './interceptors';\nimport { RolesGuard`) });
    expect(await labels(using('AdminOnlyInterceptor'))).toEqual([]);
    expect(await labels(using('LateInterceptor'))).toEqual(['unguarded_path']);
    expect(await labels(using('AuditInterceptor'))).toEqual(['unguarded_path']);
  });

  it('a global APP_INTERCEPTOR that refuses before the handler covers every handler', async () => {
    const interceptor = `import { CallHandler, ExecutionContext, Injectable, NestInterceptor, UnauthorizedException } from '@nestjs/common';
@Injectable()
export class SessionInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler) {
    const request = context.switchToHttp().getRequest();
    if (!request.user) {
      throw new UnauthorizedException();
    }
    return next.handle();
  }
}
`;
    const module = `import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { SessionInterceptor } from './session.interceptor';
@Module({
  providers: [{ provide: APP_INTERCEPTOR, useClass: SessionInterceptor }],
})
export class AppModule {}
`;
    expect(await labels({ 'src/session.interceptor.ts': interceptor, 'src/app.module.ts': module, 'src/users.controller.ts': controller('', '') })).toEqual(['authn_only']);
  });
});
