/**
 * Python shapes of part PY (ADR 0057), proved end to end on fixtures written for them: Tornado handlers
 * whose base class comes from a library outside the repository, known by the application's URL list;
 * SQLAlchemy session factories (`DBSession().delete(record)`); and a view decorator that calls the
 * view only inside its checks' branches, imported through a package's re-export.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

async function prove(files: Record<string, string>): Promise<{ entries: number; findings: string[] }> {
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  return { entries: result.coverage.entryPoints, findings: result.findings.map((f) => `${f.function} ${f.label}`).sort() };
}

const appServer = (registered: string) => `import tornado.web
from app.handlers import ${registered}

handlers = [
    (r"/api/notes(/[0-9]+)?", ${registered}),
]


def make_app(settings):
    return tornado.web.Application(handlers, **settings)
`;

const noteHandlers = (deleteDecorator: string) => `from outside.access import auth_or_token, permissions
from outside.handlers import BaseHandler as LibraryHandler
from app.models import DBSession, Note


class BaseHandler(LibraryHandler):
    def success(self, data=None):
        self.finish({"status": "success", "data": data})


class NoteHandler(BaseHandler):
    @auth_or_token
    def get(self, note_id):
        return self.success(Note.query.get(note_id))

${deleteDecorator}
    def delete(self, note_id):
        note = Note.query.get(note_id)
        DBSession().delete(note)
        DBSession().commit()
        return self.success()
`;

describe('Tornado handlers the URL list registers', () => {
  it('reads a registered handler of a library base: a delete with a login only is reported', async () => {
    const { entries, findings } = await prove({ 'app/app_server.py': appServer('NoteHandler'), 'app/handlers.py': noteHandlers('    @auth_or_token') });
    expect(entries).toBe(2);
    expect(findings).toEqual(['NoteHandler.delete authn_only']);
  });

  it('settles the delete with an ACL decorator', async () => {
    const { findings } = await prove({ 'app/app_server.py': appServer('NoteHandler'), 'app/handlers.py': noteHandlers('    @permissions(["Manage notes"])') });
    expect(findings).toEqual([]);
  });

  it('reports the unchecked delete of a handler whose get logs in', async () => {
    const { findings } = await prove({ 'app/app_server.py': appServer('NoteHandler'), 'app/handlers.py': noteHandlers('') });
    expect(findings).toEqual(['NoteHandler.delete unguarded_path']);
  });

  it('settles a delete of a row selected through the access control for deletion, not for reading', async () => {
    const scoped = (mode: string) => noteHandlers('    @auth_or_token').replace('        note = Note.query.get(note_id)', `        note = DBSession().scalar(Note.select(session.user_or_token, mode="${mode}").where(Note.id == note_id))`);
    expect((await prove({ 'app/app_server.py': appServer('NoteHandler'), 'app/handlers.py': scoped('delete') })).findings).toEqual([]);
    expect((await prove({ 'app/app_server.py': appServer('NoteHandler'), 'app/handlers.py': scoped('read') })).findings).toEqual(['NoteHandler.delete authn_only']);
  });

  it('makes no entry of a class no URL list names', async () => {
    const { entries } = await prove({ 'app/app_server.py': appServer('OtherHandler').replace('from app.handlers import OtherHandler', 'from app.other import OtherHandler'), 'app/handlers.py': noteHandlers('') });
    expect(entries).toBe(0);
  });
});

const permissionsPackage = `from app.permissions.base import allow_role, ROLE
`;

const permissionsBase = `from functools import wraps
from rest_framework import status
from rest_framework.response import Response
from app.models import Member


class ROLE:
    ADMIN = 20
    MEMBER = 15


def allow_role(allowed_roles, creator=False, model=None):
    def decorator(view_func):
        @wraps(view_func)
        def _wrapped_view(instance, request, *args, **kwargs):
            if creator and model:
                mine = model.objects.filter(id=kwargs["pk"], created_by=request.user).exists()
                if mine:
                    return view_func(instance, request, *args, **kwargs)
            if Member.objects.filter(
                member=request.user,
                team__slug=kwargs["slug"],
                role__in=allowed_roles,
            ).exists():
                return view_func(instance, request, *args, **kwargs)
            return Response(status=status.HTTP_403_FORBIDDEN)

        return _wrapped_view

    return decorator
`;

const boardView = (decorator: string) => `from rest_framework.views import APIView
from rest_framework.response import Response
from app.models import Board
from app.permissions import allow_role, ROLE


class BoardEndpoint(APIView):
${decorator}
    def delete(self, request, slug, pk):
        board = Board.objects.get(pk=pk, team__slug=slug)
        board.is_deleted = True
        board.save()
        return Response(status=204)
`;

const drfSettings = `REST_FRAMEWORK = {
    "DEFAULT_PERMISSION_CLASSES": ("rest_framework.permissions.IsAuthenticated",),
}
`;

describe('a view decorator that calls the view only inside its checks', () => {
  const files = (decorator: string, base = permissionsBase) => ({ 'app/settings.py': drfSettings, 'app/permissions/__init__.py': permissionsPackage, 'app/permissions/base.py': base, 'app/views.py': boardView(decorator) });

  it('settles the delete when every call of the view is behind a role or the creator test', async () => {
    expect((await prove(files('    @allow_role([ROLE.ADMIN, ROLE.MEMBER])'))).findings).toEqual([]);
  });

  it('finds the decorator inside the package when the re-exporting __init__.py is not read', async () => {
    const unread = files('    @allow_role([ROLE.ADMIN, ROLE.MEMBER])');
    const { ['app/permissions/__init__.py']: _unread, ...rest } = unread;
    const twin = { 'other/permissions.py': permissionsBase.replace('role__in=allowed_roles', 'team__public=True') };
    expect((await prove({ ...rest, ...twin })).findings).toEqual([]);
  });

  it('reports the delete without the decorator', async () => {
    expect((await prove(files(''))).findings).toEqual(['BoardEndpoint.delete authn_only']);
  });

  it('proves nothing when one call of the view is ungated', async () => {
    const leaky = permissionsBase.replace('            return Response(status=status.HTTP_403_FORBIDDEN)', '            if request.method == "GET":\n                return view_func(instance, request, *args, **kwargs)\n            return view_func(instance, request, *args, **kwargs)');
    expect((await prove(files('    @allow_role([ROLE.ADMIN, ROLE.MEMBER])', leaky))).findings).toEqual(['BoardEndpoint.delete authn_only']);
  });
});
