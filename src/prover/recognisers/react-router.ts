/**
 * React Router framework mode with a route config (`app/routes.ts`: `route("path", "modules/x.route.tsx")`,
 * `index(...)`, `layout(...)`): the modules the config names are route modules wherever they sit, and
 * their exported `action` and `loader` are entries, each fetched on its own (a layout's check covers
 * neither). Modules under `app/routes/` are the `remix` recogniser's.
 */
import type { Program } from '../resolution.js';
import { exportedFunctions } from './js-handlers.js';
import { nothing, type Recogniser } from './types.js';

const ROUTE_CONFIG = /(^|\/)app\/routes\.(ts|tsx|js|mjs|mts)$/;
const MODULE_NAMED = /['"`]([\w$@()[\].\/-]+\.(?:tsx|ts|jsx|js))['"`]/g;

/** Route modules the config files name, as repository paths: computed once per program. */
const configured = new WeakMap<Program, Map<string, string>>();

function routeModules(program: Program): Map<string, string> {
  let modules = configured.get(program);
  if (modules) return modules;
  modules = new Map();
  for (const file of program.files) {
    if (!ROUTE_CONFIG.test(file.path)) continue;
    const appDir = file.path.slice(0, file.path.lastIndexOf('/'));
    for (const match of file.text.matchAll(MODULE_NAMED)) {
      const named = (match[1] ?? '').replace(/^\.\//, '');
      if (!named.startsWith('routes/')) modules.set(`${appDir}/${named}`, file.path);
    }
  }
  configured.set(program, modules);
  return modules;
}

export const reactRouter: Recogniser = {
  id: 'react-router',
  languages: ['typescript'],
  registrationFiles: { paths: [ROUTE_CONFIG] },
  recognise(file, { program }) {
    const result = nothing();
    const config = routeModules(program).get(file.path);
    if (config === undefined) return result;
    for (const [name, exported] of exportedFunctions(program, file)) {
      if ((name !== 'action' && name !== 'loader') || !exported.ref) continue;
      result.entries.push({
        functionId: exported.ref.id,
        path: file.path,
        function: exported.ref.fn.qualifiedName,
        line: exported.ref.fn.startLine,
        framework: 'react-router',
        kind: name === 'action' ? 'server_action' : 'route',
        access: 'protected',
        evidence: `exported ${name} of a route module named by ${config}`,
      });
    }
    return result;
  },
};
