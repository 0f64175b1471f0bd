/**
 * A change that removes a check from a function on the path to an operation is reported on the
 * change, with the removed line named in the finding's sentence and trace; removing a line that is no
 * check adds nothing. Real git repositories, the review and prove commands.
 */
import { describe, expect, it } from 'vitest';
import { runJscr } from '../helpers/cli.js';
import { reposRemovedAfterEach } from '../helpers/repo.js';

const makeRepo = reposRemovedAfterEach();

const route = (guard: string): string => `import { removeNote } from '~/models/note.server'
import { requireAdminUser } from '~/utils/session.server'

export async function action({ request, params }: { request: Request; params: { id: string } }) {
${guard}
  console.log('removing', params.id)
  await removeNote(params.id)
  return null
}
`;
const MODEL = `import { prisma } from '~/utils/db.server'

export async function removeNote(id: string) {
  await prisma.user.update({ where: { id }, data: { role: 'ADMIN' } })
}
`;

interface Trace {
  step: string;
  path: string | null;
  line: number | null;
  text: string;
}

describe('removed checks', () => {
  it('names the check a change removed on the path, in review and in prove --base', async () => {
    const repo = makeRepo({ 'app/routes/notes.tsx': route('  await requireAdminUser(request)'), 'app/models/note.server.ts': MODEL });
    const base = repo.git('rev-parse', 'HEAD').trim();
    repo.commit({ 'app/routes/notes.tsx': route('') }, 'drop the admin check');
    const review = await runJscr(['review', '--commit', 'HEAD', '--no-model', '--format', 'json'], repo.root);
    expect(review.code, review.stderr).toBe(1);
    const finding = (JSON.parse(review.stdout) as { findings: { rule: string; path: string; message: string; prover: { trace: Trace[] } }[] }).findings.find((f) => f.rule === 'jscr/prover-unguarded-operation');
    expect(finding?.path).toBe('app/models/note.server.ts');
    expect(finding?.message).toMatch(/The change removed `await requireAdminUser\(request\)` \(app\/routes\/notes\.tsx/);
    expect(finding?.prover.trace.map((t) => t.step)).toEqual(['entry', 'call', 'removed_check', 'operation', 'would_discharge']);
    expect(finding?.prover.trace[2]).toMatchObject({ path: 'app/routes/notes.tsx', line: 5, text: 'the change removed await requireAdminUser(request)' });

    const prove = await runJscr(['prove', '--base', base, '--format', 'json'], repo.root);
    expect(prove.code, prove.stderr).toBe(1);
    expect((JSON.parse(prove.stdout) as { findings: { removed_checks: unknown[] }[] }).findings[0]?.removed_checks).toEqual([{ path: 'app/routes/notes.tsx', line: 5, text: 'await requireAdminUser(request)' }]);
  });

  it('a removed line that is no check is not called one', async () => {
    const repo = makeRepo({ 'app/routes/notes.tsx': route("  console.info('about to remove')"), 'app/models/note.server.ts': MODEL });
    repo.commit({ 'app/routes/notes.tsx': route('') }, 'drop a log line');
    const review = await runJscr(['review', '--commit', 'HEAD', '--no-model', '--format', 'json'], repo.root);
    const finding = (JSON.parse(review.stdout) as { findings: { rule: string; message: string; prover: { trace: Trace[] } }[] }).findings.find((f) => f.rule === 'jscr/prover-unguarded-operation');
    expect(finding?.prover.trace.map((t) => t.step)).toEqual(['entry', 'call', 'operation', 'would_discharge']);
    expect(finding?.message).not.toMatch(/removed/);
  });
});

describe('removed refusals', () => {
  const view = (guard: string): string => `import subprocess
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse


def plugin_update(request):
${guard}
    subprocess.check_output(["git", "pull"])
    return HttpResponse("updated")
`;
  const urls = 'from django.urls import path\nfrom . import views\n\nurlpatterns = [\n    path("plugins/update/", views.plugin_update),\n]\n';

  it('names a removed `raise PermissionDenied`, whatever its test was called', async () => {
    const repo = makeRepo({ 'app/views.py': view('    if not request.user.is_superuser:\n        raise PermissionDenied'), 'app/urls.py': urls });
    repo.commit({ 'app/views.py': view('') }, 'drop the superuser check');
    const review = await runJscr(['review', '--commit', 'HEAD', '--no-model', '--format', 'json'], repo.root);
    const finding = (JSON.parse(review.stdout) as { findings: { rule: string; message: string }[] }).findings.find((f) => f.rule === 'jscr/prover-unguarded-operation');
    expect(finding?.message).toMatch(/The change removed `raise PermissionDenied`/);
  });
});
