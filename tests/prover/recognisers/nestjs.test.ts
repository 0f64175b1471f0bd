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
  ],
  negative: [
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
