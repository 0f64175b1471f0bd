/**
 * Fastify routes proved end to end: a route deleting a record with no hook is reported; a route-level
 * preHandler or an instance addHook whose function verifies the JWT is a login; a hook that tests a role
 * and refuses is a permission; a hook that only logs is no check.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

function prove(files: Record<string, string>) {
  return proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
}

const server = (options: string, extra = '') => `import Fastify from 'fastify';
import { prisma } from './db';
const app = Fastify();
app.decorate('authenticate', async function (request, reply) {
  try {
    await request.jwtVerify();
  } catch (err) {
    reply.send(err);
  }
});
async function requireAdmin(request, reply) {
  if (request.user.role !== 'admin') {
    return reply.code(403).send({ error: 'forbidden' });
  }
}
async function logRequest(request) {
  console.log(request.url);
}
${extra}
app.delete('/notes/:id', ${options}async (request, reply) => {
  await prisma.note.delete({ where: { id: request.params.id } });
});
`;

async function labels(options: string, extra = ''): Promise<string[]> {
  const result = await prove({ 'src/server.ts': server(options, extra) });
  return result.findings.map((f) => f.label);
}

describe('Fastify hooks', () => {
  it('reports a route with no hook that deletes by a route parameter', async () => {
    const result = await prove({ 'src/server.ts': server('') });
    expect(result.findings.map((f) => [f.label, f.entry.framework])).toEqual([['unguarded_path', 'fastify']]);
  });

  it('a preHandler that verifies the JWT is a login only; one that tests a role is a permission', async () => {
    expect(await labels('{ preHandler: [app.authenticate] }, ')).toEqual(['authn_only']);
    expect(await labels('{ onRequest: app.authenticate, preHandler: requireAdmin }, ')).toEqual([]);
  });

  it("the instance's addHook covers the route, wherever the module adds it", async () => {
    expect(await labels('', "app.addHook('onRequest', app.authenticate);")).toEqual(['authn_only']);
    expect(await labels('', "app.addHook('preHandler', requireAdmin);")).toEqual([]);
  });

  it('a hook whose catch answers but then hands the request on anyway checks nothing', async () => {
    const handsOn = server('{ preHandler: [app.authenticate] }, ').replace(
      "app.decorate('authenticate', async function (request, reply) {\n  try {\n    await request.jwtVerify();\n  } catch (err) {\n    reply.send(err);\n  }\n});",
      "app.decorate('authenticate', function (request, reply, done) {\n  try {\n    request.jwtVerify();\n  } catch (err) {\n    reply.send(err);\n  }\n  done();\n});",
    );
    expect(handsOn).toContain('done();');
    const result = await prove({ 'src/server.ts': handsOn });
    expect(result.findings.map((f) => f.label)).toEqual(['unguarded_path']);
  });

  it('a hook that only logs is no check', async () => {
    expect(await labels('{ preHandler: logRequest }, ')).toEqual(['unguarded_path']);
  });
});
