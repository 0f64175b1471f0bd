/**
 * A Next.js API route that takes the logged-in user from the app's own helper over next-auth's
 * `getToken({ req })`: the helper returns the user row found by the JWT's id, or null, and the route
 * leaves on null. A write keyed by that user's id is the caller's own. Each has a twin
 * that stays a finding: a helper that returns a row looked up by an id the request chose, a helper that
 * answers a message (not null) when nobody is signed in, a route that never leaves on null.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

async function findings(files: Record<string, string>): Promise<string[]> {
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.operationsChecked).toBeGreaterThan(0);
  return result.findings.map((f) => `${f.path}:${f.line}:${f.operation.id}`);
}

const tokenModule = `import { getToken } from "next-auth/jwt";
export default async function readToken(req) {
  return getToken({ req });
}
`;

/** The app's session helper; `lookup` is how it finds the row, `missing` what it answers without a login. */
const authModule = (lookup: string, missing = 'null'): string => `import { prisma } from "@/lib/prisma";
import readToken from "./readToken";
export default async function currentAccount({ req }) {
  const token = await readToken(req);
  if (!token) return ${missing};
  const account = await prisma.account.findUnique({ where: { id: ${lookup} } });
  if (!account) return null;
  return account;
}
`;

const controller = `import { prisma } from "@/lib/prisma";
export default async function renameNote(accountId, noteId, title) {
  return prisma.note.updateMany({ where: { id: noteId, accountId }, data: { title } });
}
`;

const route = (guard: string): string => `import currentAccount from "@/lib/currentAccount";
import renameNote from "@/lib/renameNote";
export default async function handler(req, res) {
  const account = await currentAccount({ req, res });
${guard}
  const result = await renameNote(account.id, Number(req.query.id), req.body.title);
  return res.status(200).json(result);
}
`;

const app = (auth: string, guard = '  if (!account) return;'): Record<string, string> => ({
  'lib/prisma.ts': 'export const prisma = {} as any;\n',
  'lib/readToken.ts': tokenModule,
  'lib/currentAccount.ts': auth,
  'lib/renameNote.ts': controller,
  'pages/api/notes/[id].ts': route(guard),
});

describe('a logged-in user taken through helpers over next-auth getToken', () => {
  it('owns a write keyed by the id of the user the helper returns, once the route leaves on null', async () => {
    expect(await findings(app(authModule('token.id')))).toEqual([]);
  });

  it('reports the write when the helper returns a row looked up by an id the request chose', async () => {
    expect(await findings(app(authModule('Number(req.query.accountId)')))).toContainEqual(expect.stringMatching(/^lib\/renameNote\.ts:3:/));
  });

  it('reports the write when the helper answers a message without a login and the route tests it for null', async () => {
    expect(await findings(app(authModule('token.id', '"Sign in first."')))).toContainEqual(expect.stringMatching(/^lib\/renameNote\.ts:3:/));
  });

  it('reports the write when the route goes on without testing the helper for null', async () => {
    expect(await findings(app(authModule('token.id'), '  console.log("request");'))).toContainEqual(expect.stringMatching(/^lib\/renameNote\.ts:3:/));
  });
});
