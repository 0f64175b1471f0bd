/**
 * Check helpers whose alternative is a callback: `checkPermissionOr($permission, $callback)` checks the
 * permission only when the callback does not answer true. A call is a check when the callback it is
 * given returns a check (the logged-in user compared with the object's user, a recognised boolean, a
 * predicate helper); it guarantees the weaker of the two arms. A helper that does not refuse when the
 * callback fails, a test of the wrong polarity, or a callback that may answer true without a check
 * makes the call no check.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

function prove(files: Record<string, string>) {
  return proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
}

/** A base controller whose `checkPermissionOr` runs `alternativeBody` (the check under the callback test). */
const base = (alternativeBody: string) => `<?php
namespace App\\Http;
abstract class Controller
{
    protected function refuse()
    {
        throw new HttpException(403, 'Forbidden');
    }

    protected function checkPermission(string $permission): void
    {
        if (!auth()->user() || !auth()->user()->can($permission)) {
            $this->refuse();
        }
    }

    protected function checkPermissionOr(string $permission, callable $callback): void
    {
${alternativeBody}
    }

    protected function checkPermissionOrCurrentUser(string $permission, int $userId): void
    {
        $this->checkPermissionOr($permission, function () use ($userId) {
            return $userId === auth()->id();
        });
    }
}
`;

const checksUnlessCallback = '        if ($callback() !== true) {\n            $this->checkPermission($permission);\n        }';

/** A token controller: `destroy` deletes a token after `guard`. */
const tokens = (guard: string) => `<?php
namespace App\\Http;
class TokenController extends Controller
{
    public function destroy(int $userId, int $tokenId)
    {
${guard}
        $token = ApiToken::query()->where('user_id', '=', $userId)->where('id', '=', $tokenId)->firstOrFail();
        $token->delete();
        return redirect('/tokens');
    }

    protected function canUseApi(): bool
    {
        return auth()->user()->can('access-api');
    }
}
`;

const routes = "<?php\nRoute::middleware('auth')->group(function () {\n    Route::delete('/tokens/{userId}/{tokenId}', [TokenController::class, 'destroy']);\n});\n";

async function findings(guard: string, alternativeBody = checksUnlessCallback): Promise<string[]> {
  const result = await prove({ 'app/Http/Controller.php': base(alternativeBody), 'app/Http/TokenController.php': tokens(guard), 'routes/web.php': routes });
  expect(result.coverage.operationsChecked).toBeGreaterThan(0);
  return result.findings.map((f) => `${f.entry.function} ${f.label}`);
}

describe('check helpers with a callback alternative', () => {
  it('the fixture reaches the deletion behind a login only', async () => {
    expect(await findings('')).toEqual(['TokenController.destroy authn_only']);
  });

  it('a call whose callback returns a check discharges the operation', async () => {
    for (const guard of [
      // the logged-in user is the token's user, or may use the API as that user
      "        $this->checkPermissionOr('users-manage', function () use ($userId) {\n            return $userId === auth()->id() && $this->canUseApi();\n        });",
      "        $this->checkPermissionOr('users-manage', fn () => $userId === auth()->id());",
      "        $this->checkPermissionOr('users-manage', fn () => auth()->user()->can('manage-own-tokens'));",
      // through a helper that passes its own callback on
      "        $this->checkPermissionOrCurrentUser('users-manage', $userId);",
    ]) {
      expect(await findings(guard), guard).toEqual([]);
    }
    // the helper spelled with the callback's result compared to false, or negated
    for (const body of ['        if (!$callback()) {\n            $this->checkPermission($permission);\n        }', '        if (call_user_func($callback) === false) {\n            $this->checkPermission($permission);\n        }']) {
      expect(await findings("        $this->checkPermissionOr('users-manage', fn () => $userId === auth()->id());", body), body).toEqual([]);
    }
  });

  it('a callback that may answer true without a check makes the call no check', async () => {
    for (const guard of [
      "        $this->checkPermissionOr('users-manage', fn () => true);",
      "        $this->checkPermissionOr('users-manage', fn () => $userId === auth()->id() || request()->has('force'));",
      "        $this->checkPermissionOr('users-manage', fn () => $userId !== auth()->id());",
      "        $this->checkPermissionOr('users-manage', fn () => $userId > 0);",
      "        $this->checkPermissionOr('users-manage', $this->allowAll(...));",
    ]) {
      expect(await findings(guard), guard).toEqual(['TokenController.destroy authn_only']);
    }
  });

  it('a helper whose failing callback path falls through, or that checks only when the callback passes, is no check', async () => {
    const guard = "        $this->checkPermissionOr('users-manage', fn () => $userId === auth()->id());";
    for (const body of [
      // the callback's failure only logs
      "        if ($callback() !== true) {\n            Log::warning('not the owner', ['permission' => $permission]);\n        }",
      // the check's own failure falls through
      "        if ($callback() !== true) {\n            if (!auth()->user()->can($permission)) {\n                Log::warning('denied');\n            }\n        }",
      // the wrong polarity: the permission is checked only when the callback already passed
      '        if ($callback()) {\n            $this->checkPermission($permission);\n        }',
      // a return before the check lets the failing callback pass
      "        if ($callback() !== true) {\n            if (config('app.demo')) {\n                return;\n            }\n            $this->checkPermission($permission);\n        }",
    ]) {
      expect(await findings(guard, body), body).toEqual(['TokenController.destroy authn_only']);
    }
  });
});
