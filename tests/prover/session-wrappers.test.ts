/**
 * A Next.js route wrapper that signs the caller in one of several ways (an API key in the Authorization
 * header, else the session cookie), each way refused with 401 when it fails, is a login on every route
 * it wraps; one way left unchecked (no final `else`) is no login. The wrapper's own write of the API
 * key's last use, keyed by the key the caller presented, is the authentication's bookkeeping.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

const wrapper = (sessionArm: string, lastUsedWrite = '') => `import { prisma } from "@/lib/prisma";
import { errorResponse, getSession, hashToken } from "./utils";

export class AppApiError extends Error {
  code: string;
  constructor({ code, message }: { code: string; message: string }) {
    super(message);
    this.code = code;
  }
}

export const withSession = (handler: any) => async (req: Request, { params }: { params: Promise<Record<string, string>> }) => {
  try {
    let session: any;
    const authorization = req.headers.get("Authorization");
    if (authorization) {
      const hashedKey = await hashToken(authorization.replace("Bearer ", ""));
      const user = await prisma.user.findFirst({ where: { tokens: { some: { hashedKey } } } });
      if (!user) {
        throw new AppApiError({ code: "unauthorized", message: "Invalid API key." });
      }
${lastUsedWrite}
      session = { user };
${sessionArm}
    return await handler({ req, params: await params, session });
  } catch (err) {
    return errorResponse(err);
  }
};
`;
const bothArms = `    } else {
      session = await getSession();
      if (!session?.user.id) {
        throw new AppApiError({ code: "unauthorized", message: "Login required." });
      }
    }`;
const route = `import { withSession } from "@/lib/auth";
import { prisma } from "@/lib/prisma";

export const DELETE = withSession(async ({ req }) => {
  const { linkId } = await req.json();
  await prisma.link.delete({ where: { id: linkId } });
  return Response.json({ ok: true });
});
`;

async function findings(wrapperText: string) {
  const result = await proveChange({
    root: '/repo',
    files: [
      { path: 'package.json', text: '{"dependencies":{"next":"14.2.0"}}' },
      { path: 'apps/web/lib/auth/index.ts', text: 'export * from "./session";\n' },
      { path: 'apps/web/lib/auth/session.ts', text: wrapperText },
      { path: 'apps/web/lib/auth/utils.ts', text: 'export const getSession = async (): Promise<any> => null;\nexport const hashToken = async (t: string) => t;\nexport const errorResponse = (err: any) => Response.json({ error: String(err) }, { status: err.code === "unauthorized" ? 401 : 500 });\n' },
      { path: 'apps/web/app/api/links/route.ts', text: route },
    ],
    touched: null,
    maxDepth: 3,
    fanOut: 25,
  });
  return result.findings.map((f) => [f.path.replace("apps/web/", ""), f.operation.id, f.label]);
}

describe('a route wrapper that signs the caller in one of several ways', () => {
  it('is a login when every way in refuses with 401 (API key arm, session arm)', async () => {
    expect(await findings(wrapper(bothArms))).toEqual([['app/api/links/route.ts', 'ts.orm-deletion', 'authn_only']]);
  });

  it('is no login when the requests without the header pass unchecked (no else arm)', async () => {
    expect(await findings(wrapper('    }'))).toEqual([['app/api/links/route.ts', 'ts.orm-deletion', 'unguarded_path']]);
  });

  it('is no login when the other arm looks the session up without refusing', async () => {
    expect(await findings(wrapper('    } else {\n      session = await getSession();\n    }'))).toEqual([['app/api/links/route.ts', 'ts.orm-deletion', 'unguarded_path']]);
  });
});

describe("the wrapper's write of the key the caller presented", () => {
  const lastUsed = '      await prisma.token.update({ where: { hashedKey }, data: { lastUsed: new Date() } });';

  it('is the authentication\'s bookkeeping, not a finding', async () => {
    expect(await findings(wrapper(bothArms, lastUsed))).toEqual([['app/api/links/route.ts', 'ts.orm-deletion', 'authn_only']]);
  });

  it('a write of another table there stays a finding', async () => {
    const other = '      await prisma.project.update({ where: { id: user.defaultProjectId }, data: { touched: true } });';
    expect(await findings(wrapper(bothArms, other))).toContainEqual(['lib/auth/session.ts', 'ts.orm-update', 'authn_only']);
  });
});
