/**
 * Writes the caller owns by construction in a Remix app: a query whose `where` criterion is the id the
 * signed session cookie names, handed through helper parameters and locals; a visitor id read through
 * the app's own session helper; a record the request just created, handed to a job started with
 * `void`. Each has a twin whose key comes from the request (params, the form, the query string), or
 * whose criterion lets other rows through, and stays a finding.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';
import { remixRoute } from '../../src/prover/recognisers/remix.js';

async function findings(files: Record<string, string>): Promise<string[]> {
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.operationsChecked).toBeGreaterThan(0);
  return result.findings.map((f) => `${f.entry.function}:${f.operation.id}:${f.label}`);
}

/** At least one finding, and every one of the expected kind. */
function expectReported(found: string[], prefix: string, name: string): void {
  expect(found.length, name).toBeGreaterThan(0);
  expect(found.every((f) => f.startsWith(prefix)), name).toBe(true);
}

/** The findings of each named case, the files built from its text. */
async function findingsOfEach(cases: Record<string, string>, filesFor: (text: string) => Record<string, string>): Promise<[string, string[]][]> {
  const out: [string, string[]][] = [];
  for (const [name, text] of Object.entries(cases)) out.push([name, await findings(filesFor(text))]);
  return out;
}

const sessionModule = `import { createCookieSessionStorage } from '@remix-run/node'
import { prisma } from '~/utils/prisma.server'
const storage = createCookieSessionStorage({ cookie: { name: 'sid', secrets: ['s'] } })

export async function touchSession(sessionId: string) {
  const row = await prisma.session.findUnique({ where: { id: sessionId } })
  if (!row) throw new Error('gone')
  if (Date.now() > row.expiresAt.getTime()) {
    await prisma.session.delete({ where: { id: sessionId } })
    throw new Error('expired')
  }
  await prisma.session.update({
    data: { expiresAt: new Date(Date.now() + 1000) },
    where: { id: sessionId },
  })
  return row
}
`;

const route = (body: string): string => `import { redirect } from '@remix-run/node'
import { getSession } from '~/utils/session.server'
import { touchSession } from '~/utils/sessions.server'

export async function loader({ request, params }) {
  const url = new URL(request.url)
${body}
  return redirect('/')
}
`;

describe('a write scoped by the id the caller’s signed session names', () => {
  it('the session id read from the session, handed through a helper parameter, scopes the delete and update', async () => {
    const files = {
      'app/utils/sessions.server.ts': sessionModule,
      'app/routes/home.tsx': route("  const session = await getSession(request)\n  const sessionId = session.get('sessionId')\n  await touchSession(sessionId)"),
    };
    expect(await findings(files)).toEqual([]);
  });

  it('the same helper given an id from the route params, the query string or the form: reported', async () => {
    const cases = {
      params: '  await touchSession(params.sessionId)',
      query: "  const sessionId = url.searchParams.get('sid')\n  await touchSession(sessionId)",
      form: "  const form = await request.formData()\n  await touchSession(String(form.get('sid')))",
      'the session’s, or else the params’': "  const session = await getSession(request)\n  await touchSession(session.get('sessionId') ?? params.sessionId)",
    };
    const files = (body: string): Record<string, string> => ({ 'app/utils/sessions.server.ts': sessionModule, 'app/routes/home.tsx': route(body) });
    for (const [name, found] of await findingsOfEach(cases, files)) expect(found, name).toEqual(['loader:ts.orm-deletion:unguarded_path', 'loader:ts.orm-update:unguarded_path']);
  });

  it('a where that an OR, a NOT or a later spread of the request can widen is no scope', async () => {
    const cases = {
      or: "where: { OR: [{ id: sessionId }, { id: params.other }] }",
      not: 'where: { NOT: { id: sessionId } }',
      spread: 'where: { id: sessionId, ...(await request.json()) }',
    };
    const body = (where: string): string => `  const session = await getSession(request)\n  const sessionId = session.get('sessionId')\n  await prisma.session.deleteMany({ ${where} })`;
    const files = (where: string): Record<string, string> => ({ 'app/routes/home.tsx': route(body(where)).replace("import { touchSession } from '~/utils/sessions.server'", "import { prisma } from '~/utils/prisma.server'") });
    for (const [name, found] of await findingsOfEach(cases, files)) expect(found, name).toEqual(['loader:ts.orm-deletion:unguarded_path']);
  });
});

describe('an imported helper is the module’s own declaration', () => {
  it('a call of an imported getUser reaches the top-level function, not a same-name method of an object another function returns', async () => {
    const files = {
      'app/utils/session.server.ts': `import { prisma } from '~/utils/prisma.server'
export async function getSession(request: Request) {
  return {
    getUser: async (id: string) => prisma.session.delete({ where: { id } }),
  }
}
export async function getUser(request: Request) {
  return null
}
`,
      'app/routes/notes.tsx': `import { getUser, requireUser } from '~/utils/session.server'
import { prisma } from '~/utils/prisma.server'
export async function action({ request }) {
  await getUser(request)
  const user = await requireUser(request)
  await prisma.note.deleteMany({ where: { userId: user.id } })
  return null
}
`,
    };
    expect(await findings(files)).toEqual([]);
  });
});

describe('a query is scoped by the logged-in user only through its where criterion', () => {
  const noteRoute = (write: string): Record<string, string> => ({
    'app/routes/notes.$id.tsx': `import { redirect } from '@remix-run/node'
import { requireUser } from '~/utils/session.server'
import { prisma } from '~/utils/prisma.server'

export async function action({ request, params }) {
  const user = await requireUser(request)
  ${write}
  return redirect('/notes')
}
`,
  });

  it('where the user id is the logged-in user’s, the write is theirs', async () => {
    expect(await findings(noteRoute('await prisma.note.deleteMany({ where: { id: params.id, userId: user.id } })'))).toEqual([]);
  });

  it('a user id from the params, or the user named only in the data written, is no scope', async () => {
    for (const userId of ['params.userId', 'user.id || params.userId', 'String(params.userId ?? user.id)']) expect(await findings(noteRoute(`await prisma.note.deleteMany({ where: { id: params.id, userId: ${userId} } })`)), userId).toEqual(['action:ts.orm-deletion:authn_only']);
    expect(await findings(noteRoute('await prisma.note.update({ where: { id: params.id }, data: { userId: user.id } })'))).toEqual(['action:ts.orm-update:authn_only']);
  });
});

/** The app's own helper over a second signed cookie (an anonymous visitor id), and a store keyed by the owner. */
const visitorModule = `import { createCookieSessionStorage } from '@remix-run/node'
import * as uuid from 'uuid'
const visitorStorage = createCookieSessionStorage({ cookie: { name: 'visitor', secrets: ['s'] } })

export async function getVisitorSession(request: Request) {
  const session = await visitorStorage.getSession(request.headers.get('Cookie'))
  function getVisitorId() {
    const id = session.get('visitorId')
    if (typeof id === 'string') return id
    return uuid.v4()
  }
  return {
    getVisitorId,
    commit: async () => visitorStorage.commitSession(session),
  }
}
`;

const marksModule = `import { prisma } from '~/utils/prisma.server'

async function upsertMark({ userId, visitorId, item }: { userId?: string; visitorId?: string; item: number }) {
  const where = {
    item,
    ...(userId ? { userId } : { visitorId: visitorId as string }),
  }
  const existing = await prisma.mark.findFirst({ where })
  if (existing) {
    await prisma.mark.update({ where: { id: existing.id }, data: { seen: new Date() } })
    return existing
  }
  return null
}

export async function setMark({ item, userId, visitorId }: { item: number; userId?: string; visitorId?: string }) {
  const ownerWhere = userId ? { userId } : { visitorId: visitorId as string }
  const compositeWhere = { ...ownerWhere, item }
  await upsertMark(compositeWhere)
  await prisma.mark.deleteMany({ where: compositeWhere })
}
`;

const marksRoute = (body: string): string => `import { json } from '@remix-run/node'
import { getUser } from '~/utils/session.server'
import { getVisitorSession } from '~/utils/visitor.server'
import { setMark } from '~/utils/marks.server'

export async function action({ request, params }) {
  const form = await request.formData()
  const item = Number(form.get('item'))
${body}
  return json({ ok: true })
}
`;

describe('a visitor’s own records, through the app’s session helpers and helper parameters', () => {
  it('the signed-in user from getUser(request), or the visitor id of the app’s own cookie helper, scopes every write', async () => {
    const body = `  const user = await getUser(request)
  const visitor = await getVisitorSession(request)
  const visitorId = visitor.getVisitorId()
  if (user) {
    await setMark({ item, userId: user.id })
  } else {
    await setMark({ item, visitorId })
  }`;
    const files = { 'app/utils/visitor.server.ts': visitorModule, 'app/utils/marks.server.ts': marksModule, 'app/routes/marks.tsx': marksRoute(body) };
    expect(await findings(files)).toEqual([]);
  });

  it('an owner key from the form, the params, or a request value next to the session’s: reported', async () => {
    const cases = {
      'visitor id from the form': "  await setMark({ item, visitorId: String(form.get('visitorId')) })",
      'user id from the params': '  await setMark({ item, userId: params.userId })',
      'the user’s id, or else the form’s': "  const user = await getUser(request)\n  await setMark({ item, userId: user?.id ?? String(form.get('userId')) })",
      'both keys, one from the request': "  const visitor = await getVisitorSession(request)\n  await setMark({ item, userId: String(form.get('userId')), visitorId: visitor.getVisitorId() })",
    };
    const files = (body: string): Record<string, string> => ({ 'app/utils/visitor.server.ts': visitorModule, 'app/utils/marks.server.ts': marksModule, 'app/routes/marks.tsx': marksRoute(body) });
    for (const [name, found] of await findingsOfEach(cases, files)) expectReported(found, 'action:ts.orm-', name);
  });

  it('a helper that reads the session but hands back a record the request chose is not the caller’s', async () => {
    const leaky = visitorModule.replace("    commit: async () => visitorStorage.commitSession(session),", "    mark: await prisma.mark.findFirst({ where: { id: new URL(request.url).searchParams.get('mark') } }),").replace("import * as uuid from 'uuid'", "import * as uuid from 'uuid'\nimport { prisma } from '~/utils/prisma.server'");
    const body = '  const { mark } = await getVisitorSession(request)\n  await prisma.mark.delete({ where: { id: mark.id } })';
    const files = { 'app/utils/visitor.server.ts': leaky, 'app/routes/marks.tsx': marksRoute(body).replace("import { setMark } from '~/utils/marks.server'", "import { prisma } from '~/utils/prisma.server'") };
    expect(await findings(files)).toEqual(['action:ts.orm-deletion:unguarded_path']);
  });
});

const jobModule = `import { prisma } from '~/utils/prisma.server'

export async function startTranscript(callId: string) {
  try {
    const started = await prisma.call.updateMany({ where: { id: callId, status: { not: 'RUNNING' } }, data: { status: 'RUNNING' } })
    if (started.count !== 1) return
    await prisma.call.updateMany({ where: { id: callId }, data: { status: 'READY' } })
  } catch (error) {
    await prisma.call.updateMany({ where: { id: callId }, data: { status: 'ERROR' } })
  }
}
`;

const jobRoute = (body: string): string => `import { redirect } from '@remix-run/node'
import { requireUser, requireAdminUser } from '~/utils/session.server'
import { prisma } from '~/utils/prisma.server'
import { startTranscript } from '~/utils/transcript.server'

export async function action({ request, params }) {
  const form = await request.formData()
${body}
  return redirect('/calls')
}
`;

const jobFiles = (body: string): Record<string, string> => ({ 'app/utils/transcript.server.ts': jobModule, 'app/routes/calls.tsx': jobRoute(body) });

describe('an asynchronous job started from an action', () => {
  it('a job started with void for the record the request just created, or after an admin check, is covered', async () => {
    const cases = {
      created: "  const user = await requireUser(request)\n  const created = await prisma.call.create({ data: { userId: user.id, title: String(form.get('title')) } })\n  void startTranscript(created.id)",
      admin: "  await requireAdminUser(request)\n  void startTranscript(String(form.get('callId')))",
      'admin, then a callback': "  await requireAdminUser(request)\n  setTimeout(() => void startTranscript(String(form.get('callId'))), 0)",
    };
    for (const [name, found] of await findingsOfEach(cases, jobFiles)) expect(found, name).toEqual([]);
  });

  it('a job started for a record the form names, with only a login or with a check after it, is reported', async () => {
    const cases = {
      'login only': "  await requireUser(request)\n  void startTranscript(String(form.get('callId')))",
      'callback, no check': "  setTimeout(() => void startTranscript(params.callId), 0)",
      'check after the start': "  void startTranscript(params.callId)\n  await requireAdminUser(request)",
    };
    for (const [name, found] of await findingsOfEach(cases, jobFiles)) expectReported(found, 'action:ts.orm-update:', name);
  });
});

describe('Remix authentication routes', () => {
  it('the URL of a route module comes from its flat-routes name', () => {
    expect(remixRoute('app/routes/login.tsx')).toBe('login');
    expect(remixRoute('services/site/app/routes/_auth.reset-password.tsx')).toBe('reset-password');
    expect(remixRoute('app/routes/users.$id_.edit.tsx')).toBe('users/$id/edit');
    expect(remixRoute('app/routes/auth.github.callback/route.tsx')).toBe('auth/github/callback');
    expect(remixRoute('app/routes/resources/marks.tsx')).toBe('resources/marks');
    expect(remixRoute('app/routes/_index.tsx')).toBe('');
  });

  const signIn = `import { redirect } from '@remix-run/node'
import bcrypt from 'bcryptjs'
import { prisma } from '~/utils/prisma.server'

export async function action({ request }) {
  const form = await request.formData()
  const user = await prisma.user.findFirst({ where: { email: String(form.get('email')) } })
  if (!user || !(await bcrypt.compare(String(form.get('password')), user.hash))) return redirect('/login')
  await prisma.mark.updateMany({ where: { visitorId: String(form.get('visitorId')) }, data: { userId: user.id } })
  return redirect('/me')
}
`;

  it('a login or sign-up action writing the account’s data is the flow’s purpose; the same write in another route is reported', async () => {
    expect(await findings({ 'app/routes/login.tsx': signIn })).toEqual([]);
    expect(await findings({ 'app/routes/_auth.signup.tsx': signIn })).toEqual([]);
    expect(await findings({ 'app/routes/marks.claim.tsx': signIn })).toEqual(['action:ts.orm-update:authn_only']);
    expect(await findings({ 'app/routes/login-history.tsx': signIn })).toEqual(['action:ts.orm-update:authn_only']);
  });
});
