/**
 * Test code is not proved (src/prover/source.ts): a test's controller double is never served, so the
 * same unguarded action that is a finding under `src/` is none under `tests/`, `src/test/` or in a
 * `*.test.ts` file, and a whole-repository proof does not read those files at all.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runJscr as jscr } from '../helpers/cli.js';
import { makeRepo, type TestRepo } from '../helpers/repo.js';

const controller = `<?php
namespace App\\Controller;
class PostController extends AbstractController
{
    #[Route('/post/{post}/delete', methods: ['POST'])]
    public function delete(Post $post, EntityManagerInterface $em): Response
    {
        $em->remove($post);
        $em->flush();
        return new Response();
    }
}
`;

describe('jscr prove leaves test code out', () => {
  let repo: TestRepo | null = null;
  afterEach(() => {
    repo?.cleanup();
    repo = null;
  });

  it('an unguarded deletion is a finding in src/ and none in a test folder', async () => {
    repo = makeRepo({ 'src/Controller/PostController.php': controller });
    const served = await jscr(['prove', '--format', 'json'], repo.root);
    expect(served.code).toBe(1);
    expect([...new Set((JSON.parse(served.stdout) as { findings: { path: string }[] }).findings.map((f) => f.path))]).toEqual(['src/Controller/PostController.php']);

    for (const path of ['tests/Controller/PostController.php', 'module/src/test/Controller/PostController.php']) {
      repo.cleanup();
      repo = makeRepo({ [path]: controller, 'src/Kernel.php': '<?php\nclass Kernel {}\n' });
      const proved = await jscr(['prove', '--format', 'json'], repo.root);
      expect(proved.code, path).toBe(0);
      expect((JSON.parse(proved.stdout) as { findings: unknown[]; coverage: { entry_points: number } }).coverage.entry_points, path).toBe(0);
    }
  });

  it('a file named like a test that the served code names is proved like any other: a test-like name hides no handler', async () => {
    repo = makeRepo({
      'tests/Controller/PostController.php': controller,
      'src/Kernel.php': '<?php\nclass Kernel { public function controllers(): array { return [\\App\\Controller\\PostController::class]; } }\n',
    });
    const proved = await jscr(['prove', '--format', 'json'], repo.root);
    expect(proved.code).toBe(1);
    expect([...new Set((JSON.parse(proved.stdout) as { findings: { path: string }[] }).findings.map((f) => f.path))]).toEqual(['tests/Controller/PostController.php']);
  });
});
