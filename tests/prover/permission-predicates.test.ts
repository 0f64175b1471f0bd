/**
 * Authorization predicates named for what they decide (the ts.permission-predicate row): a Next.js route
 * handler that leaves when `canUpdateReport(auth, report)` is false has checked the report it then
 * updates; the same predicate nothing acts on checks nothing, and one given another record than the
 * updated one (the website the body names) leaves the report unbound.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

const permissions = `export async function canUpdateReport(auth: Auth, report: Report) {
  if (!auth.user) {
    return false;
  }
  if (auth.user.isAdmin) {
    return true;
  }
  return auth.user.id === report.userId;
}
export async function canUpdateWebsite(auth: Auth, websiteId: string) {
  return auth.user?.isAdmin ?? false;
}
`;

const route = (check: string) => `import { prisma } from '@/lib/prisma';
import { canUpdateReport, canUpdateWebsite } from '@/permissions';
export async function POST(request: Request, { params }: { params: Promise<{ reportId: string }> }) {
  const auth = await getAuth(request);
  const body = await request.json();
  const { reportId } = await params;
  const report = await prisma.report.findUnique({ where: { id: reportId } });
${check}
  await prisma.report.update({ where: { id: reportId }, data: { name: body.name } });
  return Response.json({ ok: true });
}
`;

async function labels(check: string): Promise<string[]> {
  const files = { 'src/permissions/index.ts': permissions, 'src/app/api/reports/[reportId]/route.ts': route(check) };
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.operationsChecked).toBe(1);
  return result.findings.map((f) => f.label);
}

describe('authorization predicates', () => {
  it('a branch that leaves when canUpdateReport(auth, report) is false', async () => {
    expect(await labels("  if (!(await canUpdateReport(auth, report))) {\n    return Response.json({ error: 'denied' });\n  }")).toEqual([]);
  });

  it('an access-check method of the service, answered by leaving', async () => {
    expect(await labels("  if (!(await this.checkReportAccess(report, auth.user.id, ['OWNER']))) {\n    return Response.json({ error: 'denied' });\n  }")).toEqual([]);
  });

  it('the predicate called and its answer ignored', async () => {
    expect(await labels('  await canUpdateReport(auth, report);')).not.toEqual([]);
  });

  it("a row keyed by the request's own user (auth.user.id) needs no predicate", async () => {
    const files = { 'src/app/api/board/route.ts': "import { prisma } from '@/lib/prisma';\nexport async function POST(request: Request) {\n  const auth = await getAuth(request);\n  if (!auth.user) {\n    return new Response(null, { status: 401 });\n  }\n  const body = await request.json();\n  await prisma.board.update({ where: { id: auth.user.id }, data: { name: body.name } });\n  return Response.json({ ok: true });\n}\n" };
    const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
    expect(result.coverage.operationsChecked).toBe(1);
    expect(result.findings.map((f) => f.label)).toEqual([]);
  });

  it('the predicate given the website the body names, not the updated report', async () => {
    expect(await labels("  if (!(await canUpdateWebsite(auth, body.websiteId))) {\n    return Response.json({ error: 'denied' });\n  }")).toEqual(['resource_unbound']);
  });
});
