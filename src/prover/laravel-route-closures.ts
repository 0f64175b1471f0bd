/**
 * Laravel routes written as closures: `Route::get('/x', function () { ... })` (or `fn () => ...`, also
 * after a chain such as `Route::middleware('auth')->post(...)`, and `Route::match([...], '/x', ...)`).
 * The closure is the handler, so it is a call-graph node of its own (resolution.ts) and an entry
 * (recognisers/laravel.ts); the middleware chained after its closing brace (`})->middleware('can:x')`)
 * applies to it like to a controller route. Other closures of a routes file (a `group(function () {...})`)
 * stay what they were: not nodes.
 */
import type { FunctionIR } from '../syntax/ir-types.js';
import type { ProgramFile } from './types.js';

/** True for files Laravel loads routes from. */
export function isRouteFile(path: string): boolean {
  return ROUTE_FILES.some((re) => re.test(path));
}

/**
 * Where Laravel applications write routes: `routes/*.php` and its folders, module and package folders
 * (`Modules/Blog/Routes/web.php`, `packages/Webkul/Admin/src/Routes/Admin/leads-routes.php`),
 * and `Http/routes.php`, the route file of Laravel 5.0-5.2 that packages still load with
 * `loadRoutesFrom(__DIR__.'/../Http/routes.php')` (krayin's `packages/Webkul/Admin/src/Http/routes.php`).
 */
export const ROUTE_FILES: readonly RegExp[] = [/(^|\/)[Rr]outes\/([\w.-]+\/)*[^/]+\.php$/, /(^|\/)Http\/routes\.php$/];

export const ROUTE_VERBS = new Set(['get', 'post', 'put', 'patch', 'delete', 'any', 'match', 'options']);

/** A route whose handler is a closure. */
export interface RouteClosure {
  fn: FunctionIR;
  /** The verb method called (`get`, `post`...). */
  verb: string;
  uri: string;
  /** The line of the `Route::verb(` call. */
  line: number;
  /** The route's text before the closure's body, and the line the closure closes on: where chained middleware is written. */
  head: string;
  tail: string;
}

/** `get('/x', function` / `match(['get', 'post'], '/x', fn`: the URI, when the handler is a closure. */
const CLOSURE_ROUTE = /^(\w+)\(\s*(?:\[[^\]]*\]\s*,\s*)?['"]([^'"]*)['"]\s*,\s*(?:static\s+)?(?:function|fn)\b/;

/** A receiver chain that starts at Laravel's Route facade. */
const ROUTE_RECEIVER = /^\\?(?:Illuminate\\Support\\Facades\\)?Route\s*(?:$|::|->)/;

const CACHE = new WeakMap<ProgramFile, RouteClosure[]>();

/** The closure routes of a routes file (none for other files). */
export function routeClosures(file: ProgramFile): RouteClosure[] {
  const cached = CACHE.get(file);
  if (cached) return cached;
  const out: RouteClosure[] = [];
  if (file.language === 'php' && isRouteFile(file.path)) {
    for (const call of file.ir.calls) {
      if (call.receiver === null || !ROUTE_VERBS.has(call.callee) || !ROUTE_RECEIVER.test(call.receiver.trim())) continue;
      const head = file.lines.slice(call.line - 1, call.line + 2).join('\n');
      const from = head.indexOf(`${call.callee}(`);
      const match = from >= 0 ? CLOSURE_ROUTE.exec(head.slice(from)) : null;
      if (!match) continue;
      const fn = file.ir.functions.filter((f) => f.isLambda && f.startLine >= call.line && f.startLine <= call.line + 2).sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine)[0];
      if (!fn) continue;
      out.push({ fn, verb: call.callee, uri: match[2] ?? '', line: call.line, head: head.slice(0, from + match[0].length), tail: untilSemicolon(file.lines.slice(fn.endLine - 1, fn.endLine + 2).join('\n')) });
    }
  }
  CACHE.set(file, out);
  return out;
}

function untilSemicolon(text: string): string {
  const end = text.indexOf(';');
  return end >= 0 ? text.slice(0, end) : text;
}

/** The name a closure route's node carries: `Route::get('/x')`. */
export function routeClosureName(route: RouteClosure): string {
  return `Route::${route.verb}('${route.uri}')`;
}
