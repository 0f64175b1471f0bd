/**
 * Objects the code builds itself (src/prover/created-by-code.ts): a resource-bound operation on an object
 * a called factory created (`$service->createNewProject($customer)` returning its `new Project()`) is not
 * at risk, even when the request's data went into the factory; a "factory" that hands back a record the
 * request picked is no creation and stays at risk.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';
import type { ProverFinding } from '../../src/prover/types.js';

async function findingsOf(files: Record<string, string>): Promise<ProverFinding[]> {
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 4, fanOut: 25 });
  expect(result.coverage.operationsChecked).toBeGreaterThan(0);
  return result.findings;
}

/** A service whose `makeProject` body is `factory`, and a team grant of what it returns, reached from an action. */
const repository = (factory: string) => ({
  'src/Project/ProjectService.php': `<?php
namespace App\\Project;
class ProjectService
{
    public function makeProject(?Customer $customer = null): Project
    {
${factory}
    }

    public function grantToTeams(Project $project, User $user): void
    {
        foreach ($user->getTeams() as $team) {
            $team->addProject($project);
        }
    }
}
`,
  'src/Controller/ProjectController.php': `<?php
namespace App\\Controller;
use App\\Project\\ProjectService;
class ProjectController extends AbstractController
{
    #[IsGranted('edit', 'team')]
    #[IsGranted('create_project')]
    #[Route('/customer/{id}/create_project', methods: ['POST'])]
    public function createWithCustomer(Customer $customer, ProjectService $service, Team $team): Response
    {
        return $this->create($service, $customer);
    }

    private function create(ProjectService $service, ?Customer $customer): Response
    {
        $project = $service->makeProject($customer);
        $user = $this->getUser();
        $service->grantToTeams($project, $user);
        return new Response();
    }
}
`,
});

describe('objects a called factory creates', () => {
  it('a project the service builds with new is not the request’s choice, though the route’s customer went into it', async () => {
    const files = repository(`        $project = new Project();
        if ($customer !== null) {
            $project->setCustomer($customer);
        }
        return $project;`);
    expect((await findingsOf(files)).map((f) => f.evidence)).toEqual([]);
  });

  it('a factory that returns new directly', async () => {
    expect(await findingsOf(repository('        return new Project($customer);'))).toEqual([]);
  });

  it('a factory that calls another factory', async () => {
    const files = repository('        return $this->blank($customer);');
    files['src/Project/ProjectService.php'] = files['src/Project/ProjectService.php'].replace(
      '    public function grantToTeams',
      `    private function blank(?Customer $customer): Project
    {
        $fresh = new Project();
        return $fresh;
    }

    public function grantToTeams`,
    );
    expect(await findingsOf(files)).toEqual([]);
  });

  it('a "factory" that returns the project the route named is no creation: the grant stays unbound', async () => {
    const files = repository('        return $customer->getProject();');
    const findings = await findingsOf(files);
    expect(findings.map((f) => f.label)).toEqual(['resource_unbound']);
    expect(findings[0]?.unboundResource?.variable).toBe('$project');
  });

  it('a factory with one return that creates and one that hands back a looked-up record stays at risk', async () => {
    const files = repository(`        if ($customer !== null) {
            return $customer->getDefaultProject();
        }
        return new Project();`);
    expect((await findingsOf(files)).map((f) => f.label)).toEqual(['resource_unbound']);
  });
});
