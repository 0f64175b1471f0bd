/**
 * A Django refusal under a flag (`if not rw: raise PermissionDenied`) is read through where the flag was
 * set: a helper that answers `(record, True)` only under a test of the caller and else the caller's own
 * membership row proves ownership; a flag from anything else proves nothing.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

const URLS = `from django.urls import path
from . import views

urlpatterns = [
    path("items/<uuid:code>/rename/", views.rename),
    path("boards/<uuid:code>/keys/", views.board_keys),
]
`;

const MODELS = `from django.db import models

class Board(models.Model):
    owner = models.ForeignKey("auth.User", on_delete=models.CASCADE)

class Item(models.Model):
    board = models.ForeignKey(Board, on_delete=models.CASCADE)

class Membership(models.Model):
    board = models.ForeignKey(Board, on_delete=models.CASCADE)
    user = models.ForeignKey("auth.User", on_delete=models.CASCADE)
    can_write = models.BooleanField(default=False)
`;

/** A lookup helper answering `(item, writable)`, a wrapper refusing a read-only caller, and two views. */
const views = (answer: string, flag: string) => `from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseForbidden
from django.shortcuts import get_object_or_404
from .models import Board, Item, Membership


def _item_for_user(request, code):
    item = get_object_or_404(Item, code=code)
${answer}


def _writable_item_for_user(request, code):
    item, writable = _item_for_user(request, code)
    if not writable:
        raise PermissionDenied
    return item


@login_required
def rename(request, code):
    item = _writable_item_for_user(request, code)
    item.name = request.POST["name"]
    item.save()


@login_required
def board_keys(request, code):
    board = get_object_or_404(Board, code=code)
    writable = False
${flag}
    if request.method == "POST":
        if not writable:
            return HttpResponseForbidden()
        board.api_key = ""
        board.save()
`;

const CHECKED_ANSWER = `    if request.user.is_superuser:
        return item, True
    if request.user.id == item.board.owner_id:
        return item, True
    membership = get_object_or_404(Membership, board=item.board, user=request.user)
    return item, membership.can_write`;

const CHECKED_FLAG = `    if request.user.id == board.owner_id:
        writable = True
    else:
        membership = get_object_or_404(Membership, board=board, user=request.user)
        writable = membership.can_write`;

async function unguarded(answer: string, flag: string): Promise<string[]> {
  const files = { 'app/urls.py': URLS, 'app/models.py': MODELS, 'app/views.py': views(answer, flag) };
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.operationsChecked).toBe(2);
  return result.findings.map((f) => `${f.function}:${f.label}`).sort();
}

describe('refusals under a flag', () => {
  it('a flag set only under tests of the caller, or from the caller own membership row, discharges both views', async () => {
    expect(await unguarded(CHECKED_ANSWER, CHECKED_FLAG)).toEqual([]);
  });

  it('a flag the helper answers True without a test, or sets from the request, proves nothing', async () => {
    const open = `    return item, True`;
    const fromForm = `    writable = request.POST.get("confirm") == "yes"`;
    expect(await unguarded(open, fromForm)).toEqual(['board_keys:authn_only', 'rename:authn_only']);
  });

  it('one unchecked value among checked ones leaves the flag unproved', async () => {
    const publicToo = CHECKED_ANSWER.replace('    membership =', '    if item.board.public:\n        return item, True\n    membership =');
    const fromSetting = `${CHECKED_FLAG}\n    if settings.OPEN_BOARDS:\n        writable = True`;
    expect(await unguarded(publicToo, fromSetting)).toEqual(['board_keys:authn_only', 'rename:authn_only']);
  });
});
