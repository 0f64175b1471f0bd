import { runRecogniserTable } from '../recogniser-tester.js';

const controller = `<?php
namespace App\\Http\\Controllers;
class PhotoController extends Controller
{
    public function index() { return []; }
    public function store() { return []; }
    public function show($photo) { return []; }
    public function update($photo) { return []; }
    public function destroy($photo) { return []; }
    public function archive($photo) { return []; }
}
`;

runRecogniserTable('laravel', {
  positive: [
    {
      name: 'array, string and resource route declarations',
      files: {
        'app/Http/Controllers/PhotoController.php': controller,
        'routes/web.php': `<?php
use App\\Http\\Controllers\\PhotoController;
Route::post('/photos/{photo}/archive', [PhotoController::class, 'archive']);
Route::get('/photos/{photo}', 'PhotoController@show');
Route::apiResource('photos', PhotoController::class)->only(['index', 'destroy']);
`,
      },
      entries: [
        { function: 'PhotoController.archive', line: 10 },
        { function: 'PhotoController.show', line: 7 },
        { function: 'PhotoController.index', line: 5 },
        { function: 'PhotoController.destroy', line: 9 },
      ],
    },
    {
      name: 'routes inside a middleware group closure',
      files: {
        'app/Http/Controllers/PhotoController.php': controller,
        'routes/api.php': `<?php
Route::middleware(['auth:sanctum'])->group(function () {
    Route::delete('/photos/{photo}', [PhotoController::class, 'destroy']);
});
`,
      },
      entries: [{ function: 'PhotoController.destroy', line: 9 }],
    },
    {
      name: 'closure routes, plain, arrow, after a chain and with match, are entries of their own',
      files: {
        'routes/web.php': `<?php
Route::get('/health', function () { return 'ok'; });
Route::middleware('auth')->group(function () {
    Route::post('/users/{id}/wipe', function ($id) {
        User::find($id)->delete();
    })->middleware('can:wipe-users');
    Route::match(['get', 'post'], '/ping', fn () => 'pong');
});
`,
      },
      entries: [
        { function: "Route::get('/health')", line: 2, kind: 'route' },
        { function: "Route::post('/users/{id}/wipe')", line: 4 },
        { function: "Route::match('/ping')", line: 7 },
      ],
    },
    {
      name: "a package's Http/routes.php (Laravel 5.0-5.2's route file, loaded with loadRoutesFrom) and a module's Routes/Admin/gallery-routes.php",
      files: {
        'app/Http/Controllers/PhotoController.php': controller,
        'packages/Acme/Admin/src/Http/routes.php': "<?php\nRoute::put('admin/account/update', 'PhotoController@update');\n",
        'Modules/Gallery/Routes/Admin/gallery-routes.php': "<?php\nRoute::get('gallery/{photo}', [PhotoController::class, 'show']);\n",
      },
      entries: [
        { function: 'PhotoController.show', line: 7 },
        { function: 'PhotoController.update', line: 8 },
      ],
    },
  ],
  negative: [
    {
      name: 'a group closure and closures passed to other Route methods are no entries',
      files: {
        'routes/web.php': `<?php
Route::middleware('auth')->group(function () {
    Route::bind('user', function ($value) { return User::where('name', $value)->firstOrFail(); });
});
Route::fallback(function () { return response('missing', 404); });
`,
      },
    },
    {
      name: 'a route to a controller the repository does not define is counted',
      files: { 'routes/web.php': "<?php\nRoute::get('/x', [VendorController::class, 'show']);\n" },
      unresolved: { registration_unresolved: 1 },
    },
    {
      name: 'Route calls outside route files are not read, closures there neither',
      files: {
        'app/Http/Controllers/PhotoController.php': controller,
        'app/Providers/Thing.php': "<?php\nRoute::get('/x', [PhotoController::class, 'show']);\nRoute::get('/health', function () { return 'ok'; });\n",
        'app/Http/helpers.php': "<?php\nRoute::get('/y', [PhotoController::class, 'index']);\n",
      },
      unresolved: {},
    },
  ],
});
