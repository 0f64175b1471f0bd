import { runRecogniserTable } from '../recogniser-tester.js';

runRecogniserTable('fastify', {
  positive: [
    {
      name: 'verb routes with and without options, a named handler and app.route()',
      files: {
        'src/server.ts': `import Fastify from 'fastify';
const app = Fastify({ logger: true });
app.get('/users', async (request, reply) => {
  return [];
});
app.delete('/users/:id', { preHandler: [app.authenticate] }, async (request, reply) => {
  return null;
});
app.post('/reports', createReport);
app.route({
  method: 'PUT',
  url: '/settings',
  handler: async (request, reply) => {
    return null;
  },
});
async function createReport(request, reply) {
  return null;
}
`,
      },
      entries: [
        { function: '<lambda@L3>', line: 3 },
        { function: '<lambda@L6>', line: 6 },
        { function: 'createReport', line: 17 },
        { function: 'handler', line: 13 },
      ],
    },
  ],
  negative: [
    {
      name: 'routes inside a plugin function fold into the plugin',
      files: { 'src/routes.ts': "import type { FastifyInstance } from 'fastify';\nexport default async function routes(app: FastifyInstance) {\n  app.get('/x', async () => {\n    return 1;\n  });\n}\n" },
    },
    {
      name: 'a get() on an object that is no Fastify instance',
      files: { 'src/cache.ts': "import Fastify from 'fastify';\nconst cache = new Map();\ncache.get('/x', () => 1);\n" },
    },
  ],
});
