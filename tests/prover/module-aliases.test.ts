/**
 * Imports through a project alias or a workspace package reach the project's file, so a check in the
 * project's own route wrapper (`export const POST = withAdmin(...)`, imported from `@/lib/auth`) is read;
 * library specifiers and bare names are never taken for project files.
 */
import { describe, expect, it } from 'vitest';
import { aliasedModuleFiles } from '../../src/prover/module-aliases.js';
import { proveChange } from '../../src/prover/prove.js';
import type { ProgramFile } from '../../src/prover/types.js';

const file = (path: string) => ({ path }) as ProgramFile;
const repo = [
  'apps/web/lib/auth/index.ts',
  'apps/web/lib/auth/admin.ts',
  'apps/admin/lib/auth/index.ts',
  'apps/web/app/api/ban/route.ts',
  'packages/lib/server-only/users.ts',
  'packages/utils/src/index.ts',
  'server/models/index.ts',
  'server/routes/api/documents.ts',
  'client/src/index.tsx',
  'lib/prisma/client.ts',
  'app/routes/notes.tsx',
  'app/utils/session.server.ts',
].map(file);
const resolve = (from: string, specifier: string) => aliasedModuleFiles(repo, from, specifier).map((f) => f.path);

describe('project aliases and workspace packages', () => {
  it.each([
    ['apps/web/app/api/ban/route.ts', '@/lib/auth/admin', ['apps/web/lib/auth/admin.ts']],
    ['apps/web/app/api/ban/route.ts', '@/lib/auth', ['apps/web/lib/auth/index.ts']],
    ['apps/web/app/api/ban/route.ts', '@acme/lib/server-only/users', ['packages/lib/server-only/users.ts']],
    ['apps/web/app/api/ban/route.ts', '@acme/utils', ['packages/utils/src/index.ts']],
    ['server/routes/api/documents.ts', '@server/models', ['server/models/index.ts']],
    ['app/routes/notes.tsx', '~/utils/session.server', ['app/utils/session.server.ts']],
    ['app/routes/notes.tsx', '#app/utils/session.server', ['app/utils/session.server.ts']],
  ])('%s imports %s from the project', (from, specifier, expected) => {
    expect(resolve(from, specifier)).toEqual(expected);
  });

  it('picks the alias target nearest the importer, not a same-named file of another app', () => {
    expect(resolve('apps/admin/page.ts', '@/lib/auth')).toEqual(['apps/admin/lib/auth/index.ts']);
  });

  it.each([
    ['app/routes/notes.tsx', '@prisma/client'],
    ['lib/api.ts', '@prisma/client'],
    ['apps/web/app/api/ban/route.ts', 'next/server'],
    ['apps/web/app/api/ban/route.ts', 'utils'],
    ['apps/web/app/api/ban/route.ts', '@nestjs/common'],
    ['apps/web/app/api/ban/route.ts', '@/lib/missing'],
    ['server/models/index.py', '@/lib/auth'],
  ])('%s: %s is not a project file', (from, specifier) => {
    expect(resolve(from, specifier)).toEqual([]);
  });
});

const wrapper = (refusal: string) => `import { prisma } from "@/lib/prisma";
import { getSession } from "./session";

export const withAdmin =
  (handler: any) =>
  async (req: Request) => {
    const session = await getSession();
    if (!session?.user) {
      return new Response("Login required", { status: 401 });
    }
    const membership = await prisma.membership.findFirst({ where: { userId: session.user.id } });
    if (membership?.role !== "admin") {
      ${refusal}
    }
    return handler({ req, session });
  };
`;
const route = `import { withAdmin } from "@/lib/auth";
import { prisma } from "@/lib/prisma";

export const POST = withAdmin(async ({ req }) => {
  const { email } = await req.json();
  await prisma.user.delete({ where: { email } });
  return Response.json({ ok: true });
});
`;

async function routeFindings(refusal: string) {
  const result = await proveChange({
    root: '/repo',
    files: [
      { path: 'package.json', text: '{"dependencies":{"next":"14.2.0"}}' },
      { path: 'apps/web/lib/auth/index.ts', text: 'export * from "./admin";\n' },
      { path: 'apps/web/lib/auth/admin.ts', text: wrapper(refusal) },
      { path: 'apps/web/app/api/admin/ban/route.ts', text: route },
    ],
    touched: null,
    maxDepth: 3,
    fanOut: 25,
  });
  return result.findings.filter((f) => f.path === 'apps/web/app/api/admin/ban/route.ts');
}

describe('a route wrapper imported through an alias', () => {
  it('discharges the deletion when the wrapper refuses a caller who is not an admin', async () => {
    expect(await routeFindings('return new Response("Not an admin", { status: 403 });')).toEqual([]);
  });

  it('still reports the deletion when the wrapper only logs the failed role test', async () => {
    const findings = await routeFindings('console.warn("not an admin");');
    expect(findings.map((f) => f.operation.id)).toEqual(['ts.orm-deletion']);
  });
});
