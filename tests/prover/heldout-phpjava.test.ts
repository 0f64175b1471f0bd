/**
 * Check semantics met on the held-out PHP and Java pool (docs/prover-heldout-phpjava.json), as small
 * fixtures written here: a check helper that splits the root and item cases with if/else, a call to
 * `super.method()` from a nested descriptor extending the base class's nested descriptor, and the
 * public methods of an abstract Symfony controller that every concrete subclass overrides.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

function prove(files: Record<string, string>) {
  return proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
}

const where = (findings: { function: string; line: number }[]) => findings.map((f) => `${f.function}:${f.line}`);

const dockerApi = (helperBody: string) => `package org.example;
public class DockerApi extends AbstractDescribableImpl<DockerApi> {
    public static class DescriptorImpl extends Descriptor<DockerApi> {
        @RequirePOST
        public FormValidation doTestConnection(@AncestorInPath Item context, @QueryParameter String uri, @QueryParameter String credentialsId) {
            throwIfNoPermission(context);
            return FormValidation.ok(connect(uri, credentialsId));
        }
        private void throwIfNoPermission(Item context) {
${helperBody}
        }
    }
}
`;

describe('a check helper that splits the cases with if/else', () => {
  it('checks when every arm checks (the item permission with a context, ADMINISTER without)', async () => {
    const body = `            if (context != null) {
                context.checkPermission(Item.CONFIGURE);
            } else {
                Jenkins.get().checkPermission(Jenkins.ADMINISTER);
            }`;
    expect((await prove({ 'src/main/java/org/example/DockerApi.java': dockerApi(body) })).findings).toEqual([]);
  });

  it('checks nothing when an arm does not check, or when there is no else', async () => {
    const oneArm = `            if (context != null) {
                context.checkPermission(Item.CONFIGURE);
            } else {
                LOGGER.fine("no context");
            }`;
    const noElse = `            if (context != null) {
                context.checkPermission(Item.CONFIGURE);
            }`;
    for (const body of [oneArm, noElse]) {
      expect(where((await prove({ 'src/main/java/org/example/DockerApi.java': dockerApi(body) })).findings)).toEqual(['DescriptorImpl.doTestConnection:4']);
    }
  });

  it('checks nothing when an arm checks only under a further condition', async () => {
    const nested = `            if (context != null) {
                context.checkPermission(Item.CONFIGURE);
            } else {
                if (strict) {
                    Jenkins.get().checkPermission(Jenkins.ADMINISTER);
                }
            }`;
    expect(where((await prove({ 'src/main/java/org/example/DockerApi.java': dockerApi(nested) })).findings)).toEqual(['DescriptorImpl.doTestConnection:4']);
  });
});

const baseCloud = (check: string) => `package org.example;
public abstract class BaseCloud extends Cloud {
    public abstract static class DescriptorImpl extends Descriptor<Cloud> {
        protected FormValidation doTestConnection(URL endpoint, String credentialsId) throws IOException {
${check}
            return FormValidation.ok(connect(endpoint, credentialsId));
        }
    }
}
`;
const amazonCloud = `package org.example;
public class AmazonCloud extends BaseCloud {
    public static class DescriptorImpl extends BaseCloud.DescriptorImpl {
        @RequirePOST
        public FormValidation doTestConnection(@QueryParameter String region, @QueryParameter String credentialsId) throws IOException {
            return super.doTestConnection(endpointOf(region), credentialsId);
        }
    }
}
`;

describe('super calls of a nested descriptor extending the base class nested descriptor', () => {
  it('follows super.doTestConnection() to the base descriptor, whose check then counts', async () => {
    const result = await prove({ 'src/main/java/org/example/BaseCloud.java': baseCloud('            Jenkins.get().checkPermission(Jenkins.ADMINISTER);'), 'src/main/java/org/example/AmazonCloud.java': amazonCloud });
    expect(result.findings).toEqual([]);
  });

  it('still reports the routed subclass method when the base method does not check', async () => {
    const result = await prove({ 'src/main/java/org/example/BaseCloud.java': baseCloud('            LOGGER.fine("testing");'), 'src/main/java/org/example/AmazonCloud.java': amazonCloud });
    expect(where(result.findings)).toEqual(['DescriptorImpl.doTestConnection:4']);
  });
});

const baseImport = `<?php
namespace App\\Controller\\Import;
use Symfony\\Bundle\\FrameworkBundle\\Controller\\AbstractController;
abstract class BaseImportController extends AbstractController
{
    public function indexAction(Request $request)
    {
        $file = $request->files->get('file');
        file_put_contents('/tmp/import.json', $file->getContent());
        return $this->redirect('/');
    }
}
`;
const routedImport = (name: string, body: string) => `<?php
namespace App\\Controller\\Import;
class ${name} extends BaseImportController
{
${body}
}
`;
const override = `    #[Route(path: '/import/v2', name: 'import_v2')]
    #[IsGranted('IMPORT_ENTRIES')]
    public function indexAction(Request $request)
    {
        return parent::indexAction($request);
    }`;

describe('public methods of an abstract Symfony controller', () => {
  it('are no entries when every concrete subclass overrides them: the overrides and their checks are', async () => {
    const result = await prove({ 'src/Controller/Import/BaseImportController.php': baseImport, 'src/Controller/Import/V2ImportController.php': routedImport('V2ImportController', override) });
    expect(result.findings).toEqual([]);
  });

  it('stay entries when a concrete subclass inherits them as they are', async () => {
    const result = await prove({
      'src/Controller/Import/BaseImportController.php': baseImport,
      'src/Controller/Import/V2ImportController.php': routedImport('V2ImportController', override),
      'src/Controller/Import/V1ImportController.php': routedImport('V1ImportController', '    public function help() { return $this->render("help.html.twig"); }'),
    });
    expect(where(result.findings)).toEqual(['BaseImportController.indexAction:9']);
  });
});

const roleMiddleware = (condition: string) => `<?php
namespace App\\Http\\Middleware;
use Auth;
use Closure;
class Admin
{
    public function handle($request, Closure $next)
    {
        if (${condition}) {
            return redirect(config('app.url'));
        }
        return $next($request);
    }
}
`;
const adminController = `<?php
namespace App\\Http\\Controllers;
use App\\Http\\Middleware\\Admin;
class AdminController extends Controller
{
    public function __construct()
    {
        $this->middleware(Admin::class);
    }
    public function purge()
    {
        Artisan::call('cache:clear');
        return back();
    }
}
`;
const adminRoutes = "<?php\nuse App\\Http\\Controllers\\AdminController;\nRoute::post('admin/purge', [AdminController::class, 'purge']);\n";

describe('a Laravel middleware that refuses users without a role flag', () => {
  const labelOf = async (condition: string) => {
    const result = await prove({ 'app/Http/Middleware/Admin.php': roleMiddleware(condition), 'app/Http/Controllers/AdminController.php': adminController, 'routes/web.php': adminRoutes });
    expect(result.coverage.operationsChecked).toBeGreaterThan(0);
    return result.findings.map((f) => f.label);
  };

  it('is a permission check when a disjunct tests that the current user lacks the admin flag or role', async () => {
    for (const condition of ['Auth::check() == false || Auth::user()->is_admin == false', '! $request->user()->isAdmin()', 'auth()->user()->is_superuser !== true', "!Auth::user()->hasRole('admin')"]) {
      expect(await labelOf(condition), condition).toEqual([]);
    }
  });

  it('is no permission check when the flag says nothing about permissions, holds in the allowed case, or is joined by &&', async () => {
    for (const condition of ['Auth::check() == false || Auth::user()->is_active == false', 'Auth::check() == false || Auth::user()->is_admin == true', "Auth::user()->is_admin == false && config('x')"]) {
      expect(await labelOf(condition), condition).toHaveLength(1);
    }
  });
});
