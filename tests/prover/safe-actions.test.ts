/**
 * next-safe-action server actions (prover-frameworks: Next.js server actions): in a `'use server'`
 * module, `export const x = client.inputSchema(s).action(async ({ parsedInput, ctx }) => ...)` is a
 * public POST endpoint like any exported function. The client's `.use(...)` middleware runs before every
 * action built from it: a middleware that throws when there is no session is a login on each of them; a
 * client with no such middleware (`createSafeActionClient()` alone) proves nothing.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

const clients = `import { createSafeActionClient } from "next-safe-action";
import { findNote, getSession } from "../auth";

export const actionClient = createSafeActionClient({
  handleServerError: async (e) => {
    console.error(e);
    return "Something went wrong.";
  },
});

export const authUserActionClient = actionClient.use(async ({ next }) => {
  const session = await getSession();

  if (!session?.user.id) {
    throw new Error("Unauthorized: Login required.");
  }

  return next({ ctx: { user: session.user } });
});

export const noteActionClient = actionClient.use(async ({ next, clientInput }) => {
  const note = await findNote(clientInput);
  if (!note) {
    throw new Error("Note not found.");
  }
  return next({ ctx: { note } });
});

export const loggedActionClient = actionClient.use(async ({ next }) => {
  console.log("action");
  return next({ ctx: {} });
});
`;

const action = (client: string, direct = false) => `"use server";

import { prisma } from "@/lib/prisma";
import { z } from "zod";
import { ${client} } from "../safe-action";

export const archiveNoteAction = ${client}${direct ? '' : '\n  .inputSchema(z.object({ noteId: z.string() }))\n  '}.action(async ({ parsedInput, ctx }) => {
    await prisma.note.update({ where: { id: parsedInput.noteId }, data: { archived: true } });
    return { ok: true };
  });
`;

async function actionFindings(client: string, direct = false) {
  const result = await proveChange({
    root: '/repo',
    files: [
      { path: 'package.json', text: '{"dependencies":{"next":"14.2.0","next-safe-action":"8.0.0"}}' },
      { path: 'apps/web/lib/auth/index.ts', text: 'export const getSession = async (): Promise<any> => null;\nexport const findNote = async (input: any): Promise<any> => input;\n' },
      { path: 'apps/web/lib/actions/safe-action.ts', text: clients },
      { path: 'apps/web/lib/actions/notes/archive-note.ts', text: action(client, direct) },
    ],
    touched: null,
    maxDepth: 3,
    fanOut: 25,
  });
  return { findings: result.findings.filter((f) => f.path === 'apps/web/lib/actions/notes/archive-note.ts'), entries: result.coverage };
}

describe('next-safe-action server actions', () => {
  it('reads an action built from a client whose middleware requires a session as a login', async () => {
    const { findings } = await actionFindings('authUserActionClient');
    expect(findings.map((f) => [f.operation.id, f.label, f.function])).toEqual([['ts.orm-update', 'authn_only', 'archiveNoteAction']]);
  });

  it('reads an action handed straight to the client (client.action(async ...)) alike', async () => {
    const { findings } = await actionFindings('authUserActionClient', true);
    expect(findings.map((f) => [f.operation.id, f.label, f.function])).toEqual([['ts.orm-update', 'authn_only', 'archiveNoteAction']]);
  });

  it('reports the action of a client with no checking middleware as unguarded', async () => {
    const { findings } = await actionFindings('actionClient');
    expect(findings.map((f) => [f.operation.id, f.label])).toEqual([['ts.orm-update', 'unguarded_path']]);
  });

  it('does not read a middleware that refuses a missing record (not a missing session) as a login', async () => {
    const { findings } = await actionFindings('noteActionClient');
    expect(findings.map((f) => [f.operation.id, f.label])).toEqual([['ts.orm-update', 'unguarded_path']]);
  });

  it('does not read a middleware that only logs as a login', async () => {
    const { findings } = await actionFindings('loggedActionClient');
    expect(findings.map((f) => [f.operation.id, f.label])).toEqual([['ts.orm-update', 'unguarded_path']]);
  });
});
