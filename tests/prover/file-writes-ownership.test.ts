/**
 * A record's own files (a link's archive, an account's avatar) are the record owner's to change: a
 * file deletion after a check that the record is the caller's is discharged, as a data write is (ADR
 * 0076). Without that check the deletion is still a finding.
 */
import { describe, expect, it } from 'vitest';
import { proverLabels as labels } from '../helpers/prover-labels.js';

const app = (check: string): Record<string, string> => ({
  'lib/prisma.ts': 'export const prisma = {} as any;\n',
  'pages/api/links/[id]/archive.ts': `import fs from "fs";
import { getServerSession } from "next-auth";
import { prisma } from "@/lib/prisma";
export default async function archive(req, res) {
  const session = await getServerSession(req, res);
  if (!session) return res.status(401).json({ response: "Sign in." });
  const link = await prisma.link.findUnique({ where: { id: Number(req.query.id) } });
${check}
  fs.unlinkSync(\`archives/\${link.collectionId}/\${link.id}.pdf\`);
  return res.status(200).json({ response: "removed" });
}
`,
});

describe('a file of a record the caller owns', () => {
  it('is theirs to delete once the record is checked', async () => {
    expect(await labels(app('  if (link?.ownerId !== session.user.id) return res.status(401).json({ response: "Not yours." });'))).toEqual([]);
  });

  it('without the check the deletion is a finding', async () => {
    expect(await labels(app('  if (!link) return res.status(404).json({ response: "Not found." });'))).toEqual(['authn_only:pages/api/links/[id]/archive.ts:9']);
  });
});
