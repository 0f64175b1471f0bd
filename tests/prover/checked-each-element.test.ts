/**
 * A bulk action checks each id the request names in a loop and leaves on the first one the caller may
 * not touch, then acts on all of them at once (`deleteMany({ where: { id: { in: linkIds } } })`). The
 * check is not on every path (the loop may not run), but when it does not run there is nothing to
 * delete. Twins that stay findings: a loop that can break out before checking the rest, a collection
 * grown after the loop, a `continue` past the check, and a write that does not take the checked ids.
 */
import { describe, expect, it } from 'vitest';
import { proverLabels as labels } from '../helpers/prover-labels.js';

const controller = (loop: string, write = 'prisma.link.deleteMany({ where: { id: { in: linkIds } } })', between = ''): string => `import { prisma } from "@/lib/prisma";
export default async function deleteLinks(userId: number, linkIds: number[]) {
  for (const linkId of linkIds) {
    const link = await prisma.link.findUnique({ where: { id: linkId } });
${loop}
  }
${between}
  const deleted = await ${write};
  return { response: deleted, status: 200 };
}
`;

const app = (deleteLinks: string): Record<string, string> => ({
  'lib/prisma.ts': 'export const prisma = {} as any;\n',
  'lib/deleteLinks.ts': deleteLinks,
  'pages/api/links/index.ts': `import { getServerSession } from "next-auth";
import deleteLinks from "@/lib/deleteLinks";
export default async function handler(req, res) {
  const session = await getServerSession(req, res);
  if (!session) return res.status(401).json({ response: "Sign in." });
  const result = await deleteLinks(session.user.id, req.body.linkIds);
  return res.status(result.status).json({ response: result.response });
}
`,
});

const REFUSE = '    if (link?.ownerId !== userId) return { response: "Not yours.", status: 401 };';
/** The finding on the write of `source`, wherever its line is. */
const writeFinding = (source: string): string => `authn_only:lib/deleteLinks.ts:${source.split('\n').findIndex((l) => l.includes('const deleted')) + 1}`;

/** `source` as the app, with the finding it must have. */
const expectWriteFinding = async (source: string): Promise<void> => {
  expect(await labels(app(source))).toEqual([writeFinding(source)]);
};

describe('a check of each id a bulk write then takes', () => {
  it('a refusal in a for-each over the ids covers the write on all of them', async () => {
    expect(await labels(app(controller(REFUSE)))).toEqual([]);
  });

  it('a break out of the loop leaves the rest unchecked', async () => {
    await expectWriteFinding(controller(`    if (link?.pinned) break;\n${REFUSE}`));
  });

  it('a continue past the check leaves that id unchecked', async () => {
    await expectWriteFinding(controller(`    if (link?.archived) continue;\n${REFUSE}`));
  });

  it('an id added after the loop was never checked', async () => {
    await expectWriteFinding(controller(REFUSE, undefined, '  linkIds.push(Number(process.env.EXTRA));'));
  });

  it('a write that does not take the checked ids is judged as it stands', async () => {
    await expectWriteFinding(controller(REFUSE, 'prisma.link.deleteMany({ where: { collectionId: Number(process.env.SHARED) } })'));
  });
});
