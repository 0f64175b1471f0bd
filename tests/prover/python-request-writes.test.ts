/**
 * Python record writes the held-out pools showed the prover did not name, proved end to end on fixtures
 * written for them: a SQLAlchemy session object named for what it is (`db_session.add(...)`, the
 * dependency-injected session of a FastAPI route), and a record updated by copying every field the
 * request names onto it (`for field in update_data: setattr(task, field, update_data[field])`).
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';
import { PERMISSIONS_DEPENDENCY } from './python-fixtures.js';

async function findings(files: Record<string, string>): Promise<string[]> {
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  return result.findings.map((f) => `${f.entry.function}>${f.function}:${f.operation.id}:${f.label}`).sort();
}

const permissions = `from fastapi import HTTPException, Request


class EditPermission:
    def __init__(self, request: Request):
        if request.state.user.role != "admin":
            raise HTTPException(status_code=403, detail="forbidden")


${PERMISSIONS_DEPENDENCY}`;

const auth = `from typing import Annotated
from fastapi import Depends, HTTPException, Request


def get_current_user(request: Request):
    user = request.state.user
    if not user:
        raise HTTPException(status_code=401, detail="login required")
    return user


CurrentUser = Annotated[dict, Depends(get_current_user)]
`;

/** A service module in the FastAPI layout: routes hand it the session and the request's model. */
const service = (update: string) => `from app.models import Note


def get(*, db_session, note_id: int):
    return db_session.query(Note).filter(Note.id == note_id).first()


def archive(*, db_session, note):
    note.archived = True
    db_session.add(note)
    db_session.commit()


def update(*, db_session, note, note_in):
${update}
    db_session.commit()
    return note


def create(*, db_session, note_in):
    note = Note(**note_in.dict())
    db_session.add(note)
    db_session.commit()
    return note
`;

const copyDump = `    update_data = note_in.dict(exclude_unset=True)
    for field in update_data.keys():
        setattr(note, field, update_data[field])`;

const views = (dependency: string) => `from fastapi import APIRouter, Depends
from app.auth import CurrentUser
from app.permissions import EditPermission, PermissionsDependency
from app.service import archive, create, get, update

router = APIRouter()


@router.post("/notes/{note_id}/archive"${dependency})
def archive_note(db_session, note_id: int, current_user: CurrentUser):
    note = get(db_session=db_session, note_id=note_id)
    archive(db_session=db_session, note=note)


@router.put("/notes/{note_id}"${dependency})
def update_note(db_session, note_id: int, note_in: NoteUpdate, current_user: CurrentUser):
    note = get(db_session=db_session, note_id=note_id)
    return update(db_session=db_session, note=note, note_in=note_in)


@router.post("/notes")
def create_note(db_session, note_in: NoteCreate, current_user: CurrentUser):
    return create(db_session=db_session, note_in=note_in)
`;

const app = (update: string, dependency: string) => ({ 'app/permissions.py': permissions, 'app/auth.py': auth, 'app/service.py': service(update), 'app/views.py': views(dependency) });
const guarded = ', dependencies=[Depends(PermissionsDependency([EditPermission]))]';

describe('SQLAlchemy session objects by name, and request fields copied onto a record (FastAPI)', () => {
  it("a looked-up record added to a route's `db_session`, and the request model's fields copied onto one, need a check", async () => {
    expect(await findings(app(copyDump, ''))).toEqual([
      'archive_note>archive:python.orm-session-add:authn_only',
      'update_note>update:python.request-mass-assignment:authn_only',
    ]);
  });

  it("the route's permission dependency discharges both; a record the request created is its own", async () => {
    expect(await findings(app(copyDump, guarded))).toEqual([]);
  });

  it('pydantic 2 dumps the same model with model_dump', async () => {
    expect(await findings(app(copyDump.replace('.dict(', '.model_dump('), ''))).toContain('update_note>update:python.request-mass-assignment:authn_only');
  });

  it('fields that do not come from the request, and one field named by a literal, are no mass assignment', async () => {
    const fromDefaults = '    defaults = {"archived": False}\n    for field in defaults:\n        setattr(note, field, defaults[field])';
    expect(await findings(app(fromDefaults, ''))).toEqual(['archive_note>archive:python.orm-session-add:authn_only']);
    const literal = '    update_data = note_in.dict(exclude_unset=True)\n    setattr(note, "title", update_data["title"])';
    expect(await findings(app(literal, ''))).toEqual(['archive_note>archive:python.orm-session-add:authn_only']);
  });

  it('a record built over several lines stays the one the request created when a keyword argument shares its name', async () => {
    const multiline = service(copyDump).replace('    note = Note(**note_in.dict())\n', '    note = Note(\n        title=note_in.title,\n        note=note_in.text\n    )\n');
    expect(await findings({ ...app(copyDump, ''), 'app/service.py': multiline })).toEqual([
      'archive_note>archive:python.orm-session-add:authn_only',
      'update_note>update:python.request-mass-assignment:authn_only',
    ]);
  });

  it('an object that is not a session adding to a set is no write', async () => {
    const tags = service(copyDump).replace('    db_session.add(note)\n', '    tag_set.add(note)\n');
    expect(await findings({ ...app(copyDump, ''), 'app/service.py': tags })).toEqual(['update_note>update:python.request-mass-assignment:authn_only']);
  });
});

describe('request fields copied onto a record (Tornado), and a user copied from a model dump', () => {
  const handler = (decorator: string, target: string) => `from tornado import web
from app.access import auth_or_token
from app.models import DBSession, Notification


class BulkNotificationHandler(web.RequestHandler):
${decorator}
    def patch(self):
        data = self.get_json()
        for notification in DBSession().query(Notification).all():
            for key in data:
                setattr(${target}, key, data[key])
        DBSession().commit()

    def __init__(self, **settings):
        for key in settings:
            setattr(self, key, settings[key])
`;
  const access = `import functools
from tornado import web


def auth_or_token(method):
    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        if not self.current_user:
            raise web.HTTPError(401)
        return method(self, *args, **kwargs)
    return wrapper
`;

  it('a handler with no login copying the JSON body onto stored records writes them unguarded; `setattr(self, ...)` is the object itself', async () => {
    expect(await findings({ 'app/access.py': access, 'app/handlers.py': handler('', 'notification') })).toEqual(['BulkNotificationHandler.patch>BulkNotificationHandler.patch:python.request-mass-assignment:unguarded_path']);
    expect(await findings({ 'app/access.py': access, 'app/handlers.py': handler('    @auth_or_token', 'notification') })).toEqual(['BulkNotificationHandler.patch>BulkNotificationHandler.patch:python.request-mass-assignment:authn_only']);
  });

  it("a user's fields copied from the JSON body stay a privilege grant; from a parameter's model dump they are the record write", async () => {
    const grant = handler('', 'user').replace('for notification in', 'for user in');
    expect(await findings({ 'app/access.py': access, 'app/handlers.py': grant })).toEqual(['BulkNotificationHandler.patch>BulkNotificationHandler.patch:python.privilege-grant:unguarded_path']);
    const dumped = app('    update_data = user_in.dict(exclude_unset=True)\n    for field in update_data:\n        setattr(user, field, update_data[field])', '');
    const asUser = { ...dumped, 'app/service.py': dumped['app/service.py'].replace('def update(*, db_session, note, note_in):', 'def update(*, db_session, note, note_in):\n    user, user_in = note, note_in') };
    expect(await findings(asUser)).toContain('update_note>update:python.request-mass-assignment:authn_only');
  });
});
