/**
 * Python check forms the held-out pool (docs/prover-heldout-py.json) showed the prover did not read,
 * proved end to end on fixtures written for them: a check helper whose guard clause is its first
 * statement (DefectDojo's `user_has_permission_or_403`), and FastAPI dependencies written as an instance
 * of a repository class (`Depends(PermissionsDependency([EditPermission]))`, `Depends(RoleChecker([...]))`).
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';
import { PERMISSIONS_DEPENDENCY } from './python-fixtures.js';

async function labels(files: Record<string, string>): Promise<string[]> {
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.operationsChecked).toBeGreaterThan(0);
  return result.findings.map((f) => f.label).sort();
}

const djangoView = `from django.shortcuts import get_object_or_404
from django.views import View
from app.authorization import user_has_permission_or_403
from app.models import Engagement


class CloseEngagement(View):
    def post(self, request, eid):
        eng = get_object_or_404(Engagement, id=eid)
        user_has_permission_or_403(request.user, eng, "edit")
        eng.active = False
        eng.save()
`;

const helper = (body: string) => `from django.core.exceptions import PermissionDenied
import logging


def user_has_permission(user, obj, permission):
    return user.is_superuser or obj.owner_id == user.id


def user_has_permission_or_403(user, obj, permission):
${body}
`;

describe('Python check helpers whose guard clause is the first statement', () => {
  it('a helper that opens with `if not allowed: raise PermissionDenied` checks at every call site', async () => {
    expect(await labels({ 'app/authorization.py': helper('    if not user_has_permission(user, obj, permission):\n        raise PermissionDenied'), 'app/views.py': djangoView })).toEqual([]);
    expect(await labels({ 'app/authorization.py': helper('    if not user_has_permission(user, obj, permission):\n        raise PermissionDenied()'), 'app/views.py': djangoView })).toEqual([]);
  });

  it('the same helper with a statement before its guard clause still checks (the form that worked before)', async () => {
    expect(await labels({ 'app/authorization.py': helper('    allowed = user_has_permission(user, obj, permission)\n    if not allowed:\n        raise PermissionDenied'), 'app/views.py': djangoView })).toEqual([]);
  });

  it('a helper whose first statement only logs a refusal, or refuses only under another condition, checks nothing', async () => {
    expect(await labels({ 'app/authorization.py': helper('    if not user_has_permission(user, obj, permission):\n        logging.warning("denied")'), 'app/views.py': djangoView })).toEqual(['unguarded_path']);
    expect(await labels({ 'app/authorization.py': helper('    if obj.locked:\n        if not user_has_permission(user, obj, permission):\n            raise PermissionDenied'), 'app/views.py': djangoView })).toEqual(['unguarded_path']);
  });
});

const permissions = `from fastapi import HTTPException, Request


class BasePermission:
    def has_required_permissions(self, request: Request) -> bool:
        return False

    def __init__(self, request: Request):
        if not self.has_required_permissions(request):
            raise HTTPException(
                status_code=403, detail="forbidden"
            )


class EditPermission(BasePermission):
    def has_required_permissions(self, request: Request) -> bool:
        return request.state.user.role == "admin"


class Audit:
    def __init__(self, request: Request):
        self.path = request.url.path


${PERMISSIONS_DEPENDENCY}

class RoleChecker:
    def __init__(self, allowed_roles: list):
        self.allowed_roles = allowed_roles

    def __call__(self, user=Depends(get_current_user)):
        if user.role not in self.allowed_roles:
            raise HTTPException(status_code=403, detail="forbidden")


class Timer:
    def __init__(self, label: str):
        self.label = label

    def __call__(self, request: Request):
        request.state.started = now()
`;

const taskRoute = (dependency: string) => `from fastapi import APIRouter, Depends
from app.permissions import Audit, EditPermission, PermissionsDependency, RoleChecker, Timer
from app.models import Task

router = APIRouter()


@router.delete("/tasks/{task_id}", dependencies=[Depends(${dependency})])
def delete_task(db_session, task_id: int):
    task = db_session.query(Task).get(task_id)
    db_session.delete(task)
    db_session.commit()
`;

describe('FastAPI dependencies that are instances of a repository class', () => {
  it('an instance handed a permission class whose __init__ refuses checks with that class', async () => {
    expect(await labels({ 'app/permissions.py': permissions, 'app/tasks.py': taskRoute('PermissionsDependency([EditPermission])') })).toEqual([]);
  });

  it("an instance whose class's __call__ refuses a role checks", async () => {
    expect(await labels({ 'app/permissions.py': permissions, 'app/tasks.py': taskRoute('RoleChecker(["admin"])') })).toEqual([]);
  });

  it('an instance whose __call__ and handed classes check nothing is no check', async () => {
    expect(await labels({ 'app/permissions.py': permissions, 'app/tasks.py': taskRoute('PermissionsDependency([Audit])') })).toEqual(['unguarded_path']);
    expect(await labels({ 'app/permissions.py': permissions, 'app/tasks.py': taskRoute('Timer("delete")') })).toEqual(['unguarded_path']);
  });

  it('a permission class named outside the instance (not handed to it) proves nothing', async () => {
    const route = taskRoute('Timer("delete")').replace('def delete_task(db_session, task_id: int):', 'def delete_task(db_session, task_id: int):\n    kind = EditPermission');
    expect(await labels({ 'app/permissions.py': permissions, 'app/tasks.py': route })).toEqual(['unguarded_path']);
  });
});

const addLinks = (get: string, post: string) => `from django.shortcuts import redirect, render
from django.views import View
from app.archive import archive


class AddLinks(View):
    def get(self, request):
${get}
        return render(request, "add.html")

    def post(self, request):
${post}
        archive(request.POST["url"])
        return render(request, "add.html")
`;
const archive = 'def archive(url):\n    return url\n';
const loginRedirect = "        if not request.user.is_authenticated:\n            return redirect(f'/login/?next={request.path}')";

describe('a view class that protects its page but not its submission (verb norm)', () => {
  it("a post that checks nothing while the class's get redirects anonymous callers to the login is a finding", async () => {
    expect(await labels({ 'app/archive.py': archive, 'app/views.py': addLinks(loginRedirect, '') })).toEqual(['sibling_norm']);
  });

  it('the same check on the post settles it; a get that checks nothing puts the post under no norm', async () => {
    const result = await proveChange({ root: '/repo', files: [{ path: 'app/archive.py', text: archive }, { path: 'app/views.py', text: addLinks(loginRedirect, loginRedirect) }], touched: null, maxDepth: 3, fanOut: 25 });
    expect(result.findings).toEqual([]);
    const open = await proveChange({ root: '/repo', files: [{ path: 'app/archive.py', text: archive }, { path: 'app/views.py', text: addLinks('        pass', '') }], touched: null, maxDepth: 3, fanOut: 25 });
    expect(open.findings).toEqual([]);
  });

  it('a redirect that is no refusal (a logged-in user sent past the page, a valid form) protects nothing', async () => {
    const past = "        if request.user.is_authenticated:\n            return redirect('/dashboard/')";
    const valid = "        if form.is_valid():\n            return redirect('/done/')";
    for (const get of [past, valid]) {
      const result = await proveChange({ root: '/repo', files: [{ path: 'app/archive.py', text: archive }, { path: 'app/views.py', text: addLinks(get, '') }], touched: null, maxDepth: 3, fanOut: 25 });
      expect(result.findings).toEqual([]);
    }
  });
});

describe('a redirect that refuses the caller is a check', () => {
  const view = (test: string) => `from django.shortcuts import get_object_or_404, redirect
from app.models import Invoice


def delete_invoice(request, pk):
    if ${test}:
        return redirect("/")
    invoice = get_object_or_404(Invoice, pk=pk)
    invoice.delete()
`;
  const urls = 'from django.urls import path\nfrom . import views\n\nurlpatterns = [path("invoices/<int:pk>/delete/", views.delete_invoice)]\n';
  it('a negated role test of the caller discharges; a negated login test is a login; a test of something else is none', async () => {
    expect(await labels({ 'app/views.py': view('not request.user.is_staff'), 'app/urls.py': urls })).toEqual([]);
    expect(await labels({ 'app/views.py': view('not request.user.is_authenticated'), 'app/urls.py': urls })).toEqual(['authn_only']);
    expect(await labels({ 'app/views.py': view('request.user.is_authenticated'), 'app/urls.py': urls })).toEqual(['unguarded_path']);
    expect(await labels({ 'app/views.py': view('not settings.INVOICES_ENABLED'), 'app/urls.py': urls })).toEqual(['unguarded_path']);
  });
});

describe('FastAPI dependencies declared by an Annotated type alias', () => {
  const deps = `from typing import Annotated
from fastapi import Depends, HTTPException, Security
from fastapi.security import SecurityScopes


def get_current_user(security_scopes: SecurityScopes, token: str = ""):
    user = decode(token)
    for scope in security_scopes.scopes:
        if scope not in user.scopes:
            raise HTTPException(status_code=403, detail="Not enough permissions")
    return user


def get_db():
    return None


def require_scopes(*required_scopes: str):
    return Annotated[
        User,
        Security(get_current_user, scopes=list(required_scopes))
    ]


DeleteToken: type[User] = require_scopes("token.delete")
ScopedUser = Annotated[User, Security(get_current_user, scopes=["token.delete"])]
DbSession = Annotated[Session, Depends(get_db)]
`;
  const route = (type: string) => `from fastapi import APIRouter
from app import deps
from app.models import Token

router = APIRouter()


@router.delete("/tokens/{token_id}")
async def delete_token(token_id: int, user: ${type}, db_session: deps.DbSession):
    token = db_session.get(Token, token_id)
    db_session.delete(token)
`;
  it('an alias written as Annotated[..., Security(dep)] or built by a factory returning one carries the dependency', async () => {
    expect(await labels({ 'app/deps.py': deps, 'app/router.py': route('deps.ScopedUser') })).toEqual([]);
    expect(await labels({ 'app/deps.py': deps, 'app/router.py': route('deps.DeleteToken') })).toEqual([]);
  });

  it('an alias whose dependency checks nothing, or a plain model type, proves nothing', async () => {
    expect(await labels({ 'app/deps.py': deps, 'app/router.py': route('deps.DbSession') })).toEqual(['unguarded_path']);
    expect(await labels({ 'app/deps.py': deps, 'app/router.py': route('User') })).toEqual(['unguarded_path']);
  });
});
