import { runRecogniserTable } from '../recogniser-tester.js';

runRecogniserTable('nextjs', {
  positive: [
    {
      name: 'route handler verbs of app/**/route.ts, in a route group, declared and as constants',
      files: {
        'src/app/(admin)/api/exports/[id]/route.ts': `import { NextResponse } from 'next/server';
export async function GET(request: Request) {
  return NextResponse.json({});
}
export const DELETE = async (request: Request) => {
  return new Response(null);
};
export function helper() {
  return 1;
}
`,
      },
      entries: [
        { function: 'GET', line: 2, kind: 'route' },
        { function: 'DELETE', line: 5, kind: 'route' },
      ],
    },
    {
      name: "every export of a 'use server' module, and an inline server action in a page",
      files: {
        'app/admin/actions.ts': `'use server';
import { db } from '@/lib/db';
export async function banUser(userId: string) {
  await db.user.update({ where: { id: userId }, data: { banned: true } });
}
export const unbanUser = async (userId: string) => {
  await db.user.update({ where: { id: userId }, data: { banned: false } });
};
async function notExported() {
  return null;
}
`,
        'app/notes/page.tsx': `export default async function NotesPage() {
  async function removeNote(formData: FormData) {
    'use server';
    await db.note.delete({ where: { id: String(formData.get('id')) } });
  }
  return <form action={removeNote} />;
}
`,
      },
      entries: [
        { function: 'banUser', line: 3, kind: 'server_action' },
        { function: 'unbanUser', line: 6, kind: 'server_action' },
        { function: 'NotesPage', line: 1, kind: 'route' },
        { function: 'NotesPage.removeNote', line: 2, kind: 'server_action' },
      ],
    },
    {
      name: "a next-safe-action action of a 'use server' module: the handler the chain's .action(...) is given",
      files: {
        'lib/actions/archive-note.ts': `"use server";
import { authActionClient } from "./safe-action";
export const archiveNoteAction = authActionClient
  .inputSchema(archiveSchema)
  .action(async ({ parsedInput, ctx }) => {
    await db.note.update({ where: { id: parsedInput.id }, data: { archived: true } });
  });
export const restoreNoteAction = authActionClient.action(async ({ ctx }) => {
  await db.note.updateMany({ where: { ownerId: ctx.user.id }, data: { archived: false } });
});
`,
      },
      entries: [
        { function: 'archiveNoteAction', line: 5, kind: 'server_action' },
        { function: 'restoreNoteAction', line: 8, kind: 'server_action' },
      ],
    },
    {
      name: 'a Pages Router API route behind a wrapper, and getServerSideProps',
      files: {
        'pages/api/projects/[id].ts': `async function handler(req, res) {
  res.status(200).json({});
}
export default withSession(handler);
`,
        'pages/settings.tsx': `export async function getServerSideProps(context) {
  return { props: {} };
}
export default function Settings() { return null; }
`,
      },
      entries: [
        { function: 'handler', line: 1, kind: 'route' },
        { function: 'getServerSideProps', line: 1, kind: 'route' },
      ],
    },
  ],
  negative: [
    {
      name: 'a client component and a lib module are not entries',
      files: {
        'app/components/button.tsx': "'use client';\nexport function Button() { return null; }\n",
        'lib/server-only/get-user.ts': "import 'server-only';\nexport async function getUser(id: string) { return id; }\n",
      },
    },
    {
      name: "a builder chain outside a 'use server' module, and a schema constant of one",
      files: {
        'lib/actions/client-side.ts': "import { client } from './safe-action';\nexport const archive = client.inputSchema(schema).action(async ({ parsedInput }) => parsedInput);\n",
        'lib/actions/schemas.ts': "'use server';\nexport const archiveSchema = z.object({ id: z.string() }).strict();\n",
      },
    },
    {
      name: "a route.ts outside app/, a layout, and a 'use server' string that is not the directive",
      files: {
        'src/handlers/route.ts': 'export async function GET() { return null; }\n',
        'app/dashboard/layout.tsx': 'export default async function Layout() { return null; }\n',
        'app/notes/helpers.ts': "const label = 'use server';\nexport async function format() { return label; }\n",
      },
    },
  ],
});
