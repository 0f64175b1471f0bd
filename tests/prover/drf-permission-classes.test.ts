/**
 * A project's own DRF permission class is read by what it tests, whatever its name: `has_permission`
 * testing the caller's group is a role check on every request, and `has_object_permission` testing the
 * object against the caller binds the object a viewset's inherited destroy() deletes. A class whose
 * tests let anyone through (`return True`, a request method, a header) proves nothing.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

const PERMISSIONS = `from rest_framework import permissions
from rest_framework.permissions import SAFE_METHODS
from .rules import wrote


class SignedIn(permissions.BasePermission):
    def has_permission(self, request, view):
        return request.user.is_authenticated


class Writer(SignedIn):
    def has_object_permission(self, request, view, obj):
        return obj.author == request.user


class Reader(SignedIn):
    def has_object_permission(self, request, view, obj):
        return request.user in obj.readers.all()


class WriterByRule(SignedIn):
    def has_object_permission(self, request, view, obj):
        return wrote(request.user, obj)


class Editors(permissions.BasePermission):
    def has_permission(self, request, view):
        return request.user.is_authenticated and request.user.groups.filter(name='editors').exists()


class Anyone(permissions.BasePermission):
    def has_permission(self, request, view):
        return True

    def has_object_permission(self, request, view, obj):
        return request.method in SAFE_METHODS


class WriterOrPublic(SignedIn):
    def has_object_permission(self, request, view, obj):
        return request.user.is_authenticated and (obj.public or obj.author == request.user)


class ClaimedWriter(SignedIn):
    def has_object_permission(self, request, view, obj):
        return obj.author_id == request.headers.get('X-Author')
`;

const RULES = `def wrote(user, note):
    if not user.is_authenticated:
        return False
    return note.author == user
`;

const MODELS = `from django.contrib.auth.models import User
from django.db import models


class Note(models.Model):
    author = models.ForeignKey(User, on_delete=models.CASCADE)
    readers = models.ManyToManyField(User, related_name='shared_notes')


class Membership(models.Model):
    user = models.ForeignKey(User, on_delete=models.CASCADE)
    active = models.BooleanField()
`;

const API = (classes: string) => `from rest_framework import viewsets
from .models import Note
from .permissions import Anyone, ClaimedWriter, Editors, Reader, SignedIn, Writer, WriterByRule, WriterOrPublic


class NoteViewSet(viewsets.ModelViewSet):
    queryset = Note.objects
    permission_classes = ${classes}

    def get_queryset(self):
        return self.queryset.all()
`;

const SWITCH = (classes: string) => `from django.shortcuts import redirect
from rest_framework.decorators import api_view, permission_classes
from .models import Membership
from .permissions import Anyone, Editors, SignedIn, Writer


def activate(user, membership_id):
    chosen = Membership.objects.get(pk=membership_id)
    chosen.active = True
    chosen.save()


@api_view(['POST'])
@permission_classes(${classes})
def switch_membership(request, membership_id):
    activate(request.user, membership_id)
    return redirect('home')
`;

const URLS = "from django.urls import path\nfrom . import views\n\nurlpatterns = [\n    path('switch/<int:membership_id>', views.switch_membership),\n]\n";

async function findings(files: Record<string, string>): Promise<string[]> {
  const all = { 'notes/permissions.py': PERMISSIONS, 'notes/rules.py': RULES, 'notes/models.py': MODELS, ...files };
  const result = await proveChange({ root: '/repo', files: Object.entries(all).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  return result.findings.map((f) => `${f.label} ${f.function}`).sort();
}

const viewset = (classes: string): Promise<string[]> => findings({ 'notes/api.py': API(classes) });
const functionView = (classes: string): Promise<string[]> => findings({ 'notes/views.py': SWITCH(classes), 'notes/urls.py': URLS });

describe('a project permission class on a viewset', () => {
  const unbound = ['resource_unbound NoteViewSet.destroy'];

  it('has_object_permission testing the object against the caller binds what destroy() deletes', async () => {
    expect(await viewset('[Writer]')).toEqual([]);
    expect(await viewset('[WriterByRule]')).toEqual([]);
    expect(await viewset('[(Writer | Reader) & SignedIn]')).toEqual([]);
  });

  it('a group test in has_permission is a role check on the view', async () => {
    expect(await viewset('[Editors]')).toEqual([]);
  });

  it('a login only, a test anyone passes, or an object compared with a header binds nothing', async () => {
    expect(await viewset('[SignedIn]')).toEqual(unbound);
    expect(await viewset('[Anyone]')).toEqual(unbound);
    expect(await viewset('[Writer | Anyone]')).toEqual(unbound);
    expect(await viewset('[ClaimedWriter]')).toEqual(unbound);
    expect(await viewset('[WriterOrPublic]')).toEqual(unbound);
  });
});

describe('a project permission class on a function view', () => {
  it('a group test, or a login, is read as such', async () => {
    expect(await functionView('[Editors]')).toEqual([]);
    expect(await functionView('[SignedIn]')).toEqual(['authn_only activate']);
  });

  it('has_object_permission covers no lookup of the view’s own: the login is all that is left', async () => {
    expect(await functionView('[Writer]')).toEqual(['authn_only activate']);
  });

  it('a class that lets anyone through leaves the write unguarded', async () => {
    expect(await functionView('[Anyone]')).toEqual(['unguarded_path activate']);
  });
});
