/**
 * A guard written on a class's head (a Symfony `#[IsGranted]`, a Spring `@PreAuthorize`) stands before
 * every method of the class. A change that removes it edits no method, yet leaves each method's
 * operations unguarded: they are proved on the change and the finding names the removed line. Removing a
 * class-level line that is no check, or one the methods repeat, reports nothing. Real git repositories and
 * `jscr prove --base`.
 */
import { describe, expect, it } from 'vitest';
import { runJscr } from '../helpers/cli.js';
import { reposRemovedAfterEach } from '../helpers/repo.js';

const makeRepo = reposRemovedAfterEach();

const symfony = (classHead: string, methodGuard = '') => `<?php
namespace App\\Controller\\Admin;

use App\\Entity\\User;
use Doctrine\\ORM\\EntityManagerInterface;
use Symfony\\Bundle\\FrameworkBundle\\Controller\\AbstractController;
use Symfony\\Component\\HttpFoundation\\Response;
use Symfony\\Component\\Routing\\Attribute\\Route;
use Symfony\\Component\\Security\\Http\\Attribute\\IsGranted;

#[Route('/admin/users')]
${classHead}
final class UserAdminController extends AbstractController
{
    #[Route('/{id}/delete', name: 'admin_user_delete', methods: ['POST'])]
${methodGuard}
    public function delete(User $user, EntityManagerInterface $entityManager): Response
    {
        $entityManager->remove($user);
        $entityManager->flush();
        return $this->redirectToRoute('admin_user_index');
    }
}
`;

const spring = (classHead: string) => `package app.web;
import org.springframework.web.bind.annotation.*;
import org.springframework.security.access.prepost.PreAuthorize;
@RestController
@RequestMapping("/api/reports")
${classHead}
public class ReportController {
  private final ReportRepository reportRepository;
  ReportController(ReportRepository reportRepository) { this.reportRepository = reportRepository; }
  @DeleteMapping("/{id}")
  public void delete(@PathVariable long id) {
    reportRepository.deleteById(id);
  }
}
`;

interface ProveReport {
  findings: { path: string; line: number; removed_checks?: { path: string; line: number; text: string }[] }[];
}

async function proveChange(before: Record<string, string>, after: Record<string, string>): Promise<{ code: number; report: ProveReport; stderr: string }> {
  const repo = makeRepo(before);
  const base = repo.git('rev-parse', 'HEAD').trim();
  repo.commit(after, 'change the class head');
  const run = await runJscr(['prove', '--base', base, '--format', 'json'], repo.root);
  return { code: run.code, report: JSON.parse(run.stdout) as ProveReport, stderr: run.stderr };
}

describe('a check removed from a class head', () => {
  const path = 'src/Controller/Admin/UserAdminController.php';

  it('Symfony: dropping the class-level #[IsGranted] reports the methods below it, naming the removed line', async () => {
    const { code, report, stderr } = await proveChange({ [path]: symfony("#[IsGranted('ROLE_ADMIN')]") }, { [path]: symfony('') });
    expect(code, stderr).toBe(1);
    expect(report.findings.map((f) => f.line)).toEqual([19, 20]);
    expect(report.findings[0]?.removed_checks).toEqual([{ path, line: 12, text: "#[IsGranted('ROLE_ADMIN')]" }]);
  });

  it('Spring: dropping the class-level @PreAuthorize reports the repository write', async () => {
    const file = 'src/main/java/app/web/ReportController.java';
    const { code, report, stderr } = await proveChange({ [file]: spring(`@PreAuthorize("hasRole('ADMIN')")`) }, { [file]: spring('') });
    expect(code, stderr).toBe(1);
    expect(report.findings.map((f) => [f.path, f.line])).toEqual([[file, 12]]);
    expect(report.findings[0]?.removed_checks?.[0]?.text).toBe(`@PreAuthorize("hasRole('ADMIN')")`);
  });

  it('nothing when the method keeps its own check, or the removed class-level line is no check', async () => {
    const guarded = await proveChange(
      { [path]: symfony("#[IsGranted('ROLE_ADMIN')]", "    #[IsGranted('ROLE_ADMIN')]") },
      { [path]: symfony('', "    #[IsGranted('ROLE_ADMIN')]") },
    );
    expect(guarded.code, guarded.stderr).toBe(0);
    const notACheck = await proveChange({ [path]: symfony("#[IsGranted('ROLE_ADMIN')]\n#[Deprecated]") }, { [path]: symfony("#[IsGranted('ROLE_ADMIN')]") });
    expect(notACheck.code, notACheck.stderr).toBe(0);
    expect(notACheck.report.findings).toEqual([]);
  });

  it('an edit to the first method\'s own attribute touches that method only, not the class\'s others', async () => {
    const twoMethods = (firstGuard: string) => `<?php
namespace App\\Controller;

use Doctrine\\ORM\\EntityManagerInterface;
use Symfony\\Bundle\\FrameworkBundle\\Controller\\AbstractController;
use Symfony\\Component\\HttpFoundation\\Response;
use Symfony\\Component\\Routing\\Attribute\\Route;
use Symfony\\Component\\Security\\Http\\Attribute\\IsGranted;

final class NoteController extends AbstractController
{
    #[IsGranted('${firstGuard}')]
    #[Route('/notes', name: 'note_index')]
    public function index(): Response
    {
        return $this->render('notes.html.twig');
    }

    #[Route('/notes/{id}/delete', name: 'note_delete', methods: ['POST'])]
    public function delete(Note $note, EntityManagerInterface $entityManager): Response
    {
        $entityManager->remove($note);
        $entityManager->flush();
        return $this->redirectToRoute('note_index');
    }
}
`;
    const file = 'src/Controller/NoteController.php';
    // The unguarded delete is there before and after: the change, which edits only index's attribute, is not about it.
    const { code, report, stderr } = await proveChange({ [file]: twoMethods('ROLE_USER') }, { [file]: twoMethods('ROLE_ADMIN') });
    expect(code, stderr).toBe(0);
    expect(report.findings).toEqual([]);
  });
});
