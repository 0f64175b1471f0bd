/**
 * Python check forms the heads of the held-out repositories showed the prover did not read (part PYHO),
 * proved end to end on fixtures written for them: a Django middleware whose `process_view` checks the
 * views a map of URL names lists, and a permission class whose check is an abstract method its
 * subclasses override.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';
import { PERMISSIONS_DEPENDENCY } from './python-fixtures.js';

async function labels(files: Record<string, string>): Promise<string[]> {
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.operationsChecked).toBeGreaterThan(0);
  return result.findings.map((f) => f.label).sort();
}

const settings = (middleware: string) => `SECRET_KEY = "x"
BASE_MIDDLEWARE = [
    "django.middleware.common.CommonMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
${middleware}
]

MIDDLEWARE = BASE_MIDDLEWARE
`;

const permissionsMap = `URL_PERMISSIONS = {
    "delete_product": [("object", "delete", "pid")],
    "edit_product": [("object", "edit", "pid")],
}

EXEMPT = [
    "delete_product",
]
`;

const middleware = (body: string) => `from django.core.exceptions import PermissionDenied
from app.url_permissions import EXEMPT, URL_PERMISSIONS


class AuthorizationMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        if request.path.startswith("/api/"):
            return
        resolver_match = request.resolver_match
        if resolver_match is None:
            return
${body}
`;

const mapGate = `        checks = URL_PERMISSIONS.get(resolver_match.url_name)
        if not checks:
            return
        for check in checks:
            if check[0] == "object":
                if not request.user.has_perm(check[1]):
                    raise PermissionDenied
            elif check[0] == "global":
                if not request.user.is_superuser:
                    raise PermissionDenied
        return`;

const exemptGate = `        if resolver_match.url_name in EXEMPT:
            return
        if not request.user.has_perm("app.change"):
            raise PermissionDenied`;

const views = `from django.shortcuts import get_object_or_404
from app.models import Product


def delete_product(request, pid):
    product = get_object_or_404(Product, id=pid)
    product.delete()


def archive_product(request, pid):
    product = get_object_or_404(Product, id=pid)
    product.delete()
`;

const urls = (name: string) => `from django.urls import re_path
from app import views

urlpatterns = [
    re_path(r"^product/(?P<pid>\\d+)/delete$", views.delete_product, name="${name}"),
]
`;

const repo = (mw: string, name: string, installed = '    "app.middleware.AuthorizationMiddleware",') => ({
  'app/settings.py': settings(installed),
  'app/url_permissions.py': permissionsMap,
  'app/middleware.py': middleware(mw),
  'app/views.py': views,
  'app/urls.py': urls(name),
});

describe("Django middleware that checks in process_view", () => {
  it('checks a view whose URL name is a key of the map it looks the URL name up in', async () => {
    expect(await labels(repo(mapGate, 'delete_product'))).toEqual([]);
  });

  it('checks nothing for a view whose URL name the map does not list, or for a middleware not in MIDDLEWARE', async () => {
    expect(await labels(repo(mapGate, 'remove_product'))).toEqual(['unguarded_path']);
    expect(await labels(repo(mapGate, 'delete_product', '    "django.middleware.csrf.CsrfViewMiddleware",'))).toEqual(['unguarded_path']);
  });

  it('checks every view but those an exemption list names', async () => {
    expect(await labels(repo(exemptGate, 'remove_product'))).toEqual([]);
    expect(await labels(repo(exemptGate, 'delete_product'))).toEqual(['unguarded_path']);
  });

  it('a process_view that leaves early on another test, or refuses only under a condition of its own, proves nothing', async () => {
    const other = `        if request.user.is_staff:\n            return\n        if not request.user.has_perm("app.change"):\n            raise PermissionDenied`;
    expect(await labels(repo(other, 'delete_product'))).toEqual(['unguarded_path']);
    const conditional = `        if request.method == "POST":\n            if not request.user.has_perm("app.change"):\n                raise PermissionDenied`;
    expect(await labels(repo(conditional, 'delete_product'))).toEqual(['unguarded_path']);
  });
});

const permissions = (base: string) => `from abc import ABC, abstractmethod
from fastapi import HTTPException, Request


class BasePermission(ABC):
${base}

    def __init__(self, request: Request):
        if not self.has_required_permissions(request):
            raise HTTPException(status_code=403, detail="forbidden")


class EditPermission(BasePermission):
    def has_required_permissions(self, request: Request) -> bool:
        return request.state.role == "admin"


${PERMISSIONS_DEPENDENCY}`;

const taskRoute = `from fastapi import APIRouter, Depends
from app.permissions import EditPermission, PermissionsDependency
from app.models import Task

router = APIRouter()


@router.delete("/tasks/{task_id}", dependencies=[Depends(PermissionsDependency([EditPermission]))])
def delete_task(db_session, task_id: int):
    task = db_session.query(Task).get(task_id)
    db_session.delete(task)
`;

describe('a check written as an abstract method the subclasses override', () => {
  it('an @abstractmethod with an empty body is no fake check: the call reaches the override', async () => {
    const abstract = '    @abstractmethod\n    def has_required_permissions(self, request: Request) -> bool: ...';
    expect(await labels({ 'app/permissions.py': permissions(abstract), 'app/tasks.py': taskRoute })).toEqual([]);
  });

  it('the same empty method without @abstractmethod, overridden nowhere it is called, still checks nothing', async () => {
    const inert = '    def has_required_permissions(self, request: Request) -> bool:\n        return True';
    const route = taskRoute.replace(/EditPermission/g, 'BasePermission');
    expect(await labels({ 'app/permissions.py': permissions(inert), 'app/tasks.py': route })).toEqual(['unguarded_path']);
  });
});

const exceptions = `from fastapi import HTTPException


class HTTP403Forbidden(HTTPException):
    def __init__(self, detail: str = "Access Forbidden"):
        super().__init__(status_code=403, detail=detail)


class HTTP404NotFound(HTTPException):
    def __init__(self, detail: str = "Not Found"):
        super().__init__(status_code=404, detail=detail)


class NotOwner(Exception):
    pass
`;

const itemRoute = (raised: string, body = '    db_session.delete(item)') => `from fastapi import APIRouter, Depends
from app import exc
from app.models import Item

router = APIRouter()


def require_admin(request):
    if not request.state.user.is_admin:
        raise exc.${raised}()


@router.delete(
    "/items/{item_id}",
    dependencies=[Depends(require_admin)],
)
def delete_item(db_session, item_id: int):
    item = db_session.query(Item).get(item_id)
${body}
`;

describe("a repository's own subclass of a framework's refusal", () => {
  it('raising a subclass of HTTPException that answers 403 under a role test refuses', async () => {
    expect(await labels({ 'app/exc.py': exceptions, 'app/items.py': itemRoute('HTTP403Forbidden') })).toEqual([]);
  });

  it('a subclass answering 404, or an exception no framework class is an ancestor of, refuses nothing', async () => {
    expect(await labels({ 'app/exc.py': exceptions, 'app/items.py': itemRoute('HTTP404NotFound') })).toEqual(['unguarded_path']);
    expect(await labels({ 'app/exc.py': exceptions, 'app/items.py': itemRoute('NotOwner') })).toEqual(['unguarded_path']);
  });
});

describe('a route decorator is no operation', () => {
  it('`@router.delete(...)` deletes nothing: the operation is the deletion in the body, reported at its line', async () => {
    const result = await proveChange({ root: '/repo', files: [{ path: 'app/exc.py', text: exceptions }, { path: 'app/items.py', text: itemRoute('NotOwner') }], touched: null, maxDepth: 3, fanOut: 25 });
    expect(result.findings.map((f) => [f.function, f.operation.call])).toEqual([['delete_item', 'db_session.delete(item)']]);
    const nothing = await proveChange({ root: '/repo', files: [{ path: 'app/exc.py', text: exceptions }, { path: 'app/items.py', text: itemRoute('NotOwner', '    return item') }], touched: null, maxDepth: 3, fanOut: 25 });
    expect(nothing.findings).toEqual([]);
  });
});

const surveyView = (test: string) => `from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from app.models import Survey


def has_config_permission(user, permission):
    return user.is_superuser or user.has_perm(permission)


def edit_survey(request, sid):
    survey = get_object_or_404(Survey, id=sid)
${test}
        raise PermissionDenied
    survey.delete()
`;

describe('a refusal whose `if` test runs over several lines', () => {
  it('a test continued with a backslash or inside parentheses is read whole', async () => {
    const backslash = '    if not has_config_permission(request.user, "app.add") and \\\n            not has_config_permission(request.user, "app.change"):';
    const parenthesised = '    if (\n        not has_config_permission(request.user, "app.add")\n        and not has_config_permission(request.user, "app.change")\n    ):';
    const urls = 'from django.urls import path\nfrom app import views\n\nurlpatterns = [path("s/<int:sid>/", views.edit_survey)]\n';
    expect(await labels({ 'app/views.py': surveyView(backslash), 'app/urls.py': urls })).toEqual([]);
    expect(await labels({ 'app/views.py': surveyView(parenthesised), 'app/urls.py': urls })).toEqual([]);
    const openCall = '    if not has_config_permission(\n        request.user, "app.change"\n    ):';
    expect(await labels({ 'app/views.py': surveyView(openCall), 'app/urls.py': urls })).toEqual([]);
  });

  it('a continued test that names no check refuses nothing', async () => {
    const urls = 'from django.urls import path\nfrom app import views\n\nurlpatterns = [path("s/<int:sid>/", views.edit_survey)]\n';
    expect(await labels({ 'app/views.py': surveyView('    if survey.closed and \\\n            survey.archived:'), 'app/urls.py': urls })).toEqual(['unguarded_path']);
    expect(await labels({ 'app/views.py': surveyView('    if survey.closed_at(\n        survey.deadline\n    ):'), 'app/urls.py': urls })).toEqual(['unguarded_path']);
  });
});

const mixins = (dispatch: string) => `from django.core.exceptions import PermissionDenied
from django.contrib.auth.mixins import AccessMixin


class ObjectPermissionRequiredMixin(AccessMixin):
    def has_permission(self):
        return self.request.user.has_perms(("app.delete_device",))

    def dispatch(self, request, *args, **kwargs):
${dispatch}
`;

const refusesFirst = '        if not self.has_permission():\n            return self.handle_no_permission()\n        return super().dispatch(request, *args, **kwargs)';

const deviceViews = (bases: string, own = '') => `from django.shortcuts import get_object_or_404
from django.views.generic import View
from app.mixins import ObjectPermissionRequiredMixin
from app.models import Device


class DeviceDeleteView(${bases}):
${own}    def post(self, request, pk):
        device = get_object_or_404(Device, pk=pk)
        device.delete()
`;

const deviceUrls = 'from django.urls import path\nfrom app import views\n\nurlpatterns = [path("d/<int:pk>/delete/", views.DeviceDeleteView.as_view())]\n';

describe("a Django mixin's dispatch() that refuses before handing on", () => {
  it('checks every handler of a view written with the mixin before View', async () => {
    expect(await labels({ 'app/mixins.py': mixins(refusesFirst), 'app/views.py': deviceViews('ObjectPermissionRequiredMixin, View'), 'app/urls.py': deviceUrls })).toEqual([]);
  });

  it('checks nothing when the mixin comes after View, refuses only after super().dispatch, or an override never hands on', async () => {
    expect(await labels({ 'app/mixins.py': mixins(refusesFirst), 'app/views.py': deviceViews('View, ObjectPermissionRequiredMixin'), 'app/urls.py': deviceUrls })).toEqual(['unguarded_path']);
    const late = '        response = super().dispatch(request, *args, **kwargs)\n        if not self.has_permission():\n            return self.handle_no_permission()\n        return response';
    expect(await labels({ 'app/mixins.py': mixins(late), 'app/views.py': deviceViews('ObjectPermissionRequiredMixin, View'), 'app/urls.py': deviceUrls })).toEqual(['unguarded_path']);
    const override = '    def dispatch(self, request, *args, **kwargs):\n        return View.dispatch(self, request, *args, **kwargs)\n\n';
    expect(await labels({ 'app/mixins.py': mixins(refusesFirst), 'app/views.py': deviceViews('ObjectPermissionRequiredMixin, View', override), 'app/urls.py': deviceUrls })).toEqual(['unguarded_path']);
  });
});

const policyMixin = `from django.core.exceptions import PermissionDenied


class PermissionCheckedMixin:
    permission_required = None

    def user_has_permission(self, permission):
        return self.request.user.has_perm(permission)

    def dispatch(self, request, *args, **kwargs):
        if self.permission_required is not None:
            if not self.user_has_permission(self.permission_required):
                raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)
`;

const reorderViews = (attribute: string) => `from django.shortcuts import get_object_or_404
from django.views.generic import View
from app.mixins import PermissionCheckedMixin
from app.models import Item


class ReorderView(PermissionCheckedMixin, View):
${attribute}
    def post(self, request, pk):
        item = get_object_or_404(Item, pk=pk)
        item.sort_order = int(request.POST["position"])
        item.save()
`;

const reorderUrls = 'from django.urls import path\nfrom app import views\n\nurlpatterns = [path("i/<int:pk>/move/", views.ReorderView.as_view())]\n';

describe("a mixin's dispatch() refusal behind a class attribute", () => {
  it('checks the views that set the attribute the refusal is gated by', async () => {
    expect(await labels({ 'app/mixins.py': policyMixin, 'app/views.py': reorderViews('    permission_required = "change"\n'), 'app/urls.py': reorderUrls })).toEqual([]);
  });

  it('checks nothing for a view that leaves it unset or sets it to None (the check is switched off)', async () => {
    expect(await labels({ 'app/mixins.py': policyMixin, 'app/views.py': reorderViews('    template_name = "move.html"\n'), 'app/urls.py': reorderUrls })).toEqual(['unguarded_path']);
    expect(await labels({ 'app/mixins.py': policyMixin, 'app/views.py': reorderViews('    permission_required = None\n'), 'app/urls.py': reorderUrls })).toEqual(['unguarded_path']);
  });
});
