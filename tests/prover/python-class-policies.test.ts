/**
 * Checks a Python view class declares for its handlers away from the handler, proved end to end:
 * Flask-RESTful `method_decorators` (a list, or a dict by verb) and MethodView `decorators`, and DRF's
 * per-action permissions (`@action(permission_classes=...)`, `get_permissions()` by `self.action`).
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';
import { DECORATORS } from './python-fixtures.js';

async function labels(files: Record<string, string>): Promise<string[]> {
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.operationsChecked).toBeGreaterThan(0);
  return result.findings.map((f) => `${f.function}:${f.label}`).sort();
}

const resource = (attribute: string) => `from flask_restful import Resource
from flask_login import login_required
from app.decorators import admins_only
from app.models import db, Ticket

class TicketItem(Resource):
${attribute}
    def delete(self, tid):
        ticket = Ticket.query.get(tid)
        db.session.delete(ticket)

    def put(self, tid):
        Ticket.query.filter_by(id=tid).update({"closed": True})
`;

describe('Flask-RESTful method_decorators and MethodView decorators', () => {
  it('a list covers every verb: a role decorator discharges, a login decorator is a login only, none checks nothing', async () => {
    expect(await labels({ 'app/decorators.py': DECORATORS, 'app/tickets.py': resource('    method_decorators = [admins_only]') })).toEqual([]);
    expect(await labels({ 'app/decorators.py': DECORATORS, 'app/tickets.py': resource('    method_decorators = [login_required]') })).toEqual(['TicketItem.delete:authn_only', 'TicketItem.put:authn_only']);
    expect(await labels({ 'app/decorators.py': DECORATORS, 'app/tickets.py': resource('    schema = None') })).toEqual(['TicketItem.delete:unguarded_path', 'TicketItem.put:unguarded_path']);
  });

  it('a dict covers only the verbs it names', async () => {
    expect(await labels({ 'app/decorators.py': DECORATORS, 'app/tickets.py': resource("    method_decorators = {'delete': [admins_only]}") })).toEqual(['TicketItem.put:unguarded_path']);
  });

  it("a base class's decorators cover its subclasses' verbs; MethodView's decorators attribute too", async () => {
    const base = `from flask.views import MethodView
from app.decorators import admins_only

class AdminView(MethodView):
    decorators = [admins_only]
`;
    const view = `from app.base import AdminView
from app.models import db, Ticket

class TicketPurge(AdminView):
    def post(self):
        Ticket.query.filter_by(closed=True).delete()
`;
    expect(await labels({ 'app/decorators.py': DECORATORS, 'app/base.py': base, 'app/purge.py': view })).toEqual([]);
    expect(await labels({ 'app/decorators.py': DECORATORS, 'app/base.py': base.replace('    decorators = [admins_only]', '    pass'), 'app/purge.py': view })).toEqual(['TicketPurge.post:unguarded_path']);
  });
});

const djangoModels = `from django.db import models

class Invoice(models.Model):
    number = models.CharField(max_length=20)
`;

const viewset = (permissions: string) => `from rest_framework import viewsets
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny, IsAdminUser, IsAuthenticated
from .models import Invoice

class InvoiceViewSet(viewsets.ModelViewSet):
    permission_classes = [IsAuthenticated]
${permissions}
    def destroy(self, request, pk=None):
        Invoice.objects.filter(pk=pk).delete()

    def update(self, request, pk=None):
        Invoice.objects.filter(pk=pk).update(number=request.data["number"])
`;

describe('DRF per-action permissions', () => {
  it('get_permissions by self.action: the branch naming the action decides, else the else branch', async () => {
    const picked = `    def get_permissions(self):
        if self.action in ("destroy", "partial_update"):
            return [IsAdminUser()]
        else:
            return [IsAuthenticated()]
`;
    expect(await labels({ 'app/models.py': djangoModels, 'app/views.py': viewset(picked) })).toEqual(['InvoiceViewSet.update:authn_only']);
    const assigned = picked.replace('return [IsAdminUser()]', 'permission_classes = [IsAdminUser]').replace('return [IsAuthenticated()]', 'permission_classes = [IsAuthenticated]') + '        return [p() for p in permission_classes]\n';
    expect(await labels({ 'app/models.py': djangoModels, 'app/views.py': viewset(assigned) })).toEqual(['InvoiceViewSet.update:authn_only']);
  });

  it('an override that negates the action or defers to super() leaves the class attribute in charge', async () => {
    const negated = `    def get_permissions(self):
        if self.action not in ("list", "retrieve"):
            return [AllowAny()]
        return [IsAdminUser()]
`;
    expect(await labels({ 'app/models.py': djangoModels, 'app/views.py': viewset(negated) })).toEqual(['InvoiceViewSet.destroy:authn_only', 'InvoiceViewSet.update:authn_only']);
    const deferred = `    def get_permissions(self):
        if self.action == "destroy":
            return super().get_permissions()
        return [IsAdminUser()]
`;
    expect(await labels({ 'app/models.py': djangoModels, 'app/views.py': viewset(deferred) })).toEqual(['InvoiceViewSet.destroy:authn_only', 'InvoiceViewSet.update:authn_only']);
  });

  it("@action(permission_classes=...) on an extra action wins over the class's", async () => {
    const extra = (classes: string) => `    @action(detail=True, methods=["post"], permission_classes=${classes})
    def purge(self, request, pk=None):
        Invoice.objects.filter(pk=pk).delete()
`;
    const only = (text: string) => text.replace(/\n    def destroy[\s\S]*$/, '\n');
    expect(await labels({ 'app/models.py': djangoModels, 'app/views.py': only(viewset(extra('[IsAdminUser]'))) })).toEqual([]);
    expect(await labels({ 'app/models.py': djangoModels, 'app/views.py': only(viewset(extra('[IsAuthenticated]'))) })).toEqual(['InvoiceViewSet.purge:authn_only']);
  });
});
