/**
 * Laravel middleware named by class, by an alias the kernel or bootstrap/app.php declares, by a group,
 * or attached to a whole routes file by the provider that loads it. A middleware class of the
 * repository counts as a check only when its handle() ends the request for a missing user or a failed
 * permission test before it calls $next: its name is never trusted.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

function prove(files: Record<string, string>) {
  return proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
}

/** Entry → label of its finding; an entry with no finding is absent. */
async function labels(files: Record<string, string>): Promise<Record<string, string>> {
  const result = await prove(files);
  expect(result.coverage.operationsChecked).toBeGreaterThan(0);
  return Object.fromEntries(result.findings.map((f) => [f.entry.function, f.label]));
}

const middleware = (name: string, body: string, after = '') => `<?php
namespace App\\Http\\Middleware;
use Closure;
use Illuminate\\Http\\Request;
class ${name}
{
    public function handle(Request $request, Closure $next, ...$params)
    {
${body}
        $response = $next($request);
${after}
        return $response;
    }
}
`;

const ADMIN_CHECKS = {
  'abort_unless on a role test': '        abort_unless($request->user()?->isAdmin(), 403);',
  'a permission test that redirects': "        if (! $request->user()->can('administer')) {\n            return redirect('/');\n        }",
};
const checkingAdmin = middleware('EnsureUserIsAdmin', ADMIN_CHECKS['abort_unless on a role test']);
const loggingOnly = middleware('EnsureUserIsAdmin', "        Log::info('admin area', ['user' => $request->user()?->id]);");
const checkAfterNext = middleware('EnsureUserIsAdmin', '', '        abort_unless($request->user()?->isAdmin(), 403);');
const checkUnderCondition = middleware('EnsureUserIsAdmin', "        if ($request->isMethod('post')) {\n            abort_unless($request->user()?->isAdmin(), 403);\n        }");
const projectLogin = middleware('Authenticate', "        if (Auth::guest()) {\n            return redirect()->guest('/login');\n        }");
const inheritedLogin = "<?php\nnamespace App\\Http\\Middleware;\nuse Illuminate\\Auth\\Middleware\\Authenticate as Middleware;\nclass Authenticate extends Middleware\n{\n    protected function redirectTo($request) { return '/login'; }\n}\n";

const controller = (constructor = '') => `<?php
namespace App\\Http\\Controllers;
use App\\Http\\Middleware\\EnsureUserIsAdmin;
class AdminController extends Controller
{
${constructor}
    public function purge()
    {
        Artisan::call('cache:clear');
        return back();
    }

    public function report()
    {
        Artisan::call('report:build');
        return back();
    }
}
`;

const routeHead = '<?php\nuse App\\Http\\Controllers\\AdminController;\nuse App\\Http\\Middleware\\EnsureUserIsAdmin;\nuse App\\Http\\Middleware\\Authenticate;\n';

function app(files: Record<string, string>): Record<string, string> {
  return { 'app/Http/Controllers/AdminController.php': controller(), ...files };
}

describe('middleware given as a class', () => {
  it('a route, an array and a group closure naming a checking class are checked; the other route is not', async () => {
    for (const [name, body] of Object.entries(ADMIN_CHECKS)) {
      const routes = {
        chained: "Route::post('admin/purge', [AdminController::class, 'purge'])->middleware(EnsureUserIsAdmin::class);",
        array: "Route::post('admin/purge', [AdminController::class, 'purge'])->middleware([Authenticate::class, EnsureUserIsAdmin::class]);",
        group: "Route::middleware([Authenticate::class, EnsureUserIsAdmin::class])->group(function () {\n    Route::post('admin/purge', [AdminController::class, 'purge']);\n});",
      };
      for (const [shape, line] of Object.entries(routes)) {
        const found = await labels(
          app({
            'app/Http/Middleware/EnsureUserIsAdmin.php': middleware('EnsureUserIsAdmin', body),
            'app/Http/Middleware/Authenticate.php': inheritedLogin,
            'routes/web.php': `${routeHead}${line}\nRoute::post('admin/report', [AdminController::class, 'report'])->middleware(Authenticate::class);\n`,
          }),
        );
        // The report route has only the login inherited from Laravel's Authenticate.
        expect(found, `${name}, ${shape}`).toEqual({ 'AdminController.report': 'authn_only' });
      }
    }
  });

  it('a class whose handle() does not check, checks after $next, or checks only under a condition is not a check, whatever its name', async () => {
    for (const [name, text] of Object.entries({ loggingOnly, checkAfterNext, checkUnderCondition })) {
      const found = await labels(
        app({
          'app/Http/Middleware/EnsureUserIsAdmin.php': text,
          'routes/web.php': `${routeHead}Route::post('admin/purge', [AdminController::class, 'purge'])->middleware(EnsureUserIsAdmin::class);\n`,
        }),
      );
      expect(found, name).toEqual({ 'AdminController.purge': 'unguarded_path' });
    }
  });

  it('constructor middleware given as a class covers the actions its only() names', async () => {
    const found = await labels({
      'app/Http/Controllers/AdminController.php': controller("    public function __construct()\n    {\n        $this->middleware(EnsureUserIsAdmin::class)->only('purge');\n    }\n"),
      'app/Http/Middleware/EnsureUserIsAdmin.php': checkingAdmin,
      'routes/web.php': `${routeHead}Route::post('admin/purge', [AdminController::class, 'purge']);\nRoute::post('admin/report', [AdminController::class, 'report']);\n`,
    });
    expect(found).toEqual({ 'AdminController.report': 'unguarded_path' });
  });
});

describe('aliases and groups declared by the application', () => {
  const kernel = (aliases: string, groups = '') => `<?php
namespace App\\Http;
use Illuminate\\Foundation\\Http\\Kernel as HttpKernel;
class Kernel extends HttpKernel
{
    protected $middlewareGroups = [
        'web' => [
            \\App\\Http\\Middleware\\EncryptCookies::class,
        ],
${groups}
    ];

    protected $middlewareAliases = [
${aliases}
    ];
}
`;
  const routes = `${routeHead}Route::post('admin/purge', [AdminController::class, 'purge'])->middleware('admin');\nRoute::post('admin/report', [AdminController::class, 'report'])->middleware('auth');\n`;

  it('an alias of the kernel is judged by the class it names: a checking class checks, a non-checking one named admin does not', async () => {
    const aliases = "        'admin' => \\App\\Http\\Middleware\\EnsureUserIsAdmin::class,\n        'auth' => \\App\\Http\\Middleware\\Authenticate::class,";
    const checked = await labels(app({ 'app/Http/Kernel.php': kernel(aliases), 'app/Http/Middleware/EnsureUserIsAdmin.php': checkingAdmin, 'app/Http/Middleware/Authenticate.php': projectLogin, 'routes/web.php': routes }));
    expect(checked).toEqual({ 'AdminController.report': 'authn_only' });
    const unchecked = await labels(app({ 'app/Http/Kernel.php': kernel(aliases), 'app/Http/Middleware/EnsureUserIsAdmin.php': loggingOnly, 'app/Http/Middleware/Authenticate.php': projectLogin, 'routes/web.php': routes }));
    expect(unchecked).toEqual({ 'AdminController.purge': 'unguarded_path', 'AdminController.report': 'authn_only' });
    // The older $routeMiddleware property declares aliases the same way.
    const older = await labels(app({ 'app/Http/Kernel.php': kernel('').replace('$middlewareAliases', '$routeMiddleware').replace('    ];\n}', `${aliases}\n    ];\n}`), 'app/Http/Middleware/EnsureUserIsAdmin.php': loggingOnly, 'app/Http/Middleware/Authenticate.php': projectLogin, 'routes/web.php': routes }));
    expect(older).toEqual({ 'AdminController.purge': 'unguarded_path', 'AdminController.report': 'authn_only' });
  });

  it('a group of the kernel applies each member, and a login middleware that does not test the user is not a login', async () => {
    const groups = "        'backoffice' => [\n            \\App\\Http\\Middleware\\Authenticate::class,\n            \\App\\Http\\Middleware\\EnsureUserIsAdmin::class,\n        ],";
    const found = await labels(
      app({
        'app/Http/Kernel.php': kernel('', groups),
        'app/Http/Middleware/EnsureUserIsAdmin.php': checkingAdmin,
        'app/Http/Middleware/Authenticate.php': middleware('Authenticate', "        session()->put('seen', true);"),
        'routes/web.php': `${routeHead}Route::middleware('backoffice')->group(function () {\n    Route::post('admin/purge', [AdminController::class, 'purge']);\n});\nRoute::post('admin/report', [AdminController::class, 'report'])->middleware(Authenticate::class);\n`,
      }),
    );
    expect(found).toEqual({ 'AdminController.report': 'unguarded_path' });
  });

  it("Laravel 11's bootstrap/app.php declares aliases and appends to the web group", async () => {
    const bootstrap = (inside: string) => `<?php
use App\\Http\\Middleware\\EnsureUserIsAdmin;
use Illuminate\\Foundation\\Application;
use Illuminate\\Foundation\\Configuration\\Middleware;
return Application::configure(basePath: dirname(__DIR__))
    ->withRouting(
        web: __DIR__.'/../routes/web.php',
        commands: __DIR__.'/../routes/console.php',
    )
    ->withMiddleware(function (Middleware $middleware) {
${inside}
    })
    ->create();
`;
    const aliased = await labels(app({ 'bootstrap/app.php': bootstrap("        $middleware->alias([\n            'admin' => EnsureUserIsAdmin::class,\n        ]);"), 'app/Http/Middleware/EnsureUserIsAdmin.php': checkingAdmin, 'routes/web.php': `${routeHead}Route::post('admin/purge', [AdminController::class, 'purge'])->middleware('admin');\nRoute::post('admin/report', [AdminController::class, 'report']);\n` }));
    expect(aliased).toEqual({ 'AdminController.report': 'unguarded_path' });
    const appended = await labels(app({ 'bootstrap/app.php': bootstrap('        $middleware->web(append: [\n            EnsureUserIsAdmin::class,\n        ]);'), 'app/Http/Middleware/EnsureUserIsAdmin.php': checkingAdmin, 'routes/web.php': `${routeHead}Route::post('admin/purge', [AdminController::class, 'purge']);\nRoute::post('admin/report', [AdminController::class, 'report']);\n` }));
    expect(appended).toEqual({});
  });
});

describe("a package's provider registering middleware through the router", () => {
  const provider = (body: string) => `<?php
namespace Acme\\Admin\\Providers;
use Illuminate\\Routing\\Router;
use Illuminate\\Support\\ServiceProvider;
use Acme\\Admin\\Http\\Middleware\\Gatekeeper;
class AdminServiceProvider extends ServiceProvider
{
    public function boot(Router $router)
    {
${body}
    }
}
`;
  /** A middleware that refuses guests, then asks for the permission its access list names for the current route. */
  const gatekeeper = (authorise: string) => `<?php
namespace Acme\\Admin\\Http\\Middleware;
use Closure;
use Illuminate\\Support\\Facades\\Auth;
use Illuminate\\Support\\Facades\\Route;
class Gatekeeper
{
    public function handle($request, Closure $next, $guard = 'admin')
    {
        if (! Auth::guard($guard)->check()) {
            return redirect()->route('admin.login');
        }

        $this->authoriseRoute($request);

        return $next($request);
    }

    public function authoriseRoute($request)
    {
        $acl = app('acl');
        if ($acl && isset($acl->roles[Route::currentRouteName()])) {
${authorise}
        }
    }
}
`;
  const routes = `${routeHead}Route::group(['middleware' => ['admin-area']], function () {\n    Route::post('admin/purge', [AdminController::class, 'purge'])->name('admin.purge');\n});\n`;
  const accessList = (route: string) => `<?php\nreturn [\n    [\n        'key'   => 'maintenance.purge',\n        'name'  => 'Purge',\n        'route' => ['${route}'],\n    ],\n];\n`;
  const files = (registration: string, authorise: string, listed = 'admin.purge') =>
    app({
      'packages/Acme/Admin/src/Providers/AdminServiceProvider.php': provider(registration),
      'packages/Acme/Admin/src/Http/Middleware/Gatekeeper.php': gatekeeper(authorise),
      'packages/Acme/Admin/src/Config/acl.php': accessList(listed),
      'routes/web.php': routes,
    });
  const routeAcl = '            gatekeeper()->allow($acl->roles[Route::currentRouteName()]);';

  it("an alias the provider gives with aliasMiddleware is judged by its class: a route-name access list in the class's own helper is a permission check", async () => {
    expect(await labels(files("        $router->aliasMiddleware('admin-area', Gatekeeper::class);", routeAcl))).toEqual({});
    // The same class named through a group the provider declares.
    expect(await labels(files("        $router->middlewareGroup('admin-area', [Gatekeeper::class]);", routeAcl))).toEqual({});
  });

  it('a route the access list does not name passes the middleware unchecked: only its login test counts', async () => {
    expect(await labels(files("        $router->aliasMiddleware('admin-area', Gatekeeper::class);", routeAcl, 'admin.reports'))).toEqual({ 'AdminController.purge': 'authn_only' });
  });

  it('a helper that only logs, or a permission call not keyed by the current route, leaves a login check only; an unregistered alias is nothing', async () => {
    const logs = "            logger()->info('admin route', ['route' => Route::currentRouteName()]);";
    expect(await labels(files("        $router->aliasMiddleware('admin-area', Gatekeeper::class);", logs))).toEqual({ 'AdminController.purge': 'authn_only' });
    const fixed = "            gatekeeper()->allow('dashboard');";
    expect(await labels(files("        $router->aliasMiddleware('admin-area', Gatekeeper::class);", fixed))).toEqual({ 'AdminController.purge': 'authn_only' });
    expect(await labels(files("        $router->aliasMiddleware('other-area', Gatekeeper::class);", routeAcl))).toEqual({ 'AdminController.purge': 'unguarded_path' });
  });
});

describe('middleware attached to a whole routes file', () => {
  const adminRoutes = `${routeHead}Route::post('purge', [AdminController::class, 'purge']);\n`;
  const webRoutes = `${routeHead}Route::post('report', [AdminController::class, 'report']);\n`;
  const provider = (boot: string) => `<?php
namespace App\\Providers;
use Illuminate\\Support\\Facades\\Route;
class RouteServiceProvider extends ServiceProvider
{
    public function boot(): void
    {
        $this->routes(function () {
${boot}
        });
    }
}
`;

  it('RouteServiceProvider: group(base_path(...)) and a group closure that requires the file', async () => {
    const shapes = {
      'group(base_path)': "            Route::middleware('web', 'auth', 'can:administer')->prefix('admin')->group(base_path('routes/admin.php'));\n            Route::middleware('web')->group(base_path('routes/web.php'));",
      'closure that requires': "            Route::group([\n                'middleware' => ['web', 'auth', 'can:administer'],\n                'prefix' => 'admin',\n            ], function () {\n                require base_path('routes/admin.php');\n            });\n            Route::group(['middleware' => 'web'], function () {\n                require base_path('routes/web.php');\n            });",
    };
    for (const [shape, boot] of Object.entries(shapes)) {
      const found = await labels(app({ 'app/Providers/RouteServiceProvider.php': provider(boot), 'routes/admin.php': adminRoutes, 'routes/web.php': webRoutes }));
      expect(found, shape).toEqual({ 'AdminController.report': 'unguarded_path' });
    }
  });

  it("a class the provider imports is resolved in the provider's file, and withoutMiddleware removes it however it is spelled", async () => {
    const boot = "            Route::middleware(EnsureUserIsAdmin::class)->group(base_path('routes/admin.php'));";
    const providerText = provider(boot).replace('use Illuminate\\Support\\Facades\\Route;', 'use Illuminate\\Support\\Facades\\Route;\nuse App\\Http\\Middleware\\EnsureUserIsAdmin;');
    const plainAdmin = "<?php\nuse App\\Http\\Controllers\\AdminController;\nRoute::post('purge', [AdminController::class, 'purge']);\nRoute::post('report', [AdminController::class, 'report'])->withoutMiddleware(\\App\\Http\\Middleware\\EnsureUserIsAdmin::class);\n";
    const found = await labels(app({ 'app/Providers/RouteServiceProvider.php': providerText, 'app/Http/Middleware/EnsureUserIsAdmin.php': checkingAdmin, 'routes/admin.php': plainAdmin }));
    expect(found).toEqual({ 'AdminController.report': 'unguarded_path' });
  });

  it("bootstrap/app.php withRouting: the then: callback's file gets its middleware, the web file only the web group", async () => {
    const bootstrap = `<?php
use Illuminate\\Foundation\\Application;
use Illuminate\\Support\\Facades\\Route;
return Application::configure(basePath: dirname(__DIR__))
    ->withRouting(
        web: __DIR__.'/../routes/web.php',
        then: function () {
            Route::middleware(['web', 'auth', 'can:administer'])->group(base_path('routes/admin.php'));
        },
    )
    ->create();
`;
    const found = await labels(app({ 'bootstrap/app.php': bootstrap, 'routes/admin.php': adminRoutes, 'routes/web.php': webRoutes }));
    expect(found).toEqual({ 'AdminController.report': 'unguarded_path' });
  });
});

describe('FormRequest::authorize()', () => {
  const request = (name: string, authorize: string | null, base = 'FormRequest') => `<?php
namespace App\\Http\\Requests;
use Illuminate\\Foundation\\Http\\FormRequest;
class ${name} extends ${base}
{
${authorize === null ? '' : `    public function authorize(): bool\n    {\n${authorize}\n    }\n`}
    public function rules(): array { return ['name' => 'required']; }
}
`;
  const postController = (type: string) => `<?php
namespace App\\Http\\Controllers;
use App\\Http\\Requests\\${type};
class PostController extends Controller
{
    public function destroy(${type} $request, Post $post)
    {
        $post->delete();
        return back();
    }
}
`;
  const routes = "<?php\nuse App\\Http\\Controllers\\PostController;\nRoute::middleware('auth')->group(function () {\n    Route::delete('posts/{post}', [PostController::class, 'destroy']);\n});\n";
  const run = (authorize: string | null, base?: string, extra: Record<string, string> = {}) =>
    labels({ 'app/Http/Requests/DeletePostRequest.php': request('DeletePostRequest', authorize, base), 'app/Http/Controllers/PostController.php': postController('DeletePostRequest'), 'routes/web.php': routes, ...extra });

  it('an authorize() that answers with a policy test, a role predicate or an owner comparison checks the action', async () => {
    const answers = {
      policy: "        return $this->user()->can('delete', $this->route('post'));",
      gate: "        return Gate::allows('delete-posts');",
      role: '        return $this->user()->isAdmin();',
      owner: "        return $this->user()->id === $this->route('post')->user_id;",
      'owner on two lines': "        return $this->route('post')->user_id\n            === auth()->id();",
      'either of two checks': "        return $this->user()->isAdmin() || $this->user()->can('delete', $this->route('post'));",
    };
    for (const [name, body] of Object.entries(answers)) expect(await run(body), name).toEqual({});
  });

  it('a form request inherited from the project base request is read through the chain', async () => {
    const found = await run(null, 'BaseRequest', { 'app/Http/Requests/BaseRequest.php': request('BaseRequest', "        return $this->user()->can('moderate');") });
    expect(found).toEqual({});
  });

  it('return true, no authorize(), a conditional true, and a login-only answer do not check ownership or permission', async () => {
    for (const [name, body] of Object.entries({ 'return true': '        return true;', 'no authorize()': null, 'conditional true': "        if ($this->user()->can('delete', $this->route('post'))) {\n            return true;\n        }\n        return true;", 'login only': '        return auth()->check();', 'a check or true': "        return $this->user()->can('delete', $this->route('post')) || true;", 'a check or anything': "        return $this->user()->can('delete', $this->route('post')) ?: $this->boolean('force');", 'a ternary with true': "        return $this->has('draft') ? true : $this->user()->can('delete', $this->route('post'));" })) {
      expect(await run(body), name).toEqual({ 'PostController.destroy': 'authn_only' });
    }
  });

  it('a login-only answer is a login check (the route itself has none), return true is nothing', async () => {
    const bare = "<?php\nuse App\\Http\\Controllers\\PostController;\nRoute::delete('posts/{post}', [PostController::class, 'destroy']);\n";
    expect(await run('        return auth()->check();', undefined, { 'routes/web.php': bare })).toEqual({ 'PostController.destroy': 'authn_only' });
    expect(await run('        return true;', undefined, { 'routes/web.php': bare })).toEqual({ 'PostController.destroy': 'unguarded_path' });
  });

  it('a parameter typed with a class that is not a form request is not read', async () => {
    const found = await labels({
      'app/Http/Requests/DeletePostRequest.php': request('DeletePostRequest', "        return $this->user()->can('delete', $this->route('post'));", 'Data'),
      'app/Http/Controllers/PostController.php': postController('DeletePostRequest'),
      'routes/web.php': routes,
    });
    expect(found).toEqual({ 'PostController.destroy': 'authn_only' });
  });
});

describe('login tests in a middleware', () => {
  it('a test that fires only for a logged-in user (auth()->check() && ...) is not a login check; a negated user or a guest test is', async () => {
    const routes = `${routeHead}Route::post('admin/purge', [AdminController::class, 'purge'])->middleware(Authenticate::class);\n`;
    const bodies = {
      'confirmed-email check of a logged-in user': ["        if (auth()->check() && !auth()->user()->email_confirmed) {\n            return redirect('/');\n        }", 'unguarded_path'],
      'negated user': ["        if (!$request->user()) {\n            return redirect('/login');\n        }", 'authn_only'],
      'guest or not confirmed': ["        if (Auth::guest() || !auth()->user()->email_confirmed) {\n            abort(401);\n        }", 'authn_only'],
      'negated user helper predicate': ["        if (!current()->hasAppAccess()) {\n            return redirect('/login');\n        }", 'authn_only'],
      // `visitor()` answers a guest account when nobody is logged in: the test asks what the guest may do
      'negated guest-fallback helper predicate': ["        if (!visitor()->hasAppAccess()) {\n            return redirect('/login');\n        }", 'unguarded_path'],
    };
    const helpers = "<?php\nfunction current(): ?User\n{\n    return auth()->user();\n}\n\nfunction visitor(): User\n{\n    return auth()->user() ?: User::guest();\n}\n";
    for (const [name, [body, label]] of Object.entries(bodies)) {
      const found = await labels(app({ 'app/helpers.php': helpers, 'app/Http/Middleware/Authenticate.php': middleware('Authenticate', body ?? ''), 'routes/web.php': routes }));
      expect(found, name).toEqual({ 'AdminController.purge': label });
    }
  });
});
