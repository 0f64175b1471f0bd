/**
 * Attacks on "a lookup scoped by the logged-in user owns what it returns" (src/prover/ownership.ts):
 * criteria that name the user but can match a row without it.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

const route = (where: string) => `import { redirect } from '@remix-run/node'
import { requireUser } from '~/utils/session.server'
import { db, callTable } from '~/utils/db.server'
export async function action({ params, request }) {
  const user = await requireUser(request)
  const call = await db.findOne(callTable, {
    where: ${where},
  })
  if (!call) {
    return redirect('/calls')
  }
  await db.delete(callTable, params.callId)
  return redirect('/calls')
}
`;

async function labels(where: string): Promise<string[]> {
  const result = await proveChange({ root: '/repo', files: [{ path: 'app/routes/calls.$callId.tsx', text: route(where) }], touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.operationsChecked).toBeGreaterThan(0);
  return result.findings.map((f) => f.label);
}

describe('attack: a lookup that names the user but does not need it', () => {
  const cases: Record<string, string> = {
    'the user or a request value': '{ userId: user.id || params.userId, id: params.callId }',
    'a request value first, the user as fallback': '{ userId: params.userId ?? user.id, id: params.callId }',
    'a ternary the request chooses': '{ userId: params.admin ? params.userId : user.id, id: params.callId }',
    'an OR with a condition anyone meets': '{ OR: [{ userId: user.id }, { shared: true }], id: params.callId }',
    'a spread of the request after the user': '{ userId: user.id, id: params.callId, ...params }',
  };
  for (const [name, where] of Object.entries(cases)) {
    it(`${name}: reported`, async () => {
      expect(await labels(where)).toEqual(['authn_only']);
    });
  }

  it('the user as the whole value of a criterion still owns the key', async () => {
    expect(await labels('{ userId: user.id, id: params.callId }')).toEqual([]);
    expect(await labels('{ id: params.callId, userId: user.id }')).toEqual([]);
  });
});
