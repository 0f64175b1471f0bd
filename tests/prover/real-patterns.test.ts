/**
 * Patterns met on real projects (Laravel music server, Jupyter-style Tornado server, Jenkins plugins),
 * rewritten as small fixtures: each false-alarm pattern as a negative case next to the nearby real bug
 * that must still be reported.
 */
import { describe, expect, it } from 'vitest';
import { parseFactsFile } from '../../src/prover/facts.js';
import { callArguments } from '../../src/prover/ownership.js';
import { proveChange } from '../../src/prover/prove.js';
import { RuleFileError } from '../../src/errors.js';

function prove(files: Record<string, string>) {
  return proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
}

const accountService = `<?php
namespace App\\Services;
class AccountService
{
    public function register(AccountData $data): Member
    {
        $member = Member::query()->create($data->toArray());
        return $member->syncRoles($data->role);
    }
    public function refreshFromProvider(Member $member, array $profile): Member
    {
        $member->update(['picture' => $profile['picture']]);
        return $member;
    }
    public function rename(Member $member, string $name): void
    {
        $member->update(['name' => $name]);
    }
    public function purge(iterable $files): void
    {
        foreach ($files as $file) {
            $file->delete();
        }
    }
}
`;

describe('authentication flows act on the account being authenticated', () => {
  const callback = (name: string, body: string) => `<?php
namespace App\\Http\\Controllers;
class ${name} extends Controller
{
    public function __invoke(Request $request, AccountService $accounts)
    {
${body}
    }
}
`;
  it('does not report an OAuth callback or a registration creating the user who signs in', async () => {
    const result = await prove({
      'app/Services/AccountService.php': accountService,
      'app/Http/Controllers/GithubCallbackController.php': callback('GithubCallbackController', "        $member = $accounts->register(AccountData::fromProvider(Socialite::driver('github')->user(), Role::MEMBER));\n        return redirect('/');"),
      'app/Http/Controllers/RegisterController.php': callback('RegisterController', '        $accounts->register(AccountData::make($request->email, Role::MEMBER));\n        return redirect(\'/\');'),
      'routes/web.php': "<?php\nRoute::get('auth/github/callback', GithubCallbackController::class);\nRoute::post('register', RegisterController::class);\n",
    });
    expect(result.findings).toEqual([]);
    expect(result.coverage.operationsChecked).toBeGreaterThan(0);
  });

  it('still reports a registration that takes the role from the request, and an ordinary controller creating users', async () => {
    const result = await prove({
      'app/Services/AccountService.php': accountService,
      'app/Http/Controllers/RegisterController.php': callback('RegisterController', "        $accounts->register(AccountData::make($request->email, $request->input('role')));\n        return redirect('/');"),
      'app/Http/Controllers/TeamController.php': callback('TeamController', '        $accounts->register(AccountData::make($request->email, Role::MEMBER));'),
      'routes/web.php': "<?php\nRoute::post('register', RegisterController::class);\nRoute::middleware('auth')->group(function () {\n    Route::post('team/members', TeamController::class);\n});\n",
    });
    const summary = result.findings.map((f) => [f.entry.function, f.operation.id, f.label]);
    expect(summary).toContainEqual(['RegisterController.__invoke', 'laravel.role-admin', 'unguarded_path']);
    expect(summary).toContainEqual(['TeamController.__invoke', 'laravel.role-admin', 'authn_only']);
    // The registration's own account creation is what it is for; only the role is reported there.
    expect(summary.filter(([entry]) => entry === 'RegisterController.__invoke').map(([, op]) => op)).toEqual(['laravel.role-admin']);
  });
});

describe('ownership through the logged-in user', () => {
  const routes = (controller: string, method: string) => `<?php\nRoute::middleware('auth')->group(function () {\n    Route::put('x/{target}', [${controller}::class, '${method}']);\n});\n`;

  it('discharges the current user passed through a constructor field into a service that updates it', async () => {
    const controller = `<?php
namespace App\\Http\\Controllers;
class MeController extends Controller
{
    public function __construct(private readonly AccountService $accounts, private readonly Authenticatable $member) {}
    public function rename(Request $request)
    {
        $this->accounts->rename($this->member, $request->name);
    }
    public function renameOther(Request $request, Member $target)
    {
        $this->accounts->rename($target, $request->name);
    }
}
`;
    const own = await prove({ 'app/Services/AccountService.php': accountService, 'app/Http/Controllers/MeController.php': controller, 'routes/web.php': routes('MeController', 'rename') });
    expect(own.findings).toEqual([]);
    expect(own.coverage.operationsChecked).toBe(1);
    const other = await prove({ 'app/Services/AccountService.php': accountService, 'app/Http/Controllers/MeController.php': controller, 'routes/web.php': routes('MeController', 'renameOther') });
    expect(other.findings.map((f) => [f.entry.function, f.operation.id, f.label])).toEqual([['MeController.renameOther', 'php.model-write', 'authn_only']]);
  });

  it('follows a collection fetched for the injected user into a loop that deletes, but not one fetched for everyone', async () => {
    const controller = (source: string) => `<?php
namespace App\\Http\\Controllers;
class DiscardController extends Controller
{
    public function __invoke(FileRepository $files, AccountService $accounts, Authenticatable $member)
    {
        $accounts->purge(${source});
    }
}
`;
    const owned = await prove({ 'app/Services/AccountService.php': accountService, 'app/Http/Controllers/DiscardController.php': controller('$files->allOwnedBy($member)'), 'routes/web.php': "<?php\nRoute::middleware('auth')->delete('files', DiscardController::class);\n" });
    expect(owned.findings).toEqual([]);
    const everyone = await prove({ 'app/Services/AccountService.php': accountService, 'app/Http/Controllers/DiscardController.php': controller('$files->all()'), 'routes/web.php': "<?php\nRoute::middleware('auth')->delete('files', DiscardController::class);\n" });
    expect(everyone.findings.map((f) => [f.operation.id, f.label])).toEqual([['php.model-deletion', 'authn_only']]);
  });

  it('treats an injected user detaching its own relation as ownership, a route-bound record as not', async () => {
    const controller = `<?php
class LeaveController extends Controller
{
    public function leave(Group $group, Authenticatable $member)
    {
        $member->groups()->detach($group);
    }
    public function kick(Group $group, Member $target)
    {
        $target->groups()->detach($group);
    }
}
`;
    const result = await prove({
      'app/Http/Controllers/LeaveController.php': controller,
      'routes/web.php': "<?php\nRoute::middleware('auth')->group(function () {\n    Route::delete('g/{group}/me', [LeaveController::class, 'leave']);\n    Route::delete('g/{group}/{target}', [LeaveController::class, 'kick']);\n});\n",
    });
    expect(result.findings.map((f) => f.entry.function)).toEqual(['LeaveController.kick']);
  });
});

describe('Tornado login handlers, credential comparisons and CSRF hooks', () => {
  const base = `import os
from tornado import web
class BaseHandler(web.RequestHandler):
    def prepare(self):
        if self.request.method == "POST":
            self.check_xsrf_cookie()
    def check_xsrf_cookie(self):
        if not self.get_argument("_xsrf", None):
            raise web.HTTPError(403, "xsrf missing")
`;
  it('does not report a public login handler that changes the password after comparing the token', async () => {
    const result = await prove({
      'server/auth.py': `${base}
class PasswordLoginHandler(BaseHandler):
    @allow_unauthenticated
    def post(self):
        typed = self.get_argument("password")
        new_password = self.get_argument("new_password", "")
        if self.token and self.token == typed:
            if new_password:
                with open(self.settings["config_file"], "w") as f:
                    f.write(hash_password(new_password))
`,
    });
    expect(result.findings).toEqual([]);
    expect(result.coverage.operationsChecked).toBe(1);
  });

  it('reports the same password change in an ordinary handler: a token comparison is authentication, not authorization', async () => {
    const result = await prove({
      'server/settings.py': `${base}
class SettingsHandler(BaseHandler):
    def post(self):
        typed = self.get_argument("token")
        if self.token == typed:
            set_password(self.get_argument("new_password"))
`,
    });
    expect(result.findings).toHaveLength(1);
    const f = result.findings[0]!;
    expect(f.label).toBe('authn_only');
    expect(f.operation.id).toBe('python.user-admin');
    expect(f.weakerChecks.join(' ')).toContain('self.token == typed');
  });

  it('never labels an overridden check_xsrf_cookie as a login check', async () => {
    const result = await prove({
      'server/files.py': `${base}
class DeleteHandler(BaseHandler):
    def post(self):
        os.remove(self.get_argument("path"))
`,
    });
    expect(result.findings).toHaveLength(1);
    const f = result.findings[0]!;
    expect(f.label).toBe('unguarded_path');
    expect(f.weakerChecks.join(' ')).not.toMatch(/\(authn\)/);
  });
});

describe('facts for the new shapes', () => {
  const header = '[header]\nsource = "t"\nversion = "1"\nregion = "t"\nlanguage = "php"\n';
  it('refuses an auth_flow with neither names nor routes', () => {
    expect(() => parseFactsFile('t.toml', `${header}[[auth_flow]]\nid = "a"\ndescription = "d"\nacts_on = ["user_admin"]\n`)).toThrow(RuleFileError);
  });
  it('accepts a discharger with comparisons only and compiles the current-user header', () => {
    const facts = parseFactsFile('t.toml', `${header}current_user = ['auth\\(\\)->user\\(\\)']\n[[discharger]]\nid = "c"\nkind = "authn"\ndescription = "d"\ncomparisons = ['hash_equals\\(']\n`);
    expect(facts.dischargers[0]?.comparisons[0]?.test('if (hash_equals($a, $b)) {')).toBe(true);
    expect(facts.currentUser[0]?.test('auth()->user()->posts()')).toBe(true);
  });
  it('splits call arguments at top-level commas only', () => {
    expect(callArguments('$svc->rename($this->member, fn($a, $b) => [$a, $b], "x,y");', 'rename')).toEqual(['$this->member', 'fn($a, $b) => [$a, $b]', '"x,y"']);
  });
});
