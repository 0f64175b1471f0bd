/**
 * Node handlers answer a refusal and then leave in two statements (`if (!token) { res.status(401)
 * .json(...); return; }`), as often as in one (`return res.status(401)...`). Both stop the handler, so
 * the write after them runs only for a signed-in caller, and a write keyed by that caller's id is their
 * own. The twin without the `return` sends the answer and carries on: the write still runs for anyone.
 * A closure the handler's helper writes and calls (`const deactivate = async () => ...`) sees the
 * caller's values its outer function was handed, unless a parameter of its own shadows them.
 */
import { describe, expect, it } from 'vitest';
import { proverLabels as labels } from '../helpers/prover-labels.js';

/** A project helper that hands back the signed-in user's token, or an error message without one. */
const verifyToken = `import { getToken } from "next-auth/jwt";
export default async function verifyToken({ req }) {
  const token = await getToken({ req });
  if (!token?.id) return "You must be logged in.";
  return token;
}
`;

/** The caller's own subscription rows, keyed by the id it is handed. */
const billing = (sync: string): string => `import { prisma } from "@/lib/prisma";
export async function writeSubscription(userId: number) {
  await prisma.subscription.updateMany({ where: { userId, provider: "APPLE" }, data: { active: true } });
}
export default async function syncSubscription(user: { id: number }) {
${sync}
}
`;

const route = (refusal: string): string => `import verifyToken from "@/lib/verifyToken";
import syncSubscription from "@/lib/billing";
import { prisma } from "@/lib/prisma";
export default async function me(req, res) {
  const token = await verifyToken({ req });
${refusal}
  const user = await prisma.user.findUnique({ where: { id: token.id } });
  await syncSubscription(user);
  return res.status(200).json({ ok: true });
}
`;

const app = (refusal: string, sync = '  return writeSubscription(user.id);'): Record<string, string> => ({
  'lib/prisma.ts': 'export const prisma = {} as any;\n',
  'lib/verifyToken.ts': verifyToken,
  'lib/billing.ts': billing(sync),
  'pages/api/users/me.ts': route(refusal),
});

describe('a refusal answered in one statement and left in the next', () => {
  it('`{ res.status(401).json(...); return; }` stops the handler like `return res.status(401)...`', async () => {
    for (const refusal of [
      '  if (typeof token === "string") {\n    res.status(401).json({ response: token });\n    return null;\n  }',
      '  if (typeof token === "string") {\n    res.status(401).json({ response: token });\n    return;\n  }',
      '  if (!token) {\n    console.warn("refused");\n    res.status(401).json({ response: "Sign in." });\n    console.warn("answered");\n    return;\n  }',
      '  if (typeof token === "string") return res.status(401).json({ response: token });',
    ]) {
      expect(await labels(app(refusal)), refusal).toEqual([]);
    }
  });

  it('an answer the handler goes on after is no refusal', async () => {
    expect(await labels(app('  if (typeof token === "string") {\n    res.status(401).json({ response: token });\n  }'))).toEqual(['unguarded_path:lib/billing.ts:3']);
  });

  it('an answer followed by a branch that may go on is no refusal', async () => {
    expect(await labels(app('  if (typeof token === "string") {\n    res.status(401).json({ response: token });\n    if (req.query.strict) return;\n  }'))).toEqual(['unguarded_path:lib/billing.ts:3']);
  });

  it('a closure the helper calls sees the caller it was handed', async () => {
    const sync = '  const deactivate = async () => {\n    await prisma.subscription.updateMany({ where: { userId: user.id }, data: { active: false } });\n  };\n  return deactivate();';
    expect(await labels(app('  if (typeof token === "string") return res.status(401).json({ response: token });', sync))).toEqual([]);
  });

  it('a closure parameter that shadows the caller is not the caller', async () => {
    const sync = '  const deactivate = async (user: { id: number }) => {\n    await prisma.subscription.updateMany({ where: { userId: user.id }, data: { active: false } });\n  };\n  return deactivate({ id: Number(process.argv[2]) });';
    expect(await labels(app('  if (typeof token === "string") return res.status(401).json({ response: token });', sync))).toEqual(['authn_only:lib/billing.ts:7']);
  });
});
