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

const action = (client: string, direct = false, check = '') => `"use server";

import { prisma } from "@/lib/prisma";
import { z } from "zod";
import { ${client} } from "../safe-action";
import { throwIfNoRole } from "../throw-if-no-role";

export const archiveNoteAction = ${client}${direct ? '' : '\n  .inputSchema(z.object({ noteId: z.string() }))\n  '}.action(async ({ parsedInput, ctx }) => {
${check}
    await prisma.note.update({ where: { id: parsedInput.noteId }, data: { archived: true } });
    return { ok: true };
  });
`;

/** A role helper whose test is written one clause a line, as a formatter leaves a long condition. */
const roleHelper = (test: string) => `export function throwIfNoRole({
  role,
  requiredRoles,
}: {
  role: string;
  requiredRoles?: string[];
}) {
  if (
${test}
  ) {
    throw new Error(
      \`You don't have the required role. Required role(s): \${requiredRoles?.join(", ")}.\`,
    );
  }
}
`;

async function actionFindings(client: string, direct = false, check = '', helperTest = '    !requiredRoles?.includes(role)') {
  const result = await proveChange({
    root: '/repo',
    files: [
      { path: 'package.json', text: '{"dependencies":{"next":"14.2.0","next-safe-action":"8.0.0"}}' },
      { path: 'apps/web/lib/auth/index.ts', text: 'export const getSession = async (): Promise<any> => null;\nexport const findNote = async (input: any): Promise<any> => input;\n' },
      { path: 'apps/web/lib/actions/safe-action.ts', text: clients },
      { path: 'apps/web/lib/actions/notes/archive-note.ts', text: action(client, direct, check) },
      { path: 'apps/web/lib/actions/throw-if-no-role.ts', text: roleHelper(helperTest) },
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

  const roleCheck = '    throwIfNoRole({\n      role: ctx.workspace.role,\n      requiredRoles: ["owner", "member"],\n    });';

  it('credits a role helper whose test spans several lines', async () => {
    const { findings } = await actionFindings('authUserActionClient', false, roleCheck, '    requiredRoles &&\n    requiredRoles.length > 0 &&\n    !requiredRoles.includes(role)');
    expect(findings).toEqual([]);
  });

  it('does not credit a helper whose several-line test names no role', async () => {
    const { findings } = await actionFindings('authUserActionClient', false, roleCheck, '    requiredRoles &&\n    requiredRoles.length > 5');
    expect(findings.map((f) => [f.operation.id, f.label])).toEqual([['ts.orm-update', 'authn_only']]);
  });
});
