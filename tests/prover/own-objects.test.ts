/**
 * Objects that are the caller's own without a permission check: a record whose stored secret the
 * request has just proved to hold (a one-time code against its hash, a passkey response verified), a
 * row the same request created, and the session the signed session cookie names. Each has a twin that
 * looks alike and stays a finding: the verification's result not acted on, an id taken from the request
 * instead of the creation, a session id read from the query string.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

async function findings(files: Record<string, string>): Promise<string[]> {
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.operationsChecked).toBeGreaterThan(0);
  return result.findings.map((f) => `${f.entry.function}:${f.operation.id}:${f.label}`);
}

const remixRoute = (path: string, body: string, imports = ''): Record<string, string> => ({
  [path]: `import { redirect } from '@remix-run/node'
import bcrypt from 'bcryptjs'
import { db, tokenTable, userTable, sessionTable } from '~/utils/db.server'
${imports}
export async function action({ params, request }) {
  const form = await request.formData()
${body}
  return redirect('/')
}
`,
});

describe('verification that is a check: the verified record is the caller’s own', () => {
  const consume = (test: string, target = 'token.id') => `  const token = await db.find(tokenTable, params.tokenId)
  if (!token) return redirect('/expired')
  const isValid = await bcrypt.compare(String(form.get('code')), token.codeHash)
${test}
  await db.delete(tokenTable, ${target})`;

  it('a one-time code compared with the stored hash, leaving on a mismatch, discharges the delete of that record', async () => {
    expect(await findings(remixRoute('app/routes/verify.tsx', consume("  if (!isValid) return redirect('/expired')")))).toEqual([]);
    expect(await findings(remixRoute('app/routes/verify.tsx', consume("  if (!isValid) {\n    throw new Response('no', { status: 400 })\n  }")))).toEqual([]);
  });

  it('a result nobody tests, a mismatch that falls through, or another record than the verified one: reported', async () => {
    const cases = {
      'not tested': consume("  console.log('checked', isValid)"),
      'falls through': consume("  if (!isValid) console.warn('wrong code')"),
      'another record': consume("  if (!isValid) return redirect('/expired')", 'params.otherId'),
    };
    for (const [name, body] of Object.entries(cases)) expect((await findings(remixRoute('app/routes/verify.tsx', body))).map((f) => f.replace(/:authn_only$/, ':unguarded_path')), name).toEqual(['action:ts.orm-deletion:unguarded_path']);
  });

  it('a value read from the request and compared is not a verified record', async () => {
    const body = `  const input = await request.json()
  const stored = await db.find(tokenTable, params.tokenId)
  const isValid = await bcrypt.compare(input.code, stored.codeHash)
  if (!isValid) return redirect('/expired')
  await db.delete(tokenTable, input.id)`;
    expect(await findings(remixRoute('app/routes/verify.tsx', body))).toEqual(['action:ts.orm-deletion:authn_only']);
  });

  const passkey = (test: string) => `  const passkey = await db.find(passkeyTable, params.credentialId)
  if (!passkey) throw new Error('unknown passkey')
  const verification = await verifyAuthenticationResponse({
    response: await request.json(),
    credential: { id: passkey.id, publicKey: passkey.publicKey, counter: passkey.counter },
  })
${test}
  await db.update(passkeyTable, passkey.id, { counter: verification.authenticationInfo.newCounter })`;
  const webauthn = "import { verifyAuthenticationResponse } from '@simplewebauthn/server'\nimport { passkeyTable } from '~/utils/db.server'";

  it('a WebAuthn response whose verified flag is tested discharges the update of that passkey; a truthiness test of the result does not', async () => {
    expect(await findings(remixRoute('app/routes/passkey.tsx', passkey("  if (!verification.verified) throw new Error('failed')"), webauthn))).toEqual([]);
    expect(await findings(remixRoute('app/routes/passkey.tsx', passkey("  if (!verification) throw new Error('failed')"), webauthn))).toEqual(['action:ts.orm-update:unguarded_path']);
  });

  it('PHP: a password_verify against the looked-up record discharges the write on it; on a record from the request it does not', async () => {
    const controller = (write: string) => `<?php
namespace App\\Http\\Controllers;
use App\\Models\\Invite;
use Illuminate\\Http\\Request;
class InviteController extends Controller
{
    public function accept(Request $request, string $id)
    {
        $invite = Invite::where('id', $id)->first();
        if (!password_verify($request->input('code'), $invite->code_hash)) {
            abort(404);
        }
        ${write}
        return redirect('/');
    }
}
`;
    const routes = "<?php\nuse App\\Http\\Controllers\\InviteController;\nRoute::post('/invites/{id}/accept', [InviteController::class, 'accept']);\n";
    expect(await findings({ 'app/Http/Controllers/InviteController.php': controller('$invite->delete();'), 'routes/web.php': routes })).toEqual([]);
    expect(await findings({ 'app/Http/Controllers/InviteController.php': controller("$other = Invite::find($request->input('other'));\n        $other->delete();"), 'routes/web.php': routes })).toEqual(['InviteController.accept:php.model-deletion:authn_only']);
  });
});

describe('objects the same request created', () => {
  const helper = `import { db, tokenTable } from './db.server'
export async function createToken(target: string) {
  const code = Math.random().toString(36)
  const token = await db.create(tokenTable, { target, code }, { returnRow: true })
  return { token, code }
}
`;
  const signup = (cleanup: string) =>
    remixRoute(
      'app/routes/signup.tsx',
      `  const { token, code } = await createToken(String(form.get('email')))
  let tokenId: string | null = null
  try {
    tokenId = token.id
    await sendEmail(code)
  } catch (error) {
${cleanup}
    throw error
  }
  const created = await db.create(userTable, { email: String(form.get('email')) })
  await db.update(userTable, created.id, { welcomed: true })`,
      "import { createToken } from '~/utils/token.server'",
    );

  it('deleting the record a helper created for this request, and updating the user it just made, are on its own objects', async () => {
    expect(await findings({ 'app/utils/token.server.ts': helper, ...signup('    await db.delete(tokenTable, tokenId)') })).toEqual([]);
    expect(await findings({ 'app/utils/token.server.ts': helper, ...signup('    await db.delete(tokenTable, token.id)') })).toEqual([]);
  });

  it('an id taken from the request, or the variable reassigned from the request after the creation: reported', async () => {
    expect(await findings({ 'app/utils/token.server.ts': helper, ...signup("    await db.delete(tokenTable, String(form.get('tokenId')))") })).toEqual(['action:ts.orm-deletion:unguarded_path']);
    expect(await findings({ 'app/utils/token.server.ts': helper, ...signup("    tokenId = String(form.get('tokenId'))\n    await db.delete(tokenTable, tokenId)") })).toEqual(['action:ts.orm-deletion:unguarded_path']);
  });

  it('a lookup is no creation: the row found by a request id is not the request’s own', async () => {
    const body = "  const found = await db.find(userTable, params.userId)\n  await db.update(userTable, found.id, { welcomed: true })";
    expect(await findings(remixRoute('app/routes/welcome.tsx', body))).toEqual(['action:ts.orm-update:unguarded_path']);
  });
});

describe('the caller’s own session', () => {
  const helper = `import { createCookieSessionStorage } from '@remix-run/node'
import { db, sessionTable } from './db.server'
const storage = createCookieSessionStorage({ cookie: { name: '__session', secrets: [process.env.SESSION_SECRET], httpOnly: true } })
export async function getSession(request: Request) {
  const session = await storage.getSession(request.headers.get('Cookie'))
  return { session }
}
export async function expireSession(sessionId: string) {
  const row = await db.find(sessionTable, sessionId)
  if (row && row.expiresAt < Date.now()) await db.delete(sessionTable, sessionId)
}
`;
  const route = (read: string) =>
    remixRoute('app/routes/logout.tsx', `${read}\n  await expireSession(sessionId)`, "import { getSession, expireSession } from '~/utils/session.server'");

  it('the session named by the signed cookie is the caller’s own: expiring it is not an unguarded delete', async () => {
    expect(await findings({ 'app/utils/session.server.ts': helper, ...route("  const { session } = await getSession(request)\n  const sessionId = session.get('sessionId')") })).toEqual([]);
  });

  it('the session id handed on through a helper that looks the session up stays the caller’s own', async () => {
    const lookupHelper = `${helper}export async function sessionUser(sessionId: string) {
  const found = await db.find(sessionTable, sessionId)
  if (!found) throw new Error('no session')
  if (found.expiresAt < Date.now()) await db.delete(sessionTable, sessionId)
  return found.user
}
`;
    const files = remixRoute('app/routes/me.tsx', "  const { session } = await getSession(request)\n  const sessionId = session.get('sessionId')\n  const user = await sessionUser(sessionId)", "import { getSession, sessionUser } from '~/utils/session.server'");
    expect(await findings({ 'app/utils/session.server.ts': lookupHelper, ...files })).toEqual([]);
  });

  it('a session id taken from the query string or the form is anybody’s', async () => {
    expect(await findings({ 'app/utils/session.server.ts': helper, ...route("  const sessionId = new URL(request.url).searchParams.get('sessionId')") })).toEqual(['action:ts.orm-deletion:unguarded_path']);
    expect(await findings({ 'app/utils/session.server.ts': helper, ...route("  const { session } = await getSession(request)\n  const sessionId = String(form.get('sessionId'))") })).toEqual(['action:ts.orm-deletion:unguarded_path']);
  });
});

describe('token possession: a record found by the token the request holds, leaving when none matches', () => {
  const service = (lookup: string, miss = "        if (is_null($entry)) {\n            throw new TokenNotFound('no such token');\n        }") => `<?php
namespace App\\Services;
use Illuminate\\Support\\Facades\\DB;
class InviteTokens
{
    public function forgetUser(User $user): void
    {
        DB::table('invite_tokens')->where('user_id', '=', $user->id)->delete();
    }
    public function userIdFor(string $token): int
    {
        $entry = $this->lookup($token);
${miss}
        return $entry->user_id;
    }
    protected function lookup(string $token): ?object
    {
        return DB::table('invite_tokens')
            ->${lookup}
            ->first();
    }
}
`;
  const controller = `<?php
namespace App\\Http\\Controllers;
use App\\Services\\InviteTokens;
use App\\Models\\User;
class AcceptInviteController extends Controller
{
    public function __construct(private InviteTokens $tokens) {}
    public function accept(string $token)
    {
        try {
            $userId = $this->tokens->userIdFor($token);
        } catch (TokenNotFound $e) {
            return redirect('/');
        }
        $user = User::query()->findOrFail($userId);
        $this->tokens->forgetUser($user);
        return redirect('/welcome');
    }
}
`;
  const routes = "<?php\nRoute::post('/invites/{token}', [AcceptInviteController::class, 'accept']);\n";
  const prove = (svc: string) => findings({ 'app/Services/InviteTokens.php': svc, 'app/Http/Controllers/AcceptInviteController.php': controller, 'routes/web.php': routes });

  it('the user found through the token lookup (two helpers deep) is the token holder: deleting their tokens is discharged', async () => {
    expect(await prove(service("where('token', '=', $token)"))).toEqual([]);
  });

  it('a lookup that does not leave on a miss, or a lookup by an id instead of a token: reported', async () => {
    expect(await prove(service("where('token', '=', $token)", "        logger()->info('looked up');"))).toEqual(['AcceptInviteController.accept:php.model-deletion:unguarded_path']);
    expect(await prove(service("where('id', '=', $token)"))).toEqual(['AcceptInviteController.accept:php.model-deletion:unguarded_path']);
  });

  it('TypeScript: a reset code looked up by the token from the request, leaving on a miss, owns the row it found', async () => {
    const body = (miss: string, key = 'token') => `  const token = String(form.get('token'))
  const reset = await db.findFirst(tokenTable, { where: { ${key}: token } })
${miss}
  await db.delete(tokenTable, reset.id)`;
    expect(await findings(remixRoute('app/routes/reset.tsx', body("  if (!reset) throw redirect('/forgot')")))).toEqual([]);
    const deletions = async (text: string): Promise<string[]> => (await findings(remixRoute('app/routes/reset.tsx', text))).map((f) => f.replace(/:(authn_only|unguarded_path)$/, ''));
    expect(await deletions(body("  console.log('reset', reset)"))).toEqual(['action:ts.orm-deletion']);
    expect(await deletions(body("  if (!reset) throw redirect('/forgot')", 'id'))).toEqual(['action:ts.orm-deletion']);
  });
});
