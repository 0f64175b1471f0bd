/**
 * A user's own record (its model has a foreign key to the user model) looked up by the request's key and
 * written or deleted behind a staff check only is bound to nobody (django-admin-tools' bookmarks, #69):
 * staff status is no permission on the model. A lookup by the user, an owner test, a superuser test or a
 * Django permission settles it.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

async function findings(files: Record<string, string>): Promise<string[]> {
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.operationsChecked).toBeGreaterThan(0);
  return result.findings.map((f) => `${f.function}:${f.label}:${f.cwe}`).sort();
}

const models = (owner: string): string => `from django.conf import settings
from django.db import models

user_model = getattr(settings, 'AUTH_USER_MODEL', 'auth.User')

class Bookmark(models.Model):
${owner}
    url = models.CharField(max_length=255)
`;
const OWNED = models('    user = models.ForeignKey(user_model, on_delete=models.CASCADE)');
const SHARED = models('    title = models.CharField(max_length=255)');

const URLS = `from django.urls import path
from . import views

urlpatterns = [
    path("remove/<int:id>/", views.remove_bookmark),
]
`;

/** The view: its decorator, the lookup, and the lines between the lookup and the deletion. */
const view = (decorator: string, lookup: string, between = ''): string => `from django.contrib.admin.views.decorators import staff_member_required
from django.contrib.auth.decorators import permission_required, user_passes_test
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from .models import Bookmark

${decorator}
def remove_bookmark(request, id):
    bookmark = ${lookup}
${between}    if request.method == "POST":
        bookmark.delete()
    return HttpResponse("Deleted")
`;

const cases: { name: string; models: string; view: string; expected: string[] }[] = [
  { name: 'staff only, looked up by the id alone', models: OWNED, view: view('@staff_member_required', 'get_object_or_404(Bookmark, id=id)'), expected: ['remove_bookmark:resource_unbound:CWE-639'] },
  { name: 'staff through user_passes_test, looked up through the manager', models: OWNED, view: view('@user_passes_test(lambda u: u.is_staff)', 'Bookmark.objects.get(pk=id)'), expected: ['remove_bookmark:resource_unbound:CWE-639'] },
  { name: 'a queryset by the id, deleted whole', models: OWNED, view: view('@staff_member_required', 'Bookmark.objects.filter(pk=id)'), expected: ['remove_bookmark:resource_unbound:CWE-639'] },
  { name: 'a staff test written in the view', models: OWNED, view: view('', 'get_object_or_404(Bookmark, id=id)', '    if not request.user.is_staff:\n        raise PermissionDenied\n'), expected: ['remove_bookmark:resource_unbound:CWE-639'] },
  { name: 'the lookup filtered by the logged-in user', models: OWNED, view: view('@staff_member_required', 'get_object_or_404(Bookmark, id=id, user=request.user)'), expected: [] },
  { name: 'an owner test before the deletion', models: OWNED, view: view('@staff_member_required', 'get_object_or_404(Bookmark, id=id)', '    if bookmark.user != request.user:\n        raise PermissionDenied\n'), expected: [] },
  { name: 'a Django permission on the model', models: OWNED, view: view('@permission_required("menu.delete_bookmark")', 'get_object_or_404(Bookmark, id=id)'), expected: [] },
  { name: 'a superuser test', models: OWNED, view: view('@user_passes_test(lambda u: u.is_superuser)', 'get_object_or_404(Bookmark, id=id)'), expected: [] },
  { name: 'a model nobody owns: staff status is the project\'s choice', models: SHARED, view: view('@staff_member_required', 'get_object_or_404(Bookmark, id=id)'), expected: [] },
  { name: 'a record the code picked, not the request', models: OWNED, view: view('@staff_member_required', 'Bookmark.objects.order_by("id").first()'), expected: [] },
];

describe('records owned by a user behind a staff check', () => {
  for (const c of cases) {
    it(`${c.expected.length > 0 ? 'finds' : 'is quiet on'} ${c.name}`, async () => {
      expect(await findings({ 'menu/models.py': c.models, 'menu/views.py': c.view, 'menu/urls.py': URLS })).toEqual(c.expected);
    });
  }

  it('says which record, by which key, and why staff status does not bind it', async () => {
    const result = await proveChange({ root: '/repo', files: Object.entries({ 'menu/models.py': OWNED, 'menu/views.py': view('@staff_member_required', 'get_object_or_404(Bookmark, id=id)'), 'menu/urls.py': URLS }).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
    const sentence = result.findings[0]?.unboundResource?.sentence ?? '';
    expect(sentence).toMatch(/`bookmark` is the Bookmark looked up by the request's key \(`get_object_or_404\(Bookmark, id=id\)`, line 10\)/);
    expect(sentence).toMatch(/Bookmark\.user says each one belongs to a user; `@staff_member_required` lets every staff member in/);
  });
});
