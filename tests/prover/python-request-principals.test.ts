/**
 * A principal the project's own decorator puts on the request (`request.project`, the project an API key
 * names, after a 401 for a missing or wrong key) is the caller's in the views it wraps: a 403 under a
 * mismatch of a record with it is an ownership check. A decorator that refuses nothing, or a request
 * field no decorator set, proves nothing.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

const URLS = `from django.urls import path
from . import views

urlpatterns = [
    path("api/items/<uuid:code>/", views.rename),
]
`;

const decorators = (refusal: string) => `import json
from functools import wraps
from django.http import JsonResponse
from .models import Board


def key_required(f):
    @wraps(f)
    def wrapper(request, *args, **kwds):
        api_key = request.headers.get("X-Api-Key", "")
        board = Board.objects.filter(api_key=api_key).first()
        if board is None:
${refusal}
        request.board = board
        return f(request, *args, **kwds)

    return wrapper
`;

const views = (field: string) => `from django.http import HttpResponseForbidden
from django.shortcuts import get_object_or_404
from django.views.decorators.csrf import csrf_exempt
from .decorators import key_required
from .models import Item


@csrf_exempt
@key_required
def rename(request, code):
    item = get_object_or_404(Item, code=code)
    if item.board_id != request.${field}.id:
        return HttpResponseForbidden()
    item.name = request.POST["name"]
    item.save()
`;

async function labels(refusal: string, field: string): Promise<string[]> {
  const files = { 'app/urls.py': URLS, 'app/models.py': 'from django.db import models\n\nclass Board(models.Model):\n    pass\n\nclass Item(models.Model):\n    pass\n', 'app/decorators.py': decorators(refusal), 'app/views.py': views(field) };
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.operationsChecked).toBe(1);
  return result.findings.map((f) => f.label);
}

describe('principals a decorator puts on the request', () => {
  it('a 403 unless the record is the key’s board discharges the write', async () => {
    expect(await labels('            return JsonResponse({"error": "wrong api key"}, status=401)', 'board')).toEqual([]);
  });

  it('a request field no decorator set, or a decorator that refuses nothing, proves no ownership', async () => {
    expect(await labels('            return JsonResponse({"error": "wrong api key"}, status=401)', 'team')).not.toEqual([]);
    expect(await labels('            board = Board()', 'board')).toEqual(['unguarded_path']);
  });
});
