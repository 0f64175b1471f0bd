/**
 * A project's own check helpers (a base-controller method or a private method around a recognised
 * check) and Laravel constructor middleware closures count as checks; helpers that check only under a
 * condition, helpers that do not check, and middleware whose `except` names the action do not.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

function prove(files: Record<string, string>) {
  return proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
}

const baseController = `<?php
namespace App\\Http;
abstract class Controller
{
    protected function refuse()
    {
        throw new HttpException(403, 'Forbidden');
    }

    protected function requireAbility(string $ability): void
    {
        if (!auth()->user() || !auth()->user()->can($ability)) {
            $this->refuse();
        }
    }

    protected function requireAbilityWhen(bool $strict, string $ability): void
    {
        if ($strict) {
            $this->requireAbility($ability);
        }
    }

    protected function remember(string $ability): void
    {
        session()->put('ability', $ability);
    }
}
`;

const memberController = (body: string, constructor = '') => `<?php
namespace App\\Http\\Controllers;
use App\\Http\\Controller;
class MemberController extends Controller
{
${constructor}
    public function destroy(Request $request, int $id)
    {
${body}
        Member::query()->findOrFail($id)->syncRoles([]);
        return redirect('/members');
    }

    public function promote(Request $request, int $id)
    {
        Member::query()->findOrFail($id)->syncRoles(['admin']);
        return redirect('/members');
    }
}
`;

const routes = "<?php\nRoute::middleware('auth')->group(function () {\n    Route::delete('members/{id}', [MemberController::class, 'destroy']);\n    Route::post('members/{id}/promote', [MemberController::class, 'promote']);\n});\n";

function unchecked(findings: { entry: { function: string } }[]): string[] {
  return [...new Set(findings.map((f) => f.entry.function))].sort();
}

describe('own check helpers', () => {
  it('a base-controller helper that checks and aborts on every path discharges the action that calls it first', async () => {
    const result = await prove({ 'app/Http/Controller.php': baseController, 'app/Http/Controllers/MemberController.php': memberController("        $this->requireAbility('members-manage');"), 'routes/web.php': routes });
    expect(unchecked(result.findings)).toEqual(['MemberController.promote']);
  });

  it('a helper that checks only under a condition, or does not check, leaves the action unchecked', async () => {
    for (const call of ["        $this->requireAbilityWhen($request->boolean('strict'), 'members-manage');", "        $this->remember('members-manage');"]) {
      const result = await prove({ 'app/Http/Controller.php': baseController, 'app/Http/Controllers/MemberController.php': memberController(call), 'routes/web.php': routes });
      expect(unchecked(result.findings)).toEqual(['MemberController.destroy', 'MemberController.promote']);
    }
  });

  it('a helper called after the operation does not discharge it', async () => {
    const late = memberController('').replace("syncRoles([]);\n", "syncRoles([]);\n        $this->requireAbility('members-manage');\n");
    const result = await prove({ 'app/Http/Controller.php': baseController, 'app/Http/Controllers/MemberController.php': late, 'routes/web.php': routes });
    expect(unchecked(result.findings)).toContain('MemberController.destroy');
  });

  it('a Jenkins nested descriptor calling the outer class private helper around checkAnyPermission is checked', async () => {
    const strategy = (helperBody: string) => `package org.example.roles;

public class RoleStrategy extends AuthorizationStrategy {
  private static void guardRoleEditing(Permission... permissions) {
${helperBody}
  }

  public static class DescriptorImpl extends Descriptor<AuthorizationStrategy> {
    @RequirePOST
    public void doSaveRoles(StaplerRequest2 req, StaplerResponse2 rsp) throws IOException {
      guardRoleEditing(Jenkins.ADMINISTER);
      Jenkins.get().setAuthorizationStrategy(new RoleStrategy());
    }

    @RequirePOST
    public void doResetRoles(StaplerRequest2 req, StaplerResponse2 rsp) throws IOException {
      Jenkins.get().checkPermission(Jenkins.ADMINISTER);
      Jenkins.get().setAuthorizationStrategy(new RoleStrategy());
    }
  }
}
`;
    const checked = await prove({ 'src/main/java/org/example/roles/RoleStrategy.java': strategy('    Jenkins.get().checkAnyPermission(permissions);') });
    expect(checked.coverage.operationsChecked).toBeGreaterThan(0);
    expect(checked.findings).toEqual([]);
    const conditional = await prove({ 'src/main/java/org/example/roles/RoleStrategy.java': strategy('    if (permissions.length > 1) {\n      Jenkins.get().checkAnyPermission(permissions);\n    }') });
    expect(unchecked(conditional.findings)).toEqual(['DescriptorImpl.doSaveRoles']);
  });

  it('a hostile helper that swallows its own check, or returns before it, does not count', async () => {
    const strategy = (helperBody: string) => `package org.example.roles;

public class RoleStrategy extends AuthorizationStrategy {
  private static void guardRoleEditing(Permission... permissions) {
${helperBody}
  }

  public static class DescriptorImpl extends Descriptor<AuthorizationStrategy> {
    @RequirePOST
    public void doSaveRoles(StaplerRequest2 req, StaplerResponse2 rsp) throws IOException {
      guardRoleEditing(Jenkins.ADMINISTER);
      Jenkins.get().setAuthorizationStrategy(new RoleStrategy());
    }
  }
}
`;
    const path = 'src/main/java/org/example/roles/RoleStrategy.java';
    const swallowed = await prove({ [path]: strategy('    try {\n      Jenkins.get().checkAnyPermission(permissions);\n    } catch (AccessDeniedException e) {\n      LOGGER.fine("ignored");\n    }') });
    expect(unchecked(swallowed.findings)).toEqual(['DescriptorImpl.doSaveRoles']);
    const early = await prove({ [path]: strategy('    if (permissions.length == 1) return;\n    Jenkins.get().checkAnyPermission(permissions);') });
    expect(unchecked(early.findings)).toEqual(['DescriptorImpl.doSaveRoles']);
  });

  it('a helper whose switch checks in every case and throws by default is checked; a case without a check or a missing default is not', async () => {
    const bySwitch = (cases: string) => `package org.example.roles;

public class RoleStrategy extends AuthorizationStrategy {
  private static void guardByType(String type) {
    switch (type) {
      case "global":
        Jenkins.get().checkPermission(Jenkins.ADMINISTER);
        break;
${cases}
    }
  }

  @RequirePOST
  public void doDropRole(@QueryParameter String type, @QueryParameter String name) throws IOException {
    guardByType(type);
    roles(type).removeRole(name);
  }

  @RequirePOST
  public void doAddRole(@QueryParameter String type, @QueryParameter String name) throws IOException {
    Jenkins.get().checkPermission(Jenkins.ADMINISTER);
    roles(type).addRole(name);
  }
}
`;
    const covered = await prove({ 'src/main/java/org/example/roles/RoleStrategy.java': bySwitch('      case "project":\n        Jenkins.get().checkPermission(PROJECT_ADMIN);\n        break;\n      default:\n        throw new IllegalArgumentException(type);') });
    expect(covered.coverage.operationsChecked).toBeGreaterThan(0);
    expect(covered.findings).toEqual([]);
    for (const cases of ['      case "project":\n        LOGGER.info(type);\n        break;\n      default:\n        throw new IllegalArgumentException(type);', '      case "project":\n        Jenkins.get().checkPermission(PROJECT_ADMIN);\n        break;']) {
      const open = await prove({ 'src/main/java/org/example/roles/RoleStrategy.java': bySwitch(cases) });
      expect(unchecked(open.findings)).toEqual(['RoleStrategy.doDropRole']);
    }
  });
});

describe('Laravel constructor middleware closures', () => {
  const closure = (options: string) => `    public function __construct()
    {
        $this->middleware(function ($request, $next) {
            $this->requireAbility('members-manage');
            return $next($request);
        })${options};
    }
`;

  it('applies to every action of the controller', async () => {
    const result = await prove({ 'app/Http/Controller.php': baseController, 'app/Http/Controllers/MemberController.php': memberController('', closure('')), 'routes/web.php': routes });
    expect(result.coverage.operationsChecked).toBeGreaterThan(0);
    expect(result.findings).toEqual([]);
  });

  it('except() leaves the named action unchecked, only() leaves the others', async () => {
    const except = await prove({ 'app/Http/Controller.php': baseController, 'app/Http/Controllers/MemberController.php': memberController('', closure("->except(['promote'])")), 'routes/web.php': routes });
    expect(unchecked(except.findings)).toEqual(['MemberController.promote']);
    const only = await prove({ 'app/Http/Controller.php': baseController, 'app/Http/Controllers/MemberController.php': memberController('', closure("->only(['promote'])")), 'routes/web.php': routes });
    expect(unchecked(only.findings)).toEqual(['MemberController.destroy']);
  });

  it('a closure that checks only under a condition does not count', async () => {
    const conditional = closure('').replace("            $this->requireAbility('members-manage');\n", "            if ($request->isMethod('delete')) {\n                $this->requireAbility('members-manage');\n            }\n");
    const result = await prove({ 'app/Http/Controller.php': baseController, 'app/Http/Controllers/MemberController.php': memberController('', conditional), 'routes/web.php': routes });
    expect(unchecked(result.findings)).toEqual(['MemberController.destroy', 'MemberController.promote']);
  });
});
