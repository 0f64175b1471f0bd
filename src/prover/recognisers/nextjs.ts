/**
 * Next.js: App Router route handlers (`app/**\/route.ts` exporting `GET`, `POST`...), server components
 * (`app/**\/page.tsx`'s default export, run on GET), server actions (every exported function of a
 * `'use server'` module, and a function whose body opens with `'use server'`: each is a public POST
 * endpoint taking any arguments), Pages Router API routes (`pages/api/**`'s default export) and
 * `getServerSideProps`. A layout's or page's check never covers an action or a route handler: each is
 * fetched on its own. A wrapper around an export (`export default withAuth(handler)`) is middleware.
 */
import type { EntryPoint, FunctionRef, MiddlewareUse, ProgramFile } from '../types.js';
import type { Program } from '../resolution.js';
import { exportedFunctions, functionStartingAt, wrapped, type Exported } from './js-handlers.js';
import { nothing, type Recogniser } from './types.js';

const APP_DIR = /(?:^|\/)app\/((?:.+\/)?)(route|page)\.(ts|tsx|js|jsx|mjs)$/;
const PAGES_API = /(?:^|\/)pages\/api\/.+\.(ts|tsx|js|jsx|mjs)$/;
const PAGES = /(?:^|\/)pages\/.+\.(ts|tsx|js|jsx|mjs)$/;
const VERBS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);
const USE_SERVER = /^\s*['"]use server['"]\s*;?\s*$/;

export const nextjs: Recogniser = {
  id: 'nextjs',
  languages: ['typescript'],
  // Each entry is its own module (a route file, a 'use server' module): found as a caller when it calls the change.
  recognise(file, { program }) {
    const result = nothing();
    const add = (ref: FunctionRef | null, kind: string, evidence: string, middleware: MiddlewareUse[] = [], route?: string): void => {
      if (!ref || result.entries.some((e) => e.functionId === ref.id)) return;
      const entry: EntryPoint = { functionId: ref.id, path: ref.path, function: ref.fn.qualifiedName, line: ref.fn.startLine, framework: 'nextjs', kind, access: 'protected', evidence };
      if (middleware.length > 0) entry.middleware = middleware;
      if (route !== undefined) entry.route = route;
      result.entries.push(entry);
    };
    const app = APP_DIR.exec(file.path);
    if (app) {
      const route = routePath(app[1] ?? '');
      if (app[2] === 'route') {
        for (const [name, exported] of exportedFunctions(program, file)) if (VERBS.has(name)) add(exported.ref, 'route', `${name} route handler of ${route}`, exported.middleware, route);
      } else {
        const page = defaultExport(program, file);
        add(page.ref, 'route', `server component (page) of ${route}`, page.middleware, route);
      }
    }
    if (PAGES_API.test(file.path)) {
      const handler = defaultExport(program, file);
      add(handler.ref, 'route', `API route ${file.path}`, handler.middleware);
    } else if (PAGES.test(file.path)) {
      const props = exportedFunctions(program, file).get('getServerSideProps');
      if (props) add(props.ref, 'route', `getServerSideProps of ${file.path}`, props.middleware);
    }
    if (moduleDirective(file)) {
      for (const [name, exported] of exportedFunctions(program, file)) add(exported.ref, 'server_action', `exported ${name} of a 'use server' module`, exported.middleware);
    }
    // Inline server actions: a function whose first body line is the directive. The substring test
    // first: bundled files hold thousands of functions on one long line.
    for (const fn of file.text.includes('use server') ? file.ir.functions : []) {
      if (!USE_SERVER.test(file.lines[fn.bodyStartLine] ?? '') && !USE_SERVER.test((file.lines[fn.bodyStartLine - 1] ?? '').replace(/^.*\{/, ''))) continue;
      add(program.nodeOf.get(fn) ?? null, 'server_action', `function with a 'use server' directive in ${file.path}`);
    }
    return result;
  },
};

/** `app/(shop)/orders/[id]/` → `/orders/[id]`: groups add no segment. */
function routePath(folders: string): string {
  const segments = folders.split('/').filter((s) => s !== '' && !/^\(.*\)$/.test(s) && !s.startsWith('@'));
  return `/${segments.join('/')}`;
}

/** True when the module starts with `'use server'` (after comments and blank lines). */
function moduleDirective(file: ProgramFile): boolean {
  for (const text of file.lines) {
    const trimmed = text.trim();
    if (trimmed === '' || trimmed.startsWith('//') || trimmed.startsWith('/*') || trimmed.startsWith('*')) continue;
    return USE_SERVER.test(text);
  }
  return false;
}

/** The default export: `export default function X`, `export default X`, `export default withAuth(X)`. */
function defaultExport(program: Program, file: ProgramFile): Exported {
  const index = file.lines.findIndex((text) => /^export\s+default\b/.test(text));
  if (index < 0) return { ref: null, middleware: [] };
  const text = (file.lines[index] ?? '').replace(/^export\s+default\s+/, '');
  if (/^(async\s+)?function\b/.test(text)) return { ref: functionStartingAt(program, file, index + 1), middleware: [] };
  return wrapped(program, file, index + 1, text);
}
