import { runRecogniserTable } from '../recogniser-tester.js';

const config = `import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";
export default [
  layout("modules/dashboard/containers/dashboard.route.tsx", [
    index("modules/home/containers/home.route.tsx"),
    route("projects/:projectId/runs/:runId", "modules/runs/containers/run.route.tsx"),
  ]),
] satisfies RouteConfig;
`;

runRecogniserTable('react-router', {
  positive: [
    {
      name: 'exported action and loader of a module the route config names',
      files: {
        'app/routes.ts': config,
        'app/modules/runs/containers/run.route.tsx': `export async function loader({ request, params }: Route.LoaderArgs) {
  return null;
}
export async function action({ request, params }: Route.ActionArgs) {
  return null;
}
export default function RunRoute() { return null; }
`,
      },
      entries: [
        { function: 'loader', line: 1, kind: 'route' },
        { function: 'action', line: 4, kind: 'server_action' },
      ],
    },
  ],
  negative: [
    {
      name: 'a module no route config names, and helpers of a configured module',
      files: {
        'app/routes.ts': config,
        'app/modules/runs/helpers/exportRun.ts': 'export async function action() { return null; }\n',
        'app/modules/home/containers/home.route.tsx': 'export async function clientLoader() { return null; }\nexport function meta() { return []; }\n',
      },
    },
  ],
});
