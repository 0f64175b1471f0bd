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
  ],
  negative: [
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
