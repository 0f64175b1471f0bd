/**
 * A registered middleware that looks the caller's record up into a local first and then puts a part of
 * it on the request (`membership = request.user.memberships.filter(active=True).first()`, then
 * `request.team = membership.team`) makes `request.team` the caller's own, as the one-line form does.
 * A local the client's data reaches (a header, a query parameter), even through another local, does not.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

const middleware = (steps: string) => `class TeamMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.user.is_authenticated:
${steps
  .split('\n')
  .map((line) => `            ${line}`)
  .join('\n')}
        return self.get_response(request)
`;

const FILES = {
  'proj/settings.py': 'MIDDLEWARE = [\n    "django.contrib.sessions.middleware.SessionMiddleware",\n    "django.contrib.auth.middleware.AuthenticationMiddleware",\n    "notes.middleware.TeamMiddleware",\n]\n',
  'notes/models.py': `from django.contrib.auth.models import User
from django.db import models


class Note(models.Model):
    team = models.ForeignKey('Team', on_delete=models.CASCADE)
    author = models.ForeignKey(User, on_delete=models.CASCADE)
`,
  'notes/api.py': `from rest_framework import viewsets
from rest_framework.permissions import IsAuthenticated
from .models import Note


class NoteViewSet(viewsets.ModelViewSet):
    queryset = Note.objects
    permission_classes = [IsAuthenticated]

    def get_queryset(self):
        return self.queryset.filter(team=self.request.team)
`,
};

async function findings(steps: string): Promise<string[]> {
  const files = { ...FILES, 'notes/middleware.py': middleware(steps) };
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  return result.findings.map((f) => `${f.label} ${f.function}`);
}

describe('a middleware that sets the request attribute through a local', () => {
  it('one line already scopes the viewset to the caller’s team', async () => {
    expect(await findings('request.team = request.user.memberships.filter(active=True).first().team')).toEqual([]);
  });

  it('two steps through a local of the same method do too, whatever else the method assigns it', async () => {
    expect(await findings('membership = request.user.memberships.filter(active=True).first()\nrequest.team = membership.team')).toEqual([]);
    expect(await findings('membership = request.user.memberships.filter(active=True).first()\nif not membership:\n    membership = create_team_for(request.user)\nrequest.team = membership.team')).toEqual([]);
    expect(await findings('found = request.user.memberships.filter(active=True)\nmembership = found.first()\nrequest.team = membership.team')).toEqual([]);
  });

  it('a local the client chooses, directly or through another local, proves nothing', async () => {
    const unbound = ['resource_unbound NoteViewSet.destroy'];
    expect(await findings('membership = Membership.objects.get(pk=request.headers["X-Team"])\nrequest.team = membership.team')).toEqual(expect.arrayContaining(unbound));
    expect(await findings('wanted = request.GET.get("team")\nmembership = request.user.memberships.filter(team_id=wanted).first()\nrequest.team = membership.team')).toEqual(expect.arrayContaining(unbound));
    expect(await findings('membership = request.user.memberships.first()\nmembership = Membership.objects.get(pk=request.GET["team"])\nrequest.team = membership.team')).toEqual(expect.arrayContaining(unbound));
    expect(await findings('team = Team.objects.first()\nrequest.team = team')).toEqual(expect.arrayContaining(unbound));
  });
});
