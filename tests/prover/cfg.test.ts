/**
 * The control-flow graph per language: for each shape, whether a check (the call on the line marked
 * CHECK) discharges the operation on the line marked OP: its decision dominates the operation and the
 * operation cannot be reached from its failing arm. Written for Java, PHP, Python, TypeScript and Go.
 */
import { describe, expect, it } from 'vitest';
import { lowerText } from '../../src/flow/index.js';
import { loadGrammars } from '../../src/syntax/parser.js';
import type { Language } from '../../src/syntax/languages.js';
import { buildCfg, covers, decisionAt, dominates, nodesAt } from '../../src/prover/cfg.js';

interface Shape {
  name: string;
  code: string;
  /** The check's call. */
  callee: string;
  /** The check's boolean is what protects (a branch must read it). */
  value?: boolean;
  /** For a check in a compound condition, how branches.ts read it: its true arm allows. */
  positive?: boolean;
  discharged: boolean;
}

/** Whether the check on the CHECK lines (together) covers the OP line, in the file's first function. */
async function judge(language: Language, path: string, code: string, shape: Pick<Shape, 'callee' | 'value' | 'positive'>): Promise<boolean> {
  await loadGrammars([language]);
  const lowered = await lowerText(path, language, code, Date.now() + 60_000);
  if (lowered === null || !lowered.ok) throw new Error(`not lowered: ${lowered === null ? 'no front end' : lowered.reason}`);
  const lines = code.split('\n');
  const marked = (mark: string): number[] => lines.flatMap((text, i) => (text.includes(mark) ? [i + 1] : []));
  const fn = lowered.file.functions.find((f) => f.qualifiedName !== '<module>' && f.enclosingFunction === null && f.line <= (marked('OP')[0] ?? 0) && f.endLine >= (marked('OP')[0] ?? 0));
  if (!fn) throw new Error('no function holds the OP line');
  const cfg = buildCfg(fn);
  const decisions = marked('CHECK').map((line) => decisionAt(cfg, line, { callee: shape.callee, value: shape.value ?? false, positive: shape.positive ?? false }));
  if (decisions.some((d) => d === null)) throw new Error('a CHECK line has no decision');
  const targets = nodesAt(cfg, marked('OP')[0] ?? 0);
  expect(targets.length).toBeGreaterThan(0);
  return covers(cfg, decisions.flatMap((d) => (d ? [d] : [])), targets) === null;
}

const java = (body: string) => `class C {
  void handle(Item item, String mode) {
${body}
  }
}
`;
const JAVA: Shape[] = [
  { name: 'a check before the operation', callee: 'checkPermission', discharged: true, code: java('    item.checkPermission(Item.CONFIGURE); // CHECK\n    item.delete(); // OP') },
  { name: 'a check after the operation', callee: 'checkPermission', discharged: false, code: java('    item.delete(); // OP\n    item.checkPermission(Item.CONFIGURE); // CHECK') },
  { name: 'a denial that returns', callee: 'hasPermission', value: true, discharged: true, code: java('    if (!item.hasPermission(Item.CONFIGURE)) { // CHECK\n      return;\n    }\n    item.delete(); // OP') },
  { name: 'a denial that only logs', callee: 'hasPermission', value: true, discharged: false, code: java('    if (!item.hasPermission(Item.CONFIGURE)) { // CHECK\n      LOG.info("no");\n    }\n    item.delete(); // OP') },
  { name: 'a check in one arm of an if whose other arm reaches the operation', callee: 'checkPermission', discharged: false, code: java('    if (mode != null) {\n      item.checkPermission(Item.CONFIGURE); // CHECK\n    } else {\n      LOG.info("x");\n    }\n    item.delete(); // OP') },
  { name: 'a check in both arms of an if', callee: 'checkPermission', discharged: true, code: java('    if (mode != null) {\n      item.checkPermission(Item.CONFIGURE); // CHECK\n    } else {\n      item.checkPermission(Item.DELETE); // CHECK\n    }\n    item.delete(); // OP') },
  { name: 'a check in a loop body', callee: 'checkPermission', discharged: false, code: java('    for (Item child : item.getItems()) {\n      child.checkPermission(Item.CONFIGURE); // CHECK\n    }\n    item.delete(); // OP') },
  { name: 'a check and the operation in the same loop body', callee: 'checkPermission', discharged: true, code: java('    for (Item child : item.getItems()) {\n      child.checkPermission(Item.CONFIGURE); // CHECK\n      child.delete(); // OP\n    }') },
  { name: 'a check in try whose catch swallows the failure', callee: 'checkPermission', discharged: false, code: java('    try {\n      item.checkPermission(Item.CONFIGURE); // CHECK\n    } catch (AccessDeniedException e) {\n      LOG.info("x");\n    }\n    item.delete(); // OP') },
  { name: 'a check in try whose catch rethrows', callee: 'checkPermission', discharged: true, code: java('    try {\n      item.checkPermission(Item.CONFIGURE); // CHECK\n    } catch (RuntimeException e) {\n      throw new IllegalStateException(e);\n    }\n    item.delete(); // OP') },
  { name: 'a check in try whose catch takes another failure', callee: 'checkPermission', discharged: true, code: java('    try {\n      item.checkPermission(Item.CONFIGURE); // CHECK\n    } catch (IOException e) {\n      LOG.info("x");\n    }\n    item.delete(); // OP') },
  { name: 'an operation in finally after a check in try', callee: 'checkPermission', discharged: false, code: java('    try {\n      item.checkPermission(Item.CONFIGURE); // CHECK\n    } finally {\n      item.delete(); // OP\n    }') },
  { name: 'a check in finally', callee: 'checkPermission', discharged: true, code: java('    try {\n      LOG.info("x");\n    } finally {\n      item.checkPermission(Item.CONFIGURE); // CHECK\n    }\n    item.delete(); // OP') },
  { name: 'a check in every arm of a switch with a default', callee: 'checkPermission', discharged: true, code: java('    switch (mode) {\n      case "a":\n        item.checkPermission(Item.CONFIGURE); // CHECK\n        break;\n      default:\n        item.checkPermission(Item.DELETE); // CHECK\n    }\n    item.delete(); // OP') },
  { name: 'a check in one arm of a switch', callee: 'checkPermission', discharged: false, code: java('    switch (mode) {\n      case "a":\n        item.checkPermission(Item.CONFIGURE); // CHECK\n        break;\n      default:\n        break;\n    }\n    item.delete(); // OP') },
  { name: 'a positive test guarding the operation', callee: 'hasPermission', value: true, discharged: true, code: java('    if (item.hasPermission(Item.CONFIGURE)) { // CHECK\n      item.delete(); // OP\n    }') },
  { name: 'a positive test with the operation after it', callee: 'hasPermission', value: true, discharged: false, code: java('    if (item.hasPermission(Item.CONFIGURE)) { // CHECK\n      LOG.info("ok");\n    }\n    item.delete(); // OP') },
  { name: 'a denial that continues a loop', callee: 'hasPermission', value: true, discharged: true, code: java('    for (Item child : item.getItems()) {\n      if (!child.hasPermission(Item.CONFIGURE)) continue; // CHECK\n      child.delete(); // OP\n    }') },
  { name: 'a denial written over several lines, split by a conditional expression (the check on a continuation line)', callee: 'hasPermission', value: true, discharged: true, code: java('    if (mode == null\n        ? !Jenkins.get().hasPermission(Jenkins.MANAGE) // CHECK\n        : !item.hasPermission(Item.CONFIGURE)) { // CHECK\n      return;\n    }\n    item.delete(); // OP') },
  { name: 'a denial that breaks out of a loop to the operation', callee: 'hasPermission', value: true, discharged: false, code: java('    while (true) {\n      if (!item.hasPermission(Item.CONFIGURE)) break; // CHECK\n      return;\n    }\n    item.delete(); // OP') },
];

const php = (body: string) => `<?php
class C {
    public function handle($item, $mode) {
${body}
    }
}
`;
const PHP: Shape[] = [
  { name: 'a throwing check before the operation', callee: 'denyAccessUnlessGranted', discharged: true, code: php("        $this->denyAccessUnlessGranted('edit', $item); // CHECK\n        $this->em->remove($item); // OP") },
  { name: 'a stored boolean no branch reads', callee: 'isGranted', value: true, discharged: false, code: php("        $ok = $this->isGranted('edit', $item); // CHECK\n        $this->em->remove($item); // OP") },
  { name: 'a stored boolean read by a denial before the operation', callee: 'isGranted', value: true, discharged: true, code: php("        $ok = $this->isGranted('edit', $item); // CHECK\n        if (!$ok) {\n            throw $this->createAccessDeniedException();\n        }\n        $this->em->remove($item); // OP") },
  { name: 'a stored boolean read only after the operation', callee: 'isGranted', value: true, discharged: false, code: php("        $ok = $this->isGranted('edit', $item); // CHECK\n        $this->em->remove($item); // OP\n        if (!$ok) {\n            throw $this->createAccessDeniedException();\n        }") },
  { name: 'a denial with no exit', callee: 'isGranted', value: true, discharged: false, code: php("        if (!$this->isGranted('edit', $item)) { // CHECK\n            $this->logger->info('x');\n        }\n        $this->em->remove($item); // OP") },
  { name: 'a denial that dies', callee: 'isGranted', value: true, discharged: true, code: php("        if (!$this->isGranted('edit', $item)) { // CHECK\n            die('no');\n        }\n        $this->em->remove($item); // OP") },
  { name: 'a denial that aborts', callee: 'isGranted', value: true, discharged: true, code: php("        if ($this->isGranted('edit', $item) === false) { // CHECK\n            abort(403);\n        }\n        $this->em->remove($item); // OP") },
  { name: 'a check in try whose catch swallows every exception', callee: 'denyAccessUnlessGranted', discharged: false, code: php("        try {\n            $this->denyAccessUnlessGranted('edit', $item); // CHECK\n        } catch (\\Exception $e) {\n            $this->logger->info('x');\n        }\n        $this->em->remove($item); // OP") },
  { name: 'a check in a foreach', callee: 'denyAccessUnlessGranted', discharged: false, code: php("        foreach ($item->children() as $child) {\n            $this->denyAccessUnlessGranted('edit', $child); // CHECK\n        }\n        $this->em->remove($item); // OP") },
  { name: 'a check in each arm of a switch, one falling through to the next', callee: 'denyAccessUnlessGranted', discharged: true, code: php("        switch ($mode) {\n            case 'a':\n            case 'b':\n                $this->denyAccessUnlessGranted('edit', $item); // CHECK\n                break;\n            default:\n                throw new \\LogicException();\n        }\n        $this->em->remove($item); // OP") },
  { name: 'a switch without a default', callee: 'denyAccessUnlessGranted', discharged: false, code: php("        switch ($mode) {\n            case 'a':\n                $this->denyAccessUnlessGranted('edit', $item); // CHECK\n                break;\n        }\n        $this->em->remove($item); // OP") },
];

const python = (body: string) => `class V:
    def post(self, request, item, mode):
${body}
`;
const PYTHON: Shape[] = [
  { name: 'a denial that raises', callee: 'has_perm', value: true, discharged: true, code: python("        if not request.user.has_perm('app.delete'):  # CHECK\n            raise PermissionDenied()\n        item.delete()  # OP") },
  { name: 'an assert on the check', callee: 'has_perm', value: true, discharged: true, code: python("        assert request.user.has_perm('app.delete')  # CHECK\n        item.delete()  # OP") },
  { name: 'a denial that only logs', callee: 'has_perm', value: true, discharged: false, code: python("        if not request.user.has_perm('app.delete'):  # CHECK\n            log.info('no')\n        item.delete()  # OP") },
  { name: 'a check in try whose except swallows it', callee: 'check_permission', discharged: false, code: python("        try:\n            self.check_permission(request)  # CHECK\n        except Exception:\n            pass\n        item.delete()  # OP") },
  { name: 'a check in one elif arm', callee: 'check_permission', discharged: false, code: python("        if mode == 'a':\n            log.info('a')\n        elif mode == 'b':\n            self.check_permission(request)  # CHECK\n        item.delete()  # OP") },
  { name: 'a check in a with block', callee: 'check_permission', discharged: true, code: python("        with transaction.atomic():\n            self.check_permission(request)  # CHECK\n            item.delete()  # OP") },
  { name: 'a check in a for body', callee: 'check_permission', discharged: false, code: python("        for child in item.children:\n            self.check_permission(child)  # CHECK\n        item.delete()  # OP") },
];

const typescript = (body: string) => `export async function handle(req: Request, mode: string) {
  const session = await getSession();
${body}
}
`;
const TYPESCRIPT: Shape[] = [
  { name: 'a denial that returns a 403', callee: 'isAdmin', value: true, discharged: true, code: typescript("  if (!isAdmin(session)) { // CHECK\n    return new Response(null, { status: 403 });\n  }\n  await db.project.delete({ where: { id: mode } }); // OP") },
  { name: 'a denial that only logs', callee: 'isAdmin', value: true, discharged: false, code: typescript("  if (!isAdmin(session)) { // CHECK\n    console.log('no');\n  }\n  await db.project.delete({ where: { id: mode } }); // OP") },
  { name: 'a denial that calls forbidden()', callee: 'isAdmin', value: true, discharged: true, code: typescript("  if (!isAdmin(session)) forbidden(); // CHECK\n  await db.project.delete({ where: { id: mode } }); // OP") },
  { name: 'a check in try whose catch swallows it', callee: 'requireAdmin', discharged: false, code: typescript("  try {\n    await requireAdmin(session); // CHECK\n  } catch (e) {\n    console.log(e);\n  }\n  await db.project.delete({ where: { id: mode } }); // OP") },
  { name: 'a check in try whose catch rethrows', callee: 'requireAdmin', discharged: true, code: typescript("  try {\n    await requireAdmin(session); // CHECK\n  } catch (e) {\n    throw e;\n  }\n  await db.project.delete({ where: { id: mode } }); // OP") },
  { name: 'a stored check read by a later denial', callee: 'isAdmin', value: true, discharged: true, code: typescript("  const allowed = isAdmin(session); // CHECK\n  if (!allowed) throw new Error('forbidden');\n  await db.project.delete({ where: { id: mode } }); // OP") },
];

const go = (body: string) => `package main
func handle(w http.ResponseWriter, r *http.Request) {
${body}
}
`;
const GO: Shape[] = [
  { name: 'a denial that returns', callee: 'IsAdmin', value: true, discharged: true, code: go('\tif !auth.IsAdmin(r) { // CHECK\n\t\thttp.Error(w, "no", 403)\n\t\treturn\n\t}\n\tstore.Delete(r.URL.Path) // OP') },
  { name: 'a denial that only writes an error', callee: 'IsAdmin', value: true, discharged: false, code: go('\tif !auth.IsAdmin(r) { // CHECK\n\t\thttp.Error(w, "no", 403)\n\t}\n\tstore.Delete(r.URL.Path) // OP') },
  { name: 'a check in one case of a switch', callee: 'RequireAdmin', discharged: false, code: go('\tswitch r.Method {\n\tcase "POST":\n\t\tauth.RequireAdmin(r) // CHECK\n\t}\n\tstore.Delete(r.URL.Path) // OP') },
];

const TABLE: { language: Language; path: string; shapes: Shape[] }[] = [
  { language: 'java', path: 'C.java', shapes: JAVA },
  { language: 'php', path: 'C.php', shapes: PHP },
  { language: 'python', path: 'v.py', shapes: PYTHON },
  { language: 'typescript', path: 'route.ts', shapes: TYPESCRIPT },
  { language: 'go', path: 'main.go', shapes: GO },
];

describe('control-flow dominance per language', () => {
  for (const { language, path, shapes } of TABLE) {
    describe(language, () => {
      for (const shape of shapes) {
        it(`${shape.discharged ? 'discharges' : 'does not discharge'}: ${shape.name}`, async () => {
          expect(await judge(language, path, shape.code, shape)).toBe(shape.discharged);
        });
      }
    });
  }
});

describe('the graph itself', () => {
  it('the entry dominates every reachable node, and a branch head dominates both its arms', async () => {
    const code = java('    if (mode != null) {\n      LOG.info("a");\n    } else {\n      LOG.info("b");\n    }\n    item.delete();');
    await loadGrammars(['java']);
    const lowered = await lowerText('C.java', 'java', code, Date.now() + 60_000);
    if (lowered === null || !lowered.ok) throw new Error('not lowered');
    const fn = lowered.file.functions.find((f) => f.name === 'handle');
    if (!fn) throw new Error('no function');
    const cfg = buildCfg(fn);
    const [head] = nodesAt(cfg, 3);
    const [thenArm] = nodesAt(cfg, 4);
    const [elseArm] = nodesAt(cfg, 6);
    const [after] = nodesAt(cfg, 8);
    if (!head || !thenArm || !elseArm || !after) throw new Error('a line has no node');
    for (const node of [head, thenArm, elseArm, after]) expect(dominates(cfg, cfg.entry, node.id)).toBe(true);
    expect(dominates(cfg, head.id, thenArm.id) && dominates(cfg, head.id, after.id)).toBe(true);
    expect(dominates(cfg, thenArm.id, after.id) || dominates(cfg, elseArm.id, after.id)).toBe(false);
    expect(thenArm.context).toEqual(['then-arm of the if at line 3']);
  });
});
