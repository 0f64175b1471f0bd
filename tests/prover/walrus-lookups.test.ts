/**
 * A lookup scoped by the logged-in user written as an assignment expression inside the `if`
 * (`if (draft := Draft.objects.filter(pk=key, owner=request.user).first()):`) finds the caller's own
 * record, as the same lookup on a line of its own does; one keyed by the request's value alone does not.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

const views = (condition: string) => `from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView
from .models import Draft


class DiscardDraftView(APIView):
    permission_classes = [IsAuthenticated]

    def post(self, request, *args, **kwargs):
${condition}
            draft.delete()
        return Response({})
`;

const FILES = {
  'drafts/models.py': `from django.contrib.auth.models import User
from django.db import models


class Draft(models.Model):
    owner = models.ForeignKey(User, on_delete=models.CASCADE)
    body = models.TextField()
`,
  'drafts/urls.py': "from django.urls import path\nfrom . import views\n\nurlpatterns = [\n    path('drafts/discard/', views.DiscardDraftView.as_view()),\n]\n",
};

async function labels(condition: string): Promise<string[]> {
  const files = { ...FILES, 'drafts/views.py': views(condition) };
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.operationsChecked).toBeGreaterThan(0);
  return result.findings.map((f) => f.label);
}

describe('a lookup scoped by the user in an assignment expression', () => {
  it('on its own line it already binds the record', async () => {
    expect(await labels("        key = request.data.get('draft')\n        draft = Draft.objects.filter(pk=key, owner=request.user).first()\n        if draft:")).toEqual([]);
  });

  it('inside the if, beside another assignment expression and over two lines, it binds it too', async () => {
    expect(await labels("        if (key := request.data.get('draft')) and (\n                draft := Draft.objects.filter(pk=key, owner=request.user).first()):")).toEqual([]);
    expect(await labels("        if draft := Draft.objects.filter(pk=request.data.get('draft'), owner=request.user).first():")).toEqual([]);
    expect(await labels("        if (key := request.data.get('draft')) and (draft := Draft.objects.filter(\n                pk=key,\n                owner=request.user,\n        ).first()):")).toEqual([]);
  });

  it('keyed by the request alone, or with the user only beside the value, it binds nothing', async () => {
    expect(await labels("        if (key := request.data.get('draft')) and (draft := Draft.objects.filter(pk=key).first()):")).toEqual(['authn_only']);
    expect(await labels("        if (draft := Draft.objects.filter(pk=request.data.get('draft')).first()) and request.user.is_authenticated:")).toEqual(['authn_only']);
  });
});
