/**
 * Flask: functions under `@app.route`/`@bp.route` and the 2.0 verb shortcuts (`@bp.post`), views handed
 * to `add_url_rule`, verb methods of `MethodView` classes and of Flask-RESTful/RESTX/RESTPlus `Resource`
 * classes (`@ns.route` on the class, `api.add_resource(R, '/x')`). A file importing FastAPI is left to
 * the FastAPI recogniser, whose decorators look the same.
 */
import type { Program } from '../resolution.js';
import type { ProgramFile } from '../types.js';
import { callArgumentsOf, callText, firstRoute, handlerMethods, HTTP_VERBS, importsFramework, lineageNames, namedView, pushOnce, routeDecorator, viewEntry } from './python-views.js';
import { nothing, type Recogniser } from './types.js';

export const FASTAPI = /^(fastapi|starlette)(\.|$)/;
const FLASK = /^(flask|flask_\w+)(\.|$)/;
const ROUTE_VERBS = /^(route|get|post|put|patch|delete)$/;
const RESOURCE_IMPORTS = /^(flask_restful|flask_restx|flask_restplus|flask_smorest|flask\.views)(\.|$)/;

/** The route decorator of a Flask view (`bp.route("/x")`), or null. */
export function flaskRoute(file: ProgramFile, decorators: readonly string[]): { receiver: string; verb: string; path: string; text: string } | null {
  if (importsFramework(file, FASTAPI)) return null;
  // The verb shortcuts are also other libraries' (`@cache.get`): only in a file that imports Flask.
  return firstRoute(decorators, ROUTE_VERBS, (verb) => verb === 'route' || importsFramework(file, FLASK));
}

/** True when a class is a Flask class-based view: a `MethodView`, or a `Resource` of the REST extensions. */
function viewBase(program: Program, file: ProgramFile, className: string): string | null {
  const names = lineageNames(program, className, file.path);
  if (names.includes('MethodView')) return 'MethodView';
  if (names.includes('Resource') && (importsFramework(file, RESOURCE_IMPORTS) || names.some((n) => n !== className && n !== 'Resource' && program.table.has(n)))) return 'Resource';
  return null;
}

export const flask: Recogniser = {
  id: 'flask',
  languages: ['python'],
  // Checks defined away from the views: blueprint hooks, and the repository's own view decorators.
  registrationFiles: { paths: [], markers: [/\.before_request\b/, /@(functools\.)?wraps\(/] },
  recognise(file, { program }) {
    const result = nothing();
    if (importsFramework(file, FASTAPI)) return result;
    const seen = new Set<string>();
    for (const fn of file.ir.functions) {
      const ref = program.nodeOf.get(fn);
      if (!ref || ref.fn !== fn || fn.className !== null) continue;
      const route = flaskRoute(file, fn.decorators);
      if (route) pushOnce(result.entries, seen, viewEntry(ref, 'flask', `@${route.text.split('\n')[0] ?? ''}`, { route: route.path }));
    }
    for (const cls of file.ir.classes) {
      const base = viewBase(program, file, cls.name);
      if (base === null) continue;
      const route = cls.decorators.map((d) => routeDecorator(d, /^route$/)).find((r) => r !== null);
      for (const ref of handlerMethods(program, file, cls.name, (name) => HTTP_VERBS.has(name))) {
        pushOnce(result.entries, seen, viewEntry(ref, 'flask', `${ref.fn.name}() of ${cls.name}, a ${base}`, route ? { route: route.path } : {}));
      }
    }
    // `app.add_url_rule('/x', view_func=purge)`, `bp.add_url_rule('/x', 'purge', purge)`.
    for (const call of file.ir.calls) {
      if (call.callee !== 'add_url_rule') continue;
      const args = callArgumentsOf(callText(file, call.line, call.callee), call.callee);
      const keyword = args.find((a) => /^view_func\s*=/.test(a))?.replace(/^view_func\s*=\s*/, '');
      const view = keyword ?? args[2];
      if (view === undefined) continue;
      const named = namedView(program, file, view);
      const path = /^[rbu]?['"]([^'"]*)['"]/.exec(args[0] ?? '')?.[1] ?? '';
      if (named.fn) pushOnce(result.entries, seen, viewEntry(named.fn, 'flask', `add_url_rule('${path}') at ${file.path}:${call.line}`, { registeredBy: `${file.path}:${call.line}`, route: path }));
      else if (!named.cls) result.unresolved.registration_unresolved = (result.unresolved.registration_unresolved ?? 0) + 1;
    }
    return result;
  },
};
