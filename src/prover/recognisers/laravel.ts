/**
 * Laravel route files: `Route::get|post|put|patch|delete|any|match(...)` naming a controller method
 * (`[X::class, 'm']`, `'X@m'`, an invokable `X::class`) and `Route::resource/apiResource`. The named
 * controller method is the entry, with the route declaration as evidence; a closure handler
 * (`Route::get('/x', function () {...})`) is an entry of its own. `routeSites` is exported for
 * enforcement.ts, which reads the same declarations for their middleware.
 */
import type { CallIR } from '../../syntax/ir-types.js';
import { findMethod, lookupClass, normaliseReceiver, type ClassRecord, type Program } from '../resolution.js';
import type { ProgramFile } from '../types.js';
import { isRouteFile, ROUTE_FILES, ROUTE_VERBS, routeClosures } from '../laravel-route-closures.js';
import { ACCESS_LIST_FILE } from '../laravel-middleware.js';
import { statementAt } from './shared.js';
import { nothing, type Recogniser } from './types.js';

const RESOURCE_METHODS = ['index', 'create', 'store', 'show', 'edit', 'update', 'destroy'];
const API_RESOURCE_METHODS = ['index', 'store', 'show', 'update', 'destroy'];

export { isRouteFile };

/** One route declaration of a route file. */
export interface RouteSite {
  line: number;
  uri: string;
  controller: string;
  methods: string[];
  /** The controller's file as its namespace names it below `Controllers/` (`Api/PhotoController.php`). */
  controllerPath: string;
  /** The whole statement (for chained `->middleware()`, `->can()`, `->withoutMiddleware()`). */
  statement: string;
  /** The call as IR recorded it (for its receiver chain). */
  call: CallIR;
}

/** Quoted strings of a PHP list or single string: `['auth', 'can:x']` → [auth, can:x]. */
export function quotedNames(text: string): string[] {
  return [...text.matchAll(/['"]([^'"]+)['"]/g)].map((m) => m[1] ?? '').filter((s) => s.length > 0);
}

/** Every route declaration of a route file. */
export function routeSites(file: ProgramFile): RouteSite[] {
  const sites: RouteSite[] = [];
  for (const call of file.ir.calls) {
    if (call.receiver === null) continue;
    const receiver = normaliseReceiver(call.receiver);
    if (!/^Route(\.|$)/.test(receiver)) continue;
    const isResource = call.callee === 'resource' || call.callee === 'apiResource';
    if (!ROUTE_VERBS.has(call.callee) && !isResource) continue;
    const statement = statementAt(file, call.line);
    const from = statement.indexOf(`${call.callee}(`);
    const own = from >= 0 ? statement.slice(from) : statement;
    const uri = /\(\s*['"]([^'"]*)['"]/.exec(own)?.[1] ?? '';
    let controller: string | null = null;
    let methods: string[] = [];
    const pair = /\[\s*\\?([\w\\]+)::class\s*,\s*['"](\w+)['"]\s*\]/.exec(own);
    const at = /['"]\\?([\w\\]+)@(\w+)['"]/.exec(own);
    // `Route::resource('photos', PhotoController::class)`, or before Laravel 8 by the class's name in the
    // namespace the route service provider gives (`Route::resource('photos', 'PhotoController', [...])`).
    const invokable = /,\s*\\?([\w\\]+)::class\s*\)/.exec(own) ?? (isResource ? /^\w+\(\s*['"][^'"]*['"]\s*,\s*['"]\\?([\w\\]+)['"]\s*[,)]/.exec(own) : null);
    if (pair) {
      controller = pair[1] ?? null;
      methods = [pair[2] ?? ''];
    } else if (at) {
      controller = at[1] ?? null;
      methods = [at[2] ?? ''];
    } else if (invokable) {
      controller = invokable[1] ?? null;
      methods = isResource ? (call.callee === 'resource' ? RESOURCE_METHODS : API_RESOURCE_METHODS) : ['__invoke'];
      // `->only([...])`, or the options array of the string form (`['only' => [...]]`).
      const only = /->only\(\s*(\[[^\]]*\]|['"][^'"]*['"])/.exec(statement) ?? /['"]only['"]\s*=>\s*(\[[^\]]*\]|['"][^'"]*['"])/.exec(own);
      const except = /->except\(\s*(\[[^\]]*\]|['"][^'"]*['"])/.exec(statement) ?? /['"]except['"]\s*=>\s*(\[[^\]]*\]|['"][^'"]*['"])/.exec(own);
      if (only?.[1]) methods = methods.filter((m) => quotedNames(only[1] ?? '').includes(m));
      if (except?.[1]) methods = methods.filter((m) => !quotedNames(except[1] ?? '').includes(m));
    }
    if (controller === null) continue; // a closure route: laravel-route-closures.ts reads it
    sites.push({ line: call.line, uri, controller: controller.split('\\').pop() ?? controller, controllerPath: controllerPath(file, controller), methods, statement, call });
  }
  return sites;
}

/** A route group closure: `Route::group([...], function () {...})`, `Route::middleware(...)->group(function () {...})`. */
export interface RouteGroup {
  /** The line of the `group(` call, where its head (prefix, middleware) starts. */
  headLine: number;
  /** The closure's first and last lines: the routes it declares. */
  start: number;
  end: number;
  /** The group's head: its receiver chain and arguments before the closure. */
  head: string;
}

/** Every group closure of a route file. */
export function routeGroups(file: ProgramFile): RouteGroup[] {
  const groups: RouteGroup[] = [];
  for (const call of file.ir.calls) {
    if (call.callee !== 'group') continue;
    const closure = file.ir.functions.find((fn) => fn.isLambda && fn.startLine >= call.line && fn.startLine <= call.line + 8);
    if (!closure) continue;
    const head = `${call.receiver ?? ''} ${call.text}`;
    const opening = head.indexOf('function');
    groups.push({ headLine: call.line, start: closure.startLine, end: closure.endLine, head: head.slice(0, opening > 0 ? opening : head.length) });
  }
  return groups;
}

/**
 * The file a route's controller is in, below `Controllers/`: the written name (`'Api\\PhotoController@show'`,
 * in the namespace the route service provider gives) or the `use` import the route file names it by.
 * Two controllers of one name (`Api\\PhotoController` beside `PhotoController`) are told apart by it.
 */
function controllerPath(file: ProgramFile, written: string): string {
  const name = written.split('\\').pop() ?? written;
  const imported = written.includes('\\') ? written : (new RegExp(`^use\\s+\\\\?([\\w\\\\]+\\\\${name})\\s*;`, 'm').exec(file.text)?.[1] ?? name);
  // An unqualified name is in the provider's namespace, `App\\Http\\Controllers`.
  const below = /(?:^|\\)Controllers\\(.+)$/.exec(imported)?.[1] ?? (imported.includes('\\') ? null : imported);
  return below === null ? `${name}.php` : `Controllers/${below.replace(/\\/g, '/')}.php`;
}

/** The controller class a route site names: the one in the file its namespace names, else the first of that name. */
export function routeController(program: Program, site: RouteSite): ClassRecord | null {
  const named = program.table.get(site.controller) ?? [];
  return named.find((r) => r.path.endsWith(`/${site.controllerPath}`)) ?? lookupClass(program.table, site.controller);
}

/** The controller method a route site names, or null when the repository does not define it. */
export function routeTargets(program: Program, site: RouteSite): { method: string; ref: ReturnType<typeof findMethod> }[] {
  const cls = routeController(program, site);
  if (!cls) return [];
  return site.methods.map((method) => ({ method, ref: findMethod(program.table, cls, method, null) }));
}

/** A package's provider naming middleware through the router (`$router->aliasMiddleware('user', X::class)`). */
const ROUTER_MIDDLEWARE_REGISTRATION = /(?:->|::)(?:aliasMiddleware|middlewareGroup|pushMiddlewareToGroup|prependMiddlewareToGroup)\(/;

export const laravel: Recogniser = {
  id: 'laravel',
  languages: ['php'],
  // Route files, and the providers and kernels that load them or give them middleware.
  registrationFiles: {
    paths: [...ROUTE_FILES, ACCESS_LIST_FILE, /(^|\/)bootstrap\/app\.php$/, /(^|\/)app\/Http\/Kernel\.php$/, /(^|\/)app\/Providers\/RouteServiceProvider\.php$/],
    markers: [/->group\(\s*base_path\(/, ROUTER_MIDDLEWARE_REGISTRATION],
    middlewareLists: [/(^|\/)bootstrap\/app\.php$/, /(^|\/)app\/Http\/Kernel\.php$/],
    middlewareMarkers: [ROUTER_MIDDLEWARE_REGISTRATION],
  },
  recognise(file, { program }) {
    const result = nothing();
    if (!isRouteFile(file.path)) return result;
    for (const site of routeSites(file)) {
      const targets = routeTargets(program, site);
      let resolved = false;
      for (const { ref } of targets) {
        for (const method of ref?.methods ?? []) {
          resolved = true;
          result.entries.push({
            functionId: method.id,
            path: method.path,
            function: method.fn.qualifiedName,
            line: method.fn.startLine,
            framework: 'laravel',
            kind: 'route',
            access: 'protected',
            evidence: `Route::${site.call.callee}('${site.uri}') at ${file.path}:${site.line}`,
            registeredBy: `${file.path}:${site.line}`,
            route: site.uri,
          });
        }
      }
      if (!resolved) result.unresolved.registration_unresolved = (result.unresolved.registration_unresolved ?? 0) + 1;
    }
    for (const route of routeClosures(file)) {
      const node = program.nodeOf.get(route.fn);
      if (!node) continue;
      result.entries.push({
        functionId: node.id,
        path: file.path,
        function: node.fn.qualifiedName,
        line: route.fn.startLine,
        framework: 'laravel',
        kind: 'route',
        access: 'protected',
        evidence: `closure of Route::${route.verb}('${route.uri}') at ${file.path}:${route.line}`,
        registeredBy: `${file.path}:${route.line}`,
        route: route.uri,
      });
    }
    return result;
  },
};
