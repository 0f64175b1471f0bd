/**
 * Symfony's access_control is written against the full URL, and a routes import mounts a resource's
 * controllers under a prefix (`prefix: /{_locale}` in config/routes.yaml, or an import file under
 * config/routes/). The rules are matched against prefix + class route + method route; a controller
 * no prefixed import loads keeps its bare path, and a rule for the prefix does not cover it.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';
import { importOf, routeImports } from '../../src/prover/symfony-routes.js';

async function findings(files: Record<string, string>): Promise<string[]> {
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.operationsChecked).toBeGreaterThan(0);
  return result.findings.map((f) => `${f.entry.function}:${f.operation.id}:${f.label}`);
}

const controller = (namespace: string) => `<?php
namespace App\\${namespace};
use App\\Repository\\NoteRepository;
use Symfony\\Bundle\\FrameworkBundle\\Controller\\AbstractController;
use Symfony\\Component\\Routing\\Attribute\\Route;
#[Route(path: '/notes')]
class NoteController extends AbstractController
{
    #[Route(path: '/{id}/forget', methods: ['POST'])]
    public function forget(int $id, NoteRepository $notes): Response
    {
        $note = $notes->findOneBy(['user' => $this->getUser(), 'id' => $id]);
        if ($note === null) {
            throw $this->createNotFoundException();
        }
        $notes->forget($note);
        return new Response();
    }
}
`;
const repository = `<?php
namespace App\\Repository;
class NoteRepository extends ServiceEntityRepository
{
    public function forget(Note $note): void
    {
        $em = $this->getEntityManager();
        $em->remove($note);
        $em->flush();
    }
}
`;
const security = "security:\n    access_control:\n        - {path: '^/{_locale}/login', role: PUBLIC_ACCESS}\n        - {path: '^/{_locale}/', roles: ROLE_USER}\n";
const routes = 'controllers:\n    resource: ../src/Controller/\n    type: attribute\n    prefix: /{_locale}\n    defaults:\n        _locale: en\n\napi:\n    resource: ../src/Api/\n    type: attribute\n';

describe('Symfony: access_control against routes mounted under an import prefix', () => {
  it('a controller loaded under /{_locale} is covered by the ^/{_locale}/ rule, so its own-note lookup is owned', async () => {
    const files = { 'src/Controller/NoteController.php': controller('Controller'), 'src/Repository/NoteRepository.php': repository, 'config/packages/security.yaml': security, 'config/routes.yaml': routes };
    expect(await findings(files)).toEqual([]);
  });

  it('an import file under config/routes/ with its own prefix counts too', async () => {
    const imported = { 'config/routes/app.yaml': 'app_controllers:\n    resource: "../../src/Controller/"\n    type: attribute\n    prefix: "/{_locale}"\n' };
    expect(await findings({ 'src/Controller/NoteController.php': controller('Controller'), 'src/Repository/NoteRepository.php': repository, 'config/packages/security.yaml': security, ...imported })).toEqual([]);
  });

  it('without the routes file, or for a controller outside every prefixed import, the rule does not apply: reported', async () => {
    const bare = { 'src/Controller/NoteController.php': controller('Controller'), 'src/Repository/NoteRepository.php': repository, 'config/packages/security.yaml': security };
    const expected = ['NoteController.forget:php.model-deletion:unguarded_path', 'NoteController.forget:php.model-write:unguarded_path'];
    expect(await findings(bare)).toEqual(expected);
    expect(await findings({ 'src/Api/NoteController.php': controller('Api'), 'src/Repository/NoteRepository.php': repository, 'config/packages/security.yaml': security, 'config/routes.yaml': routes })).toEqual(expected);
  });

  it('reads resource and prefix per import, relative to the routes file; bundle resources and imports that leave the repository are ignored', () => {
    const texts = new Map([
      ['config/routes.yaml', `${routes}\nbundle:\n    resource: '@AcmeBundle/config/routes.yaml'\n    prefix: /acme\nescape:\n    resource: ../../elsewhere/\n    prefix: /x\n`],
      ['config/routes/admin.yaml', 'admin:\n    resource: ../../src/Controller/Admin/\n    prefix: /admin # mounted here\n'],
    ]);
    const imports = routeImports(texts);
    expect(imports.map((i) => `${i.resource} ${i.prefix}`)).toEqual(['src/Controller/ /{_locale}', 'src/Controller/Admin/ /admin']);
    expect(importOf(imports, 'src/Controller/Admin/UserController.php')?.prefix).toBe('/admin');
    expect(importOf(imports, 'src/Controller/NoteController.php')?.prefix).toBe('/{_locale}');
    expect(importOf(imports, 'src/Api/NoteController.php')).toBeNull();
  });
});
