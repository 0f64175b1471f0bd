/**
 * SQLAlchemy writes through a model's own methods (`save_to_db()` around `db.session.add(self)`), proved
 * end to end: a record the request looked up by id is anybody's, one it built (in place, or by a
 * classmethod's `cls(**attrs)`) is its own, also as `self` inside the method it calls on it.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

async function findings(files: Record<string, string>): Promise<string[]> {
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  return result.findings.map((f) => `${f.entry.function}>${f.function}:${f.operation.id}`).sort();
}

const models = `from db import db

class TicketModel(db.Model):
    @classmethod
    def find_by_id(cls, id):
        return cls.query.filter_by(id=id).first()

    @classmethod
    def create(cls, attrs):
        ticket = cls(**attrs)
        ticket.save_to_db()
        return ticket

    def save_to_db(self):
        db.session.add(self)
        db.session.commit()
`;

const resources = (decorator: string) => `from flask import request
from flask_restful import Resource
from models.tickets import TicketModel
from resources.admin_required import admin_required

class Ticket(Resource):
    ${decorator}
    def put(self, id):
        ticket = TicketModel.find_by_id(id)
        ticket.status = request.json["status"]
        ticket.save_to_db()

class Tickets(Resource):
    def post(self):
        ticket = TicketModel(issue=request.json["issue"])
        ticket.save_to_db()
        return {}, 201

class TicketImport(Resource):
    def post(self):
        TicketModel.create(request.json)
        return {}, 201
`;

const adminRequired = `from flask_jwt_extended import jwt_required, get_jwt_claims

def admin_required(func):
    @jwt_required
    def wrapper(*args, **kwargs):
        if not get_jwt_claims()["is_admin"]:
            return {"message": "Admin Access Required"}, 401
        return func(*args, **kwargs)
    return wrapper
`;

describe('SQLAlchemy session writes through model methods', () => {
  it('updating a record looked up by id is a finding; an admin decorator discharges it; records the request built are its own', async () => {
    const files = { 'models/tickets.py': models, 'resources/admin_required.py': adminRequired };
    expect(await findings({ ...files, 'resources/tickets.py': resources('') })).toEqual(['Ticket.put>TicketModel.save_to_db:python.orm-session-add']);
    expect(await findings({ ...files, 'resources/tickets.py': resources('@admin_required') })).toEqual([]);
  });

  it('an object the method only derives from self is not self: a form built with the user saving another record still needs a check', async () => {
    const forms = `from django import forms
from .models import Bookmark

class BookmarkForm(forms.ModelForm):
    def save(self):
        bookmark = super(BookmarkForm, self).save(commit=False)
        bookmark.user = self.user
        bookmark.save()
        return bookmark
`;
    const views = `from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404
from .forms import BookmarkForm
from .models import Bookmark

@login_required
def edit_bookmark(request, id):
    bookmark = get_object_or_404(Bookmark, id=id)
    form = BookmarkForm(user=request.user, data=request.POST, instance=bookmark)
    form.save()
`;
    const urls = "from django.urls import path\nfrom . import views\n\nurlpatterns = [path('b/<int:id>/', views.edit_bookmark)]\n";
    const bookmark = 'from django.db import models\n\nclass Bookmark(models.Model):\n    url = models.CharField(max_length=255)\n';
    expect(await findings({ 'menu/forms.py': forms, 'menu/views.py': views, 'menu/urls.py': urls, 'menu/models.py': bookmark })).toEqual(['edit_bookmark>BookmarkForm.save:python.orm-save']);
  });
});
