/**
 * PHP and Java recall on fresh held-out fixes (part PJ, ADR 0058), on fixtures written here:
 * - a change to a Laravel route group's head (its middleware) touches every route the group declares,
 *   whichever of a handler's registrations the group holds;
 * - Spatie's `Role::create` defines a role: role administration, a login is not enough;
 * - a MyBatis DAO (`xxxDao.save/update/remove`) writes like a mapper does;
 * - a handler annotation requiring an administrator by a flag (`@PermissionLimit(adminuser = true)`)
 *   is a declared permission.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

type Touched = { path: string; lines: Set<number> }[] | null;

function prove(files: Record<string, string>, touched: Touched = null) {
  return proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched, maxDepth: 4, fanOut: 25 });
}

const names = (findings: { function: string }[]) => findings.map((f) => f.function).sort();

describe('a change to a Laravel route group head', () => {
  const controller = `<?php
namespace App\\Http\\Controllers;
use App\\Models\\Project;
use Illuminate\\Http\\Request;
class ProjectController extends Controller
{
    public function update(Request $request, $id)
    {
        $project = Project::findOrFail($id);
        $project->update(['name' => $request->name]);
        return back();
    }
    public function destroy($id)
    {
        $project = Project::findOrFail($id);
        $project->delete();
        return back();
    }
}
`;
  // Line 5 opens the group; lines 6-7 are its routes; line 9 is a route outside it.
  const web = `<?php
use Illuminate\\Support\\Facades\\Route;
use App\\Http\\Controllers\\ProjectController;

Route::group(['middleware' => ['auth']], function () {
    Route::put('projects/{id}', [ProjectController::class, 'update']);
    Route::delete('projects/{id}', [ProjectController::class, 'destroy']);
});
Route::get('/', fn () => view('welcome'));
`;
  // The same handlers registered first by an API file the change does not touch.
  const api = `<?php
use Illuminate\\Support\\Facades\\Route;
use App\\Http\\Controllers\\ProjectController;
Route::middleware(['auth:sanctum'])->group(function () {
    Route::apiResource('projects', ProjectController::class)->only(['update', 'destroy']);
});
`;
  const files = { 'app/Http/Controllers/ProjectController.php': controller, 'routes/web.php': web };
  const touchWeb = (line: number): Touched => [{ path: 'routes/web.php', lines: new Set([line]) }];

  it('touches the routes the group declares: their login-only writes are reported', async () => {
    expect(names((await prove(files, touchWeb(5))).findings)).toEqual(['ProjectController.destroy', 'ProjectController.update']);
  });

  it('a touched line outside the group touches none of its routes', async () => {
    expect((await prove(files, touchWeb(9))).findings).toEqual([]);
  });

  it('a touched route line naming no middleware keeps the reading of route files: nothing touched', async () => {
    expect((await prove(files, touchWeb(6))).findings).toEqual([]);
  });

  it('counts the group when the handler was registered first by another routes file', async () => {
    const both = { ...files, 'routes/api.php': api };
    expect(names((await prove(both, touchWeb(5))).findings)).toEqual(['ProjectController.destroy', 'ProjectController.update']);
  });

  it('a role middleware on the group discharges the same writes', async () => {
    const guarded = { ...files, 'routes/web.php': web.replace("['auth']", "['auth', 'role:admin']") };
    expect((await prove(guarded, touchWeb(5))).findings).toEqual([]);
  });
});

describe('defining a Spatie role', () => {
  const controller = (check: string) => `<?php
namespace App\\Http\\Controllers;
use Illuminate\\Http\\Request;
use Spatie\\Permission\\Models\\Role;
class RolesController extends Controller
{
    public function store(Request $request)
    {
${check}
        Role::create(['name' => $request->name]);
        return back();
    }
}
`;
  const web = `<?php
use Illuminate\\Support\\Facades\\Route;
use App\\Http\\Controllers\\RolesController;
Route::post('roles', [RolesController::class, 'store'])->middleware('auth');
`;

  it('is role administration: a login alone is reported', async () => {
    const result = await prove({ 'app/Http/Controllers/RolesController.php': controller(''), 'routes/web.php': web });
    expect(result.findings.map((f) => f.operation.id)).toEqual(['laravel.role-admin']);
  });

  it('an administrator check before it discharges it', async () => {
    const result = await prove({ 'app/Http/Controllers/RolesController.php': controller("        abort_unless($request->user()->hasRole('admin'), 403);"), 'routes/web.php': web });
    expect(result.findings).toEqual([]);
  });
});

describe('a Spring controller writing through a MyBatis DAO', () => {
  const dao = `package com.example.dao;
import org.apache.ibatis.annotations.Mapper;
@Mapper
public interface JobGroupDao {
    int save(JobGroup group);
    int remove(int id);
    JobGroup load(int id);
}
`;
  const controller = (annotation: string) => `package com.example.controller;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseBody;
@Controller
@RequestMapping("/jobgroup")
public class JobGroupController {
    @Resource
    private JobGroupDao jobGroupDao;

    @RequestMapping("/remove")
    @ResponseBody
    ${annotation}
    public String remove(int id) {
        jobGroupDao.remove(id);
        return "ok";
    }

    @RequestMapping("/loadById")
    @ResponseBody
    public JobGroup loadById(int id) {
        return jobGroupDao.load(id);
    }
}
`;
  const files = (annotation: string) => ({ 'src/main/java/com/example/dao/JobGroupDao.java': dao, 'src/main/java/com/example/controller/JobGroupController.java': controller(annotation) });

  it('reports the unguarded deletion (and no read: `load` writes nothing)', async () => {
    const result = await prove(files(''));
    expect(result.findings.map((f) => `${f.function} ${f.operation.id}`)).toEqual(['JobGroupController.remove mybatis.mapper-write']);
  });

  it('an annotation requiring an administrator by a flag discharges it', async () => {
    expect((await prove(files('@PermissionLimit(adminuser = true)'))).findings).toEqual([]);
  });

  it('the same annotation with the flag off is no permission', async () => {
    expect((await prove(files('@PermissionLimit(adminuser = false)'))).findings).toHaveLength(1);
  });
});

describe("a Laravel controller's permission norm", () => {
  const method = (name: string, check: string, read = 'Widget::find($id)') => `    public function ${name}($id = null)
    {
${check ? `        $this->authorize('${check}', Widget::class);\n` : ''}        $item = ${read};
        return view('widgets.${name}')->with('item', $item);
    }
`;
  const controller = (methods: string) => `<?php
namespace App\\Http\\Controllers;
use App\\Models\\Widget;
class WidgetsController extends Controller
{
${methods}}
`;
  const web = (names: string[]) => `<?php
use Illuminate\\Support\\Facades\\Route;
use App\\Http\\Controllers\\WidgetsController;
Route::middleware(['auth'])->group(function () {
${names.map((n) => `    Route::get('widgets/{id}/${n}', [WidgetsController::class, '${n}']);`).join('\n')}
});
`;
  const app = (methods: [string, string][]) => ({ 'app/Http/Controllers/WidgetsController.php': controller(methods.map(([n, c]) => method(n, c)).join('')), 'routes/web.php': web(methods.map(([n]) => n)) });
  const norm: [string, string][] = [['show', 'view'], ['edit', 'update'], ['restore', 'create'], ['getClone', '']];

  it('reports the one handler reading a record with no check beside three that check', async () => {
    const result = await prove(app(norm));
    expect(result.findings.map((f) => `${f.function} ${f.operation.id}`)).toEqual(['WidgetsController.getClone php.laravel-norm-read']);
  });

  it('tolerates one more open reader among four checked ones (three in four)', async () => {
    const result = await prove(app([...norm, ['custom', ''], ['destroy', 'delete']]));
    expect(names(result.findings)).toEqual(['WidgetsController.custom', 'WidgetsController.getClone']);
  });

  it('no norm when only two other handlers check', async () => {
    expect((await prove(app([['show', 'view'], ['edit', 'update'], ['getClone', '']]))).findings).toEqual([]);
  });

  it('no norm when half the readers are open', async () => {
    expect((await prove(app([...norm, ['custom', ''], ['other', '']]))).findings).toEqual([]);
  });
});

describe('a Laravel resource route naming its controller by a string, beside an API controller of the same name', () => {
  const controller = (namespace: string, check: string) => `<?php
namespace ${namespace};
use App\\Models\\Widget;
class WidgetsController extends Controller
{
    public function destroy($id)
    {
${check}        $widget = Widget::find($id);
        $widget->delete();
        return back();
    }
}
`;
  const web = (options: string) => `<?php
use Illuminate\\Support\\Facades\\Route;
Route::resource('widgets', 'WidgetsController', ['middleware' => ['auth']${options}]);
`;
  const files = (options: string) => ({
    'app/Http/Controllers/Api/WidgetsController.php': controller('App\\Http\\Controllers\\Api', "        $this->authorize('delete', Widget::class);\n"),
    'app/Http/Controllers/WidgetsController.php': controller('App\\Http\\Controllers', ''),
    'routes/web.php': web(options),
  });

  it('routes to the controller of the provider namespace, not the API one of the same name', async () => {
    const result = await prove(files(''));
    expect(result.findings.map((f) => f.path)).toEqual(['app/Http/Controllers/WidgetsController.php']);
  });

  it("reads the options array's `except`", async () => {
    expect((await prove(files(", 'except' => ['destroy']"))).findings).toEqual([]);
  });
});

describe('a Symfony controller is under no class norm', () => {
  const action = (name: string, check: string) => `    #[Route('/tags/{id}/${name}', methods: ['GET'])]
    public function ${name}Action(int $id): Response
    {
${check ? `        $this->denyAccessUnlessGranted('${check}');\n` : ''}        $tag = $this->repository->find($id);
        return $this->render('tag/${name}.html.twig', ['tag' => $tag]);
    }
`;
  it('an action reading with no check beside three that check is not reported', async () => {
    const actions: [string, string][] = [['view', 'ROLE_TAG_VIEW'], ['delete', 'ROLE_TAG_DELETE'], ['merge', 'ROLE_TAG_EDIT'], ['edit', '']];
    const result = await prove({ 'src/Controller/TagController.php': `<?php\nnamespace App\\Controller;\nuse Symfony\\Component\\Routing\\Attribute\\Route;\nclass TagController extends AbstractController\n{\n${actions.map(([n, c]) => action(n, c)).join('')}}\n` });
    expect(result.coverage.entryPoints).toBe(4);
    expect(result.findings).toEqual([]);
  });
});
