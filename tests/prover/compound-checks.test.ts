/**
 * Checks inside compound conditions. A boolean check whose failure leaves on every path where it is
 * evaluated counts: `a || !check` (the check always holds afterwards) and `a && !check` (it holds
 * wherever `a` does: `a` narrows the obligation, as an exported-only permission does). It does not count
 * when the other terms let a failure pass (`!(a && check)`), when the caller chooses the narrowing
 * (request data), when the check is in the condition's allowing arm, or when a null test narrows it to
 * one case and the other case is checked nowhere before it.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

function prove(files: Record<string, string>) {
  return proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
}

/** A Symfony API action that flips a timesheet's export flag and saves it after `guard`. */
const symfonyAction = (guard: string) => `<?php
namespace App\\API;
class TimesheetController extends AbstractController
{
    #[Route('/api/timesheets/{id}/export', methods: ['PATCH'])]
    public function exportAction(Timesheet $timesheet, Request $request, EntityManagerInterface $em): Response
    {
${guard}
        $timesheet->setExported(!$timesheet->isExported());
        $em->persist($timesheet);
        $em->flush();
        return new Response();
    }
}
`;

/** A Stapler descriptor that lists credentials of the item after `guard`. */
const staplerFill = (guard: string) => `package org.example;
public class Conn extends Descriptor<Object> {
  public ListBoxModel doFillCredentialsIdItems(@AncestorInPath Item context, @QueryParameter String value) {
${guard}
    return CredentialsProvider.lookupCredentials(C.class, context, ACL.SYSTEM, null).isEmpty() ? null : null;
  }
}
`;

const rootSplit = `    if (context == null && !Jenkins.get().hasPermission(Jenkins.ADMINISTER)
        || context != null && !context.hasPermission(Item.EXTENDED_READ)) {
      return new ListBoxModel();
    }`;

async function findingsOf(files: Record<string, string>): Promise<string[]> {
  const result = await prove(files);
  expect(result.coverage.operationsChecked).toBeGreaterThan(0);
  return result.findings.map((f) => f.entry.function);
}

describe('compound conditions in checks', () => {
  it('the fixtures reach their operation unchecked', async () => {
    expect(await findingsOf({ 'src/API/TimesheetController.php': symfonyAction('') })).toEqual(['TimesheetController.exportAction']);
    expect(await findingsOf({ 'src/main/java/org/example/Conn.java': staplerFill('') })).toEqual(['Conn.doFillCredentialsIdItems']);
  });

  it('a check in a conjunct or a disjunct of a denying condition counts', async () => {
    for (const guard of [
      "        if ($timesheet->isExported() && !$this->isGranted('edit_exported_timesheet')) {\n            throw new AccessDeniedHttpException('no');\n        }",
      "        if (!$this->isGranted('edit_exported_timesheet') && $timesheet->isExported()) {\n            throw $this->createAccessDeniedException();\n        }",
      "        if ($timesheet->isLocked() || !$this->isGranted('edit', $timesheet)) {\n            throw $this->createAccessDeniedException();\n        }",
      "        if ($timesheet->isExported()\n            && !$this->isGranted('edit_exported_timesheet')) {\n            return new Response('', 403);\n        }",
      // leaves only when both fail: one of the two permissions holds afterwards, as with `!(a || b)`
      "        if (!$this->isGranted('edit', $timesheet) && !$this->isGranted('export', $timesheet)) {\n            throw $this->createAccessDeniedException();\n        }",
    ]) {
      expect(await findingsOf({ 'src/API/TimesheetController.php': symfonyAction(guard) }), guard).toEqual([]);
    }
  });

  it('a conjunct narrowed by a null test counts when the other case was checked before it', async () => {
    const narrowed = `${rootSplit}\n    if (context != null && !context.hasPermission(CredentialsProvider.USE_ITEM)) {\n      return new ListBoxModel();\n    }`;
    expect(await findingsOf({ 'src/main/java/org/example/Conn.java': staplerFill(narrowed) })).toEqual([]);
    // `!(a || b)` fails only when every alternative fails: a check that any of several permissions is held
    const anyOf = '    if (!(Jenkins.get().hasPermission(Jenkins.ADMINISTER) || Jenkins.get().hasPermission(Jenkins.MANAGE))) {\n      return new ListBoxModel();\n    }';
    expect(await findingsOf({ 'src/main/java/org/example/Conn.java': staplerFill(anyOf) })).toEqual([]);
  });

  it('a null-test narrowing alone leaves the other case open', async () => {
    const alone = '    if (context != null && !context.hasPermission(CredentialsProvider.USE_ITEM)) {\n      return new ListBoxModel();\n    }';
    const result = await prove({ 'src/main/java/org/example/Conn.java': staplerFill(alone) });
    expect(result.findings.map((f) => f.entry.function)).toEqual(['Conn.doFillCredentialsIdItems']);
    expect(result.findings[0]?.weakerChecks.join('\n')).toMatch(/only where context != null holds, and the other case is not checked/);
  });

  it('a predicate helper narrowed by a null test follows the same rule', async () => {
    const withHelper = (guard: string) => staplerFill(guard).replace('public ListBoxModel', 'private boolean mayUse(Item item) {\n    return item.hasPermission(CredentialsProvider.USE_ITEM);\n  }\n  public ListBoxModel');
    const narrowed = '    if (context != null && !mayUse(context)) {\n      return new ListBoxModel();\n    }';
    expect(await findingsOf({ 'src/main/java/org/example/Conn.java': withHelper(narrowed) })).toEqual(['Conn.doFillCredentialsIdItems']);
    expect(await findingsOf({ 'src/main/java/org/example/Conn.java': withHelper(`${rootSplit}\n${narrowed}`) })).toEqual([]);
  });

  it('a failure that can pass, a narrowing the caller chooses, or a check in the allowing arm counts for nothing', async () => {
    for (const guard of [
      // fails only when both fail: the check may fail and the code go on
      "        if (!($timesheet->isLocked() && $this->isGranted('edit', $timesheet))) {\n            Log::info('x');\n        }\n        if (!($this->isGranted('edit', $timesheet) || $timesheet->isOpen())) {\n            throw $this->createAccessDeniedException();\n        }",
      // the request decides whether the check applies
      "        if ($request->query->has('strict') && !$this->isGranted('edit_exported_timesheet')) {\n            throw $this->createAccessDeniedException();\n        }",
      // the check allows, the other term denies: a failed check passes when the timesheet is not locked
      "        if ($timesheet->isLocked() && $this->isGranted('edit', $timesheet)) {\n            throw $this->createAccessDeniedException();\n        }",
      // one term the check, the other its opposite: a failed `edit` passes when `export` is held
      "        if (!$this->isGranted('edit', $timesheet) && $this->isGranted('export', $timesheet)) {\n            throw $this->createAccessDeniedException();\n        }",
      // the denial does not leave
      "        if ($timesheet->isExported() && !$this->isGranted('edit_exported_timesheet')) {\n            Log::warning('exported timesheet changed');\n        }",
    ]) {
      expect(await findingsOf({ 'src/API/TimesheetController.php': symfonyAction(guard) }), guard).toEqual(['TimesheetController.exportAction']);
    }
  });

  it('Laravel assertions: abort_if on a narrowed denial counts, abort_unless with an alternative does not', async () => {
    const controller = (guard: string) => `<?php
namespace App\\Http\\Controllers;
class ReportController extends Controller
{
    public function purge(Request $request, Report $report)
    {
${guard}
        $report->delete();
        return back();
    }
}
`;
    const routes = "<?php\nRoute::middleware('auth')->group(function () {\n    Route::delete('reports/{report}', [ReportController::class, 'purge']);\n});\n";
    const files = (guard: string) => ({ 'app/Http/Controllers/ReportController.php': controller(guard), 'routes/web.php': routes });
    expect(await findingsOf(files("        abort_if($report->isPublished() && !$request->user()->can('delete', $report), 403);"))).toEqual([]);
    expect(await findingsOf(files("        abort_unless($request->user()->can('delete', $report) || $report->isDraft(), 403);"))).toEqual(['ReportController.purge']);
    expect(await findingsOf(files("        abort_if($request->boolean('strict') && !$request->user()->can('delete', $report), 403);"))).toEqual(['ReportController.purge']);
  });
});
