import { runRecogniserTable } from '../recogniser-tester.js';

runRecogniserTable('nestjs', {
  positive: [
    {
      name: 'route handlers of a @Controller class',
      files: {
        'src/users.controller.ts': `import { Controller, Delete, Get, Post, Param } from '@nestjs/common';
@Controller('users')
export class UsersController {
  constructor(private readonly users: UsersService) {}
  @Get()
  findAll() { return this.users.findAll(); }
  @Delete(':id')
  remove(@Param('id') id: string) { return this.users.remove(id); }
  private helper() { return 1; }
}
`,
      },
      entries: [
        { function: 'UsersController.findAll', line: 5 },
        { function: 'UsersController.remove', line: 7 },
      ],
    },
    {
      name: 'operations and field resolvers of a GraphQL @Resolver class',
      files: {
        'src/env.resolver.ts': `import { Args, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
@Resolver(() => Env)
export class EnvResolver {
  constructor(private readonly envs: EnvService) {}
  @Query(() => [Env])
  async myEnvs() { return this.envs.list(); }
  @Mutation(() => Env, { description: 'rename' })
  async renameEnv(@Args('id') id: string) { return this.envs.rename(id); }
  @ResolveField(() => [History])
  async history(@Parent() user: User) { return this.envs.history(user.uid); }
  private helper() { return 1; }
}
`,
      },
      entries: [
        { function: 'EnvResolver.myEnvs', line: 5 },
        { function: 'EnvResolver.renameEnv', line: 7 },
        { function: 'EnvResolver.history', line: 9 },
      ],
    },
  ],
  negative: [
    {
      name: 'a class with @Query methods but no @Resolver',
      files: { 'src/q.ts': "import { Query } from '@nestjs/graphql';\nexport class Q {\n  @Query(() => String)\n  hello() { return 'x'; }\n}\n" },
    },
    {
      name: 'a controller handler taking a @Query() parameter is no GraphQL operation',
      files: { 'src/c.ts': "import { Query } from '@nestjs/common';\nimport { Resolver } from 'type-graphql';\n@Resolver()\nexport class C {\n  list(@Query() q: string) { return q; }\n}\n" },
    },
    {
      name: 'a @Controller of another library',
      files: { 'src/c.ts': "import { Controller, Get } from 'routing-controllers';\n@Controller('x')\nexport class X {\n  @Get()\n  list() { return []; }\n}\n" },
    },
    {
      name: 'a provider class with decorated methods but no @Controller',
      files: { 'src/s.ts': "import { Injectable, Get } from '@nestjs/common';\n@Injectable()\nexport class S {\n  @Get()\n  list() { return []; }\n}\n" },
    },
  ],
});
