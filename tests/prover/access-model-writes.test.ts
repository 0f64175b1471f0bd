/**
 * Writes to the access model itself (`ts.access-model-write`): creating, changing or deleting a role or
 * permission is administering access, so a record the request just built (`roleRepository.create(...)`,
 * then `save`) is no excuse, and a login does not settle it. The same save on an ordinary table stays
 * the request's own creation.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';
import { NEST_AUTH as auth, TRPC_AUTHENTICATED as trpc } from './ts-fixtures.js';

async function findings(files: Record<string, string>) {
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.operationsChecked).toBeGreaterThan(0);
  return result.findings.map((f) => ({ label: f.label, operation: f.operation.id, entry: f.entry.function }));
}


/** A controller creating a record through `service.create(name)`, with `guards` above the class. */
const controller = (entity: string, guards: string) => `import { Body, Controller, Post, UseGuards } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { RolesGuard, Roles } from './auth';
import { ${entity}sService } from './${entity.toLowerCase()}s.service';
@Controller('${entity.toLowerCase()}s')
${guards}
export class ${entity}sController {
  constructor(private readonly service: ${entity}sService) {}
  @Post()
  async create(@Body('name') name: string) {
    return this.service.create${entity}(name);
  }
}
`;

const service = (entity: string) => `import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
@Injectable()
export class ${entity}sService {
  constructor(@InjectRepository(${entity}) private readonly ${entity.toLowerCase()}Repository: Repository<${entity}>) {}
  async create${entity}(name: string) {
    const record = this.${entity.toLowerCase()}Repository.create({ name });
    return this.${entity.toLowerCase()}Repository.save(record);
  }
}
`;

const files = (entity: string, guards: string) => ({
  'src/auth.ts': auth,
  [`src/${entity.toLowerCase()}s.controller.ts`]: controller(entity, guards),
  [`src/${entity.toLowerCase()}s.service.ts`]: service(entity),
});

describe('writes to the access model', () => {
  it('creating a role behind no guard is reported, though the request built the record', async () => {
    expect(await findings(files('Role', ''))).toEqual([{ label: 'unguarded_path', operation: 'ts.access-model-write', entry: 'RolesController.create' }]);
  });

  it('creating a permission behind a login only is reported as a login only', async () => {
    expect(await findings(files('Permission', "@UseGuards(AuthGuard('jwt'))"))).toEqual([{ label: 'authn_only', operation: 'ts.access-model-write', entry: 'PermissionsController.create' }]);
  });

  it('creating a role behind a roles guard with @Roles is discharged', async () => {
    expect(await findings(files('Role', "@UseGuards(AuthGuard('jwt'), RolesGuard)\n@Roles('admin')"))).toEqual([]);
  });

  it('the same creation on an ordinary table is the request\'s own record', async () => {
    const result = await proveChange({ root: '/repo', files: Object.entries(files('Note', "@UseGuards(AuthGuard('jwt'))")).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
    expect(result.findings).toEqual([]);
  });

  it('a Prisma role table written behind a login only is reported', async () => {
    const route = `import { authenticatedProcedure } from './trpc';
import { prisma } from './prisma';
export const createRoleRoute = authenticatedProcedure.mutation(async ({ input }) => {
  return prisma.role.create({ data: { name: input.name } });
});
`;
    expect(await findings({ 'src/trpc.ts': trpc, 'src/create-role.ts': route })).toEqual([{ label: 'authn_only', operation: 'ts.access-model-write', entry: 'createRoleRoute' }]);
  });
});
