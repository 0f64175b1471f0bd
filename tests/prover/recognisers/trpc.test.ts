import { runRecogniserTable } from '../recogniser-tester.js';

const trpcSetup = `import { initTRPC, TRPCError } from '@trpc/server';
const t = initTRPC.context<Context>().create();
export const router = t.router;
export const publicProcedure = t.procedure;
export const protectedProcedure = t.procedure.use(({ ctx, next }) => {
  if (!ctx.user) throw new TRPCError({ code: 'UNAUTHORIZED' });
  return next({ ctx: { user: ctx.user } });
});
`;

runRecogniserTable('trpc', {
  positive: [
    {
      name: 'procedures in a router literal: query and mutation handlers written in place',
      files: {
        'src/server/trpc.ts': trpcSetup,
        'src/server/routers/invoice.ts': `import { z } from 'zod';
import { router, protectedProcedure, publicProcedure } from '../trpc';
export const invoiceRouter = router({
  list: publicProcedure.query(async () => {
    return [];
  }),
  remove: protectedProcedure
    .input(z.object({ invoiceId: z.string() }))
    .mutation(async ({ input, ctx }) => {
      return input.invoiceId;
    }),
});
`,
      },
      entries: [
        { function: 'invoiceRouter', line: 4, kind: 'route' },
        { function: 'invoiceRouter', line: 9, kind: 'server_action' },
      ],
    },
    {
      name: 'a procedure as a module constant, a handler named by reference, t.procedure directly',
      files: {
        'src/server/trpc.ts': trpcSetup,
        'src/server/routes/archive-project.ts': `import { t } from '../trpc';
// Archived by id.
export const archiveProjectRoute = t.procedure
  .input(ZArchiveProject)
  .mutation(async ({ input }) => {
    return input.projectId;
  });
async function renameProject({ input }: { input: { id: string } }) {
  return input.id;
}
export const renameProjectRoute = t.procedure.mutation(renameProject);
`,
      },
      entries: [
        { function: 'archiveProjectRoute', line: 5, kind: 'server_action' },
        { function: 'renameProject', line: 8, kind: 'server_action' },
      ],
    },
  ],
  negative: [
    {
      name: 'a react-query hook and a database query builder are not procedures',
      files: {
        'src/client/useInvoices.ts': `export function useInvoices() {
  const utils = trpc.useUtils();
  return trpc.invoice.list.useQuery();
}
export const rows = knex('invoices').where({ id: 1 }).query(async () => null);
`,
      },
    },
    {
      name: 'a procedure builder whose handler is not a function of the repository',
      files: { 'src/server/routes/ping.ts': "import { publicProcedure } from '../trpc';\nexport const ping = publicProcedure.query(libraryPing);\n" },
      unresolved: { handler_unresolved: 1 },
    },
  ],
});
