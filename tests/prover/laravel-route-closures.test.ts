/**
 * Laravel routes written as closures are handlers: what their bodies do is proved like a controller
 * action, with the middleware of their group and of their own chain (written after the closing brace).
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

function prove(files: Record<string, string>) {
  return proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
}

const routes = (chain: string): Record<string, string> => ({
  'routes/web.php': `<?php
use App\\Models\\User;
Route::middleware('auth')->group(function () {
    Route::post('/users/{id}/wipe', function ($id) {
        $user = User::findOrFail($id);
        $user->delete();
        return redirect('/users');
    })${chain};
});
`,
});

describe('closure routes', () => {
  it('reports a closure that deletes any user behind a login only', async () => {
    const result = await prove(routes(''));
    expect(result.findings.map((f) => [f.function, f.entry.function, f.operation.id, f.label])).toEqual([["Route::post('/users/{id}/wipe')", "Route::post('/users/{id}/wipe')", 'php.model-deletion', 'authn_only']]);
    expect(result.coverage.frameworksRecognised).toEqual({ laravel: 1 });
  });

  it('discharges it with a permission middleware chained after the closure', async () => {
    const result = await prove(routes("->middleware('can:delete-users')"));
    expect(result.findings).toEqual([]);
    expect(result.coverage.operationsDischarged).toBe(1);
  });

  it('follows a closure into the service it calls', async () => {
    const result = await prove({
      'app/Services/Wiper.php': `<?php
namespace App\\Services;
class Wiper
{
    public static function wipe($id): void
    {
        $user = User::findOrFail($id);
        $user->delete();
    }
}
`,
      'routes/api.php': `<?php
use App\\Services\\Wiper;
Route::delete('/users/{id}', fn ($id) => Wiper::wipe($id));
`,
    });
    expect(result.findings.map((f) => [f.function, f.entry.function])).toEqual([['Wiper.wipe', "Route::delete('/users/{id}')"]]);
  });
});
