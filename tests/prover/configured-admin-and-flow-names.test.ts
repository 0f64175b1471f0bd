/**
 * Two Next.js API route shapes that self-hosted apps write. A deployment names its one administrator by
 * id (`if (user.id === Number(process.env.NEXT_PUBLIC_ADMIN || 1))`): only that account lists every
 * user, an administrator check; the same comparison with a value the request sends, or with the test
 * turned round, checks nothing. And an email-verification route exported as `verifyEmail` is an
 * authentication flow like `handleVerifyEmail`: it writes the record of the account being verified.
 */
import { describe, expect, it } from 'vitest';
import { proverLabels as labels } from '../helpers/prover-labels.js';

const listUsers = (test: string): Record<string, string> => ({
  'lib/prisma.ts': 'export const prisma = {} as any;\n',
  'pages/api/users/index.ts': `import { getServerSession } from "next-auth";
import { prisma } from "@/lib/prisma";
export default async function users(req, res) {
  const session = await getServerSession(req, res);
  if (!session) return res.status(401).json({ response: "Sign in." });
  const user = session.user;
  if (${test}) {
    const all = await prisma.user.findMany({ select: { id: true, email: true } });
    return res.status(200).json({ response: all });
  }
  return res.status(200).json({ response: [user] });
}
`,
});

/** An email-verification route; by default it takes the email from the request, keyed by nothing the caller proved. */
const verification = (name: string, lookup = '  const email = String(req.query.email);', after = ''): Record<string, string> => ({
  'lib/prisma.ts': 'export const prisma = {} as any;\n',
  'pages/api/auth/verify-email.ts': `import { prisma } from "@/lib/prisma";
export default async function ${name}(req, res) {
  const token = String(req.query.token);
  const found = await prisma.verificationToken.findFirst({ where: { token, expires: { gt: new Date() } } });
${lookup}
  await prisma.user.update({ where: { email }, data: { emailVerified: new Date() } });
${after}
  return res.status(200).json({ response: "ok" });
}
`,
});

describe('the administrator id a deployment configures', () => {
  it('the caller compared with it is an administrator check', async () => {
    for (const test of ['user.id === Number(process.env.NEXT_PUBLIC_ADMIN || 1)', 'Number(process.env.NEXT_PUBLIC_ADMIN || 1) === user.id', 'user?.id === parseInt(process.env.APP_ADMIN_ID)']) {
      expect(await labels(listUsers(test)), test).toEqual([]);
    }
  });

  it('a value the request sends, or the test turned round, is no check', async () => {
    for (const test of ['user.id === Number(req.query.admin)', 'user.id !== Number(process.env.NEXT_PUBLIC_ADMIN || 1)']) {
      expect(await labels(listUsers(test)), test).toEqual(['authn_only:pages/api/users/index.ts:8']);
    }
  });
});

describe('an authentication flow named in lower camel case', () => {
  it('`verifyEmail` writes the account being verified', async () => {
    expect(await labels(verification('verifyEmail'))).toEqual([]);
  });

  it('another name is not a flow', async () => {
    expect(await labels(verification('changeEmail'))).toEqual(['unguarded_path:pages/api/auth/verify-email.ts:6']);
  });
});

describe('a token lookup whose miss is tested through a field of it', () => {
  it('the rows keyed by that field are the token holder\'s', async () => {
    expect(await labels(verification('changeEmail', '  const email = found?.identifier;\n  if (!email) return res.status(400).json({ response: "Invalid token." });'))).toEqual([]);
  });

  it('a field tested only after the write proves nothing', async () => {
    expect(await labels(verification('changeEmail', '  const email = found?.identifier;', '  if (!email) return res.status(400).json({ response: "Invalid token." });'))).toEqual(['unguarded_path:pages/api/auth/verify-email.ts:6']);
  });
});
