/**
 * A hostile change that wants exit 0 writes a helper that "refuses" on a test nothing can make true
 * (`if (false) throw new AuthorizationException;`) and calls it before a delete. A project helper that
 * throws an authorization exception is a check at its call sites only when its test reads something:
 * the permission store, the user, a call. Literals and the helper's own parameters are not that.
 */
import { describe, expect, it } from 'vitest';
import { proverLabels as labels } from '../helpers/prover-labels.js';

const app = (test: string): Record<string, string> => ({
  'app/Http/Controllers/Controller.php': `<?php
namespace App\\Http\\Controllers;
class Controller
{
    protected function checkPermission(string $permission): void
    {
        if (${test}) {
            throw new AuthorizationException;
        }
    }
}
`,
  'app/Http/Controllers/TagController.php': `<?php
namespace App\\Http\\Controllers;
class TagController extends Controller
{
    public function destroy(Tag $tag)
    {
        $this->checkPermission('tags:delete');
        $tag->delete();
        return response()->json(null, 204);
    }
}
`,
  'routes/api.php': "<?php\nRoute::middleware('auth:api')->group(function () {\n    Route::delete('/tags/{tag}', [TagController::class, 'destroy']);\n});\n",
});

describe('a refusing helper whose test reads nothing', () => {
  it('is no check: the delete stays a finding', async () => {
    for (const test of ['false', '1 === 2', "$permission === 'never'"]) {
      expect(await labels(app(test)), test).toEqual(['authn_only:app/Http/Controllers/TagController.php:8']);
    }
  });

  it('a test of the permission store is a check', async () => {
    expect(await labels(app('! $this->store->has($permission)'))).toEqual([]);
  });
});
