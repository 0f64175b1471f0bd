/**
 * Reads of a route-bound entity (src/prover/entity-reads.ts): a Symfony action that answers with an
 * entity the route loaded by id needs a check bound to that object when the project checks who may view
 * objects of that class one by one elsewhere; a permission naming no object does not decide it then.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';
import type { ProverFinding } from '../../src/prover/types.js';

async function findingsOf(files: Record<string, string>): Promise<ProverFinding[]> {
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.entryPoints).toBeGreaterThan(0);
  return result.findings;
}

const ENTITY = `<?php
namespace App\\Entity;
class Invoice
{
    public function getCustomer(): Customer { return $this->customer; }
}
`;

/** The web controller: how the project checks invoices elsewhere (`attribute` on the show action). */
const web = (attribute: string) => `<?php
namespace App\\Controller;
use App\\Entity\\Invoice;
class InvoiceController extends AbstractController
{
    ${attribute}
    #[Route('/invoice/{id}/show', methods: ['GET'])]
    public function show(Invoice $invoice): Response
    {
        return $this->render('invoice/show.html.twig', ['invoice' => $invoice]);
    }
}
`;

/** The API action under judgement: `attributes` above it, `answer` its body. */
const api = (attributes: string, answer = '        $view = new View($invoice, 200);\n        return $this->viewHandler->handle($view);') => `<?php
namespace App\\API;
use App\\Entity\\Invoice;
#[IsGranted('API')]
class InvoiceController extends BaseApiController
{
    ${attributes}
    #[Route(methods: ['GET'], path: '/{id}', name: 'get_invoice')]
    public function getAction(Invoice $invoice): Response
    {
${answer}
    }
}
`;

const NORM = `#[IsGranted(new Expression("is_granted('access', subject.getCustomer())"), 'invoice')]`;

const TABLE: { name: string; web: string; api: string; unbound: string | null }[] = [
  { name: 'a permission naming no object, while the web actions check each invoice', web: NORM, api: api(`#[IsGranted('view_invoice')]`), unbound: '$invoice' },
  { name: 'the expression check on the same invoice', web: NORM, api: api(`#[IsGranted('view_invoice')]\n    ${NORM}`), unbound: null },
  { name: 'a view check on the invoice (viewing is all a read needs)', web: NORM, api: api(`#[IsGranted('view', 'invoice')]`), unbound: null },
  { name: 'a statement check on the invoice that throws', web: NORM, api: api('', `        $this->denyAccessUnlessGranted('view', $invoice);\n        return $this->json($invoice);`), unbound: null },
  { name: 'a global role', web: NORM, api: api(`#[IsGranted('ROLE_ADMIN')]`), unbound: null },
  { name: 'the project checks invoices per object only for editing: no norm for reads', web: `#[IsGranted('edit', 'invoice')]`, api: api(`#[IsGranted('view_invoice')]`), unbound: null },
  { name: 'the project checks invoices by permission only', web: `#[IsGranted('view_invoice')]`, api: api(`#[IsGranted('view_invoice')]`), unbound: null },
  { name: 'an answer that hands out a field of the invoice, not the invoice', web: NORM, api: api(`#[IsGranted('view_invoice')]`, '        return $this->json($invoice->getId());'), unbound: null },
  { name: 'the json() helper answering with the invoice', web: NORM, api: api(`#[IsGranted('view_invoice')]`, '        return $this->json($invoice);'), unbound: '$invoice' },
];

describe('reads of a route-bound entity', () => {
  for (const row of TABLE) {
    it(row.name, async () => {
      const findings = await findingsOf({ 'src/Entity/Invoice.php': ENTITY, 'src/Controller/InvoiceController.php': web(row.web), 'src/API/InvoiceController.php': row.api });
      if (row.unbound === null) expect(findings.map((f) => f.evidence)).toEqual([]);
      else {
        expect(findings.map((f) => [f.label, f.unboundResource?.variable, f.cwe, f.operation.kind])).toEqual([['resource_unbound', row.unbound, 'CWE-639', 'read']]);
        expect(findings[0]?.unboundResource?.sentence).toContain('the project checks Invoice objects one by one elsewhere (InvoiceController.show:');
        expect(findings[0]?.unboundResource?.sentence).toContain("`IsGranted('view_invoice')` names no object");
      }
    });
  }
});
