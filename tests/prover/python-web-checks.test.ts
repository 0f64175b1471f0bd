/**
 * Checks of Django/DRF, Flask and FastAPI views proved end to end: the repository's own decorators
 * judged by their body, Django mixins (leftmost only), DRF permission classes (the class's and the
 * settings' default), URLconf wrappers, Flask `before_request` hooks, FastAPI dependencies, refusals
 * written without a call, and lookups by a random primary key.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';
import { DECORATORS } from './python-fixtures.js';

async function labels(files: Record<string, string>): Promise<string[]> {
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.operationsChecked).toBeGreaterThan(0);
  return result.findings.map((f) => f.label).sort();
}

/** The labels of the findings on the repository's own handlers: a generic view's inherited write is django-generic-writes.test.ts's. */
async function ownHandlerLabels(files: Record<string, string>): Promise<string[]> {
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  return result.findings.filter((f) => !/^python\.(django|drf)-inherited-/.test(f.operation.id)).map((f) => f.label).sort();
}


const flaskView = (decorator: string) => `from flask import Blueprint
from app.decorators import admins_only, authed_only, logged
from app.models import db, Challenges

admin = Blueprint("admin", __name__)

@admin.route("/admin/challenges/<int:cid>", methods=["DELETE"])
${decorator}
def delete_challenge(cid):
    challenge = Challenges.query.filter_by(id=cid).first_or_404()
    db.session.delete(challenge)
    db.session.commit()
`;

describe('Flask views', () => {
  it("a repository decorator is judged by its body: a role gate discharges, a login gate is a login only, a logger nothing", async () => {
    expect(await labels({ 'app/decorators.py': DECORATORS, 'app/admin.py': flaskView('@admins_only') })).toEqual([]);
    expect(await labels({ 'app/decorators.py': DECORATORS, 'app/admin.py': flaskView('@authed_only') })).toEqual(['authn_only']);
    expect(await labels({ 'app/decorators.py': DECORATORS, 'app/admin.py': flaskView('@logged') })).toEqual(['unguarded_path']);
  });

  it('a check decorator written above the route decorator wraps the function after Flask registered it: no check', async () => {
    const above = flaskView('').replace('@admin.route(', '@login_required\n@admin.route(').replace('from flask import Blueprint', 'from flask import Blueprint\nfrom flask_login import login_required');
    expect(await labels({ 'app/decorators.py': DECORATORS, 'app/admin.py': above })).toEqual(['unguarded_path']);
    const below = flaskView('@login_required').replace('from flask import Blueprint', 'from flask import Blueprint\nfrom flask_login import login_required');
    expect(await labels({ 'app/decorators.py': DECORATORS, 'app/admin.py': below })).toEqual(['authn_only']);
  });

  it('a before_request hook of the blueprint that refuses non-admins covers its views; a hook of another blueprint does not', async () => {
    const hook = (bp: string) => `from flask import abort
from flask_login import current_user
from app.admin import admin

@${bp}.before_request
def only_admins():
    if not current_user.is_admin:
        abort(403)
`;
    expect(await labels({ 'app/decorators.py': DECORATORS, 'app/admin.py': flaskView(''), 'app/hooks.py': hook('admin') })).toEqual([]);
    expect(await labels({ 'app/decorators.py': DECORATORS, 'app/admin.py': flaskView(''), 'app/hooks.py': hook('public') })).toEqual(['unguarded_path']);
  });

  it('a (body, 403) answer under an ownership test discharges; one under an unrelated test does not', async () => {
    const view = (test: string) => `from flask import Blueprint, session
from app.models import db, Teams

api = Blueprint("api", __name__)

@api.route("/teams/<int:tid>", methods=["DELETE"])
def disband(tid):
    team = Teams.query.filter_by(id=tid).first()
    if ${test}:
        return (
            {"success": False},
            403,
        )
    db.session.delete(team)
`;
    expect(await labels({ 'app/teams.py': view('team.captain_id != session["id"]') })).toEqual([]);
    expect(await labels({ 'app/teams.py': view('team.frozen') })).toEqual(['unguarded_path']);
  });
});

const djangoModels = `from django.db import models

class Invoice(models.Model):
    number = models.CharField(max_length=20)
`;

describe('Django and DRF views', () => {
  it('LoginRequiredMixin is a login only, and counts only leftmost; PermissionRequiredMixin discharges', async () => {
    const view = (bases: string) => `from django.contrib.auth.mixins import LoginRequiredMixin, PermissionRequiredMixin
from django.shortcuts import get_object_or_404
from django.views.generic import View
from .models import Invoice

class InvoiceDelete(${bases}):
    def post(self, request, pk):
        invoice = get_object_or_404(Invoice, pk=pk)
        invoice.delete()
`;
    expect(await labels({ 'app/models.py': djangoModels, 'app/views.py': view('PermissionRequiredMixin, View') })).toEqual([]);
    expect(await labels({ 'app/models.py': djangoModels, 'app/views.py': view('LoginRequiredMixin, View') })).toEqual(['authn_only']);
    expect(await labels({ 'app/models.py': djangoModels, 'app/views.py': view('View, PermissionRequiredMixin') })).toEqual(['unguarded_path']);
  });

  it('DRF permission_classes: IsAdminUser discharges, IsAuthenticated is a login, and the settings default applies when the view names none', async () => {
    const view = (attribute: string) => `from rest_framework.views import APIView
from rest_framework.permissions import IsAdminUser, IsAuthenticated
from .models import Invoice

class InvoicePurge(APIView):
${attribute}
    def delete(self, request):
        Invoice.objects.filter(number__startswith="T").delete()
`;
    expect(await labels({ 'app/models.py': djangoModels, 'app/views.py': view('    permission_classes = [IsAdminUser]') })).toEqual([]);
    expect(await labels({ 'app/models.py': djangoModels, 'app/views.py': view('    permission_classes = (IsAuthenticated,)') })).toEqual(['authn_only']);
    const settings = 'REST_FRAMEWORK = {\n    "DEFAULT_PERMISSION_CLASSES": [\n        "rest_framework.permissions.IsAdminUser",\n    ],\n}\n';
    expect(await labels({ 'app/models.py': djangoModels, 'app/views.py': view('    renderer_classes = []'), 'proj/settings.py': settings })).toEqual([]);
    expect(await labels({ 'app/models.py': djangoModels, 'app/views.py': view('    renderer_classes = []') })).toEqual(['unguarded_path']);
  });

  it('a wrapper written in the URLconf is a check of the view; staff_member_required discharges, login_required is a login', async () => {
    const views = `from django.shortcuts import get_object_or_404
from .models import Invoice

def remove(request, id):
    invoice = get_object_or_404(Invoice, id=id)
    invoice.delete()
`;
    const urls = (wrapper: string) => `from django.urls import path
from django.contrib.admin.views.decorators import staff_member_required
from django.contrib.auth.decorators import login_required
from . import views

urlpatterns = [
    path("remove/<int:id>/", ${wrapper}, name="remove"),
]
`;
    expect(await labels({ 'app/models.py': djangoModels, 'app/views.py': views, 'app/urls.py': urls('staff_member_required(views.remove)') })).toEqual([]);
    expect(await labels({ 'app/models.py': djangoModels, 'app/views.py': views, 'app/urls.py': urls('login_required(views.remove)') })).toEqual(['authn_only']);
    expect(await labels({ 'app/models.py': djangoModels, 'app/views.py': views, 'app/urls.py': urls('views.remove') })).toEqual(['unguarded_path']);
  });

  it('an if that lets only the owner through guards its own block, not what follows it', async () => {
    const view = (body: string) => `from django.contrib.auth.mixins import LoginRequiredMixin
from django.views.generic import DeleteView
from .models import Invoice

class InvoiceDelete(LoginRequiredMixin, DeleteView):
    model = Invoice
    def get(self, request, *args, **kwargs):
${body}
`;
    expect(await ownHandlerLabels({ 'app/models.py': djangoModels, 'app/views.py': view('        if self.get_object().user == request.user:\n            self.get_object().delete()\n        return None') })).toEqual([]);
    expect(await ownHandlerLabels({ 'app/models.py': djangoModels, 'app/views.py': view('        if self.get_object().user == request.user:\n            print("yours")\n        self.get_object().delete()') })).toEqual(['authn_only']);
    expect(await ownHandlerLabels({ 'app/models.py': djangoModels, 'app/views.py': view('        if self.get_object().user == request.user or request.GET.get("force"):\n            self.get_object().delete()') })).toEqual(['authn_only']);
  });

  it('a lookup by a random primary key (a link mailed to its owner) is the owner acting on their record; an integer key is not', async () => {
    const models = (key: string) => `from django.db import models

class Hero(models.Model):
${key}
    name = models.CharField(max_length=20)
`;
    const views = `from django.shortcuts import get_object_or_404
from .models import Hero

def cancel(request, hero):
    hero = get_object_or_404(Hero, pk=hero)
    hero.name = ""
    hero.save()
`;
    const urls = 'from django.urls import path\nfrom . import views\n\nurlpatterns = [path("manage/<hero>/cancel/", views.cancel)]\n';
    expect(await labels({ 'app/models.py': models('    id = models.CharField(max_length=12, primary_key=True)'), 'app/views.py': views, 'app/urls.py': urls })).toEqual([]);
    expect(await labels({ 'app/models.py': models('    rank = models.IntegerField()'), 'app/views.py': views, 'app/urls.py': urls })).toEqual(['unguarded_path']);
  });
});

describe('FastAPI path operations', () => {
  const deps = `from fastapi import Depends, HTTPException, status

def get_current_user(token: str = Depends(oauth2_scheme)):
    credentials_exception = HTTPException(status_code=status.HTTP_401_UNAUTHORIZED, detail="bad token")
    user = decode(token)
    if user is None:
        raise credentials_exception
    return user

def get_current_active_superuser(current_user = Depends(get_current_user)):
    if not current_user.is_superuser:
        raise HTTPException(status_code=400, detail="not enough privileges")
    return current_user
`;
  const route = (dependency: string) => `from fastapi import APIRouter, Depends
from app.deps import get_current_user, get_current_active_superuser
from app.models import Item

router = APIRouter()

@router.delete("/items/{item_id}")
def delete_item(item_id: int, db = Depends(get_db), user = Depends(${dependency})):
    item = db.query(Item).get(item_id)
    db.delete(item)
`;
  it('a dependency that refuses non-superusers discharges; one that only finds the user is a login; a dependency that checks nothing is none', async () => {
    expect(await labels({ 'app/deps.py': deps, 'app/items.py': route('get_current_active_superuser') })).toEqual([]);
    expect(await labels({ 'app/deps.py': deps, 'app/items.py': route('get_current_user') })).toEqual(['authn_only']);
    expect(await labels({ 'app/deps.py': `${deps}\ndef get_db():\n    return None\n`, 'app/items.py': route('get_db') })).toEqual(['unguarded_path']);
  });
});
