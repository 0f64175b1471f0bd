/**
 * Resource-bound checks (src/prover/resource-binding.ts, ADR 0028): an operation row marked
 * `resource_bound` acting on an object the request chose is discharged only by a check whose subject is
 * that object (or a variable it came from) with an attribute stronger than viewing. A check on another
 * object, a view check, or a login-level role leaves it as a `resource_unbound` finding that names the
 * object; a global role or permission (no subject) and the caller's own objects still discharge.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runJscr as jscr } from '../helpers/cli.js';
import { makeRepo, type TestRepo } from '../helpers/repo.js';
import { proveChange } from '../../src/prover/prove.js';
import { findingSentence } from '../../src/prover/render.js';
import { traceOf } from '../../src/prover/trace.js';
import type { ProverFinding } from '../../src/prover/types.js';

async function findingsOf(files: Record<string, string>): Promise<ProverFinding[]> {
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.operationsChecked).toBeGreaterThan(0);
  return result.findings;
}

/** A Symfony action with `attributes` above it, `parameters`, and `body`. */
const action = (attributes: string, parameters: string, body: string) => `<?php
namespace App\\Controller;
class PostController extends AbstractController
{
    ${attributes}
    #[Route('/post/{post}', methods: ['POST'])]
    public function act(${parameters}): Response
    {
${body}
        return new Response();
    }
}
`;

const post = (attributes: string, body: string, parameters = 'Post $post, Request $request, EntityManagerInterface $em') => ({ 'src/Controller/PostController.php': action(attributes, parameters, body) });

/** The table: each row a check kind in front of a resource-bound operation; `unbound` is the object a finding must name, null for none. */
const TABLE: { name: string; files: Record<string, string>; unbound: string | null }[] = [
  // deletions of a route-bound record
  { name: 'a voter call on the deleted record', files: post('', `        $this->denyAccessUnlessGranted('delete', $post);\n        $em->remove($post);`), unbound: null },
  { name: 'a login-level role before a deletion', files: post('', `        $this->denyAccessUnlessGranted('ROLE_USER');\n        $em->remove($post);`), unbound: '$post' },
  { name: 'a global role before a deletion', files: post('', `        $this->denyAccessUnlessGranted('ROLE_ADMIN');\n        $em->remove($post);`), unbound: null },
  { name: 'a permission that names no object before a deletion', files: post('', `        $this->denyAccessUnlessGranted('delete_other_post');
        $em->remove($post);`), unbound: null },
  { name: 'a permission that names no object beside a check on another object', files: post(`#[IsGranted('API')]`, `        $this->denyAccessUnlessGranted('edit', $blog);
        $em->remove($post);`, 'Blog $blog, Post $post, EntityManagerInterface $em'), unbound: '$post' },
  { name: 'an administrator role beside a check on another object', files: post(`#[IsGranted('ROLE_ADMIN')]`, `        $this->denyAccessUnlessGranted('edit', $blog);
        $em->remove($post);`, 'Blog $blog, Post $post, EntityManagerInterface $em'), unbound: null },
  { name: 'a view check on the deleted record', files: post('', `        $this->denyAccessUnlessGranted('view', $post);\n        $em->remove($post);`), unbound: '$post' },
  { name: 'a check on another record before a deletion', files: post('', `        $comment = $this->comments->find($request->get('comment'));\n        $this->denyAccessUnlessGranted('delete', $post);\n        $em->remove($comment);`), unbound: '$comment' },
  { name: 'a boolean voter call that leaves, on a record looked up by a route id', files: post('', `        $found = $this->posts->find($id);\n        if (!$this->isGranted('delete', $found)) {\n            throw $this->createAccessDeniedException();\n        }\n        $em->remove($found);`, 'int $id, EntityManagerInterface $em'), unbound: null },
  { name: 'an attribute naming the deleted route parameter', files: post(`#[IsGranted('delete', 'post')]`, `        $em->remove($post);`), unbound: null },
  { name: 'an attribute naming the subject by keyword', files: post(`#[IsGranted('delete', subject: 'post')]`, `        $em->remove($post);`), unbound: null },
  { name: 'a class attribute naming the deleted route parameter, beside a method attribute on another', files: { 'src/Controller/PostController.php': action(`#[IsGranted('edit', 'blog')]`, 'Blog $blog, Post $post, EntityManagerInterface $em', `        $em->remove($post);`).replace('class PostController', "#[IsGranted('delete', 'post')]\nclass PostController") }, unbound: null },
  { name: 'an attribute naming another parameter', files: post(`#[IsGranted('edit', 'blog')]`, `        $em->remove($post);`, 'Blog $blog, Post $post, EntityManagerInterface $em'), unbound: '$post' },
  { name: 'a deletion of a record the code built', files: post(`#[IsGranted('ROLE_USER')]`, `        $draft = new Post();\n        $em->remove($draft);`), unbound: null },
  { name: "a deletion of the logged-in user's record", files: post(`#[IsGranted('ROLE_USER')]`, `        $mine = $this->getUser()->getDraft();\n        $em->remove($mine);`), unbound: null },
  { name: 'a child compared with its checked parent before it is deleted', files: post(`#[IsGranted('edit', 'blog')]`, `        if ($post->getBlog() !== $blog) {
            throw $this->createNotFoundException();
        }
        $em->remove($post);`, 'Blog $blog, Post $post, EntityManagerInterface $em'), unbound: null },
  { name: 'a comparison with the parent that only logs', files: post(`#[IsGranted('edit', 'blog')]`, `        if ($post->getBlog() !== $blog) {
            $this->logger->info('other blog');
        }
        $em->remove($post);`, 'Blog $blog, Post $post, EntityManagerInterface $em'), unbound: '$post' },
  // a child moved under a parent the request names
  { name: 'a move checked on the child only', files: post('', `        $this->denyAccessUnlessGranted('edit', $post);\n        $book = $this->books->find($request->get('book'));\n        $post->changeBook($book->id);`), unbound: '$book->id' },
  { name: 'a move checked on the new parent too', files: post('', `        $this->denyAccessUnlessGranted('edit', $post);\n        $book = $this->books->find($request->get('book'));\n        $this->denyAccessUnlessGranted('create', $book);\n        $post->changeBook($book->id);`), unbound: null },
  { name: 'a move under a parent derived from a checked one', files: post('', `        $this->denyAccessUnlessGranted('edit', $post);\n        $book = $this->books->find($request->get('book'));\n        $this->denyAccessUnlessGranted('create', $book);\n        $target = $book->getId();\n        $post->changeBook($target);`), unbound: null },
  // the move changes the child too: a check on the new parent alone leaves the child the request named unchecked
  { name: 'a move checked on the new parent only', files: post('', `        $book = $this->books->find($request->get('book'));\n        $this->denyAccessUnlessGranted('create', $book);\n        $post->changeBook($book->id);`), unbound: '$post' },
];

describe('resource-bound checks', () => {
  for (const row of TABLE) {
    it(row.name, async () => {
      const findings = await findingsOf(row.files);
      const bound = findings.filter((f) => f.label === 'resource_unbound');
      if (row.unbound === null) expect(findings.map((f) => f.evidence)).toEqual([]);
      else {
        expect(bound.map((f) => f.unboundResource?.variable)).toEqual([row.unbound]);
        expect(bound[0]?.cwe).toBe('CWE-639');
      }
    });
  }

  it('a team access grant on a view check names the object and what the checks bind; the permissions attribute settles it', async () => {
    const grant = (attribute: string) => ({
      'src/API/TeamController.php': `<?php
namespace App\\API;
#[IsGranted('API')]
class TeamController extends AbstractController
{
    #[IsGranted('edit', 'team')]
    #[IsGranted('${attribute}', 'customer')]
    #[Route('/teams/{id}/customers/{customerId}', methods: ['POST'])]
    public function postCustomerAction(Team $team, Customer $customer, CustomerRepository $customers): Response
    {
        $team->addCustomer($customer);
        $customers->saveCustomer($customer);
        return new Response();
    }
}
`,
    });
    const [finding, ...rest] = await findingsOf(grant('view'));
    expect(rest).toEqual([]);
    expect(finding?.label).toBe('resource_unbound');
    expect(finding?.unboundResource?.sentence).toContain("`IsGranted('view', 'customer')` only allows viewing it");
    expect(finding?.unboundResource?.sentence).toContain("`IsGranted('edit', 'team')` binds another object");
    expect(finding?.unboundResource?.sentence).toContain('a parameter of the entry TeamController.postCustomerAction');
    if (!finding) return;
    expect(findingSentence(finding)).toContain('with no permission or role check bound to `$customer` before it');
    expect(traceOf(finding).find((t) => t.step === 'would_discharge')?.text).toContain('bound to $customer');
    expect(await findingsOf(grant('permissions'))).toEqual([]);
  });

  it('adding a user to a team needs a check on that user', async () => {
    const member = (attributes: string) => ({
      'src/API/TeamController.php': `<?php
namespace App\\API;
class TeamController extends AbstractController
{
    #[IsGranted('edit', 'team')]
    ${attributes}
    #[Route('/teams/{id}/members/{userId}', methods: ['POST'])]
    public function postMemberAction(Team $team, User $member): Response
    {
        $team->addUser($member);
        return new Response();
    }
}
`,
    });
    expect((await findingsOf(member(''))).map((f) => f.unboundResource?.variable)).toEqual(['$member']);
    expect(await findingsOf(member("#[IsGranted('access_user', 'member')]"))).toEqual([]);
  });
});

/** A Laravel controller deleting a route-bound post after `guard`, routed with `middleware` (and `routes`, the route file's text). */
const laravel = (guard: string, middleware = "'auth'", routes?: string) => ({
  'app/Http/Controllers/PostController.php': `<?php
namespace App\\Http\\Controllers;
class PostController extends Controller
{
    public function destroy(Request $request, Blog $blog, Post $post)
    {
${guard}
        $post->delete();
        return back();
    }
}
`,
  'routes/web.php': routes ?? `<?php\nRoute::middleware(${middleware})->group(function () {\n    Route::delete('blogs/{blog}/posts/{post}', [PostController::class, 'destroy']);\n});\n`,
});

describe('resource-bound checks in Laravel', () => {
  const LARAVEL: { name: string; files: Record<string, string>; unbound: string | null }[] = [
    { name: 'authorize on the deleted post', files: laravel("        $this->authorize('delete', $post);"), unbound: null },
    { name: 'authorize on the blog only', files: laravel("        $this->authorize('update', $blog);"), unbound: '$post' },
    { name: 'a user can() on the post that leaves', files: laravel("        if (!$request->user()->can('delete', $post)) {\n            abort(403);\n        }"), unbound: null },
    { name: 'Gate::allows on the blog that leaves', files: laravel("        if (!Gate::allows('update', $blog)) {\n            abort(403);\n        }"), unbound: '$post' },
    { name: 'can: middleware naming the post', files: laravel('', "['auth', 'can:delete,post']"), unbound: null },
    { name: 'can: middleware naming the blog', files: laravel('', "['auth', 'can:update,blog']"), unbound: '$post' },
    { name: 'a post looked up within its authorized blog', files: laravel("        $this->authorize('update', $blog);\n        $post = Post::where('blog_id', $blog->id)->findOrFail($request->input('post_id'));"), unbound: null },
    { name: 'a post looked up by the request alone after a check on the blog', files: laravel("        $this->authorize('update', $blog);\n        $post = Post::findOrFail($request->input('post_id'));"), unbound: '$post' },
    { name: 'scoped bindings on the route', files: laravel("        $this->authorize('update', $blog);", '', "<?php\nRoute::middleware('auth')->group(function () {\n    Route::delete('blogs/{blog}/posts/{post}', [PostController::class, 'destroy'])->scopeBindings();\n});\n"), unbound: null },
    { name: 'a scoped group under a prefix', files: laravel("        $this->authorize('update', $blog);", '', "<?php\nRoute::middleware('auth')->prefix('blogs/{blog}')->scopeBindings()->group(function () {\n    Route::delete('posts/{post}', [PostController::class, 'destroy']);\n});\n"), unbound: null },
    { name: 'an unscoped group under a prefix', files: laravel("        $this->authorize('update', $blog);", '', "<?php\nRoute::middleware('auth')->prefix('blogs/{blog}')->group(function () {\n    Route::delete('posts/{post}', [PostController::class, 'destroy']);\n});\n"), unbound: '$post' },
    { name: 'a post compared with its authorized blog', files: laravel("        $this->authorize('update', $blog);\n        if ($post->blog_id !== $blog->id) {\n            abort(404);\n        }"), unbound: null },
  ];
  for (const row of LARAVEL) {
    it(row.name, async () => {
      const findings = await findingsOf(row.files);
      if (row.unbound === null) expect(findings.map((f) => f.evidence)).toEqual([]);
      else expect(findings.filter((f) => f.label === 'resource_unbound').map((f) => f.unboundResource?.variable)).toEqual([row.unbound]);
    });
  }
});

describe('jscr prove on a small repository: a move under a parent the request names', () => {
  let repo: TestRepo | null = null;
  afterEach(() => {
    repo?.cleanup();
    repo = null;
  });

  const controller = (checks: string) => `<?php
namespace App\\Controller;
class ChapterController extends AbstractController
{
    #[Route('/chapters/{chapter}/move', methods: ['PUT'])]
    public function move(Chapter $chapter, Request $request, BookRepository $books): Response
    {
        $this->denyAccessUnlessGranted('update', $chapter);
        $book = $books->find($request->get('book_id'));
${checks}        $chapter->changeBook($book->id);
        return new Response();
    }
}
`;

  it('the change that moves without a check on the new book is a finding; the one adding it settles it', async () => {
    repo = makeRepo({ 'README.md': 'x\n' });
    const base = repo.git('rev-parse', 'HEAD').trim();
    const moved = repo.commit({ 'src/Controller/ChapterController.php': controller('') }, 'chapter move');
    const unbound = await jscr(['prove', '--base', base, '--head', moved, '--format', 'json'], repo.root);
    expect(unbound.code).toBe(1);
    const json = JSON.parse(unbound.stdout) as { findings: { label: string; cwe: string; unbound_resource: { variable: string; sentence: string } | null }[] };
    expect(json.findings).toHaveLength(1);
    expect(json.findings[0]).toMatchObject({ label: 'resource_unbound', cwe: 'CWE-639', unbound_resource: { variable: '$book->id' } });
    expect(json.findings[0]?.unbound_resource?.sentence).toContain("`$this->denyAccessUnlessGranted('update', $chapter)` binds another object");
    const text = await jscr(['prove', '--base', base, '--head', moved], repo.root);
    expect(text.stdout).toContain('bound to `$book->id`');
    const fixed = repo.commit({ 'src/Controller/ChapterController.php': controller("        $this->denyAccessUnlessGranted('create', $book);\n") }, 'check the new book');
    const settled = await jscr(['prove', '--base', moved, '--head', fixed], repo.root);
    expect(settled.code).toBe(0);
  });
});
