/**
 * A Django class view's `get_queryset()` filtered by the logged-in user makes `self.get_object()` the
 * caller's own, proved end to end: the object another user names answers 404.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

async function labels(files: Record<string, string>): Promise<string[]> {
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.operationsChecked).toBeGreaterThan(0);
  return result.findings.map((f) => `${f.function}:${f.label}`).sort();
}

const models = 'from django.db import models\n\nclass Simulation(models.Model):\n    name = models.CharField(max_length=20)\n';

const view = (queryset: string) => `from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import HttpResponseRedirect
from django.views.generic.edit import DeleteView
from .models import Simulation

class SimulationDelete(LoginRequiredMixin, DeleteView):
    model = Simulation
${queryset}
    def post(self, request, *args, **kwargs):
        self.get_object().delete()
        return HttpResponseRedirect("/simulations")
`;

describe('get_queryset filtered by the user', () => {
  it("discharges self.get_object()'s deletion behind a login; an unfiltered or partly filtered queryset does not", async () => {
    const own = '    def get_queryset(self):\n        return super().get_queryset().filter(user=self.request.user)\n';
    expect(await labels({ 'app/models.py': models, 'app/views.py': view(own) })).toEqual([]);
    expect(await labels({ 'app/models.py': models, 'app/views.py': view('') })).toEqual(['SimulationDelete.post:authn_only']);
    const shared = '    def get_queryset(self):\n        return Simulation.objects.filter(public=True)\n';
    expect(await labels({ 'app/models.py': models, 'app/views.py': view(shared) })).toEqual(['SimulationDelete.post:authn_only']);
    const branch = '    def get_queryset(self):\n        if self.request.GET.get("all"):\n            return Simulation.objects.all()\n        return Simulation.objects.filter(user=self.request.user)\n';
    expect(await labels({ 'app/models.py': models, 'app/views.py': view(branch) })).toEqual(['SimulationDelete.post:authn_only']);
  });

  it('a base class of the view may filter for it; without a login it is no one in particular', async () => {
    const base = `from django.views.generic.edit import DeleteView

class OwnedDelete(DeleteView):
    def get_queryset(self):
        return super().get_queryset().filter(owner=self.request.user)
`;
    const child = view('').replace('from django.views.generic.edit import DeleteView', 'from .base import OwnedDelete').replace('(LoginRequiredMixin, DeleteView)', '(LoginRequiredMixin, OwnedDelete)');
    expect(await labels({ 'app/models.py': models, 'app/base.py': base, 'app/views.py': child })).toEqual([]);
    expect(await labels({ 'app/models.py': models, 'app/base.py': base, 'app/views.py': child.replace('(LoginRequiredMixin, OwnedDelete)', '(OwnedDelete)') })).toEqual(['SimulationDelete.post:unguarded_path']);
  });
});
