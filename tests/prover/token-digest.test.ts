/**
 * A record keyed by a digest of the token the caller presents (`sessionId = sha256(token)`) can only be
 * named by the token's holder: writes keyed by it are the caller's own. A digest of an id the request
 * chose is not; the rest of a destructured owned record (`{ user, ...session }`) keeps its owner.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

const files = (key: string): Record<string, string> => ({
  'app/routes/home.tsx': `import { validateSessionToken } from '~/session.server'
export async function loader({ request, params }: { request: Request; params: { id: string } }) {
  const token = request.headers.get('cookie') ?? ''
  await validateSessionToken(token, params.id)
  return null
}
`,
  'app/session.server.ts': `import { prisma } from '~/db.server'
export const validateSessionToken = async (token: string, id: string) => {
  const sessionId = encodeHexLowerCase(sha256(new TextEncoder().encode(${key})));
  const result = await prisma.session.findUnique({ where: { id: sessionId } });
  if (!result) {
    return null;
  }
  await prisma.session.delete({ where: { id: sessionId } });
  const { user, ...session } = result;
  await prisma.session.update({ where: { id: session.id }, data: { seenBy: user.id } });
  return result;
};
`,
});

async function labels(key: string): Promise<string[]> {
  const result = await proveChange({ root: '/repo', files: Object.entries(files(key)).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.operationsChecked).toBe(2);
  return result.findings.map((f) => f.label);
}

describe('a digest of the caller\'s token', () => {
  it('keys the caller\'s own record; a digest of a request-chosen id does not', async () => {
    expect(await labels('token')).toEqual([]);
    expect(await labels('id')).toEqual(['unguarded_path', 'unguarded_path']);
  });
});
