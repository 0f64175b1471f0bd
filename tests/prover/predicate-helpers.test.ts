/**
 * Predicate helpers: a project function that returns a recognised boolean check counts as that check
 * where its caller acts on the value (leaves when it is false, or does the operation only when it is
 * true). A value nobody branches on, or a failing arm that falls through, discharges nothing.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

function prove(files: Record<string, string>) {
  return proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
}

/** A Laravel controller whose `promote` action runs `body`, then changes a member's roles unless `body` holds the marker OPERATION. */
const controller = (body: string, helpers = '') => `<?php
namespace App\\Http\\Controllers;
class TeamController extends Controller
{
    private function userCan(string $ability): bool
    {
        return auth()->user()->can($ability);
    }

    private function canManageTeam(): bool
    {
        return $this->userCan('team-manage');
    }
${helpers}
    public function promote(Request $request, int $id)
    {
${body.includes('OPERATION') ? body.replace('OPERATION', "Member::query()->findOrFail($id)->syncRoles(['admin']);") : `${body}\n        Member::query()->findOrFail($id)->syncRoles(['admin']);`}
        return redirect('/team');
    }
}
`;

const routes = "<?php\nRoute::middleware('auth')->group(function () {\n    Route::post('team/{id}/promote', [TeamController::class, 'promote']);\n});\n";

async function findingsFor(body: string, helpers = ''): Promise<string[]> {
  const result = await prove({ 'app/Http/Controllers/TeamController.php': controller(body, helpers), 'routes/web.php': routes });
  expect(result.coverage.operationsChecked).toBeGreaterThan(0);
  return result.findings.map((f) => `${f.entry.function} ${f.label}`);
}

describe('predicate helpers', () => {
  it('an unchecked action is a finding (the fixture reaches the operation)', async () => {
    expect(await findingsFor('')).toEqual(['TeamController.promote authn_only']);
  });

  it('a negated predicate whose branch aborts, throws or returns discharges the operation after it', async () => {
    for (const body of [
      "        if (!$this->userCan('team-manage')) {\n            abort(403);\n        }",
      "        if (! $this->userCan('team-manage')) throw new AuthorizationException();",
      "        if ($this->userCan('team-manage') === false) {\n            return redirect('/');\n        }",
      "        abort_unless($this->userCan('team-manage'), 403);",
      "        abort_if(!$this->userCan('team-manage'), 403);",
    ]) {
      expect(await findingsFor(body), body).toEqual([]);
    }
  });

  it('a predicate that guards the branch holding the operation discharges it, and only inside that branch', async () => {
    expect(await findingsFor("        if ($this->userCan('team-manage')) {\n            OPERATION\n        }")).toEqual([]);
    expect(await findingsFor("        if ($this->userCan('team-manage')) {\n            Log::info('allowed');\n        }")).toEqual(['TeamController.promote authn_only']);
  });

  it('a predicate of a predicate counts (two levels of summaries)', async () => {
    expect(await findingsFor('        if (!$this->canManageTeam()) {\n            abort(403);\n        }')).toEqual([]);
  });

  it('a boolean nobody branches on, a failing arm that falls through, or the wrong polarity discharges nothing', async () => {
    for (const body of [
      "        $ok = $this->userCan('team-manage');",
      "        $ok = $this->userCan('team-manage');\n        Log::info('checked', ['ok' => $ok]);",
      "        if (!$this->userCan('team-manage')) {\n            Log::warning('not allowed');\n        }",
      "        if (!$this->userCan('team-manage') && $request->has('strict')) {\n            abort(403);\n        }",
      "        abort_if($this->userCan('team-manage'), 403);",
      "        $this->userCan('team-manage');",
      // the recognised check itself, tested with an arm that falls through to the operation and its return
      "        if (!auth()->user()->can('team-manage')) {\n            Log::warning('not allowed');\n        }",
    ]) {
      const found = await findingsFor(body);
      expect(found, body).toEqual(['TeamController.promote authn_only']);
    }
  });

  it('a stored boolean counts when a later test on it leaves', async () => {
    expect(await findingsFor("        $allowed = $this->userCan('team-manage');\n        if (!$allowed) {\n            abort(403);\n        }")).toEqual([]);
  });

  it('a helper that allows outright on some path (`return true`) is no predicate', async () => {
    const lenient = `
    private function lenient(): bool
    {
        if (config('app.debug')) {
            return true;
        }
        return auth()->user()->can('team-manage');
    }
`;
    expect(await findingsFor('        if (!$this->lenient()) {\n            abort(403);\n        }', lenient)).toEqual(['TeamController.promote authn_only']);
  });

  it('a helper returning the negation of a check, or the check or something else, is no predicate', async () => {
    for (const ret of ["return !auth()->user()->can('team-manage');", "return $this->isOwner || auth()->user()->can('team-manage');"]) {
      const helper = `\n    private function verdict(): bool\n    {\n        ${ret}\n    }\n`;
      expect(await findingsFor('        if (!$this->verdict()) {\n            abort(403);\n        }', helper), ret).toEqual(['TeamController.promote authn_only']);
    }
  });

  it('mutually recursive predicates end and discharge nothing', async () => {
    const cycle = `
    private function first(): bool
    {
        return $this->second();
    }

    private function second(): bool
    {
        return $this->first();
    }
`;
    expect(await findingsFor('        if (!$this->first()) {\n            abort(403);\n        }', cycle)).toEqual(['TeamController.promote authn_only']);
  });

  it('a Jenkins helper returning hasPermission, tested with an early return, checks the credential lookup', async () => {
    const descriptor = (test: string) => `package org.example;
public class Conn extends Descriptor<Object> {
  private boolean allowed() {
    return Jenkins.get().hasPermission(Jenkins.ADMINISTER);
  }

  public ListBoxModel doFillCredentialsIdItems(@QueryParameter String value) {
${test}
    return CredentialsProvider.lookupCredentials(C.class, Jenkins.get(), ACL.SYSTEM, null).isEmpty() ? null : null;
  }
}
`;
    const checked = await prove({ 'src/main/java/org/example/Conn.java': descriptor('    if (!allowed()) {\n      return new ListBoxModel();\n    }') });
    expect(checked.coverage.operationsChecked).toBeGreaterThan(0);
    expect(checked.findings).toEqual([]);
    const ignored = await prove({ 'src/main/java/org/example/Conn.java': descriptor('    boolean ok = allowed();') });
    expect(ignored.findings.map((f) => f.entry.function)).toEqual(['Conn.doFillCredentialsIdItems']);
  });

  it('a denial split by a null test (no item: Jenkins permission; an item: its permission) checks every case; a split that leaves a case open does not', async () => {
    const descriptor = (condition: string) => `package org.example;
public class Conn extends Descriptor<Object> {
  public ListBoxModel doFillCredentialsIdItems(@AncestorInPath Item context, @QueryParameter String value) {
    if (${condition}) {
      return new ListBoxModel();
    }
    return CredentialsProvider.lookupCredentials(C.class, context, ACL.SYSTEM, null).isEmpty() ? null : null;
  }
}
`;
    const split = 'context == null && !Jenkins.get().hasPermission(Jenkins.MANAGE)\n        || context != null && !context.hasPermission(Item.EXTENDED_READ)';
    const both = await prove({ 'src/main/java/org/example/Conn.java': descriptor(split) });
    expect(both.coverage.operationsChecked).toBeGreaterThan(0);
    expect(both.findings).toEqual([]);
    // the same split written as a ternary over several lines: the checks sit on the condition's continuation lines
    const ternary = 'context == null\n        ? !Jenkins.get().hasPermission(Jenkins.MANAGE)\n        : !context.hasPermission(Item.EXTENDED_READ)';
    expect((await prove({ 'src/main/java/org/example/Conn.java': descriptor(ternary) })).findings).toEqual([]);
    for (const open of ['context == null && !Jenkins.get().hasPermission(Jenkins.MANAGE)', 'context == null && !Jenkins.get().hasPermission(Jenkins.MANAGE) || value == null && !context.hasPermission(Item.EXTENDED_READ)', 'context == null && !Jenkins.get().hasPermission(Jenkins.MANAGE) || context != null && debug']) {
      const result = await prove({ 'src/main/java/org/example/Conn.java': descriptor(open) });
      expect(result.findings.map((f) => f.entry.function), open).toEqual(['Conn.doFillCredentialsIdItems']);
    }
  });
});
