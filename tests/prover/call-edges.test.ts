/**
 * Call edges resolve by the receiver's type where it is known, and never by the method name alone
 * across unrelated classes: a library object's method (an SDK client's `execute`) never lands on a
 * project controller that happens to declare a method of the same name.
 */
import { describe, expect, it } from 'vitest';
import { buildCallerIndex } from '../../src/prover/paths.js';
import type { Program } from '../../src/prover/resolution.js';
import { programOf } from './recogniser-tester.js';

/** `caller function name → callee qualified names` for every edge of the program. */
function edges(program: Program): Record<string, string[]> {
  const index = buildCallerIndex(program);
  const out: Record<string, string[]> = {};
  for (const [calleeId, sites] of index.callers) {
    const callee = program.functions.get(calleeId)?.fn.qualifiedName ?? calleeId;
    for (const site of sites) {
      const caller = program.functions.get(site.callerId)?.fn.qualifiedName ?? site.callerId;
      (out[caller] ??= []).push(callee);
    }
  }
  for (const list of Object.values(out)) list.sort();
  return out;
}

const scheduleController = `<?php
namespace App\\Http\\Controllers;
class ScheduleController extends Controller
{
    public function execute(int $id) { Schedule::destroy($id); }
}
`;

describe('call edges by receiver type', () => {
  it('two unrelated classes declaring the same method: a typed receiver reaches its own class, an untyped one neither', async () => {
    const program = await programOf({
      'app/Http/Controllers/ScheduleController.php': scheduleController,
      'app/Jobs/ReportJob.php': "<?php\nnamespace App\\Jobs;\nclass ReportJob\n{\n    public function execute(): void { }\n}\n",
      'app/Services/Runner.php': `<?php
namespace App\\Services;
use App\\Jobs\\ReportJob;
class Runner
{
    public function __construct(private ReportJob $job) {}
    public function viaProperty(): void { $this->job->execute(); }
    public function viaLocal(): void { $report = new ReportJob(); $report->execute(); }
    public function viaStatic(): void { ReportJob::execute(); }
    public function untyped($thing): void { $thing->execute(); }
}
`,
    });
    const found = edges(program);
    expect(found['Runner.viaProperty']).toEqual(['ReportJob.execute']);
    expect(found['Runner.viaLocal']).toEqual(['ReportJob.execute']);
    expect(found['Runner.viaStatic']).toEqual(['ReportJob.execute']);
    expect(found['Runner.untyped']).toBeUndefined();
    expect(buildCallerIndex(program).unresolved.receiver_unresolved).toBe(1);
  });

  it('a library client never reaches the only project class with a same-name method', async () => {
    const service = (body: string, extra = '') => `<?php
namespace App\\Services;
use Aws\\Lambda\\LambdaClient;
use Aws\\Sdk;
use GuzzleHttp\\Client;
class Invoker
{
${extra}
    public function run(): void
    {
${body}
    }
}
`;
    const variants: Record<string, [string, string?]> = {
      'typed parameter of a vendor class': ['        (function (LambdaClient $client) { $client->execute([]); })(null);'],
      'promoted constructor property of a vendor class': ['        $this->lambda->execute([]);', '    public function __construct(private LambdaClient $lambda) {}'],
      'docblock-typed property': ['        $this->scheduler->execute([]);', '    /** @var LambdaClient */\n    private $scheduler;'],
      'fully qualified new': ["        $aws = new \\Aws\\Lambda\\LambdaClient(['region' => 'x']);\n        $aws->execute([]);"],
      'method chain on a vendor object': ['        $this->sdk->createLambda()->execute([]);', '    public function __construct(private Sdk $sdk) {}'],
      'vendor class sharing a simple name with a project class': ['        $http = new Client();\n        $http->ping();'],
    };
    for (const [name, [body, extra]] of Object.entries(variants)) {
      const program = await programOf({
        'app/Http/Controllers/ScheduleController.php': scheduleController,
        'app/Services/Invoker.php': service(body, extra),
        // Only the variant about a shared simple name has a project class called Client.
        ...(name.startsWith('vendor class sharing') ? { 'app/Support/Client.php': '<?php\nnamespace App\\Support;\nclass Client\n{\n    public function ping(): void { }\n}\n' } : {}),
      });
      const reached = Object.entries(edges(program)).filter(([caller]) => caller.startsWith('Invoker.'));
      expect.soft(reached, name).toEqual([]);
      expect.soft(buildCallerIndex(program).unresolved.library_receiver, name).toBeGreaterThan(0);
    }
  });

  it('an untyped receiver still reaches the only project method of that name (counted), and a project type resolves through its import', async () => {
    const program = await programOf({
      'app/Http/Controllers/ScheduleController.php': scheduleController,
      'app/Support/Client.php': '<?php\nnamespace App\\Support;\nclass Client\n{\n    public function send(): void { }\n}\n',
      'app/Services/Invoker.php': `<?php
namespace App\\Services;
use App\\Support\\Client;
class Invoker
{
    public function untyped($controller): void { $controller->execute(1); }
    public function typed(Client $client): void { $client->send(); }
}
`,
    });
    const found = edges(program);
    expect(found['Invoker.untyped']).toEqual(['ScheduleController.execute']);
    expect(found['Invoker.typed']).toEqual(['Client.send']);
    // Coverage says which edge was taken by the name alone.
    expect(buildCallerIndex(program).unresolved).toEqual({ receiver_followed_by_name: 1 });
  });

  it('a class declared without a namespace is the project\'s, whatever name imports it', async () => {
    const program = await programOf({
      'lib/Ledger.php': '<?php\nclass Ledger\n{\n    public function settle(): void { }\n}\n',
      'app/Billing.php': '<?php\nnamespace App;\nuse Legacy\\Ledger;\nclass Billing\n{\n    public function close(Ledger $ledger): void { $ledger->settle(); }\n}\n',
    });
    expect(edges(program)['Billing.close']).toEqual(['Ledger.settle']);
  });

  it('TypeScript: an object built from a package class or imported from a package is a library object', async () => {
    const program = await programOf({
      'app/models/report.server.ts': 'export class ReportStore {\n  query(id: string) { return id }\n}\n',
      'app/routes/a.ts': `import { Client } from 'pg'
import { client as shared } from 'some-sdk'
import { ReportStore } from '../models/report.server'
export async function loader() {
  const pg = new Client()
  await pg.query('select 1')
  await shared.query('x')
  const store = new ReportStore()
  return store.query('1')
}
`,
    });
    expect(edges(program)['loader']).toEqual(['ReportStore.query']);
  });
});
