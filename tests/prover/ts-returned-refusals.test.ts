/**
 * A Next.js API route whose controller refuses by returning a value (`if (note?.ownerId !==
 * userId) return { response: 'Permission denied.', status: 401 }`) that the route sends as
 * `res.status(result.status)`. The controller stops there, so its write runs only for the owner: the
 * test, not the status, says what was checked. Twins that stay findings: a returned success or a value
 * without a status, a test that names no caller, a test narrowed by another condition, a refusal after
 * the write, a 404 under a null test, and a helper whose returned refusal its caller ignores.
 */
import { describe, expect, it } from 'vitest';
import { proverLabels as labels } from '../helpers/prover-labels.js';

/** The controller: finds the note by the id the request chose, then `guard`, then deletes it. */
const controller = (guard: string, after = ''): string => `import { prisma } from "@/lib/prisma";
export default async function removeNote(userId: number, noteId: number) {
  const note = await prisma.note.findUnique({ where: { id: noteId } });
${guard}
  const removed = await prisma.note.delete({ where: { id: noteId } });
${after}
  return { response: removed, status: 200 };
}
`;

const route = `import { getServerSession } from "next-auth";
import removeNote from "@/lib/removeNote";
export default async function handler(req, res) {
  const session = await getServerSession(req, res);
  if (!session) return res.status(401).json({ response: "Sign in." });
  const result = await removeNote(session.user.id, Number(req.query.id));
  return res.status(result.status).json({ response: result.response });
}
`;

const app = (removeNote: string): Record<string, string> => ({
  'lib/prisma.ts': 'export const prisma = {} as any;\n',
  'lib/removeNote.ts': removeNote,
  'pages/api/notes/[id].ts': route,
});

const UNCHECKED = ['authn_only:lib/removeNote.ts:5'];

describe('a refusal a TypeScript function returns as a value', () => {
  it('without a test the write is a finding', async () => {
    expect(await labels(app(controller('')))).toEqual(UNCHECKED);
  });

  it('an owner id compared with the caller\'s, answered by a returned 401/403, is an ownership check', async () => {
    for (const guard of [
      '  if (note?.ownerId !== userId)\n    return {\n      response: "Permission denied.",\n      status: 401,\n    };',
      '  if (note?.ownerId !== userId) return { response: "Permission denied.", status: 403 }',
      '  if (userId != note.ownerId) {\n    return { status: 403, response: { error: "not yours" } }\n  }',
      '  if (!(note?.ownerId === userId || isShared)) return { response: "No access.", status: 401 };',
      '  if (note?.ownerId !== userId && !isShared)\n    return {\n      response: "No access.",\n      status: 401\n    }',
      '  if (note?.ownerId !== userId) return { response: "Not found.", status: 404 };',
    ]) {
      const text = controller(guard).replace('  const note', '  const isShared = await prisma.share.count({ where: { noteId, userId } }) > 0;\n  const note');
      expect(await labels(app(text)), guard).toEqual([]);
    }
  });

  it('a role test answered by a returned 403 is a permission check', async () => {
    const guard = '  const actor = await prisma.user.findUnique({ where: { id: userId } });\n  if (actor?.role !== "ADMIN") return { response: "Admins only.", status: 403 };';
    expect(await labels(app(controller(guard)))).toEqual([]);
  });

  it('a returned success, a value without a status, or a test that names no caller checks nothing', async () => {
    for (const guard of [
      '  if (note?.ownerId !== userId) return { response: "Skipped.", status: 200 };',
      '  if (note?.ownerId !== userId) return { response: "Permission denied." };',
      '  if (!noteId) return { response: "Choose a note.", status: 401 };',
      '  if (!note) return { response: "Not found.", status: 404 };',
      '  if (note?.ownerId !== userId && note.locked) return { response: "Locked.", status: 403 };',
    ]) {
      expect(await labels(app(controller(guard))), guard).toEqual(UNCHECKED);
    }
  });

  it('a refusal returned after the write does not guard it', async () => {
    const late = controller('', '  if (note?.ownerId !== userId) return { response: "Permission denied.", status: 403 };');
    expect(await labels(app(late))).toEqual(UNCHECKED);
  });

  it('a helper that returns a refusal guards nothing in a caller that ignores it', async () => {
    const files = {
      ...app(`import { prisma } from "@/lib/prisma";
import ownNote from "@/lib/ownNote";
export default async function removeNote(userId: number, noteId: number) {
  await ownNote(userId, noteId);
  const removed = await prisma.note.delete({ where: { id: noteId } });
  return { response: removed, status: 200 };
}
`),
      'lib/ownNote.ts': `import { prisma } from "@/lib/prisma";
export default async function ownNote(userId: number, noteId: number) {
  const note = await prisma.note.findUnique({ where: { id: noteId } });
  if (note?.ownerId !== userId) return { response: "Permission denied.", status: 403 };
  return null;
}
`,
    };
    expect(await labels(files)).toEqual(UNCHECKED);
  });

  /** A route that deletes the note itself after `guard`. */
  const ownRoute = (guard: string): Record<string, string> => ({
    'lib/prisma.ts': 'export const prisma = {} as any;\n',
    'pages/api/notes/[id].ts': `import { getServerSession } from "next-auth";
import { prisma } from "@/lib/prisma";
export default async function handler(req, res) {
  const session = await getServerSession(req, res);
  if (!session) return res.status(401).json({ response: "Sign in." });
  const note = await prisma.note.findUnique({ where: { id: Number(req.query.id) } });
${guard}
  await prisma.note.delete({ where: { id: note.id } });
  return res.status(200).json({ response: "Deleted." });
}
`,
  });

  it('a 401 response call under an owner comparison is that comparison\'s refusal, not a login check only', async () => {
    expect(await labels(ownRoute('  if (note?.ownerId !== session.user.id)\n    return res.status(401).json({ response: "Permission denied." });'))).toEqual([]);
    expect(await labels(ownRoute('  if (!note || note.ownerId !== session.user.id) return res.status(404).json({ response: "Not found." });'))).toEqual([]);
    expect(await labels(ownRoute('  if (!note) return res.status(401).json({ response: "Not found." });'))).toEqual(['authn_only:pages/api/notes/[id].ts:8']);
  });
});
