/**
 * A lookup scoped by the caller through alternatives (`OR: [{ collection: { ownerId: user.id } }, {
 * collection: { members: { some: { userId: user.id } } } }]`) finds only rows the caller owns or is a
 * member for, whichever arm matches: the rows it returns, and the writes on them, are the caller's. An
 * OR with any arm that does not name the caller (`{ public: true }`) lets other rows through.
 */
import { describe, expect, it } from 'vitest';
import { proverLabels as labels } from '../helpers/prover-labels.js';

const app = (arms: string): Record<string, string> => ({
  'lib/prisma.ts': 'export const prisma = {} as any;\n',
  'pages/api/links/archive.ts': `import { getServerSession } from "next-auth";
import { prisma } from "@/lib/prisma";
export default async function links(req, res) {
  const session = await getServerSession(req, res);
  if (!session) return res.status(401).json({ response: "Sign in." });
  const user = session.user;
  const authorizedLinks = await prisma.link.findMany({
    where: {
      id: { in: req.body.linkIds },
      OR: [
${arms}
      ],
    },
  });
  for (const link of authorizedLinks) {
    await prisma.link.update({ where: { id: link.id }, data: { pdf: null } });
  }
  return res.status(200).json({ response: "Success." });
}
`,
});

const OWNER = '        { collection: { ownerId: user.id } },';
const MEMBER = '        { collection: { members: { some: { userId: user.id, canDelete: true } } } },';

describe('a lookup scoped by the caller in every alternative', () => {
  it('rows found through the owner or the member arm are the caller\'s to write', async () => {
    expect(await labels(app(`${OWNER}\n${MEMBER}`))).toEqual([]);
  });

  it('an arm that does not name the caller lets other rows through', async () => {
    expect(await labels(app(`${OWNER}\n        { collection: { public: true } },`))).toEqual(['authn_only:pages/api/links/archive.ts:17']);
  });

  it('an arm keyed by a value the request sends lets other rows through', async () => {
    expect(await labels(app(`${OWNER}\n        { collection: { ownerId: Number(req.query.owner) } },`))).toEqual(['authn_only:pages/api/links/archive.ts:17']);
  });
});
