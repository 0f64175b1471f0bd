/**
 * `jscr prove` on small repositories, judged on the control-flow graph: a check discharges an operation
 * when it decides every path to it and its failing arm cannot reach it. Each shape below is one that
 * statement order judged wrongly (a check in both arms, a catch that rethrows or takes another failure,
 * a check in `finally`, every arm of a switch; a stored boolean read only after the operation, a check
 * in a closure), plus what the finding says about the check it saw.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runJscr as jscr } from '../helpers/cli.js';
import { makeRepo, type TestRepo } from '../helpers/repo.js';
import { judgeHop } from '../../src/prover/dominance.js';
import { findingSentence, proveJson } from '../../src/prover/render.js';
import type { ProverFinding, Witness } from '../../src/prover/types.js';

/** A Symfony action that removes a timesheet after `guard`. */
const symfony = (guard: string) => `<?php
namespace App\\Controller;
class TimesheetController extends AbstractController
{
    #[Route('/timesheets/{id}/delete', methods: ['POST'])]
    public function deleteAction(Timesheet $timesheet, Request $request, EntityManagerInterface $em): Response
    {
${guard}
        $em->remove($timesheet);
        $em->flush();
        return new Response();
    }
}
`;

/** A Stapler descriptor whose doFillCredentialsIdItems looks credentials up after `guard`. */
const stapler = (guard: string) => `package org.acme;
public class Hook extends Descriptor<Object> {
  public ListBoxModel doFillCredentialsIdItems(@QueryParameter String id) {
${guard}
    return CredentialsProvider.lookupCredentials(C.class, Jenkins.get(), ACL.SYSTEM, null).isEmpty() ? null : null;
  }
}
`;

/** A Next.js server action that deletes a project after `guard`. */
const nextAction = (guard: string) => `'use server';
import { auth } from '@/auth';
import { db } from '@/lib/db';
export async function deleteProject(projectId: string) {
  const session = await auth();
${guard}
  await db.project.delete({ where: { id: projectId } });
}
`;

interface JsonFinding {
  function: string;
  weaker_checks: string[];
  dominance: { judged_by: string; reason: string | null } | null;
}

describe('jscr prove: dominance on the control-flow graph', () => {
  let repo: TestRepo | null = null;
  afterEach(() => {
    repo?.cleanup();
    repo = null;
  });

  async function findings(files: Record<string, string>): Promise<JsonFinding[]> {
    repo?.cleanup();
    repo = makeRepo(files);
    const run = await jscr(['prove', '--format', 'json'], repo.root);
    expect(run.code, run.stderr).not.toBe(3);
    const json = JSON.parse(run.stdout) as { findings: JsonFinding[]; coverage: { operations_checked: number } };
    expect(json.coverage.operations_checked).toBeGreaterThan(0);
    return json.findings;
  }

  const symfonyFile = 'src/Controller/TimesheetController.php';

  it('a check in both arms of an if, or in every arm of a switch with a default, discharges', async () => {
    const bothArms = "        if ($request->get('mode') === 'x') {\n            $this->denyAccessUnlessGranted('edit', $timesheet);\n        } else {\n            $this->denyAccessUnlessGranted('delete', $timesheet);\n        }";
    expect(await findings({ [symfonyFile]: symfony(bothArms) })).toEqual([]);
    const everyArm = "        switch ($request->get('mode')) {\n            case 'x':\n                $this->denyAccessUnlessGranted('edit', $timesheet);\n                break;\n            default:\n                $this->denyAccessUnlessGranted('delete', $timesheet);\n        }";
    expect(await findings({ [symfonyFile]: symfony(everyArm) })).toEqual([]);
    // one arm only: the other reaches the operation unchecked, and the finding says where it stands
    const oneArm = "        if ($request->get('mode') === 'x') {\n            $this->denyAccessUnlessGranted('edit', $timesheet);\n        }";
    const [open] = await findings({ [symfonyFile]: symfony(oneArm) });
    expect(open?.function).toBe('TimesheetController.deleteAction');
    expect(open?.weaker_checks.join('\n')).toMatch(/denyAccessUnlessGranted\('edit', \$timesheet\) at line 9 is not on every path to line 11/);
    expect(open?.dominance).toEqual({ judged_by: 'control_flow', reason: null });
  });

  it('a catch that swallows the failure leaves the operation open; one that rethrows or takes another failure does not', async () => {
    const swallowed = "        try {\n            $this->denyAccessUnlessGranted('edit', $timesheet);\n        } catch (\\Exception $e) {\n            $this->addFlash('error', 'x');\n        }";
    const [open] = await findings({ [symfonyFile]: symfony(swallowed) });
    expect(open?.weaker_checks.join('\n')).toMatch(/at line 9 does not stop line 13: its failing arm at line 9 reaches it/);
    expect(await findings({ [symfonyFile]: symfony(swallowed.replace("$this->addFlash('error', 'x');", 'throw $e;')) })).toEqual([]);
    expect(await findings({ [symfonyFile]: symfony(swallowed.replace('\\Exception', 'NotFoundHttpException')) })).toEqual([]);
  });

  it('a stored boolean counts where a branch that reads it comes before the operation', async () => {
    const read = "        $allowed = $this->isGranted('delete', $timesheet);\n        if (!$allowed) {\n            throw $this->createAccessDeniedException();\n        }";
    expect(await findings({ [symfonyFile]: symfony(read) })).toEqual([]);
    const readLate = "        $allowed = $this->isGranted('delete', $timesheet);\n        $em->remove($timesheet);\n        if (!$allowed) {\n            throw $this->createAccessDeniedException();\n        }";
    expect(new Set((await findings({ [symfonyFile]: symfony(readLate) })).map((f) => f.function))).toEqual(new Set(['TimesheetController.deleteAction']));
    const unread = "        $allowed = $this->isGranted('delete', $timesheet);";
    const [inert] = await findings({ [symfonyFile]: symfony(unread) });
    expect(inert?.weaker_checks.join('\n')).toMatch(/a boolean nothing acts on/);
  });

  it('Jenkins: a permission check in finally covers the lookup after the try; one in try does not cover the lookup in finally', async () => {
    const inFinally = '    try {\n      LOG.fine("test");\n    } finally {\n      Jenkins.get().checkPermission(Jenkins.ADMINISTER);\n    }';
    expect(await findings({ 'src/main/java/org/acme/Hook.java': stapler(inFinally) })).toEqual([]);
    const lookupInFinally = stapler('').replace('    return CredentialsProvider', '    try {\n      Jenkins.get().checkPermission(Jenkins.ADMINISTER);\n    } finally {\n      CredentialsProvider.lookupCredentials(C.class, Jenkins.get(), ACL.SYSTEM, null);\n    }\n    return CredentialsProvider');
    expect((await findings({ 'src/main/java/org/acme/Hook.java': lookupInFinally })).map((f) => f.function)).toEqual(['Hook.doFillCredentialsIdItems']);
  });

  it('Next.js: a role check inside a callback that may never run does not discharge the action', async () => {
    const inCallback = "  [projectId].forEach(() => {\n    if (session?.user.role !== 'admin') forbidden();\n  });";
    expect((await findings({ 'app/projects/actions.ts': nextAction(inCallback) })).map((f) => f.function)).toEqual(['deleteProject']);
    expect(await findings({ 'app/projects/actions.ts': nextAction("  if (session?.user.role !== 'admin') forbidden();") })).toEqual([]);
  });
});

describe('order dominance where no graph can be built', () => {
  const check: Witness = { kind: 'path_guard', scope: 'statement', functionId: 'f', line: 4, dischargerId: 'row', evidence: 'authorize()', callee: 'authorize' };

  it('judges by statement order and says why', () => {
    const control = { graphs: new Map([['f', { unavailable: 'no control-flow graph for ruby' }]]) };
    expect(judgeHop(control, 'f', [check], 9, true, () => ({ callee: 'authorize', value: false }))).toEqual({ dominating: [check], byOrder: 'no control-flow graph for ruby', uncovered: [] });
    expect(judgeHop(control, 'f', [check], 3, true, () => ({ callee: 'authorize', value: false })).dominating).toEqual([]);
  });

  it('the finding says so in text and JSON', () => {
    const finding: ProverFinding = {
      id: 'x',
      rule: 'jscr/prover-unguarded-operation',
      label: 'unguarded_path',
      path: 'app/a.rb',
      line: 3,
      function: 'A.destroy',
      entry: { path: 'app/a.rb', function: 'A.destroy', line: 1, framework: 'rails', evidence: 'an action' },
      hops: [],
      operation: { id: 'op', kind: 'data_delete', line: 3, call: 'x.destroy' },
      missing: 'path_guard',
      weakerChecks: [],
      severity: 'high',
      confidence: 0.6,
      cwe: 'CWE-862',
      evidence: 'x.destroy',
      dominance: { judgedBy: 'order', reason: 'no control-flow graph for ruby' },
    };
    expect(findingSentence(finding)).toMatch(/Whether a check comes before it was judged by statement order: no control-flow graph for ruby\./);
    const coverage = { filesByLanguage: {}, frameworksRecognised: {}, entryPoints: 1, reached: 1, unreached: 0, operationsChecked: 1, operationsDischarged: 0, uncheckedByReason: {} };
    const json = JSON.parse(proveJson({ findings: [finding], coverage, degradations: [] }, { mode: 'repository', range: 'HEAD', exitCode: 1, notProven: null })) as { findings: JsonFinding[] };
    expect(json.findings[0]?.dominance).toEqual({ judged_by: 'order', reason: 'no control-flow graph for ruby' });
  });
});
