/**
 * The write a Django DeleteView or UpdateView inherits (post() deletes or saves self.get_object() in
 * library code) is judged when the object belongs to a user: a user-filtered get_queryset, a deciding
 * get_object or dispatch, a permission mixin or a permission wrapper binds it; a login, a staff mixin or
 * a test in the class's own get() does not.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';
import type { ProverFinding } from '../../src/prover/types.js';

async function inherited(files: Record<string, string>, touched: { path: string; lines: Set<number> }[] | null = null): Promise<ProverFinding[]> {
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched, maxDepth: 3, fanOut: 25 });
  return result.findings.filter((f) => /^python\.(django|drf)-inherited-/.test(f.operation.id));
}

const OWNED = `from django.conf import settings
from django.db import models

class Simulation(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE
    )
    name = models.CharField(max_length=20)
`;
const SHARED = `from django.db import models

class Simulation(models.Model):
    name = models.CharField(max_length=20)
`;

/** A view module: `bases` of the view class and its `body`. */
const view = (bases: string, body: string, generic = 'DeleteView'): string => `from django.contrib.auth.mixins import LoginRequiredMixin, UserPassesTestMixin
from django.http import Http404, HttpResponseForbidden, HttpResponseRedirect
from django.views.generic.edit import DeleteView, UpdateView
from braces.views import StaffuserRequiredMixin
from .models import Simulation

class SimulationEdit(${bases.replace('GENERIC', generic)}):
    model = Simulation
${body}
`;

const OWN_GET = `    def get(self, request, *args, **kwargs):
        if self.get_object().user == request.user:
            self.get_object().delete()
            return HttpResponseRedirect("/simulations")
        return HttpResponseForbidden("not yours")
`;

interface Case {
  name: string;
  files: Record<string, string>;
}

const positive: (Case & { label: string; kind: string; hop?: string })[] = [
  { name: 'a DeleteView behind a login that overrides nothing', files: { 'app/models.py': OWNED, 'app/views.py': view('LoginRequiredMixin, GENERIC', '') }, label: 'resource_unbound', kind: 'data_deletion' },
  { name: 'the owner test in its own get() covers GET only (the hop names it)', files: { 'app/models.py': SHARED, 'app/views.py': view('LoginRequiredMixin, GENERIC', OWN_GET) }, label: 'resource_unbound', kind: 'data_deletion', hop: 'SimulationEdit.get' },
  { name: 'an UpdateView saving a form over a user-owned object', files: { 'app/models.py': OWNED, 'app/views.py': view('LoginRequiredMixin, GENERIC', '    fields = ["name"]\n', 'UpdateView') }, label: 'resource_unbound', kind: 'data_write' },
  { name: 'a post() override that defers to super().post()', files: { 'app/models.py': OWNED, 'app/views.py': view('LoginRequiredMixin, GENERIC', '    def post(self, request, *args, **kwargs):\n        return super().post(request, *args, **kwargs)\n') }, label: 'resource_unbound', kind: 'data_deletion' },
  { name: 'a staff mixin lets every staff member delete anyone\'s object', files: { 'app/models.py': OWNED, 'app/views.py': view('StaffuserRequiredMixin, GENERIC', '') }, label: 'resource_unbound', kind: 'data_deletion' },
];

const negative: Case[] = [
  { name: 'get_queryset() keeps the user\'s rows', files: { 'app/models.py': OWNED, 'app/views.py': view('LoginRequiredMixin, GENERIC', '    def get_queryset(self):\n        return super().get_queryset().filter(user=self.request.user)\n') } },
  { name: 'get_object() refuses another user\'s object', files: { 'app/models.py': OWNED, 'app/views.py': view('LoginRequiredMixin, GENERIC', '    def get_object(self, queryset=None):\n        obj = super().get_object(queryset)\n        if obj.user != self.request.user:\n            raise Http404\n        return obj\n') } },
  { name: 'UserPassesTestMixin with its test_func', files: { 'app/models.py': OWNED, 'app/views.py': view('UserPassesTestMixin, GENERIC', '    def test_func(self):\n        return self.get_object().user == self.request.user\n') } },
  { name: 'a permission through method_decorator on the class', files: { 'app/models.py': OWNED, 'app/views.py': view('LoginRequiredMixin, GENERIC', '').replace('class SimulationEdit', '@method_decorator(permission_required("app.delete_simulation"), name="dispatch")\nclass SimulationEdit') } },
  {
    name: "a wrapper of the repository's own around the view in the URLconf",
    files: {
      'app/models.py': OWNED,
      'app/views.py': view('LoginRequiredMixin, GENERIC', ''),
      'app/urls.py': 'from django.urls import path\nfrom .auth import owner_required\nfrom .views import SimulationEdit\n\nurlpatterns = [\n    path("<pk>/delete/", owner_required(SimulationEdit.as_view())),\n]\n',
    },
  },
  { name: 'an object of a model nobody owns, with no owner test', files: { 'app/models.py': SHARED, 'app/views.py': view('LoginRequiredMixin, GENERIC', '') } },
  { name: 'a post() override without super(): the write is the repository\'s, judged where it is written', files: { 'app/models.py': OWNED, 'app/views.py': view('LoginRequiredMixin, GENERIC', '    def post(self, request, *args, **kwargs):\n        return HttpResponseRedirect("/")\n') } },
  { name: 'a DetailView reads, it writes nothing', files: { 'app/models.py': OWNED, 'app/views.py': view('LoginRequiredMixin, GENERIC', '', 'DetailView').replace('DeleteView, UpdateView', 'DeleteView, UpdateView, DetailView') } },
];

/** A DRF viewset over Simulation: its `permission` line and `body`. */
const drfView = (permission: string, body = ''): string => `from rest_framework import viewsets
from rest_framework.permissions import IsAuthenticated
from .models import Simulation
from .permissions import IsOwner

class SimulationViewSet(viewsets.ModelViewSet):
    queryset = Simulation.objects.all()
${permission}
${body}
`;

describe('DRF model viewsets\' inherited destroy()', () => {
  it('finds a viewset behind IsAuthenticated only, and one with no permission_classes (AllowAny)', async () => {
    for (const permission of ['    permission_classes = [IsAuthenticated]', '']) {
      const found = await inherited({ 'app/models.py': OWNED, 'app/views.py': drfView(permission) });
      expect(found.map((f) => [f.function, f.label, f.operation.id])).toEqual([['SimulationViewSet.destroy', 'resource_unbound', 'python.drf-inherited-deletion']]);
    }
  });

  it('is quiet with an object permission class, a user-filtered get_queryset, get_permissions, a perform_destroy of its own, no owner, or another library\'s viewset', async () => {
    const quiet = [
      { 'app/models.py': OWNED, 'app/views.py': drfView('    permission_classes = [IsAuthenticated, IsOwner]') },
      { 'app/models.py': OWNED, 'app/views.py': drfView('    permission_classes = [IsAuthenticated]', '    def get_queryset(self):\n        return Simulation.objects.filter(user=self.request.user)\n') },
      { 'app/models.py': OWNED, 'app/views.py': drfView('', '    def get_permissions(self):\n        return [IsOwner()]\n') },
      { 'app/models.py': OWNED, 'app/views.py': drfView('    permission_classes = [IsAuthenticated]', '    def perform_destroy(self, instance):\n        instance.archived = True\n        instance.save()\n    def perform_update(self, serializer):\n        serializer.save(user=self.request.user)\n') },
      { 'app/models.py': SHARED, 'app/views.py': drfView('    permission_classes = [IsAuthenticated]') },
      // Another library's ModelViewSet (wagtail's admin viewsets) is not DRF's.
      { 'app/models.py': OWNED, 'app/views.py': drfView('').replace('from rest_framework import viewsets', 'from wagtail.admin import viewsets') },
    ];
    for (const [i, files] of quiet.entries()) expect([i, await inherited(files)]).toEqual([i, []]);
  });
});

describe("Django generic edit views' inherited writes", () => {
  for (const c of positive) {
    it(`finds ${c.name}`, async () => {
      const found = await inherited(c.files);
      expect(found.map((f) => [f.function, f.label, f.operation.kind, f.cwe])).toEqual([['SimulationEdit.post', c.label, c.kind, 'CWE-639']]);
      expect(found[0]?.unboundResource?.variable).toBe('self.get_object()');
      expect(found[0]?.hops.map((h) => h.function)).toEqual(c.hop === undefined ? [] : [c.hop]);
    });
  }
  for (const c of negative) {
    it(`is quiet on ${c.name}`, async () => {
      expect(await inherited(c.files)).toEqual([]);
    });
  }

  it('the hop through get() is no call: its relation says so in the trace', async () => {
    const [finding] = await inherited({ 'app/models.py': SHARED, 'app/views.py': view('LoginRequiredMixin, GENERIC', OWN_GET) });
    expect(finding?.hops[0]?.relation).toMatch(/for GET requests only; the write runs the inherited post\(\)/);
    expect(finding?.unboundResource?.sentence).toMatch(/covers that handler only/);
  });

  it('in change mode only a change touching the view class is judged', async () => {
    const files = { 'app/models.py': OWNED, 'app/views.py': view('LoginRequiredMixin, GENERIC', '') };
    expect(await inherited(files, [{ path: 'app/views.py', lines: new Set([8]) }])).toHaveLength(1);
    expect(await inherited(files, [{ path: 'app/views.py', lines: new Set([2]) }])).toEqual([]);
  });
});
