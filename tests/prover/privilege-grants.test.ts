/**
 * Privilege grants proved end to end: making a user an administrator with a value the request chose is
 * settled only by a check of the caller's own privilege, never by a scope to manage users.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';
import { enclosingConditions, valueFromRequest } from '../../src/prover/privilege-grants.js';

async function grants(files: Record<string, string>): Promise<string[]> {
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  return result.findings.filter((f) => f.operation.id === 'python.privilege-grant').map((f) => `${f.function}:${f.label}:${f.cwe}`);
}

const hubHandler = (body: string) => `from tornado import web
from app.scopes import needs_scope

class AccountHandler(web.RequestHandler):
    @needs_scope("admin:accounts")
    async def patch(self, name):
        account = self.find_account(name)
        data = self.get_json_body()
${body}
        self.db.commit()
`;

describe('privilege grants (Tornado)', () => {
  it('a scope to manage accounts does not settle making one an administrator with the requested value', async () => {
    expect(await grants({ 'app/handlers.py': hubHandler('        if "admin" in data:\n            account.admin = data["admin"]') })).toEqual(['AccountHandler.patch:unguarded_path:CWE-862']);
  });

  it('a literal True under a test of the requested value is a grant too; the caller holding the flag settles it', async () => {
    const literal = '        wanted = data.get("admin", False)\n        if wanted:\n            account.admin = True';
    expect(await grants({ 'app/handlers.py': hubHandler(literal) })).toEqual(['AccountHandler.patch:unguarded_path:CWE-862']);
    const checked = '        wanted = data.get("admin", False)\n        if wanted and not self.current_user.admin:\n            raise web.HTTPError(403, "only admins grant admin")\n        if wanted:\n            account.admin = True';
    expect(await grants({ 'app/handlers.py': hubHandler(checked) })).toEqual([]);
  });

  it('every requested field copied onto a user is a grant; a refusal nested under the caller\'s own flag settles it', async () => {
    const copy = '        for key, value in data.items():\n            setattr(user, key, value)';
    const open = hubHandler(copy).replace('account = self.find_account(name)', 'user = self.find_account(name)');
    expect(await grants({ 'app/handlers.py': open })).toEqual(['AccountHandler.patch:unguarded_path:CWE-862']);
    const nested = `        if not self.current_user.admin:
            if user.admin:
                raise web.HTTPError(403, "only admins modify admins")
            if data.get("admin"):
                raise web.HTTPError(403, "only admins grant admin")
${copy}`;
    expect(await grants({ 'app/handlers.py': hubHandler(nested).replace('account = self.find_account(name)', 'user = self.find_account(name)') })).toEqual([]);
  });

  it('a refusal after the grant, a revocation, and a flag that does not come from the request are no findings of this kind, or no cover', async () => {
    const late = '        account.admin = data["admin"]\n        if not self.current_user.admin:\n            raise web.HTTPError(403)';
    expect(await grants({ 'app/handlers.py': hubHandler(late) })).toEqual(['AccountHandler.patch:unguarded_path:CWE-862']);
    expect(await grants({ 'app/handlers.py': hubHandler('        account.admin = False') })).toEqual([]);
    const fromLogin = hubHandler('        admin = self.authenticator_answer(name).get("admin")\n        account.admin = admin');
    expect(await grants({ 'app/handlers.py': fromLogin })).toEqual([]);
  });
});

describe('privilege grants (Django)', () => {
  const view = (decorator: string) => `from django.contrib.admin.views.decorators import staff_member_required
from django.contrib.auth.decorators import user_passes_test
from django.shortcuts import get_object_or_404, redirect
from app.models import Member

${decorator}
def promote(request, pk):
    member = get_object_or_404(Member, pk=pk)
    member.is_superuser = request.POST.get("superuser") == "on"
    member.save()
    return redirect("/members/")
`;
  const urls = "from django.urls import path\nfrom . import views\n\nurlpatterns = [path('members/<int:pk>/promote/', views.promote)]\n";

  it('staff may manage members but not make superusers; a superuser gate settles it', async () => {
    expect(await grants({ 'app/views.py': view('@staff_member_required'), 'app/urls.py': urls })).toEqual(['promote:unguarded_path:CWE-862']);
    expect(await grants({ 'app/views.py': view('@user_passes_test(lambda u: u.is_superuser)'), 'app/urls.py': urls })).toEqual([]);
    expect(await grants({ 'app/views.py': view('@superuser_required'), 'app/urls.py': urls })).toEqual([]);
  });
});

describe('privilege grant helpers', () => {
  it('enclosingConditions climbs the if lines that enclose a line by indentation', () => {
    const lines = ['def f(self):', '    if not self.current_user.admin:', '        x = 1', '        if wanted:', '            raise E()'];
    expect(enclosingConditions(lines, 1, 5)).toEqual(['            raise E()', '        if wanted:', '    if not self.current_user.admin:']);
  });

  it('valueFromRequest follows locals derived from a request read', () => {
    const request = /\bget_json_body\(/;
    const lines = ['def f(self):', '    data = self.get_json_body()', '    admin = data.get("admin")', '    u.admin = admin', '    u.admin = other'];
    expect(valueFromRequest(lines, 1, 4, request)).toBe(true);
    expect(valueFromRequest(lines, 1, 5, request)).toBe(false);
  });
});
