import { runRecogniserTable } from '../recogniser-tester.js';

runRecogniserTable('symfony', {
  positive: [
    {
      name: 'Route attributes with a class prefix',
      files: {
        'src/Controller/InvoiceController.php': `<?php
namespace App\\Controller;
#[Route('/invoices')]
class InvoiceController
{
    #[Route('/{id}/cancel', name: 'invoice_cancel', methods: ['POST'])]
    public function cancel(Invoice $invoice): Response
    {
        return new Response();
    }
    private function helper(): void {}
}
`,
      },
      entries: [{ function: 'InvoiceController.cancel', line: 6 }],
    },
    {
      name: 'public methods of an AbstractController and a docblock @Route',
      files: {
        'src/Controller/AdminController.php': `<?php
class AdminController extends AbstractController
{
    /**
     * @Route("/admin/users")
     */
    public function users() { return null; }
    protected function notAnAction() { return null; }
}
`,
      },
      entries: [{ function: 'AdminController.users', line: 7 }],
    },
    {
      name: "public methods of a subclass of Symfony's legacy Controller base (Symfony 3/4, Mautic 4)",
      files: {
        'app/bundles/CoreBundle/Controller/CommonController.php': `<?php
namespace Mautic\\CoreBundle\\Controller;
use Symfony\\Bundle\\FrameworkBundle\\Controller\\Controller;
class CommonController extends Controller
{
    protected function helper() { return null; }
}
`,
        'app/bundles/LeadBundle/Controller/LeadController.php': `<?php
namespace Mautic\\LeadBundle\\Controller;
use Mautic\\CoreBundle\\Controller\\CommonController;
class LeadController extends CommonController
{
    public function quickAddAction() { return null; }
}
`,
      },
      entries: [{ function: 'LeadController.quickAddAction', line: 6 }],
    },
    {
      name: 'methods named by routes in config/routes.yaml, an invokable one and a defaults._controller one',
      files: {
        'config/routes.yaml': `export_report:
    path: /reports/{id}/export
    controller: App\\Controller\\ReportController::export
    methods: [POST]
purge_reports:
    path: /reports/purge
    controller: "App\\\\Controller\\\\PurgeReports"
legacy_report:
    path: /legacy/{id}
    defaults: { _controller: 'App\\Controller\\ReportController::legacy' }
`,
        'src/Controller/ReportController.php': `<?php
namespace App\\Controller;
class ReportController
{
    public function export(int $id): Response { return new Response(); }
    public function legacy(int $id): Response { return new Response(); }
    public function notRouted(): Response { return new Response(); }
}
`,
        'src/Controller/PurgeReports.php': `<?php
namespace App\\Controller;
class PurgeReports
{
    public function __invoke(): Response { return new Response(); }
}
`,
      },
      entries: [
        { function: 'ReportController.export', line: 5, kind: 'route' },
        { function: 'ReportController.legacy', line: 6 },
        { function: 'PurgeReports.__invoke', line: 5 },
      ],
    },
    {
      name: 'the override of an abstract controller method every concrete subclass overrides, not the base method',
      files: {
        'src/Controller/Import/BaseImport.php': `<?php
abstract class BaseImport extends AbstractController
{
    public function indexAction(Request $request) { return null; }
}
`,
        'src/Controller/Import/V2Import.php': `<?php
class V2Import extends BaseImport
{
    #[Route('/import/v2')]
    public function indexAction(Request $request) { return parent::indexAction($request); }
}
`,
      },
      entries: [{ function: 'V2Import.indexAction', line: 4 }],
    },
  ],
  negative: [
    {
      name: 'a routes.yaml route naming a service id or a class of another namespace',
      files: {
        'config/routes.yaml': `health:
    path: /health
    controller: app.health_controller
other:
    path: /other
    controller: Vendor\\Bundle\\ReportController::export
`,
        'src/Controller/ReportController.php': `<?php
namespace App\\Controller;
class ReportController
{
    public function export(int $id): Response { return new Response(); }
}
`,
      },
    },
    {
      name: "a class extending a Controller of its own, not Symfony's",
      files: {
        'src/Controller/Controller.php': '<?php\nnamespace App\\Controller;\nclass Controller\n{\n}\n',
        'src/Controller/PageController.php': '<?php\nnamespace App\\Controller;\nclass PageController extends Controller\n{\n    public function show() { return null; }\n}\n',
      },
    },
    {
      name: 'a service class without routes',
      files: { 'src/Service/Mailer.php': '<?php\nclass Mailer\n{\n    public function send(string $to): void {}\n}\n' },
    },
    {
      name: 'a constructor of an AbstractController',
      files: { 'src/Controller/X.php': '<?php\nclass X extends AbstractController\n{\n    public function __construct(private Foo $foo) {}\n}\n' },
    },
  ],
});
