/**
 * Checks met on the heads of Symfony applications (Mautic, part PHPHO): the application's own
 * permission service (`$this->security->hasEntityAccess(own, other, $owner)`) refused on in an `if`
 * or a PHP `elseif`, written over several lines, one denial among others in the same condition, and a
 * batch action that acts only on the items its check let through.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

function prove(files: Record<string, string>) {
  return proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
}

const where = (findings: { function: string; line: number }[]) => findings.map((f) => `${f.function}:${f.line}`);

const controller = (body: string) => `<?php
namespace App\\Controller;

use App\\Model\\AssetModel;
use Doctrine\\ORM\\EntityManagerInterface;
use Symfony\\Bundle\\FrameworkBundle\\Controller\\AbstractController;
use Symfony\\Component\\HttpFoundation\\Request;
use Symfony\\Component\\Routing\\Annotation\\Route;

class AssetController extends AbstractController
{
    #[Route('/assets/{objectId}/delete', methods: ['POST'])]
    public function deleteAction(Request $request, EntityManagerInterface $em, AssetModel $model, $objectId)
    {
        $entity = $model->getEntity($objectId);
${body}
        $em->remove($entity);
        $em->flush();

        return $this->redirect('/assets');
    }
}
`;

const ASSET_FILE = 'src/Controller/AssetController.php';
const REMOVE_LINE = 17;

describe("an application's permission service", () => {
  it('checks when the code refuses on it, in an if or an elseif, on one line or several', async () => {
    const bodies = [
      `        if (!$this->security->hasEntityAccess('asset:assets:deleteown', 'asset:assets:deleteother', $entity->getCreatedBy())) {
            return $this->accessDenied();
        }`,
      `        if (null === $entity) {
            return $this->redirect('/assets');
        } elseif (!$this->security->hasEntityAccess(
            'asset:assets:deleteown',
            'asset:assets:deleteother',
            $entity->getCreatedBy()
        )
        ) {
            return $this->accessDenied();
        }`,
      `        if (null === $entity) {
            return $this->redirect('/assets');
        } elseif (!$this->security->hasEntityAccess('asset:assets:deleteown', 'asset:assets:deleteother', $entity->getCreatedBy())
            || ($entity->isShared() && !$this->security->hasEntityAccess('asset:shared:deleteown', 'asset:shared:deleteother', $entity->getCreatedBy()))) {
            return $this->accessDenied();
        }`,
    ];
    for (const body of bodies) expect(where((await prove({ [ASSET_FILE]: controller(body) })).findings)).toEqual([]);
  });

  it('checks nothing when the branch on it goes on, or when the receiver is no permission service', async () => {
    const goesOn = `        if (!$this->security->hasEntityAccess('asset:assets:deleteown', 'asset:assets:deleteother', $entity->getCreatedBy())) {
            $this->addFlash('error', 'denied');
        }`;
    const notAService = `        if (!$this->cache->hasEntityAccess('asset:assets:deleteown', 'asset:assets:deleteother', $entity->getCreatedBy())) {
            return $this->accessDenied();
        }`;
    for (const body of [goesOn, notAService]) {
      const lines = body.split('\n').length;
      expect(where((await prove({ [ASSET_FILE]: controller(body) })).findings)).toContain(`AssetController.deleteAction:${REMOVE_LINE + lines}`);
    }
  });
});

const batchController = (loop: string) => `<?php
namespace App\\Controller;

use App\\Model\\AssetModel;
use Symfony\\Bundle\\FrameworkBundle\\Controller\\AbstractController;
use Symfony\\Component\\HttpFoundation\\Request;
use Symfony\\Component\\Routing\\Annotation\\Route;

class AssetController extends AbstractController
{
    #[Route('/assets/batch-delete', methods: ['POST'])]
    public function batchDeleteAction(Request $request, AssetModel $model)
    {
        $flashes   = [];
        $deleteIds = [];
        foreach (json_decode($request->query->get('ids', '{}')) as $objectId) {
            $entity = $model->getEntity($objectId);
${loop}
        }
        $model->deleteEntities($deleteIds);

        return $this->redirect('/assets');
    }
}
`;

const MODEL = `<?php
namespace App\\Model;

use Doctrine\\ORM\\EntityManagerInterface;

class AssetModel
{
    public function __construct(private EntityManagerInterface $em)
    {
    }

    public function getEntity($id)
    {
        return $this->em->find(Asset::class, $id);
    }

    public function deleteEntities(array $ids): void
    {
        foreach ($ids as $id) {
            $this->em->remove($this->getEntity($id));
        }
        $this->em->flush();
    }
}
`;

describe('a batch that acts only on the items its check let through', () => {
  const denied = `            if (null === $entity) {
                $flashes[] = 'not found';
            } elseif (!$this->security->hasEntityAccess('asset:assets:deleteown', 'asset:assets:deleteother', $entity->getCreatedBy())) {
                $flashes[] = $this->accessDenied(true);
            } else {`;

  it('is checked when every item added to the collection passed the check', async () => {
    const loop = `${denied}
                $deleteIds[] = $objectId;
            }`;
    expect(where((await prove({ 'src/Controller/AssetController.php': batchController(loop), 'src/Model/AssetModel.php': MODEL })).findings)).toEqual([]);
  });

  it('is not checked when an item is added outside the allowed arm, or the collection is replaced', async () => {
    const addedAfter = `${denied}
                $flashes[] = 'kept';
            }
            $deleteIds[] = $objectId;`;
    const replaced = `${denied}
                $deleteIds[] = $objectId;
            }
            $deleteIds = $request->query->all('ids');`;
    for (const loop of [addedAfter, replaced]) {
      const findings = (await prove({ 'src/Controller/AssetController.php': batchController(loop), 'src/Model/AssetModel.php': MODEL })).findings;
      expect(findings.map((f) => f.entry.function)).toContain('AssetController.batchDeleteAction');
    }
  });
});

const rolesController = (check: string, write: string) => `<?php
namespace App\\Controller;

use Symfony\\Bundle\\FrameworkBundle\\Controller\\AbstractController;
use Symfony\\Component\\Routing\\Annotation\\Route;

class ConfigController extends AbstractController
{
    #[Route('/config/edit', methods: ['POST'])]
    public function editAction()
    {
${check}
        ${write}

        return $this->redirect('/config');
    }
}
`;

describe("a role test on the current user, and Doctrine's detach", () => {
  const write = "file_put_contents($this->configFile, 'x');";

  it('checks when the code refuses unless the current user has the role', async () => {
    const check = `        if (!$this->user->isAdmin()) {
            return $this->accessDenied();
        }`;
    expect(where((await prove({ 'src/Controller/ConfigController.php': rolesController(check, write) })).findings)).toEqual([]);
  });

  it('checks nothing when the test is on another object, or its branch goes on', async () => {
    const otherObject = `        if (!$this->config->isAdmin()) {
            return $this->accessDenied();
        }`;
    const goesOn = `        if (!$this->user->isAdmin()) {
            $this->addFlash('error', 'admins only');
        }`;
    for (const check of [otherObject, goesOn]) expect(where((await prove({ 'src/Controller/ConfigController.php': rolesController(check, write) })).findings)).toEqual([`ConfigController.editAction:${12 + check.split('\n').length}`]);
  });

  it("reads Doctrine's detach as no write, and Eloquent's detach as a deletion", async () => {
    const doctrine = (await prove({ 'src/Controller/ConfigController.php': rolesController('', '$this->entityManager->detach($entity);') })).findings;
    expect(doctrine).toEqual([]);
    const eloquent = (await prove({ 'src/Controller/ConfigController.php': rolesController('', '$user->roles()->detach($roleId);') })).findings;
    expect(eloquent.map((f) => f.operation.id)).toEqual(['php.model-deletion']);
  });
});

describe('a batch whose loop skips the items that fail the check', () => {
  const loop = (denied: string) => `            if (!$this->security->hasEntityAccess('asset:assets:deleteown', 'asset:assets:deleteother', $entity->getCreatedBy())) {
                $flashes[] = 'denied';
${denied}
            }
            $model->deleteEntity($entity);`;
  const modelWithDelete = MODEL.replace('    public function deleteEntities', `    public function deleteEntity($entity): void
    {
        $this->em->remove($entity);
        $this->em->flush();
    }

    public function deleteEntities`);

  it('is checked when the failing arm goes on to the next item', async () => {
    const findings = (await prove({ 'src/Controller/AssetController.php': batchController(loop('                continue;')), 'src/Model/AssetModel.php': modelWithDelete })).findings;
    expect(findings.filter((f) => f.hops.length === 1 && f.hops[0]?.callLine === 22)).toEqual([]);
  });

  it('is not checked when the failing arm only records the refusal', async () => {
    const findings = (await prove({ 'src/Controller/AssetController.php': batchController(loop('')), 'src/Model/AssetModel.php': modelWithDelete })).findings;
    expect(findings.filter((f) => f.hops.length === 1 && f.hops[0]?.callLine === 22).length).toBeGreaterThan(0);
  });
});
