import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';
import { degradationText } from '../../src/prover/degradation.js';
import { RECOGNISERS } from '../../src/prover/recognisers/index.js';
import type { Recogniser } from '../../src/prover/recognisers/types.js';
import { toReviewFinding, findingSentence } from '../../src/prover/render.js';

function prove(files: Record<string, string>, touched: Record<string, number[]> | null = null) {
  return proveChange({
    root: '/repo',
    files: Object.entries(files).map(([path, text]) => ({ path, text })),
    touched: touched === null ? null : Object.entries(touched).map(([path, lines]) => ({ path, lines: new Set(lines) })),
    maxDepth: 3,
    fanOut: 25,
  });
}

const descriptor = (guard: string): string => `package org.acme;
public class ArchivePublisher extends Recorder {
  @Extension
  public static class DescriptorImpl extends BuildStepDescriptor<Publisher> {
    public FormValidation doTestConnection(@QueryParameter String endpoint, @QueryParameter String credentialsId) throws IOException {
${guard}      StandardCredentials c = findCredential(credentialsId);
      return ArchiveClient.connect(endpoint, c).ping() ? FormValidation.ok() : FormValidation.error("No answer");
    }
    private StandardCredentials findCredential(String id) {
      return CredentialsMatchers.firstOrNull(
          CredentialsProvider.lookupCredentials(StandardCredentials.class, Jenkins.get(), ACL.SYSTEM, Collections.emptyList()),
          CredentialsMatchers.withId(id));
    }
  }
}
`;

describe('proveChange: Jenkins/Stapler', () => {
  it('reports doTestConnection reaching lookupCredentials with its hop and the missing path_guard', async () => {
    const result = await prove({ 'src/main/java/org/acme/ArchivePublisher.java': descriptor('') });
    expect(result.findings).toHaveLength(1);
    const f = result.findings[0]!;
    expect(f.entry).toMatchObject({ function: 'DescriptorImpl.doTestConnection', line: 5, framework: 'stapler' });
    expect(f.hops).toEqual([{ function: 'DescriptorImpl.doTestConnection', path: 'src/main/java/org/acme/ArchivePublisher.java', callLine: 6 }]);
    expect(f.operation).toMatchObject({ id: 'jenkins.credentials-lookup', kind: 'credential_access', line: 11 });
    expect(f.function).toBe('DescriptorImpl.findCredential');
    expect(f.missing).toBe('path_guard');
    expect(f.label).toBe('unguarded_path');
    expect(findingSentence(f)).toMatch(/DescriptorImpl\.doTestConnection.*credential access.*no permission or role check/);
    const review = toReviewFinding(f);
    expect(review).toMatchObject({ source: 'prover', rule: 'jscr/prover-unguarded-operation', path: f.path, line: 11 });
    expect(review.evidence).toContain('lookupCredentials');
    expect(review.fingerprint).toHaveLength(64);
    expect(result.coverage.frameworksRecognised).toEqual({ stapler: 1 });
    expect(result.coverage.entryPoints).toBe(1);
  });

  it('reports nothing when Jenkins.get().checkPermission(...) runs above the call', async () => {
    const result = await prove({ 'src/main/java/org/acme/ArchivePublisher.java': descriptor('      Jenkins.get().checkPermission(Jenkins.ADMINISTER);\n') });
    expect(result.findings).toEqual([]);
    expect(result.coverage.operationsChecked).toBeGreaterThan(0);
    expect(result.coverage.operationsDischarged).toBe(result.coverage.operationsChecked);
  });

  it('does not count @RequirePOST, or a permission check placed after the call', async () => {
    const source = descriptor('').replace('    public FormValidation doTestConnection', '    @RequirePOST\n    public FormValidation doTestConnection').replace('      return ArchiveClient', '      Jenkins.get().checkPermission(Jenkins.ADMINISTER);\n      return ArchiveClient');
    const result = await prove({ 'src/A.java': source });
    expect(result.findings).toHaveLength(1);
    expect(result.findings[0]?.weakerChecks.join(' ')).toMatch(/RequirePOST \(csrf_guard\)/);
  });

  it('counts hasPermission only when a branch on it leaves the method', async () => {
    const inert = descriptor('      Jenkins.get().hasPermission(Jenkins.ADMINISTER);\n');
    const acted = descriptor('      if (!Jenkins.get().hasPermission(Jenkins.ADMINISTER)) {\n        return FormValidation.ok();\n      }\n');
    expect((await prove({ 'src/A.java': inert })).findings).toHaveLength(1);
    expect((await prove({ 'src/A.java': acted })).findings).toEqual([]);
  });

  it('accepts a guard one call deeper, in the helper before the operation, and a checking helper called first', async () => {
    const deeper = descriptor('').replace('      return CredentialsMatchers', '      Jenkins.get().checkPermission(Jenkins.ADMINISTER);\n      return CredentialsMatchers');
    expect((await prove({ 'src/A.java': deeper })).findings).toEqual([]);
    const helperFirst = descriptor('      ensureAllowed();\n').replace('    private StandardCredentials findCredential', '    private void ensureAllowed() {\n      Jenkins.get().checkPermission(Jenkins.ADMINISTER);\n    }\n    private StandardCredentials findCredential');
    expect((await prove({ 'src/A.java': helperFirst })).findings).toEqual([]);
  });

  it('judges two classes with the same method name separately', async () => {
    const result = await prove({
      'src/Hooks.java': `public class Hooks implements RootAction {
  public HttpResponse doWipe(StaplerRequest req) {
    Jenkins.get().checkPermission(Jenkins.ADMINISTER);
    new Store().wipe();
    return null;
  }
}
`,
      'src/Open.java': `public class Open implements RootAction {
  public HttpResponse doWipe(StaplerRequest req) {
    new Cache().wipe();
    return null;
  }
}
`,
      'src/Store.java': 'public class Store {\n  void wipe() { Files.delete(root); }\n}\n',
      'src/Cache.java': 'public class Cache {\n  void wipe() { Files.delete(dir); }\n}\n',
    });
    expect(result.findings.map((f) => `${f.entry.function} -> ${f.function}`)).toEqual(['Open.doWipe -> Cache.wipe']);
  });

  it('reports an UnprotectedRootAction only for obligations other than path_guard', async () => {
    const result = await prove({
      'src/Hook.java': `public class Hook implements UnprotectedRootAction {
  public HttpResponse doIndex(StaplerRequest req) {
    Jenkins.get().getItemByFullName(req.getParameter("job")).delete();
    Jenkins.get().getQueue().schedule2(job, 0);
    return null;
  }
}
`,
    });
    expect(result.findings.map((f) => [f.operation.id, f.missing])).toEqual([['jenkins.item-deletion', 'ownership_check']]);
    // only the object's owner is unchecked: CWE-639, not the deletion's own CWE
    expect(result.findings.map((f) => f.cwe)).toEqual(['CWE-639']);
  });
});

describe('proveChange: programmatic registration and Jetty', () => {
  it('makes the registered servlet\'s doPost an entry with the registration site as evidence', async () => {
    const result = await prove({
      'src/Boot.java': 'public class Boot {\n  void start(ServletContextHandler ctx) {\n    ctx.addServlet(new ServletHolder(new PurgeServlet()), "/purge/*");\n  }\n}\n',
      'src/PurgeServlet.java': 'public class PurgeServlet extends ExternalBase {\n  protected void doPost(Req req, Resp resp) {\n    reports.purgeAll();\n  }\n}\n',
    });
    expect(result.findings).toHaveLength(1);
    expect(result.findings[0]?.entry.framework).toBe('registration');
    expect(result.findings[0]?.entry.evidence).toContain('src/Boot.java:3');
  });

  it('does not report a JAX-RS resource under a class-level @RolesAllowed', async () => {
    const resource = (annotation: string): string => `@Path("/accounts")
${annotation}public class AccountResource {
  @DELETE
  public void close(long id) { accounts.purge(); }
}
`;
    expect((await prove({ 'src/R.java': resource('@RolesAllowed("admin")\n') })).findings).toEqual([]);
    expect((await prove({ 'src/R.java': resource('') })).findings).toHaveLength(1);
  });
});

describe('proveChange: Laravel, Symfony, Remix, Tornado', () => {
  const controller = `<?php
namespace App\\Http\\Controllers;
class ProfileController extends Controller
{
    public function update(Request $request)
    {
        $request->user()->update($request->validated());
        return back();
    }
    public function destroyProject(Project $project)
    {
        $project->delete();
        return back();
    }
    public function destroyChecked(Project $project)
    {
        $project->delete();
        return back();
    }
}
`;
  it('reports nothing for a controller behind auth middleware whose operation only needs a login', async () => {
    const result = await prove({
      'app/Http/Controllers/ProfileController.php': controller,
      'routes/web.php': "<?php\nRoute::middleware('auth')->group(function () {\n    Route::patch('/profile', [ProfileController::class, 'update']);\n});\n",
    });
    expect(result.findings).toEqual([]);
    expect(result.coverage.frameworksRecognised).toEqual({ laravel: 1 });
    expect(result.coverage.operationsDischarged).toBe(1);
  });

  it('reports the same operation without the middleware, and a deletion that auth alone does not cover', async () => {
    const bare = await prove({ 'app/Http/Controllers/ProfileController.php': controller, 'routes/web.php': "<?php\nRoute::patch('/profile', [ProfileController::class, 'update']);\n" });
    expect(bare.findings.map((f) => [f.function, f.missing])).toEqual([['ProfileController.update', 'authn|path_guard|ownership_check']]);
    expect(bare.findings.map((f) => f.cwe)).toEqual(['CWE-862']);
    const deletion = await prove({
      'app/Http/Controllers/ProfileController.php': controller,
      'routes/web.php': "<?php\nRoute::middleware('auth')->group(function () {\n    Route::delete('/projects/{project}', [ProfileController::class, 'destroyProject']);\n});\nRoute::delete('/p2/{project}', [ProfileController::class, 'destroyChecked'])->middleware(['auth', 'can:delete,project']);\n",
    });
    expect(deletion.findings).toHaveLength(1);
    expect(deletion.findings[0]?.label).toBe('authn_only');
    expect(deletion.findings[0]?.weakerChecks[0]).toMatch(/middleware 'auth'/);
  });

  it('honours constructor middleware with only/except and authorizeResource for resource methods only', async () => {
    const result = await prove({
      'app/Http/Controllers/InvoiceController.php': `<?php
class InvoiceController extends Controller
{
    public function __construct()
    {
        $this->authorizeResource(Invoice::class, 'invoice');
    }
    public function destroy(Invoice $invoice) { $invoice->delete(); }
    public function purge(Invoice $invoice) { $invoice->delete(); }
}
`,
      'routes/web.php': "<?php\nRoute::delete('/i/{invoice}', [InvoiceController::class, 'destroy']);\nRoute::post('/i/{invoice}/purge', [InvoiceController::class, 'purge']);\n",
    });
    expect(result.findings.map((f) => f.function)).toEqual(['InvoiceController.purge']);
  });

  it('uses Symfony #[IsGranted] and security.yaml access_control, first match wins', async () => {
    const controller = (attribute: string, path: string): string => `<?php
class UserAdminController extends AbstractController
{
    #[Route('${path}', methods: ['POST'])]
${attribute}    public function promote(User $user, EntityManagerInterface $em): Response
    {
        $user->setRoles(['ROLE_ADMIN']);
        $em->flush();
        return new Response();
    }
}
`;
    const yaml = 'security:\n  access_control:\n    - { path: ^/admin/api, roles: PUBLIC_ACCESS }\n    - { path: ^/admin, roles: ROLE_ADMIN }\n';
    expect((await prove({ 'src/Controller/U.php': controller('', '/users/promote') })).findings.length).toBeGreaterThan(0);
    expect((await prove({ 'src/Controller/U.php': controller("    #[IsGranted('ROLE_ADMIN')]\n", '/users/promote') })).findings).toEqual([]);
    expect((await prove({ 'src/Controller/U.php': controller('', '/admin/users/promote'), 'config/packages/security.yaml': yaml })).findings).toEqual([]);
    // /admin/api matches the public entry first: path_guard is waived, ownership still required for the write.
    const open = await prove({ 'src/Controller/U.php': controller('', '/admin/api/promote'), 'config/packages/security.yaml': yaml });
    expect(open.findings.map((f) => f.missing)).toEqual(['path_guard|ownership_check'].map((m) => m.replace('path_guard|', '')));
  });

  it('Remix: requireUserId is a login only; a query constrained by the user is an ownership check', async () => {
    const result = await prove({
      'app/routes/projects.$projectId.tsx': `export async function action({ request, params }: ActionFunctionArgs) {
  await requireUserId(request);
  await db.project.delete({ where: { id: params.projectId } });
  return redirect("/projects");
}
export async function loader({ request, params }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  const { count } = await db.project.deleteMany({ where: { id: params.projectId, ownerId: userId } });
  return null;
}
export default function Page() { return null; }
`,
    });
    expect(result.findings.map((f) => [f.entry.function, f.label])).toEqual([['action', 'authn_only']]);
  });

  it('Tornado: @authenticated is a login only; prepare() in a base handler covers subclasses', async () => {
    const result = await prove({
      'app/handlers.py': `import tornado.web
class BaseHandler(tornado.web.RequestHandler):
    pass

class PurgeHandler(BaseHandler):
    @tornado.web.authenticated
    def post(self):
        self.application.store.purge(self.get_argument("bucket"))

class AdminHandler(BaseHandler):
    def prepare(self):
        if not self.current_user or not is_admin(self.current_user):
            raise tornado.web.HTTPError(403)

class GuardedPurgeHandler(AdminHandler):
    def post(self):
        self.application.store.purge(self.get_argument("bucket"))

class LoginOnlyHandler(BaseHandler):
    def delete(self):
        if not self.current_user:
            raise tornado.web.HTTPError(403)
        os.remove(self.get_argument("path"))
`,
    });
    expect(result.findings.map((f) => [f.entry.function, f.label])).toEqual([
      ['PurgeHandler.post', 'authn_only'],
      ['LoginOnlyHandler.delete', 'authn_only'],
    ]);
  });
});

describe('proveChange: coverage, change mode and failures', () => {
  it('gives coverage only for an unrecognised framework', async () => {
    const result = await prove({ 'src/Maintenance.java': 'public class Maintenance {\n  public void wipe() { Files.delete(root); }\n}\n', 'tools/build.go': 'package main\n' });
    expect(result.findings).toEqual([]);
    expect(result.coverage.entryPoints).toBe(0);
    expect(result.coverage.uncheckedByReason.framework_unrecognised).toBe(1);
    expect(result.coverage.uncheckedByReason.no_facts).toBe(1);
    expect(result.coverage.filesByLanguage).toEqual({ java: 1, go: 1 });
  });

  it('leaves out vendored and build output', async () => {
    const result = await prove({ 'vendor/acme/Hook.java': descriptor(''), 'target/classes/A.java': descriptor('') });
    expect(result.findings).toEqual([]);
    expect(result.coverage.filesByLanguage).toEqual({});
  });

  it('in change mode keeps only paths through touched functions', async () => {
    const files = {
      'src/A.java': descriptor(''),
      'src/Other.java': 'public class Other {\n  void idle() { }\n}\n',
    };
    expect((await prove(files, { 'src/Other.java': [2] })).findings).toEqual([]);
    expect((await prove(files, { 'src/A.java': [6] })).findings).toHaveLength(1);
    // touching only the helper still reports the path from the entry above it
    expect((await prove(files, { 'src/A.java': [11] })).findings).toHaveLength(1);
  });

  it('records a failing file as error:<ClassName> and proves the others', async () => {
    class RecogniserBroke extends Error {}
    const broken: Recogniser = {
      id: 'broken-test-double',
      languages: ['python'],
      recognise() {
        throw new RecogniserBroke('boom');
      },
    };
    (RECOGNISERS as Recogniser[]).push(broken);
    try {
      const result = await prove({ 'src/A.java': descriptor(''), 'app/x.py': 'def f():\n    pass\n' });
      expect(result.findings).toHaveLength(1);
      expect(result.coverage.uncheckedByReason['error:RecogniserBroke']).toBe(1);
      expect(result.degradations.map(degradationText).some((d) => d.startsWith('error:RecogniserBroke app/x.py'))).toBe(true);
    } finally {
      (RECOGNISERS as Recogniser[]).pop();
    }
  });
});
