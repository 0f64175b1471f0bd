/**
 * Express routes registered inside a function on the app or router it is handed (`function
 * userEndpoints(app) { app.delete('/users/:id', ...) }`, called from the server's index with the app)
 * are entries, proved end to end; array middleware (`[auth, requireRoles([A, B])]`) is split at its top
 * level, so a role factory called with a list still counts as the role check it is (ADR 0065).
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

function prove(files: Record<string, string>) {
  return proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
}

const middleware = `function ensureLoggedIn(req, res, next) {
  if (!req.user) return res.status(401).json({ error: 'sign in' });
  next();
}
function requireRoles(roles) {
  return (req, res, next) => {
    if (!roles.includes(req.user.role)) return res.sendStatus(403);
    next();
  };
}
module.exports = { ensureLoggedIn, requireRoles };
`;

/** A CommonJS endpoints module with no express import: the app is a parameter. */
const endpoints = (guards: string) => `const { ensureLoggedIn, requireRoles } = require('../middleware');
const { db } = require('../db');
function userEndpoints(app) {
  if (!app) return;
  app.delete(
    '/users/:id',
    ${guards}async (request, response) => {
      await db.user.delete({ where: { id: request.params.id } });
      response.sendStatus(204);
    }
  );
}
module.exports = { userEndpoints };
`;

async function labels(files: Record<string, string>) {
  return (await prove(files)).findings.map((f) => `${f.label} ${f.entry.function}`);
}

describe('Express routes registered on a function parameter', () => {
  it('reports a deletion behind a route registered on the app parameter, with no express import', async () => {
    expect(await labels({ 'server/middleware.js': middleware, 'server/endpoints/users.js': endpoints('') })).toEqual(['unguarded_path userEndpoints.route@L7']);
  });

  it('a login middleware in the array leaves it authn_only; a role factory called with a list discharges it', async () => {
    expect(await labels({ 'server/middleware.js': middleware, 'server/endpoints/users.js': endpoints('[ensureLoggedIn], ') })).toEqual(['authn_only userEndpoints.route@L7']);
    expect(await labels({ 'server/middleware.js': middleware, 'server/endpoints/users.js': endpoints("[ensureLoggedIn, requireRoles(['admin', 'manager'])], ") })).toEqual([]);
  });

  it('a call on a parameter whose first argument is no path is no route', async () => {
    const warm = `const { db } = require('./db');
function warm(cache) {
  cache.get('users', async (request, response) => {
    await db.user.delete({ where: { id: request.params.id } });
  });
}
module.exports = { warm };
`;
    expect(await labels({ 'server/cache.js': warm })).toEqual([]);
  });

  it('a Fastify plugin instance is no Express router: its hooks are Fastify\'s (by an import, a Fastify-only method, an options object, a declared type)', async () => {
    const deletion = `async (request, reply) => {
    await db.user.delete({ where: { id: request.params.id } });
  }`;
    const plugins: Record<string, string> = {
      'server/routes/imported.ts': `import type { FastifyPluginAsync } from 'fastify';
import { db } from '../db';
const users: FastifyPluginAsync = async (app) => {
  app.delete('/users/:id', ${deletion});
};
export default users;
`,
      'server/routes/hooked.js': `const { db } = require('../db');
module.exports = async function (fastify, opts) {
  fastify.addHook('onRequest', fastify.authenticate);
  fastify.delete('/users/:id', ${deletion});
};
`,
      'server/routes/options.js': `const { db } = require('../db');
module.exports = async function (instance) {
  instance.delete('/users/:id', { onRequest: [instance.authenticate] }, ${deletion});
};
`,
      'server/routes/typed.ts': `import { db } from '../db';
export async function userRoutes(server: ApiServer) {
  server.delete('/users/:id', ${deletion});
}
`,
    };
    for (const [path, text] of Object.entries(plugins)) expect(await labels({ [path]: text }), path).toEqual([]);
    const express = `import { db } from '../db';
export function userRoutes(router: express.Router) {
  router.delete('/users/:id', ${deletion});
}
`;
    expect(await labels({ 'server/routes/express.ts': express })).toEqual(['unguarded_path userRoutes.route@L3']);
  });

  it('routes of a function only called under a development-only test are no entries; one production call keeps them', async () => {
    const index = (calls: string) => `const express = require('express');
const { userEndpoints } = require('./endpoints/users');
const app = express();
${calls}
app.listen(3000);
`;
    const files = (calls: string) => ({ 'server/middleware.js': middleware, 'server/endpoints/users.js': endpoints(''), 'server/index.js': index(calls) });
    expect(await labels(files("if (process.env.NODE_ENV !== 'production') {\n  userEndpoints(app);\n}"))).toEqual([]);
    expect(await labels(files("if (app.get('env') === 'development') userEndpoints(app);"))).toEqual([]);
    expect(await labels(files("if (process.env.NODE_ENV !== 'production' || process.env.DEBUG) userEndpoints(app);"))).toEqual(['unguarded_path userEndpoints.route@L7']);
    expect(await labels(files("if (process.env.NODE_ENV !== 'production') userEndpoints(app);\nuserEndpoints(app);"))).toEqual(['unguarded_path userEndpoints.route@L7']);
    expect(await labels(files("if (process.env.NODE_ENV === 'production') {\n  app.disable('x-powered-by');\n} else {\n  userEndpoints(app);\n}"))).toEqual(['unguarded_path userEndpoints.route@L7']);
  });
});

describe('Array middleware of a module-level router', () => {
  const routes = (guards: string) => `import express from 'express';
import { ensureLoggedIn, requireRoles } from './middleware';
import { db } from './db';
const router = express.Router();
router.delete(
  '/users/:id',
  ${guards}async (req, res) => {
    await db.user.delete({ where: { id: req.params.id } });
    res.sendStatus(204);
  }
);
export default router;
`;

  it('a route registered under a development-only test is no entry', async () => {
    const debug = routes('').replace(/router\.delete\(([\s\S]*?)\n\);/, (route) => `if (process.env.NODE_ENV !== 'production') {\n${route.replace(/^/gm, '  ')}\n}`);
    expect(debug).toContain("if (process.env.NODE_ENV !== 'production') {");
    expect(await labels({ 'src/users.ts': debug })).toEqual([]);
    expect(await labels({ 'src/users.ts': routes('') })).toEqual(['unguarded_path <lambda@L7>']);
  });

  it('an inline middleware in the array whose body refuses non-admins is a check (its parameter list is not cut at its commas)', async () => {
    const inline = "[ensureLoggedIn, (req, res, next) => {\n    if (req.user.role !== 'admin') return res.sendStatus(403);\n    next();\n  }],\n  ";
    expect(await labels({ 'src/middleware.js': middleware, 'src/users.ts': routes(inline) })).toEqual([]);
    const logsOnly = '[ensureLoggedIn, (req, res, next) => {\n    console.log(req.path);\n    next();\n  }],\n  ';
    expect(await labels({ 'src/middleware.js': middleware, 'src/users.ts': routes(logsOnly) })).toEqual(['authn_only <lambda@L11>']);
  });
});
