/**
 * A project's decorator factory that hands back Django's own check (`def team_required(*teams): return
 * user_passes_test(...)`, used as `@team_required('editors')`) gates the view like `@user_passes_test`
 * written on it. A factory that hands back the view unchanged on any branch proves nothing.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

const CHECKS = (factoryBody: string) => `from django.contrib.auth.decorators import login_required, user_passes_test


def in_any_team(user, teams):
    if not user.is_authenticated:
        return False
    return user.groups.filter(name__in=teams).exists()


def team_required(*teams):
${factoryBody}
`;

const FILES = {
  'board/models.py': 'from django.db import models\n\n\nclass Feed(models.Model):\n    enabled = models.BooleanField()\n',
  'board/views.py': `from django.shortcuts import redirect
from .models import Feed
from .checks import team_required


@team_required('editors')
def pause_feeds(request):
    for feed in Feed.objects.filter(enabled=True):
        feed.enabled = False
        feed.save()
    return redirect('home')
`,
  'board/urls.py': "from django.urls import path\nfrom . import views\n\nurlpatterns = [\n    path('feeds/pause/', views.pause_feeds),\n]\n",
};

async function labels(factoryBody: string): Promise<string[]> {
  const files = { ...FILES, 'board/checks.py': CHECKS(factoryBody) };
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.operationsChecked).toBeGreaterThan(0);
  return result.findings.map((f) => f.label);
}

describe('a decorator factory that returns a framework check', () => {
  it('returning user_passes_test (through a named test or a lambda) gates the view', async () => {
    expect(await labels("    def member(u):\n        return in_any_team(u, teams)\n\n    return user_passes_test(member, login_url='no_access')")).toEqual([]);
    expect(await labels('    return user_passes_test(lambda u: in_any_team(u, teams))')).toEqual([]);
  });

  it('returning login_required is a login only', async () => {
    expect(await labels('    return login_required')).toEqual(['authn_only']);
  });

  it('a factory that hands the view back unchanged on a branch, or returns no check, proves nothing', async () => {
    expect(await labels("    if 'anyone' in teams:\n        return lambda view: view\n    return user_passes_test(lambda u: in_any_team(u, teams))")).toEqual(['unguarded_path']);
    expect(await labels('    def keep(view):\n        return view\n\n    return keep')).toEqual(['unguarded_path']);
  });
});
