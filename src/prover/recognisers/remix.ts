/**
 * Remix and React Router framework mode: `export`ed `action` and `loader` functions of route modules
 * under `app/routes/`. Each is separately fetchable, so a parent layout's check never covers them
 * (framework reference 8.3). `clientLoader`/`clientAction` run in the browser and are not entries.
 */
import { nothing, type Recogniser } from './types.js';

const ROUTE_MODULE = /(^|\/)app\/routes\/.+\.(ts|tsx|js|jsx)$/;

/**
 * The URL a route module serves, from its flat-routes file name: `.` and `/` separate segments, a
 * folder's `route` file is the folder, `_index` and pathless `_layout` segments add nothing, a trailing
 * `_` only opts out of layout nesting. `users.$id_.edit.tsx` → `users/$id/edit`.
 */
export function remixRoute(path: string): string {
  const module = path.replace(/^.*?app\/routes\//, '').replace(/\.(ts|tsx|js|jsx)$/, '').replace(/\/route$/, '');
  return module
    .replace(/\[\.\]/g, '\0')
    .split(/[./]/)
    .filter((segment) => segment !== '_index' && !/^_[^_]/.test(segment))
    .map((segment) => segment.replace(/_$/, '').replace(/\0/g, '.'))
    .filter((segment) => segment !== '')
    .join('/');
}

export const remix: Recogniser = {
  id: 'remix',
  languages: ['typescript'],
  // No registration files: a route module is its own registration, and one that calls the change is
  // found as a caller (reading every route module would cost more than the rest of the proof).
  recognise(file, { program }) {
    const result = nothing();
    if (!ROUTE_MODULE.test(file.path)) return result;
    const exported = new Set<string>();
    for (const match of file.text.matchAll(/export\s*\{([^}]*)\}/g)) {
      for (const name of (match[1] ?? '').split(',')) exported.add(name.trim().split(/\s+as\s+/).pop()?.trim() ?? '');
    }
    const resource = !/export\s+default\b/.test(file.text);
    for (const fn of file.ir.functions) {
      if (fn.className !== null || (fn.name !== 'action' && fn.name !== 'loader')) continue;
      const ref = program.nodeOf.get(fn);
      if (!ref || ref.fn !== fn) continue;
      const declaration = file.lines[fn.startLine - 1] ?? '';
      if (!/^\s*export\b/.test(declaration) && !exported.has(fn.name)) continue;
      result.entries.push({
        functionId: ref.id,
        path: file.path,
        function: fn.qualifiedName,
        line: fn.startLine,
        framework: 'remix',
        kind: fn.name === 'action' ? 'server_action' : 'route',
        access: 'protected',
        route: remixRoute(file.path),
        evidence: `exported ${fn.name} of ${resource ? 'resource route' : 'route module'} ${file.path}`,
      });
    }
    return result;
  },
};
