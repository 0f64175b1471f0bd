import { runRecogniserTable } from '../recogniser-tester.js';

runRecogniserTable('remix', {
  positive: [
    {
      name: 'exported action and loader, function and arrow forms',
      files: {
        'app/routes/projects.$projectId.settings.tsx': `import { redirect } from "@remix-run/node";
export async function action({ request, params }: ActionFunctionArgs) {
  return redirect("/projects");
}
export const loader = async ({ request }: LoaderFunctionArgs) => {
  return null;
};
export default function Settings() { return null; }
`,
      },
      entries: [
        { function: 'action', line: 2, kind: 'server_action' },
        { function: 'loader', line: 5, kind: 'route' },
      ],
    },
    {
      name: 'a resource route exported by name',
      files: { 'app/routes/api.export.ts': 'async function loader() {\n  return new Response("x");\n}\nexport { loader };\n' },
      entries: [{ function: 'loader', line: 1 }],
    },
  ],
  negative: [
    {
      name: 'loader outside app/routes',
      files: { 'app/models/note.server.ts': 'export async function loader() { return null; }\n' },
    },
    {
      name: 'clientLoader and an unexported action',
      files: { 'app/routes/notes.tsx': 'export async function clientLoader() { return null; }\nasync function action() { return null; }\nexport default function N() { return null; }\n' },
    },
  ],
});
