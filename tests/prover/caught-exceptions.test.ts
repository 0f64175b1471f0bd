/**
 * Exception paths of a token verification. A public entry that consumes an e-mailed token proves who
 * the caller is by the token: a verifier that finds the record by the token and leaves on a miss hands
 * possession to its callers, and an exception it throws after finding the record ("expired", carrying
 * the record's user) hands the same record to the catch arm. An exception that carries what the request
 * sent, a class thrown once with and once without the record, or an arm whose `try` never ran the
 * verifier carries nobody's record.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

async function findings(files: Record<string, string>): Promise<string[]> {
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.operationsChecked).toBeGreaterThan(0);
  return result.findings.map((f) => `${f.entry.function}:${f.line}:${f.label}`);
}

/** A confirmation-token service; `expired` is the throw of the expiry branch. */
const service = (expired = 'throw new TokenExpired("token {$entry->id} expired", $entry->user_id);', extra = '') => `<?php
namespace App\\Services;
use Illuminate\\Support\\Facades\\DB;
class Confirmations
{
    public function forgetUser(User $user): void
    {
        DB::table('confirmations')->where('user_id', '=', $user->id)->delete();
    }

    public function resend(User $user): void
    {
        $this->forgetUser($user);
        $user->notify(new ConfirmMail());
    }

    public function userIdFor(string $token): int
    {
        $entry = DB::table('confirmations')->where('token', '=', $token)->first();
        if (is_null($entry)) {
            throw new TokenMissing('no token ' . $token);
        }
        if ($entry->created_at < now()->subDay()) {
            ${expired}
        }
${extra}
        return $entry->user_id;
    }
}
`;

/** The public confirmation action; `arm` is the body of the expired-token catch arm. */
const controller = (arm = '$user = User::query()->findOrFail($e->userId);\n            $this->confirmations->resend($user);', tryBody = '$userId = $this->confirmations->userIdFor($token);') => `<?php
namespace App\\Http\\Controllers;
use App\\Services\\Confirmations;
class ConfirmController extends Controller
{
    public function __construct(private Confirmations $confirmations) {}

    public function confirm(Request $request)
    {
        $token = $request->input('token');
        try {
            ${tryBody}
        } catch (TokenMissing $e) {
            return redirect('/register');
        } catch (TokenExpired $e) {
            ${arm}
            return redirect('/register/confirm');
        }
        $user = User::query()->findOrFail($userId);
        $this->confirmations->forgetUser($user);
        return redirect('/login');
    }
}
`;

const routes = "<?php\nRoute::post('/register/confirm', [ConfirmController::class, 'confirm']);\n";
const app = (svc: string, ctl: string) => ({ 'app/Services/Confirmations.php': svc, 'app/Http/Controllers/ConfirmController.php': ctl, 'routes/web.php': routes });

describe('the catch arm of a token verification', () => {
  it('an exception thrown after the record was found carries it: the arm acting on its user is discharged, as is the main path', async () => {
    expect(await findings(app(service(), controller()))).toEqual([]);
  });

  it('the fixture reaches the deletion: the arm acting on a user the request names is reported', async () => {
    expect(await findings(app(service(), controller("$user = User::query()->findOrFail($request->input('user'));\n            $this->confirmations->resend($user);")))).toEqual(['ConfirmController.confirm:8:unguarded_path']);
  });

  it('an exception carrying what the request sent, or a class also thrown without the record, carries nothing', async () => {
    // thrown with the caller's own token, not the record
    expect(await findings(app(service('throw new TokenExpired("expired", (int) $token);'), controller()))).toEqual(['ConfirmController.confirm:8:unguarded_path']);
    // the same class thrown before any record was looked up, with a request value
    const early = "        if (request()->has('legacy')) {\n            throw new TokenExpired('legacy', (int) request()->input('user'));\n        }";
    expect(await findings(app(service(undefined, early), controller()))).toEqual(['ConfirmController.confirm:8:unguarded_path']);
  });

  it('an arm whose try never ran the verifier carries nothing', async () => {
    expect(await findings(app(service(), controller(undefined, "$userId = $this->legacyLookup($token);")))).toEqual(['ConfirmController.confirm:8:unguarded_path']);
  });
});
