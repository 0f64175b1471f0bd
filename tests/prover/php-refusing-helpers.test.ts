/**
 * A PHP project helper that throws an authorization exception (or aborts with 403) when its test fails,
 * at its top level, is a permission check where it is called, whatever the test is called: a base
 * controller's `ensureAllowed` around the project's own grant store, and overrides that call the parent
 * first. A helper that refuses only under another condition, or answers false instead of throwing, is none.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';
import type { ProverDeclarations } from '../../src/prover/declarations.js';

function prove(files: Record<string, string>, declarations?: ProverDeclarations) {
  return proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25, ...(declarations ? { declarations } : {}) });
}

const grants = `<?php
namespace App\\Support;
class Grants
{
    public function allows(Workspace $workspace, string $ability): bool
    {
        $member = Auth::user();
        return $member !== null && $member->abilitiesIn($workspace)->contains($ability);
    }
}
`;

/** The base controller, its helper's body given. */
const base = (helper: string) => `<?php
namespace App\\Http\\Controllers;
use App\\Support\\Grants;
use Illuminate\\Auth\\Access\\AuthorizationException;
class Controller
{
    public function __construct(protected Grants $grants) {}

    protected function ensureAllowed(Workspace $workspace, string $ability)
    {
${helper}
    }
}
`;

const REFUSES = `        if (! $this->grants->allows($workspace, $ability)) {
            throw new AuthorizationException();
        }`;

/** A controller deleting a workspace (the object the check names) and a label of it (through an override). */
const controllers = {
  'app/Http/Controllers/WorkspaceController.php': `<?php
namespace App\\Http\\Controllers;
class WorkspaceController extends Controller
{
    public function destroy(Workspace $workspace)
    {
        $this->ensureAllowed($workspace, 'workspace:delete');
        $workspace->delete();
        return response()->noContent();
    }
}
`,
  'app/Http/Controllers/LabelController.php': `<?php
namespace App\\Http\\Controllers;
class LabelController extends Controller
{
    protected function ensureAllowed(Workspace $workspace, string $ability, ?Label $label = null)
    {
        parent::ensureAllowed($workspace, $ability);
        if ($label !== null && $label->workspace_id !== $workspace->getKey()) {
            throw new AuthorizationException('Label belongs to another workspace');
        }
    }

    public function destroy(Workspace $workspace, Label $label)
    {
        $this->ensureAllowed($workspace, 'labels:delete', $label);
        $label->delete();
        return response()->noContent();
    }
}
`,
  'routes/api.php': `<?php
Route::middleware('auth:api')->group(function () {
    Route::delete('/workspaces/{workspace}', [WorkspaceController::class, 'destroy']);
    Route::delete('/workspaces/{workspace}/labels/{label}', [LabelController::class, 'destroy']);
});
`,
};

function unchecked(findings: { entry: { function: string } }[]): string[] {
  return [...new Set(findings.map((f) => f.entry.function))].sort();
}

async function proveWith(helper: string, declarations?: ProverDeclarations) {
  return prove({ 'app/Support/Grants.php': grants, 'app/Http/Controllers/Controller.php': base(helper), ...controllers }, declarations);
}

describe('PHP helpers that refuse with an authorization exception', () => {
  it('a base-controller helper throwing AuthorizationException on a failed test of the project store is a check at its call sites, and so is an override calling the parent', async () => {
    expect(unchecked((await proveWith(REFUSES)).findings)).toEqual([]);
  });

  it('abort(403), abort_unless(..., 403) and a 403 HttpException refuse as well', async () => {
    for (const helper of [
      '        if (! $this->grants->allows($workspace, $ability)) abort(403);',
      '        abort_unless($this->grants->allows($workspace, $ability), 403);',
      "        if (! $this->grants->allows($workspace, $ability)) {\n            throw new HttpException(403, 'Forbidden');\n        }",
      "        if (! $this->grants->allows($workspace, $ability)) {\n            throw new \\Symfony\\Component\\HttpKernel\\Exception\\AccessDeniedHttpException();\n        }",
      "        if (! $this->grants->allows($workspace, $ability)) {\n            Log::info('refused');\n            throw new AuthorizationException();\n        }",
    ]) {
      expect(unchecked((await proveWith(helper)).findings), helper).toEqual([]);
    }
  });

  it('a helper that refuses only under another condition, decides by request data, answers false, or refuses with a 404 is no check', async () => {
    for (const helper of [
      `        if ($workspace->locked && ! $this->grants->allows($workspace, $ability)) {\n            throw new AuthorizationException();\n        }`,
      `        if ($workspace->locked) {\n            if (! $this->grants->allows($workspace, $ability)) {\n                throw new AuthorizationException();\n            }\n        }`,
      `        if (request()->input('ability') !== $ability) {\n            throw new AuthorizationException();\n        }`,
      `        if (! $this->grants->allows($workspace, $ability)) {\n            return false;\n        }\n        return true;`,
      `        if (! $this->grants->allows($workspace, $ability)) {\n            Log::warning('refused');\n        }`,
      '        if (! $this->grants->allows($workspace, $ability)) abort(404);',
      `        if ($workspace->archived) {\n            Log::info('archived');\n        } elseif (! $this->grants->allows($workspace, $ability)) {\n            throw new AuthorizationException();\n        }`,
    ]) {
      expect(unchecked((await proveWith(helper)).findings), helper).toEqual(['LabelController.destroy', 'WorkspaceController.destroy']);
    }
  });

  it('the refusal checks nothing in the action that writes it: the test decides there', async () => {
    const result = await prove({
      'app/Http/Controllers/NoteController.php': `<?php
namespace App\\Http\\Controllers;
class NoteController extends Controller
{
    public function destroy(Request $request, Note $note)
    {
        if ($note->archived) {
            throw new AuthorizationException();
        }
        $note->delete();
        return response()->noContent();
    }
}
`,
      'routes/api.php': "<?php\nRoute::middleware('auth:api')->delete('/notes/{note}', [NoteController::class, 'destroy']);\n",
    });
    expect(unchecked(result.findings)).toEqual(['NoteController.destroy']);
  });

  it("an accessor of the logged-in user that refuses when there is none is no permission check", async () => {
    const accessor = "        $member = Auth::user();\n        if ($member === null) {\n            throw new AuthorizationException();\n        }\n        return $member;";
    const result = await prove({
      'app/Http/Controllers/Controller.php': base(accessor).replace('ensureAllowed(Workspace $workspace, string $ability)', 'member()'),
      'app/Http/Controllers/WorkspaceController.php': controllers['app/Http/Controllers/WorkspaceController.php'].replace("$this->ensureAllowed($workspace, 'workspace:delete');", '$this->member();'),
      'routes/api.php': controllers['routes/api.php'],
    });
    expect(result.findings.map((f) => f.label)).toEqual(['authn_only']);
  });

  it('a declared guard still counts beside the reading, and is not reported stale', async () => {
    for (const helper of [REFUSES, '        Acl::demand($ability);']) {
      const result = await proveWith(helper, { guards: [{ name: 'Controller.ensureAllowed', checks: 'permission' }], public: [] });
      expect(unchecked(result.findings), helper).toEqual([]);
      expect(result.declared?.stale).toEqual([]);
    }
  });
});
