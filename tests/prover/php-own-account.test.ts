/**
 * Deleting an account is a user-admin operation: a permission discharges it, and so does a check that
 * the account is the caller's own (`if ($member->getKey() !== Auth::id()) throw ...`): closing one's own
 * account is self-service. Deleting an account the route names with only a login before it is still a
 * finding.
 */
import { describe, expect, it } from 'vitest';
import { proverLabels as labels } from '../helpers/prover-labels.js';

const app = (guard: string): Record<string, string> => ({
  'app/Http/Controllers/MemberController.php': `<?php
namespace App\\Http\\Controllers;
class MemberController extends Controller
{
    public function destroy(Member $member, AccountRemover $remover)
    {
${guard}
        $remover->deleteUser($member);
        return response()->noContent();
    }
}
`,
  'routes/api.php': "<?php\nRoute::middleware('auth:api')->group(function () {\n    Route::delete('/members/{member}', [MemberController::class, 'destroy']);\n});\n",
});

describe('deleting an account', () => {
  it('is the caller\'s own to delete once the account is checked to be theirs', async () => {
    expect(await labels(app('        if ($member->getKey() !== Auth::id()) {\n            throw new AuthorizationException();\n        }'))).toEqual([]);
  });

  it('with only a login it is a finding', async () => {
    expect(await labels(app('        // nothing'))).toEqual(['authn_only:app/Http/Controllers/MemberController.php:8']);
  });
});
