/**
 * Reads of the record a Laravel route names (src/prover/route-record-reads.ts): a handler that checks
 * the caller against its route key and then answers with the record behind that key needs the check to
 * hold where the answer is given. The handler's own check is the norm: a handler that checks no record
 * is not judged.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';
import type { ProverFinding } from '../../src/prover/types.js';
import { GUEST_BASE_CONTROLLER as BASE } from './guest-fixtures.js';

/** `user()` hands anonymous visitors the shared guest account, as BookStack's helper does. */
const HELPERS = `<?php
function user(): User
{
    return auth()->user() ?: User::getGuest();
}

function signedInUser(): bool
{
    return auth()->user() && !auth()->user()->isGuest();
}
`;


/** A controller whose `show` action has `body`, with `parameters`. */
const controller = (parameters: string, body: string) => `<?php
namespace App\\Http;
class ProfileController extends Controller
{
    public function show(${parameters})
    {
${body}
    }
}
`;

const ROUTES = `<?php
Route::middleware('web')->group(function () {
    Route::get('/profiles/{id}', [ProfileController::class, 'show']);
});
`;

async function findingsOf(parameters: string, body: string): Promise<ProverFinding[]> {
  const files = { 'app/helpers.php': HELPERS, 'app/Http/Controller.php': BASE, 'app/Http/ProfileController.php': controller(parameters, body), 'app/Models/Post.php': '<?php\nnamespace App\\Models;\nclass Post extends Model\n{\n}\n', 'routes/web.php': ROUTES };
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.entryPoints).toBeGreaterThan(0);
  return result.findings.filter((f) => f.operation.id === 'php.route-record-answer');
}

const OWNER = "        $this->checkPermissionOrCurrentUser('users-manage', $id);";
const LOOKUP = '        $user = $this->users->getById($id);';

describe('an answer with the record a route key names, after a check of that key', () => {
  it.each([
    ['ownership against the guest account with no login check', 'int $id', `${OWNER}\n${LOOKUP}\n        return view('users.edit', ['user' => $user]);`],
    ['the same, answered through compact()', 'int $id', `${OWNER}\n${LOOKUP}\n        return view('users.delete', compact('user'));`],
    ['the same, answered as JSON', 'int $id', `${OWNER}\n${LOOKUP}\n        return response()->json($user);`],
    ['a policy check in a branch that may not run', 'int $id', "        $post = Post::findOrFail($id);\n        if (request()->has('draft')) {\n            $this->authorize('view', $post);\n        }\n        return view('posts.show', ['post' => $post]);"],
    ['a route-bound model checked in a branch only', 'Post $post', "        if (request()->has('draft')) {\n            $this->authorize('view', $post);\n        }\n        return view('posts.show', ['post' => $post]);"],
  ])('is a finding: %s', async (_name, parameters, body) => {
    const found = await findingsOf(parameters, body);
    expect(found.map((f) => `${f.entry.function} ${f.label}`)).toEqual(['ProfileController.show resource_unbound']);
    expect(found[0]?.cwe).toBe('CWE-639');
  });

  it('names why the check does not hold', async () => {
    const [finding] = await findingsOf('int $id', `${OWNER}\n${LOOKUP}\n        return view('users.edit', ['user' => $user]);`);
    expect(finding?.unboundResource?.sentence).toContain('shared guest account');
    expect(finding?.unboundResource?.sentence).toContain('`$user` is the record looked up by the route');
  });

  it.each([
    ['a login check before the guest-open ownership', 'int $id', `        $this->preventGuestAccess();\n${OWNER}\n${LOOKUP}\n        return view('users.edit', ['user' => $user]);`],
    ['a policy check on the record before the answer', 'int $id', "        $post = Post::findOrFail($id);\n        $this->authorize('view', $post);\n        return view('posts.show', ['post' => $post]);"],
    ['no check of the key at all: the handler sets no norm', 'int $id', "        $this->checkPermission('profiles-view');\n        $post = Post::findOrFail($id);\n        return view('posts.show', ['post' => $post]);"],
    ['a record looked up and checked inside the branch that alone holds it', 'string $slug = null', "        $shelf = null;\n        if ($slug !== null) {\n            $shelf = Post::where('slug', $slug)->firstOrFail();\n            $this->authorize('update', $shelf);\n        }\n        return view('posts.create', ['shelf' => $shelf]);"],
    ['only a field of the record handed out', 'int $id', `${OWNER}\n${LOOKUP}\n        return view('users.name', ['name' => $user->name]);`],
    ['the scalar key itself handed out, no record', 'int $id', `${OWNER}\n        return view('users.edit', ['id' => $id]);`],
  ])('is no finding: %s', async (_name, parameters, body) => {
    expect(await findingsOf(parameters, body)).toEqual([]);
  });
});
