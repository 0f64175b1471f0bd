/**
 * A lookup scoped by the logged-in user is an ownership check on what it returns: the operation on that
 * object (or on the key the lookup proved, when the code leaves on a miss) is the caller's own. A lookup
 * scoped by something the request chose, or not scoped at all, is not.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

async function findings(files: Record<string, string>): Promise<string[]> {
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.operationsChecked).toBeGreaterThan(0);
  return result.findings.map((f) => `${f.entry.function}:${f.operation.id}:${f.label}`);
}

describe('Remix/TypeScript: where: { userId: user.id } with user from requireUser', () => {
  const route = (body: string) => `import { redirect } from '@remix-run/node'
import { requireUser } from '~/utils/session.server'
import { db, callTable, userTable } from '~/utils/db.server'
export async function action({ params, request }) {
  const user = await requireUser(request)
${body}
  return redirect('/calls')
}
`;
  const lookup = (where: string, guard = "  if (!call) {\n    console.warn('no such call')\n    return redirect('/calls')\n  }") =>
    `  const call = await db.findOne(callTable, {\n    where: ${where},\n  })\n${guard}\n  await db.delete(callTable, params.callId)`;

  it('a lookup scoped by the user that leaves on a miss owns the key it was looked up by; the own account is owned', async () => {
    expect(await findings({ 'app/routes/calls.$callId.tsx': route(lookup('{ userId: user.id, id: params.callId }')) })).toEqual([]);
    expect(await findings({ 'app/routes/me.tsx': route('  await db.update(userTable, user.id, { discordId: null })') })).toEqual([]);
  });

  it('not scoped, scoped by a request value, not leaving on a miss, or another user id from the request: reported', async () => {
    const cases = {
      'not scoped': lookup('{ id: params.callId }'),
      'scoped by the request': lookup('{ userId: params.userId, id: params.callId }'),
      'no exit on a miss': lookup('{ userId: user.id, id: params.callId }', "  if (!call) console.warn('no such call')"),
    };
    for (const [name, body] of Object.entries(cases)) expect(await findings({ 'app/routes/calls.$callId.tsx': route(body) }), name).toEqual(['action:ts.orm-deletion:authn_only']);
    expect(await findings({ 'app/routes/me.tsx': route('  await db.update(userTable, params.userId, { discordId: user.id })') })).toEqual(['action:ts.orm-update:authn_only']);
  });
});

describe('the user handed on inside an object argument', () => {
  const helper = `import { db, userTable } from './db.server'
export async function connect({ user, code }: { user: User; code: string }) {
  const member = await fetchMember(code)
  await store(member, user)
}
async function store(member: Member, user: User) {
  await db.update(userTable, user.id, { discordId: member.id })
}
`;
  const loader = (argument: string) => `import { requireUser } from '~/utils/session.server'
import { connect } from '~/utils/discord.server'
export async function loader({ request, params }) {
  const user = await requireUser(request)
  const other = await findUser(params.userId)
  await connect(${argument})
  return null
}
`;
  it('a destructured parameter takes the user by property name; another user in the same property is not owned', async () => {
    expect(await findings({ 'app/utils/discord.server.ts': helper, 'app/routes/discord.callback.tsx': loader('{ user, code: params.code }') })).toEqual([]);
    expect(await findings({ 'app/utils/discord.server.ts': helper, 'app/routes/discord.callback.tsx': loader('{ user: other, code: params.code }') })).toEqual(['loader:ts.orm-update:authn_only']);
  });
});

describe('Symfony: repository lookups by $this->getUser()', () => {
  const controller = (lookup: string, write = '        $em->remove($bookmark);\n        $em->flush();') => `<?php
namespace App\\Controller;
use App\\Repository\\BookmarkRepository;
use Doctrine\\ORM\\EntityManagerInterface;
use Symfony\\Bundle\\FrameworkBundle\\Controller\\AbstractController;
use Symfony\\Component\\Routing\\Attribute\\Route;
class BookmarkController extends AbstractController
{
    #[Route('/bookmarks/{id}/delete', methods: ['POST'])]
    public function delete(int $id, Request $request, BookmarkRepository $repository, EntityManagerInterface $em): Response
    {
${lookup}
        if ($bookmark === null) {
            throw $this->createNotFoundException();
        }
${write}
        return new Response();
    }
}
`;
  const repository = `<?php
namespace App\\Repository;
class BookmarkRepository extends ServiceEntityRepository
{
    public function findBookmark(User $user, int $id): ?Bookmark
    {
        return $this->findOneBy(['user' => $user, 'id' => $id]);
    }
    public function saveBookmark(Bookmark $bookmark): void
    {
        $em = $this->getEntityManager();
        $em->persist($bookmark);
        $em->flush();
    }
}
`;
  const security = 'security:\n    access_control:\n        - { path: ^/bookmarks, roles: ROLE_USER }\n';
  const app = (lookup: string, write?: string) => ({ 'src/Controller/BookmarkController.php': controller(lookup, write), 'src/Repository/BookmarkRepository.php': repository, 'config/packages/security.yaml': security });

  it('findOneBy, a query builder and a repository method given the user own what they return, through remove, flush and a save helper', async () => {
    const lookups = {
      findOneBy: "        $bookmark = $repository->findOneBy(['user' => $this->getUser(), 'id' => $id]);",
      'query builder': "        $bookmark = $repository->createQueryBuilder('b')\n            ->where('b.user = :user')->andWhere('b.id = :id')\n            ->setParameter('user', $this->getUser())\n            ->setParameter('id', $id)\n            ->getQuery()->getOneOrNullResult();",
      'repository method': '        $bookmark = $repository->findBookmark($this->getUser(), $id);',
    };
    for (const [name, lookup] of Object.entries(lookups)) {
      expect(await findings(app(lookup)), name).toEqual([]);
      expect(await findings(app(lookup, "        $bookmark->setName('x');\n        $repository->saveBookmark($bookmark);")), `${name}, saved by the repository`).toEqual([]);
    }
  });

  it('a lookup by the request, an unscoped find, and a flush of something else queued are reported', async () => {
    const scopedByRequest = "        $bookmark = $repository->findOneBy(['user' => $request->get('user'), 'id' => $id]);";
    expect(await findings(app(scopedByRequest))).toEqual(['BookmarkController.delete:php.model-deletion:authn_only', 'BookmarkController.delete:php.model-write:authn_only']);
    expect(await findings(app('        $bookmark = $repository->find($id);'))).toEqual(['BookmarkController.delete:php.model-deletion:authn_only', 'BookmarkController.delete:php.model-write:authn_only']);
    const fallback = "        $bookmark = $repository->findOneBy(['user' => $this->getUser(), 'id' => $id]) ?? $repository->find($id);";
    expect(await findings(app(fallback))).toEqual(['BookmarkController.delete:php.model-deletion:authn_only', 'BookmarkController.delete:php.model-write:authn_only']);
    const other = "        $bookmark = $repository->findOneBy(['user' => $this->getUser(), 'id' => $id]);";
    expect(await findings(app(other, '        $em->persist($bookmark);\n        $em->persist($repository->find($request->get(\'other\')));\n        $em->flush();'))).toEqual(['BookmarkController.delete:php.model-write:authn_only']);
  });
});

describe('Laravel: lookups through the user or constrained by auth()->id()', () => {
  const controller = (body: string) => `<?php
namespace App\\Http\\Controllers;
class ProjectController extends Controller
{
    public function destroy(Request $request, int $id)
    {
${body}
        $project->delete();
        return back();
    }
}
`;
  const routes = "<?php\nRoute::middleware('auth')->delete('projects/{id}', [ProjectController::class, 'destroy']);\n";
  it('owned through the relation or the where, not through a user id from the request', async () => {
    const owned = {
      relation: '        $project = auth()->user()->projects()->findOrFail($id);',
      'request user relation': '        $project = $request->user()->projects()->findOrFail($id);',
      where: "        $project = Project::where('user_id', auth()->id())\n            ->findOrFail($id);",
    };
    for (const [name, body] of Object.entries(owned)) expect(await findings({ 'app/Http/Controllers/ProjectController.php': controller(body), 'routes/web.php': routes }), name).toEqual([]);
    // A project helper that returns the logged-in user denotes that user; one returning another user does not.
    const helpers = "<?php\nfunction current(): User\n{\n    return auth()->user() ?: User::guest();\n}\nfunction pick(): User\n{\n    return User::query()->first();\n}\n";
    expect(await findings({ 'app/helpers.php': helpers, 'app/Http/Controllers/ProjectController.php': controller('        $project = current();'), 'routes/web.php': routes })).toEqual([]);
    expect(await findings({ 'app/helpers.php': helpers, 'app/Http/Controllers/ProjectController.php': controller('        $project = pick();'), 'routes/web.php': routes })).toEqual(['ProjectController.destroy:php.model-deletion:authn_only']);
    const chosen = "        $project = Project::where('user_id', $request->input('user_id'))->findOrFail($id);";
    expect(await findings({ 'app/Http/Controllers/ProjectController.php': controller(chosen), 'routes/web.php': routes })).toEqual(['ProjectController.destroy:php.model-deletion:authn_only']);
  });
});

describe('Symfony: the class declares a permission on its other actions', () => {
  const controller = (attribute: string) => `<?php
namespace App\\Controller;
use App\\Repository\\BookmarkRepository;
use Doctrine\\ORM\\EntityManagerInterface;
use Symfony\\Bundle\\FrameworkBundle\\Controller\\AbstractController;
use Symfony\\Component\\Routing\\Attribute\\Route;
use Symfony\\Component\\Security\\Http\\Attribute\\IsGranted;
class BookmarkController extends AbstractController
{
    #[Route('/bookmarks', methods: ['GET'])]
    #[IsGranted('bookmarks:manage')]
    public function index(): Response
    {
        return new Response();
    }

    #[Route('/bookmarks/{id}/delete', methods: ['POST'])]
${attribute}
    public function delete(int $id, BookmarkRepository $repository, EntityManagerInterface $em): Response
    {
        $bookmark = $repository->findOneBy(['user' => $this->getUser(), 'id' => $id]);
        if ($bookmark === null) {
            throw $this->createNotFoundException();
        }
        $em->remove($bookmark);
        $em->flush();
        return new Response();
    }
}
`;
  const files = (attribute: string) => ({ 'src/Controller/BookmarkController.php': controller(attribute), 'config/packages/security.yaml': 'security:\n    access_control:\n        - { path: ^/bookmarks, roles: ROLE_USER }\n' });

  it('acting on one\'s own record does not stand in for the permission every other action declares', async () => {
    expect(await findings(files(''))).toEqual(['BookmarkController.delete:php.model-deletion:authn_only', 'BookmarkController.delete:php.model-write:authn_only']);
    expect(await findings(files("    #[IsGranted('bookmarks:manage')]"))).toEqual([]);
  });
});
