/**
 * `[prover] guards` and `[prover] public` (SPEC 3): a call to a declared guard is a check of the declared
 * kind at its call site under the usual dominance rules; a declared public entry is no starting point and
 * is listed with its reason; declarations that match nothing are reported as stale. Both come from the
 * base revision's configuration, so a change cannot declare its own guard or exempt its own entry.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';
import type { ProverDeclarations } from '../../src/prover/declarations.js';
import { makeRepo, runJscr, type TestRepo } from '../helpers/repo.js';

function prove(files: Record<string, string>, declarations?: ProverDeclarations) {
  return proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25, ...(declarations ? { declarations } : {}) });
}

const guards = (...list: ProverDeclarations['guards']): ProverDeclarations => ({ guards: list, public: [] });

/** A Remix action deleting a project (needs a permission or ownership check) after `guard`. */
const ROUTE = 'app/routes/projects.$id.delete.tsx';
const route = (guard: string, after = '') => `import { mustBeEditor } from '@acme/authz'

export async function action({ request, params }: { request: Request; params: { id: string } }) {
${guard}
  await prisma.project.delete({ where: { id: params.id } })
${after}
  return null
}
`;

/** A Laravel controller whose destroy action calls `Acl::demand`, and a same-name method elsewhere. */
const controller = (call: string) => `<?php
namespace App\\Http\\Controllers;
class ProjectController extends Controller
{
    public function destroy(int $id)
    {
        ${call}
        Project::destroy($id);
        return redirect('/projects');
    }
}
`;
const laravelRoutes = "<?php\nRoute::delete('projects/{id}', [ProjectController::class, 'destroy']);\n";

describe('[prover] guards', () => {
  it('a call to a declared function guard discharges what follows it; without the declaration it is a finding', async () => {
    const files = { [ROUTE]: route('  await mustBeEditor(request, params.id)') };
    expect((await prove(files)).findings.map((f) => f.label)).toEqual(['unguarded_path']);
    const declared = await prove(files, guards({ name: 'mustBeEditor', checks: 'permission', resource: 1 }));
    expect(declared.findings).toEqual([]);
    expect(declared.coverage.operationsDischarged).toBe(1);
    expect(declared.declared?.stale).toEqual([]);
  });

  it('a declared Class::method or Class.method guard matches its own class, not a same-name method of another', async () => {
    const files = (call: string) => ({ 'app/Http/Controllers/ProjectController.php': controller(call), 'routes/web.php': laravelRoutes });
    for (const name of ['Acl::demand', 'Acl.demand']) {
      expect((await prove(files("Acl::demand('projects.delete');"), guards({ name, checks: 'ownership' }))).findings, name).toEqual([]);
    }
    const other = await prove(files("Cache::demand('projects.delete');"), guards({ name: 'Acl::demand', checks: 'ownership' }));
    expect(other.findings.map((f) => f.entry.function)).toEqual(['ProjectController.destroy']);
    expect(other.declared?.stale).toEqual(['[[prover.guards]] Acl::demand is called nowhere in the proved files']);
  });

  it('dominance rules hold: a guard after the operation, or one whose failure falls through, does not discharge', async () => {
    const declaration = guards({ name: 'mustBeEditor', checks: 'permission' });
    const late = await prove({ [ROUTE]: route('', '  await mustBeEditor(request)') }, declaration);
    expect(late.findings.map((f) => f.label)).toEqual(['unguarded_path']);
    const fallsThrough = await prove({ [ROUTE]: route("  if (!(await mustBeEditor(request))) {\n    console.warn('not an editor')\n  }") }, declaration);
    expect(fallsThrough.findings.map((f) => f.label)).toEqual(['unguarded_path']);
    const leaves = await prove({ [ROUTE]: route("  if (!(await mustBeEditor(request))) {\n    throw new Response('no', { status: 404 })\n  }") }, declaration);
    expect(leaves.findings).toEqual([]);
  });

  it('a declared name the change defines or rewrites, or a definition that cannot refuse, is no guard', async () => {
    const declaration = guards({ name: 'mustBeEditor', checks: 'permission' });
    const helper = (body: string) => `export async function mustBeEditor(request: Request) {\n${body}\n}\n`;
    const checking = helper("  const who = await readSession(request)\n  if (!who?.editor) throw new Response('no', { status: 404 })");
    const files = { [ROUTE]: route('  await mustBeEditor(request)'), 'app/utils/authz.server.ts': checking };
    expect((await prove(files, declaration)).findings).toEqual([]);
    const everyLine = (text: string) => new Set(text.split('\n').map((_, i) => i + 1));
    const rewritten = await proveChange({
      root: '/repo',
      files: Object.entries(files).map(([path, text]) => ({ path, text })),
      touched: Object.entries(files).map(([path, text]) => ({ path, lines: everyLine(text) })),
      maxDepth: 3,
      fanOut: 25,
      declarations: declaration,
    });
    // What is left is the helper's own throw (a 404 is no permission check), not the declaration.
    expect(rewritten.findings.map((f) => f.label)).toEqual(['authn_only']);
    expect(rewritten.findings[0]?.weakerChecks.join(' ')).not.toMatch(/declared/);
    const noop = await prove({ ...files, 'app/utils/authz.server.ts': helper('  // trust everyone') }, declaration);
    expect(noop.findings.map((f) => f.label)).toEqual(['unguarded_path']);
  });

  it('an authentication guard is a login only: an operation that needs a permission stays a finding, labelled so', async () => {
    const found = await prove({ [ROUTE]: route('  await mustBeEditor(request)') }, guards({ name: 'mustBeEditor', checks: 'authentication' }));
    expect(found.findings.map((f) => f.label)).toEqual(['authn_only']);
    expect(found.findings[0]?.weakerChecks.join(' ')).toMatch(/declared in \[prover\] guards/);
  });
});

describe('[prover] public', () => {
  const signup = `export async function action({ request }: { request: Request }) {
  await prisma.verification.delete({ where: { target: 'x' } })
  return null
}
`;

  it('a declared public handler is no starting point, and is listed with its reason; an entry nothing names is stale', async () => {
    const files = { 'app/routes/signup.tsx': signup, [ROUTE]: route('') };
    expect((await prove(files)).findings.map((f) => f.entry.path).sort()).toEqual(['app/routes/projects.$id.delete.tsx', 'app/routes/signup.tsx']);
    const result = await prove(files, {
      guards: [{ name: 'neverCalled', checks: 'permission' }],
      public: [
        { handler: 'app/routes/signup.tsx:action', reason: 'sign-up is open to everyone' },
        { handler: 'app/routes/gone.tsx:loader', reason: 'removed route' },
      ],
    });
    expect(result.findings.map((f) => f.entry.path)).toEqual(['app/routes/projects.$id.delete.tsx']);
    expect(result.declared?.publicSkipped).toEqual([{ path: 'app/routes/signup.tsx', function: 'action', line: 1, framework: 'remix', declared: 'handler app/routes/signup.tsx:action', reason: 'sign-up is open to everyone' }]);
    expect(result.declared?.stale).toEqual(['[[prover.guards]] neverCalled is called nowhere in the proved files', '[[prover.public]] handler app/routes/gone.tsx:loader matched no entry point']);
  });

  it('a Symfony route, exact or with a trailing *, and a Class::method handler name the entry', async () => {
    const symfony = `<?php
namespace App\\Controller;
class ReportController extends AbstractController
{
    #[Route('/reports/purge', name: 'purge')]
    public function purge(Request $request): Response
    {
        $this->em->remove($this->reports->find($request->get('id')));
        return new Response('ok');
    }
}
`;
    const files = { 'src/Controller/ReportController.php': symfony };
    const before = await prove(files);
    expect(before.findings.length).toBeGreaterThan(0);
    for (const entry of [{ route: '/reports/purge' }, { route: '/reports/*' }, { handler: 'ReportController::purge' }]) {
      const result = await prove(files, { guards: [], public: [{ ...entry, reason: 'the purge link is signed' }] });
      expect(result.findings, JSON.stringify(entry)).toEqual([]);
      expect(result.declared?.publicSkipped.map((s) => s.function)).toEqual(['ReportController.purge']);
    }
    const other = await prove(files, { guards: [], public: [{ route: '/reports', reason: 'not this one' }] });
    expect(other.findings.length).toBe(before.findings.length);
  });
});

describe('a change cannot use a declaration written for something else', () => {
  const login = (namespace: string, body: string) => `<?php
namespace ${namespace};
class LoginController extends AbstractController
{
    #[Route('/login')]
    public function show(Request $request): Response
    {
        ${body}
        return new Response('ok');
    }
}
`;

  it('a handler the change adds under a declared public name stays a starting point; the declared one is still skipped', async () => {
    const original = login('App\\Controller', "$this->em->remove($this->attempts->find($request->get('id')));");
    const added = login('App\\Controller\\Admin', "$this->em->remove($this->users->find($request->get('id')));");
    const files = { 'src/Controller/LoginController.php': original, 'src/Controller/Admin/LoginController.php': added };
    const declarations: ProverDeclarations = { guards: [], public: [{ handler: 'LoginController.show', reason: 'the sign-in page' }] };
    const run = (touched: { path: string; lines: Set<number> }[] | null) =>
      proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched, maxDepth: 3, fanOut: 25, declarations });
    const undeclared = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
    expect(undeclared.findings).toHaveLength(2);
    // As a whole repository (both exist), the declaration names both.
    expect((await run(null)).findings).toEqual([]);
    const everyLine = new Set(added.split('\n').map((_, i) => i + 1));
    const change = await run([{ path: 'src/Controller/Admin/LoginController.php', lines: everyLine }, { path: 'src/Controller/LoginController.php', lines: new Set([8]) }]);
    expect(change.findings.map((f) => f.entry.path)).toEqual(['src/Controller/Admin/LoginController.php']);
    expect(change.declared?.publicSkipped.map((s) => s.path)).toEqual(['src/Controller/LoginController.php']);
  });
});

describe('declarations come from the base configuration', () => {
  const repos: TestRepo[] = [];
  const dirs: string[] = [];
  afterEach(() => {
    for (const r of repos.splice(0)) r.cleanup();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  const GUARD_TOML = '[[prover.guards]]\nname = "mustBeEditor"\nchecks = "permission"\n';
  const PUBLIC_TOML = `[[prover.public]]\nhandler = "${ROUTE}:action"\nreason = "open on purpose"\n`;

  interface ReviewJson {
    findings: { source: string; prover?: { entry: { function: string; path: string }; checks_seen: string[]; missing: string } }[];
  }
  const proverFindings = (stdout: string) => (JSON.parse(stdout) as ReviewJson).findings.filter((f) => f.source === 'prover');

  it('a change that adds its own guard or public entry to .jscr.toml keeps its finding; once in the base, they apply', async () => {
    const r = makeRepo({ [ROUTE]: route('  const who = request.headers.get("x-user")') });
    repos.push(r);
    for (const config of [GUARD_TOML, PUBLIC_TOML]) {
      r.commit({ [ROUTE]: route('  await mustBeEditor(request)'), '.jscr.toml': config }, 'declare my own guard');
      const out = await runJscr(['review', '--no-model', '--commit', 'HEAD', '--format', 'json'], { cwd: r.root });
      const found = proverFindings(out.stdout);
      expect(found, config).toHaveLength(1);
      expect(out.code).toBe(1);
      // The finding says where the path starts and what it saw, in JSON and in one text line.
      expect(found[0]?.prover).toMatchObject({ entry: { function: 'action', path: ROUTE }, missing: 'path_guard|ownership_check', checks_seen: [] });
      const text = await runJscr(['review', '--no-model', '--commit', 'HEAD'], { cwd: r.root });
      expect(text.stdout).toMatch(/entry remix action \(app\/routes\/projects\.\$id\.delete\.tsx:3\); checks seen: none/);
      r.git('reset', '-q', '--hard', 'HEAD~1');
    }
    // With the file in the base, a later change touching the action is judged with it.
    r.commit({ '.jscr.toml': GUARD_TOML }, 'declare the guard');
    r.commit({ [ROUTE]: route('  await mustBeEditor(request)') }, 'check first');
    const later = await runJscr(['review', '--no-model', '--commit', 'HEAD', '--format', 'json'], { cwd: r.root });
    expect(proverFindings(later.stdout)).toEqual([]);
  });

  it('prove reads the base revision (change mode) or --config, lists skipped public entries and stale declarations', async () => {
    const r = makeRepo({ [ROUTE]: route('') });
    repos.push(r);
    const base = r.git('rev-parse', 'HEAD').trim();
    r.commit({ [ROUTE]: route('  await mustBeEditor(request)'), '.jscr.toml': GUARD_TOML + PUBLIC_TOML }, 'exempt myself');
    const change = await runJscr(['prove', '--base', base, '--format', 'json'], { cwd: r.root });
    expect(change.code).toBe(1);
    expect((JSON.parse(change.stdout) as { public_entries_skipped: unknown[] }).public_entries_skipped).toEqual([]);

    const dir = mkdtempSync(join(tmpdir(), 'jscr-prove-config-'));
    dirs.push(dir);
    const file = join(dir, 'prove.toml');
    writeFileSync(file, `${PUBLIC_TOML}[[prover.guards]]\nname = "Nobody::calls"\nchecks = "ownership"\nresource = "project"\n`);
    const configured = await runJscr(['prove', '--config', file, '--format', 'json'], { cwd: r.root });
    expect(configured.code).toBe(0);
    const json = JSON.parse(configured.stdout) as { findings: unknown[]; public_entries_skipped: { function: string; reason: string }[]; notes: string[] };
    expect(json.findings).toEqual([]);
    expect(json.public_entries_skipped).toEqual([expect.objectContaining({ function: 'action', path: ROUTE, reason: 'open on purpose' })]);
    expect(json.notes).toEqual(['[[prover.guards]] Nobody::calls is called nowhere in the proved files']);
    expect(configured.stderr).toMatch(/jscr prove: note: \[\[prover\.guards\]\] Nobody::calls is called nowhere/);
    const text = await runJscr(['prove', '--config', file], { cwd: r.root });
    expect(text.stdout).toMatch(/Public on purpose \(\[prover\] public\), not proved as entry points \(1\):\n {2}remix action \(app\/routes\/projects\.\$id\.delete\.tsx:3\): open on purpose/);
  });

  it('a wrong type, an unknown key, a missing reason or an empty public entry is exit 2 with the dotted key path', async () => {
    const r = makeRepo({ [ROUTE]: route('') });
    repos.push(r);
    const dir = mkdtempSync(join(tmpdir(), 'jscr-prove-config-'));
    dirs.push(dir);
    const cases: [string, RegExp][] = [
      ['[[prover.guards]]\nname = "mustBeEditor"\nchecks = "admin"\n', /prover\.guards\[0\]\.checks/],
      ['[[prover.guards]]\nname = "must be editor"\nchecks = "permission"\n', /prover\.guards\[0\]\.name/],
      ['[[prover.guards]]\nname = "x"\nchecks = "permission"\nresource = -1\n', /prover\.guards\[0\]\.resource/],
      ['[[prover.public]]\nhandler = "a.b"\nreason = "r"\nwhy = "extra"\n', /prover\.public\[0\].*why/],
      ['[[prover.public]]\nhandler = "a.b"\nreason = "  "\n', /prover\.public\[0\]\.reason/],
      ['[[prover.public]]\nreason = "nothing named"\n', /prover\.public\[0\].*expected a route or a handler/],
    ];
    for (const [toml, message] of cases) {
      const file = join(dir, 'bad.toml');
      writeFileSync(file, toml);
      for (const command of [['prove', '--config', file], ['review', '--no-model', '--commit', 'HEAD', '--config', file]]) {
        const out = await runJscr(command, { cwd: r.root });
        expect(out.code, `${command[0]} ${toml}`).toBe(2);
        expect(out.stderr).toMatch(message);
        expect(out.stderr.trim().split('\n')).toHaveLength(1);
        expect(out.stdout).toBe('');
      }
    }
  });
});
