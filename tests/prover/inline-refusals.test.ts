/**
 * Checks counted by what they do: a Remix action that throws or returns a 403/401 response after a
 * test, a project helper that throws such a response (whatever its name), a webhook whose signature is
 * verified, and a token compared with a configured secret. Responses returned by a helper, refusals
 * after the operation and helpers that refuse only under another condition do not count.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

function prove(files: Record<string, string>) {
  return proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
}

/** A Remix action that promotes a member (a role change, which needs a permission check) after `guard`. */
const promoteRoute = (guard: string) => `import { prisma } from '~/utils/db.server'
import { getStaff } from '~/utils/staff.server'

export async function action({ request, params }: { request: Request; params: { id: string } }) {
${guard}
  await prisma.user.update({ where: { id: params.id }, data: { role: 'EDITOR' } })
  return null
}
`;

async function labels(files: Record<string, string>): Promise<string[]> {
  const result = await prove(files);
  expect(result.coverage.operationsChecked).toBeGreaterThan(0);
  return result.findings.map((f) => f.label);
}

const ROUTE = 'app/routes/team.$id.promote.tsx';

describe('refusals counted by what they do', () => {
  it('no test at all is a finding', async () => {
    expect(await labels({ [ROUTE]: promoteRoute('') })).toEqual(['unguarded_path']);
  });

  it('a 403 thrown or returned after a test the names do not announce is a permission check', async () => {
    for (const guard of [
      "  const member = await getStaff(request)\n  if (member?.kind !== 'staff') throw new Response('Forbidden', { status: 403 })",
      "  const member = await getStaff(request)\n  if (!member?.flags.includes('team')) {\n    return json({ error: 'not yours' }, { status: 403 })\n  }",
      "  const member = await getStaff(request)\n  if (!member) {\n    throw json(\n      { error: 'nope' },\n      { status: 403 },\n    )\n  }",
      "  const member = await getStaff(request)\n  if (!member) return data({ error: 'nope' }, 403)",
    ]) {
      expect(await labels({ [ROUTE]: promoteRoute(guard) }), guard).toEqual([]);
    }
  });

  it('a 401 is a login check only: a role change behind it is still a finding', async () => {
    const guard = "  const member = await getStaff(request)\n  if (!member) throw new Response('Unauthorized', { status: 401 })";
    expect(await labels({ [ROUTE]: promoteRoute(guard) })).toEqual(['authn_only']);
  });

  it('a refusal after the operation, or a 404, does not discharge it', async () => {
    const late = promoteRoute('').replace('  return null\n', "  if (!params.id) throw new Response('Forbidden', { status: 403 })\n  return null\n");
    expect(await labels({ [ROUTE]: late })).toEqual(['unguarded_path']);
    const notFound = promoteRoute("  if (!params.id) return new Response('Not found', { status: 404 })");
    expect(await labels({ [ROUTE]: notFound })).toEqual(['unguarded_path']);
  });

  const helperRoute = (call: string) => promoteRoute(`  ${call}`).replace("import { getStaff } from '~/utils/staff.server'", "import { ensureStaff, staffOrNull, ensureStaffWhen } from '~/utils/staff.server'");
  const helpers = `export async function ensureStaff(request: Request) {
  const member = await readSession(request)
  if (member?.kind !== 'staff') {
    throw new Response('Forbidden', { status: 403 })
  }
  return member
}

export async function ensureAdministrator(request: Request) {
  const member = await readSession(request)
  if (!member) {
    throw redirect('/login')
  }
  if (member.role !== 'ADMIN') {
    throw redirect('/')
  }
  return member
}

export async function staffOrNull(request: Request) {
  const member = await readSession(request)
  if (member?.kind !== 'staff') {
    return json({ error: 'forbidden' }, { status: 403 })
  }
  return member
}

export async function ensureStaffWhen(request: Request, strict: boolean) {
  const member = await readSession(request)
  if (strict) {
    if (member?.kind !== 'staff') {
      throw new Response('Forbidden', { status: 403 })
    }
  }
  return member
}
`;

  it("a project helper that throws a 403 on a failed test checks at its call sites, whatever it is called", async () => {
    expect(await labels({ [ROUTE]: helperRoute('await ensureStaff(request)'), 'app/utils/staff.server.ts': helpers })).toEqual([]);
    // a redirect away under a role test, after a redirect to the login page, in a helper of any name
    const administrator = helperRoute('await ensureAdministrator(request)').replace('import { ensureStaff,', 'import { ensureAdministrator, ensureStaff,');
    expect(await labels({ [ROUTE]: administrator, 'app/utils/staff.server.ts': helpers })).toEqual([]);
  });

  it('a helper that returns the refusal (the action goes on), or refuses only under another condition, does not count', async () => {
    expect(await labels({ [ROUTE]: helperRoute('await staffOrNull(request)'), 'app/utils/staff.server.ts': helpers })).toEqual(['unguarded_path']);
    expect(await labels({ [ROUTE]: helperRoute('await ensureStaffWhen(request, false)'), 'app/utils/staff.server.ts': helpers })).toEqual(['unguarded_path']);
  });

  /** A webhook route that marks a subscription paid (a write needing a permission or ownership check). */
  const webhook = (check: string) => `export async function action({ request }: { request: Request }) {
  const body = await request.text()
${check}
  await prisma.subscription.update({ where: { id: body }, data: { paid: true } })
  return new Response('ok')
}
`;

  // Only the provider (or the client given the secret) can pass: that is the entry's authorisation, so
  // the write behind it is settled, not left as a login-only finding a reviewer would dismiss.
  it('a verified webhook signature or a token compared with the configured secret authorises the sender', async () => {
    for (const check of [
      "  const event = stripe.webhooks.constructEvent(body, request.headers.get('stripe-signature') ?? '', process.env.STRIPE_WEBHOOK_SECRET)",
      "  const token = request.headers.get('authorization')?.replace('Bearer ', '')\n  if (token !== process.env.SCIM_TOKEN) {\n    return new Response('Unauthorized', { status: 401 })\n  }",
      "  const given = Buffer.from(request.headers.get('x-signature') ?? '')\n  if (!timingSafeEqual(given, expected)) throw new Response('bad signature', { status: 401 })",
    ]) {
      const found = await prove({ 'app/routes/webhooks.billing.ts': webhook(check) });
      expect(found.findings.map((f) => f.label), check).toEqual([]);
    }
  });

  it('a token comparison whose mismatch falls through proves nothing', async () => {
    const check = "  const token = request.headers.get('authorization')\n  if (token !== process.env.SCIM_TOKEN) {\n    console.warn('bad token')\n  }";
    const found = await prove({ 'app/routes/webhooks.billing.ts': webhook(check) });
    expect(found.findings.map((f) => f.label)).toEqual(['unguarded_path']);
  });
});
