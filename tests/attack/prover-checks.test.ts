/**
 * Attacks on what this round lets count as an authorization check (src/prover/enforcement.ts,
 * branches.ts, laravel-form-request.ts, laravel-middleware.ts): a predicate helper that can answer
 * true without its check, a check that runs only under a condition or inside a try, an assertion that a
 * request value can satisfy, a FormRequest whose answer the request decides, a middleware that checks
 * only sometimes. Each must leave the operation a finding; the honest shape next to it must not.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

async function labels(files: Record<string, string>): Promise<string[]> {
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.operationsChecked).toBeGreaterThan(0);
  return result.findings.map((f) => f.label);
}

const routes = "<?php\nRoute::middleware('auth')->group(function () {\n    Route::post('team/{id}/promote', [TeamController::class, 'promote']);\n});\n";

/** A controller whose `promote` runs `body`, then gives member `$id` the admin role; `helpers` are more methods. */
const team = (body: string, helpers = '') => ({
  'app/Http/Controllers/TeamController.php': `<?php
namespace App\\Http\\Controllers;
class TeamController extends Controller
{
${helpers}
    public function promote(Request $request, int $id)
    {
${body}
        Member::query()->findOrFail($id)->syncRoles(['admin']);
        return redirect('/team');
    }
}
`,
  'routes/web.php': routes,
});

const verdict = (body: string) => `    private function verdict(): bool\n    {\n${body}\n    }\n`;
const refuseUnlessVerdict = '        if (!$this->verdict()) {\n            abort(403);\n        }';

describe('attack: a predicate helper that can answer true without its check', () => {
  const lenient: Record<string, string> = {
    'a ternary choosing true': "        return config('app.debug') ? true : auth()->user()->can('team-manage');",
    'an elvis fallback': "        return auth()->user()->can('team-manage') ?: true;",
    'a match arm': "        return match (request('mode')) { 'x' => true, default => auth()->user()->can('team-manage') };",
    'a request value on another path': "        if (config('x')) return request('ok');\n        return auth()->user()->can('team-manage');",
    'a stored flag set inside a one-line branch': "        $ok = true;\n        if (config('x')) { $ok = auth()->user()->can('team-manage'); }\n        return $ok;",
    'an ability the request names': "        return auth()->user()->can(request('ability'));",
  };
  for (const [name, body] of Object.entries(lenient)) {
    it(`${name} is no predicate`, async () => {
      expect(await labels(team(refuseUnlessVerdict, verdict(body)))).toEqual(['authn_only']);
    });
  }

  it('caught already: ?? true, or true, a catch that answers true, return 1, a switch case returning true', async () => {
    for (const body of [
      "        return auth()->user()->can('team-manage') ?? true;",
      "        return auth()->user()->can('team-manage') or true;",
      "        try {\n            return auth()->user()->can('team-manage');\n        } catch (\\Throwable $e) {\n            return true;\n        }",
      "        if (request()->has('debug')) return 1;\n        return auth()->user()->can('team-manage');",
      "        switch (request('mode')) {\n            case 'x': return true;\n        }\n        return auth()->user()->can('team-manage');",
    ]) {
      expect(await labels(team(refuseUnlessVerdict, verdict(body))), body).toEqual(['authn_only']);
    }
  });

  it('an honest predicate, and one that denies on its other path, still check', async () => {
    expect(await labels(team(refuseUnlessVerdict, verdict("        return auth()->user()->can('team-manage');")))).toEqual([]);
    expect(await labels(team(refuseUnlessVerdict, verdict("        if (!auth()->check()) return false;\n        return auth()->user()->can('team-manage');")))).toEqual([]);
  });
});

describe('attack: a check that runs only sometimes', () => {
  it('a refusing check inside a one-line branch, a braced branch, a braceless branch, a try that swallows it, or a closure', async () => {
    for (const body of [
      "        if (config('x')) { $this->authorize('team-manage', $id); }",
      "        if (config('x')) $this->authorize('team-manage', $id);",
      "        if ($request->has('strict')) {\n            $this->authorize('team-manage', $id);\n        }",
      "        try {\n            $this->authorize('team-manage', $id);\n        } catch (\\Throwable $e) {\n            report($e);\n        }",
      "        $check = function () use ($id) {\n            $this->authorize('team-manage', $id);\n        };",
    ]) {
      expect(await labels(team(body)), body).toEqual(['authn_only']);
    }
  });

  it('an assertion a request value satisfies, one with an alternative, or one of the wrong polarity', async () => {
    for (const body of [
      "        abort_unless($request->has('admin'), 403);",
      "        abort_unless($request->user()->isAdmin() || $request->has('debug'), 403);",
      "        abort_if($request->input('role') === 'guest', 403);",
      '        abort_if($request->user()->isAdmin(), 403);',
    ]) {
      expect(await labels(team(body)), body).toEqual(['authn_only']);
    }
  });

  it('the same checks on every path still discharge the operation', async () => {
    for (const body of [
      "        $this->authorize('team-manage', $id);",
      '        abort_unless($request->user()->isAdmin(), 403);',
      '        abort_if(! $request->user()->isAdmin(), 403);',
      "        if (!auth()->user()->can('team-manage')) {\n            abort(403);\n        }",
    ]) {
      expect(await labels(team(body)), body).toEqual([]);
    }
  });
});

describe('attack: a FormRequest whose answer the request decides', () => {
  const request = (authorize: string) => `<?php
namespace App\\Http\\Requests;
use Illuminate\\Foundation\\Http\\FormRequest;
class DeletePostRequest extends FormRequest
{
    public function authorize(): bool
    {
${authorize}
    }
    public function rules(): array { return ['reason' => 'required']; }
}
`;
  const app = (authorize: string) => ({
    'app/Http/Requests/DeletePostRequest.php': request(authorize),
    'app/Http/Controllers/PostController.php': `<?php
namespace App\\Http\\Controllers;
use App\\Http\\Requests\\DeletePostRequest;
class PostController extends Controller
{
    public function destroy(DeletePostRequest $request, Post $post)
    {
        $post->delete();
        return back();
    }
}
`,
    'routes/web.php': "<?php\nuse App\\Http\\Controllers\\PostController;\nRoute::middleware('auth')->group(function () {\n    Route::delete('posts/{post}', [PostController::class, 'destroy']);\n});\n",
  });

  it('an ability or an owner id from the input, a bitwise or, an xor, a match', async () => {
    for (const body of [
      "        return $this->user()->can($this->input('ability'), $this->route('post'));",
      "        return $this->user()->canAny([$this->input('a')]);",
      "        return $this->user()->id === $this->input('user_id');",
      '        return $this->user()->id === $this->owner_id;',
      "        return $this->user()->can('delete', $this->route('post')) | true;",
      "        return $this->user()->can('delete', $this->route('post')) xor true;",
      "        return match (true) { $this->has('x') => true, default => $this->user()->can('delete', $this->route('post')) };",
    ]) {
      expect(await labels(app(body)), body).toEqual(['authn_only']);
    }
  });

  it('a policy test on the routed model, or an owner comparison with it, still checks', async () => {
    expect(await labels(app("        return $this->user()->can('delete', $this->route('post'));"))).toEqual([]);
    expect(await labels(app("        return $this->user()->id === $this->route('post')->user_id;"))).toEqual([]);
  });
});

describe('attack: a middleware that checks only sometimes', () => {
  const app = (body: string) => ({
    'app/Http/Middleware/EnsureUserIsAdmin.php': `<?php
namespace App\\Http\\Middleware;
use Closure;
use Illuminate\\Http\\Request;
class EnsureUserIsAdmin
{
    public function handle(Request $request, Closure $next)
    {
${body}
        return $next($request);
    }
}
`,
    'app/Http/Controllers/AdminController.php': "<?php\nnamespace App\\Http\\Controllers;\nclass AdminController extends Controller\n{\n    public function purge()\n    {\n        Artisan::call('cache:clear');\n        return back();\n    }\n}\n",
    'routes/web.php': "<?php\nuse App\\Http\\Controllers\\AdminController;\nuse App\\Http\\Middleware\\EnsureUserIsAdmin;\nRoute::post('admin/purge', [AdminController::class, 'purge'])->middleware(EnsureUserIsAdmin::class);\n",
  });

  it('a check with a request-controlled alternative, in a one-line branch, after an early $next, in a swallowing try', async () => {
    for (const body of [
      "        abort_unless($request->user()?->isAdmin() || $request->has('debug'), 403);",
      "        if ($request->isMethod('post')) { abort_unless($request->user()?->isAdmin(), 403); }",
      "        if ($request->has('preview')) return $next($request);\n        abort_unless($request->user()?->isAdmin(), 403);",
      "        try {\n            abort_unless($request->user()?->isAdmin(), 403);\n        } catch (\\Throwable $e) {\n        }",
    ]) {
      expect(await labels(app(body)), body).toEqual(['unguarded_path']);
    }
  });

  it('the check on every path before $next still guards the route', async () => {
    expect(await labels(app('        abort_unless($request->user()?->isAdmin(), 403);'))).toEqual([]);
  });
});
