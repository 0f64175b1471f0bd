import { runRecogniserTable } from '../recogniser-tester.js';

runRecogniserTable('express', {
  positive: [
    {
      name: 'routes of an express Router with middleware arguments, a chained route and a named handler',
      files: {
        'src/routes/projects.ts': `import express from 'express';
import { ensureAdmin } from '../auth';
const router = express.Router();
async function listProjects(req, res) {
  res.json([]);
}
router.get('/projects', listProjects);
router.delete('/projects/:id', ensureAdmin, async (req, res) => {
  res.sendStatus(204);
});
router.route('/projects/:id/archive').post((req, res) => {
  res.sendStatus(204);
});
export default router;
`,
      },
      entries: [
        { function: 'listProjects', line: 4, kind: 'route' },
        { function: '<lambda@L8>', line: 8 },
        { function: '<lambda@L11>', line: 11 },
      ],
    },
    {
      name: 'a route registered for several paths at once, named by the first',
      files: {
        'src/routes/stores.ts': `import express from 'express';
const router = express.Router();
router.put(['/', '/:id'], async (req, res) => {
  res.json({});
});
export default router;
`,
      },
      entries: [{ function: '<lambda@L3>', line: 3 }],
    },
    {
      name: 'a koa-router route',
      files: {
        'src/api.ts': `import Router from '@koa/router';
export const api = new Router();
api.post('/teams/:id/leave', requireUser, async (ctx) => {
  ctx.body = {};
});
`,
      },
      entries: [{ function: '<lambda@L3>', line: 3 }],
    },
    {
      name: 'routes registered inside a function on the app it is handed, with array middleware',
      files: {
        'server/endpoints/workspaces.js': `const { validatedRequest } = require('../middleware');
function workspaceEndpoints(app) {
  if (!app) return;
  app.get(
    '/workspace/:slug',
    [validatedRequest, roleValid([ROLES.admin, ROLES.manager])],
    async function (request, response) {
      response.json({});
    }
  );
  app.post('/workspace/:slug/delete', async (request, response) => {
    response.sendStatus(204);
  });
}
module.exports = { workspaceEndpoints };
`,
      },
      entries: [
        { function: 'workspaceEndpoints.route@L7', line: 7 },
        { function: 'workspaceEndpoints.route@L11', line: 11 },
      ],
    },
  ],
  negative: [
    {
      name: 'a get on a parameter with a key that is no path is no route',
      files: {
        'src/lookup.js': `function lookup(cache) {
  return cache.get('workspace', (value) => value);
}
module.exports = { lookup };
`,
      },
    },
    {
      name: 'an array of values that is no path list (a Map of arrays) is no route',
      files: {
        'src/cache.ts': `const cache = new Map();
cache.set(['/', '/:id'], async () => null);
`,
      },
    },
    {
      name: 'a Map get and an axios call are not routes',
      files: {
        'src/cache.ts': `import axios from 'axios';
const cache = new Map();
cache.get('/projects');
export async function load() { return axios.get('/projects', { timeout: 1 }); }
`,
      },
    },
    {
      name: 'routes registered inside a function fold into it: counted, not entries',
      files: {
        'src/routes.ts': `import express from 'express';
const app = express();
export function mount() {
  app.get('/health', (req, res) => {
    res.send('ok');
  });
}
`,
      },
      unresolved: { handler_in_function: 1 },
    },
  ],
});
