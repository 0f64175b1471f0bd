/**
 * A current user that is a shared guest account when nobody is logged in (`function user() { return
 * auth()->user() ?: User::getDefault(); }`): comparing an id with it proves ownership only where a login
 * check runs too, since every anonymous visitor is that guest. A function that answers true only for a
 * logged-in caller (`return auth()->user() && !auth()->user()->isDefault();`) is a login predicate:
 * leaving when it is false is a login check.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';
import { GUEST_BASE_CONTROLLER as base } from './guest-fixtures.js';

/** The application's helpers: `user()` answers `currentUser` (the guest fallback or not). */
const helpers = (currentUser: string, signedIn = 'auth()->user() && !auth()->user()->isGuest()') => `<?php
function user(): User
{
    return ${currentUser};
}

function signedInUser(): bool
{
    return ${signedIn};
}
`;


/** A profile controller: `destroy` deletes the account after `guard`. */
const users = (guard: string) => `<?php
namespace App\\Http;
class UserController extends Controller
{
    public function destroy(int $id)
    {
${guard}
        $user = User::findOrFail($id);
        $user->delete();
        return redirect('/');
    }
}
`;

const routes = (middleware: string) => `<?php
Route::middleware('${middleware}')->group(function () {
    Route::delete('/settings/users/{id}', [UserController::class, 'destroy']);
});
`;

async function findings(input: { currentUser: string; guard: string; middleware?: string; signedIn?: string }): Promise<string[]> {
  const files = {
    'app/helpers.php': helpers(input.currentUser, input.signedIn),
    'app/Http/Controller.php': base,
    'app/Http/UserController.php': users(input.guard),
    'routes/web.php': routes(input.middleware ?? 'web'),
  };
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.operationsChecked).toBeGreaterThan(0);
  return result.findings.map((f) => `${f.entry.function} ${f.function}`);
}

const guestFallback = 'auth()->user() ?: User::getDefault()';
const ownerCheck = "        $this->checkPermissionOrCurrentUser('users-manage', $id);";

describe('a current user that is the guest account when nobody is logged in', () => {
  it('comparing with it is no ownership for an anonymous caller', async () => {
    expect(await findings({ currentUser: guestFallback, guard: ownerCheck })).toEqual(['UserController.destroy UserController.destroy']);
    // the callback written at the call site
    expect(await findings({ currentUser: guestFallback, guard: "        $this->checkPermissionOr('users-manage', fn () => $id === user()->id);" })).toEqual(['UserController.destroy UserController.destroy']);
    for (const currentUser of ['auth()->user() ?? User::guest()', 'auth()->check() ? auth()->user() : User::getDefault()']) {
      expect(await findings({ currentUser, guard: ownerCheck }), currentUser).toEqual(['UserController.destroy UserController.destroy']);
    }
  });

  it('a login check before it makes the comparison ownership again', async () => {
    // the application's login predicate, left on when false through a helper
    expect(await findings({ currentUser: guestFallback, guard: `        $this->preventGuestAccess();\n${ownerCheck}` })).toEqual([]);
    // the predicate written in the handler
    expect(await findings({ currentUser: guestFallback, guard: `        if (!signedInUser()) {\n            abort(403);\n        }\n${ownerCheck}` })).toEqual([]);
    // the fallback's own test (`User::getDefault()` answers the guest, `isDefault()` tells it apart), and Laravel's guest test
    for (const test of ['user()->isDefault()', 'auth()->guest()', '!Auth::check()']) {
      expect(await findings({ currentUser: guestFallback, guard: `        if (${test}) {\n            throw new HttpException(403, 'Forbidden');\n        }\n${ownerCheck}` }), test).toEqual([]);
    }
    // Laravel's auth middleware
    expect(await findings({ currentUser: guestFallback, guard: ownerCheck, middleware: 'auth' })).toEqual([]);
    // other login predicates
    for (const signedIn of ['auth()->check()', 'Auth::check() && !user()->isGuest()', 'auth()->user() !== null']) {
      expect(await findings({ currentUser: guestFallback, guard: `        $this->preventGuestAccess();\n${ownerCheck}`, signedIn }), signedIn).toEqual([]);
    }
  });

  it('a current user with no fallback, or a null one, is nobody when nobody is logged in', async () => {
    for (const currentUser of ['auth()->user()', 'auth()->user() ?: null']) {
      expect(await findings({ currentUser, guard: ownerCheck }), currentUser).toEqual([]);
    }
  });

  it('a predicate that may answer true for an anonymous caller, or a failure that falls through, is no login check', async () => {
    for (const signedIn of ["auth()->check() || setting('app-public')", 'true', 'user() !== null', '!auth()->check()']) {
      expect(await findings({ currentUser: guestFallback, guard: `        $this->preventGuestAccess();\n${ownerCheck}`, signedIn }), signedIn).toEqual(['UserController.destroy UserController.destroy']);
    }
    // a test of something else than the fallback, or of the guest in the wrong polarity
    for (const test of ['user()->isAdmin()', '!user()->isDefault()', 'auth()->check()']) {
      expect(await findings({ currentUser: guestFallback, guard: `        if (${test}) {\n            throw new HttpException(403, 'Forbidden');\n        }\n${ownerCheck}` }), test).toEqual(['UserController.destroy UserController.destroy']);
    }
    const fallsThrough = `        if (!signedInUser()) {\n            Log::info('guest');\n        }\n${ownerCheck}`;
    expect(await findings({ currentUser: guestFallback, guard: fallsThrough })).toEqual(['UserController.destroy UserController.destroy']);
  });
});
