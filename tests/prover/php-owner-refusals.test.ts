/**
 * A PHP action that refuses (an authorization exception, abort(403) or abort_if/abort_unless) when a
 * record's owner id is not the logged-in user's is an ownership check bound to that record. A
 * comparison with an id the request sent, a refusal that falls through, or one narrowed by another
 * condition checks nothing.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

function prove(files: Record<string, string>) {
  return proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
}

/** A controller revoking an access key, after `guard`. */
const keyController = (guard: string) => `<?php
namespace App\\Http\\Controllers;
class AccessKeyController extends Controller
{
    public function destroy(Request $request, AccessKey $accessKey)
    {
${guard}
        $accessKey->delete();
        return response()->noContent();
    }
}
`;

/** A base controller with its own accessor for the logged-in user. */
const baseController = `<?php
namespace App\\Http\\Controllers;
class Controller
{
    protected function currentMember(): Member
    {
        $member = Auth::user();
        if ($member === null) {
            throw new AuthenticationException();
        }
        return $member;
    }
}
`;

const routes = "<?php\nRoute::middleware('auth:sanctum')->group(function () {\n    Route::delete('/me/access-keys/{accessKey}', [AccessKeyController::class, 'destroy']);\n});\n";

async function labels(guard: string): Promise<string[]> {
  const result = await prove({ 'app/Http/Controllers/Controller.php': baseController, 'app/Http/Controllers/AccessKeyController.php': keyController(guard), 'routes/api.php': routes });
  return result.findings.map((f) => f.label);
}

describe('PHP owner comparisons answered by a refusal', () => {
  it('the record owner compared with the logged-in user, refused, is ownership of that record', async () => {
    for (const guard of [
      "        if ($accessKey->user_id !== Auth::id()) {\n            throw new AuthorizationException('Not your key');\n        }",
      '        if ($accessKey->user_id !== auth()->id()) abort(403);',
      '        if ($accessKey->user_id != $request->user()->id) {\n            abort(403);\n        }',
      '        if ($accessKey->owner->isNot($request->user())) {\n            abort(404);\n        }',
      '        abort_if($accessKey->user_id !== auth()->id(), 403);',
      '        abort_unless($accessKey->user_id === auth()->id(), 403);',
      '        if ($accessKey->user_id !== $this->currentMember()->getKey()) {\n            throw new AuthorizationException();\n        }',
      '        $member = $this->currentMember();\n        if ($accessKey->user_id !== $member->getKey()) {\n            throw new AccessDeniedHttpException();\n        }',
      "        if ($accessKey->user_id !== auth()->id() && ! $request->user()->isAdmin()) {\n            abort(403);\n        }",
    ]) {
      expect(await labels(guard), guard).toEqual([]);
    }
  });

  it('a comparison with a request value, a refusal that falls through, or a narrowed one is no ownership check', async () => {
    for (const guard of [
      "        if ($accessKey->user_id !== $request->input('user_id')) {\n            abort(403);\n        }",
      "        if ($accessKey->user_id !== Auth::id()) {\n            Log::notice('someone else');\n        }",
      '        if ($accessKey->user_id !== Auth::id() && $accessKey->shared) {\n            abort(403);\n        }',
      '        if ($accessKey->user_id === Auth::id()) {\n            abort(403);\n        }',
    ]) {
      expect(await labels(guard), guard).toEqual(['authn_only']);
    }
  });

  it('ownership of another record leaves the request-chosen record unbound', async () => {
    const guard = "        $other = AccessKey::findOrFail($request->input('other'));\n        if ($other->user_id !== Auth::id()) {\n            abort(403);\n        }";
    expect(await labels(guard)).toEqual(['resource_unbound']);
  });
});
