/**
 * A route wrapper that checks inside a `try` and answers from its `catch` (dub's `withWorkspace`): the
 * check throws the project's API error carrying an HTTP refusal code (`code: "forbidden"`), the `catch`
 * turns it into the error response, so the handler called after the check in the `try` runs only for a
 * caller who passed it. An error whose code is not a refusal (`bad_request`) refuses nobody.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

const wrapper = (refusal: string, afterCatch = '', padding = '') => `import { prisma } from "@/lib/prisma";
import { NextResponse } from "next/server";
import { getSession } from "./session";
import { withLog } from "./log";

export class AppApiError extends Error {
  code: string;
  constructor({ code, message }: { code: string; message: string }) {
    super(message);
    this.code = code;
  }
}

export const withTeam = (handler: any, { requiredRole = "member" }: { requiredRole?: string } = {}) => {
  return withLog(async (req: Request, { params }: { params: Promise<Record<string, string>> }) => {
    let team: any;
    try {
      const session = await getSession();
      const { slug } = await params;
      team = await prisma.team.findUnique({ where: { slug }, include: { users: { where: { userId: session.user.id } } } });
${padding}
      if (!team || team.users.length === 0) {
        ${refusal}
      }
      return await handler({ req, session, team });
    } catch (err) {
      ${afterCatch || 'return NextResponse.json({ error: String(err) }, { status: 400 });'}
    }
  });
};
`;
const route = `import { withTeam } from "@/lib/auth";
import { prisma } from "@/lib/prisma";

export const DELETE = withTeam(async ({ team, req }) => {
  const { linkId } = await req.json();
  await prisma.link.delete({ where: { id: linkId } });
  return Response.json({ ok: true });
});
`;

async function routeFindings(refusal: string, afterCatch = '', padding = '') {
  const result = await proveChange({
    root: '/repo',
    files: [
      { path: 'package.json', text: '{"dependencies":{"next":"14.2.0"}}' },
      { path: 'apps/web/lib/auth/index.ts', text: 'export * from "./team";\n' },
      { path: 'apps/web/lib/auth/team.ts', text: wrapper(refusal, afterCatch, padding) },
      { path: 'apps/web/lib/auth/log.ts', text: 'export const withLog = (fn: any) => async (req: Request, ctx: any) => fn(req, ctx);\n' },
      { path: 'apps/web/app/api/[slug]/links/route.ts', text: route },
    ],
    touched: null,
    maxDepth: 3,
    fanOut: 25,
  });
  return result.findings.filter((f) => f.path === 'apps/web/app/api/[slug]/links/route.ts');
}

describe('a wrapper whose check throws inside a try the wrapper answers from', () => {
  it.each([
    ['code: "forbidden"', 'throw new AppApiError({ code: "forbidden", message: "Not a member." });'],
    ['code: "forbidden" over several lines', 'throw new AppApiError({\n          code: "forbidden",\n          message: "Not a member.",\n        });'],
    ['status: 403', 'throw new AppApiError({ status: 403, message: "Not a member." } as any);'],
  ])('discharges the handler\'s write when the check throws an error with %s', async (_, refusal) => {
    expect(await routeFindings(refusal)).toEqual([]);
  });

  it('reads an error with code: "unauthorized" as a login check only', async () => {
    const findings = await routeFindings('throw new AppApiError({ code: "unauthorized", message: "Login required." });');
    expect(findings.map((f) => [f.operation.id, f.label])).toEqual([['ts.orm-deletion', 'authn_only']]);
  });

  it.each([
    ['code: "bad_request"', 'throw new AppApiError({ code: "bad_request", message: "Bad slug." });'],
    ['a log line', 'console.warn("not a member");'],
  ])('still reports the write when the failing arm only has %s', async (_, refusal) => {
    const findings = await routeFindings(refusal);
    expect(findings.map((f) => f.operation.id)).toEqual(['ts.orm-deletion']);
  });

  it('still reports the write when the catch swallows the refusal and calls the handler anyway', async () => {
    const findings = await routeFindings('throw new AppApiError({ code: "forbidden", message: "Not a member." });', 'console.error(err);\n      return await handler({ req, team });');
    expect(findings.map((f) => f.operation.id)).toEqual(['ts.orm-deletion']);
  });

  it('still reports the write when the catch answers only some errors and hands the rest on to the handler', async () => {
    const findings = await routeFindings(
      'throw new AppApiError({ code: "forbidden", message: "Not a member." });',
      'if (String(err).includes("token")) {\n        return NextResponse.json({ error: "bad token" }, { status: 401 });\n      }\n    }\n    return await handler({ req, team });\n    {',
    );
    expect(findings.map((f) => f.operation.id)).toEqual(['ts.orm-deletion']);
  });

  it('reads the check of a wrapper longer than a statement reading holds (over 200 lines)', async () => {
    const padding = Array.from({ length: 240 }, (_, i) => `      const step${i} = team?.id;`).join('\n');
    expect(await routeFindings('throw new AppApiError({ code: "forbidden", message: "Not a member." });', '', padding)).toEqual([]);
  });
});
