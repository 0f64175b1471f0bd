/**
 * FastAPI: path operations, `@app.get|post|put|patch|delete|api_route(path)` and `@router.<verb>` on an
 * `APIRouter`, `@app.websocket`, and functions handed to `add_api_route(path, fn)`, in files that
 * import FastAPI. Their dependencies (`Depends`, `Security`) are the checks (python-web-checks.ts).
 */
import type { ProgramFile } from '../types.js';
import { FASTAPI } from './flask.js';
import { callArgumentsOf, callText, firstRoute, importsFramework, namedView, pushOnce, viewEntry } from './python-views.js';
import { nothing, type Recogniser } from './types.js';

const OPERATION_VERBS = /^(get|post|put|patch|delete|head|options|api_route|websocket)$/;

/** The path-operation decorator of a FastAPI function, or null. */
export function fastapiRoute(file: ProgramFile, decorators: readonly string[]): { receiver: string; verb: string; path: string; text: string } | null {
  return importsFramework(file, FASTAPI) ? firstRoute(decorators, OPERATION_VERBS) : null;
}

export const fastapi: Recogniser = {
  id: 'fastapi',
  languages: ['python'],
  // Dependencies are named, not called, by the path operations: the files that may refuse are read.
  registrationFiles: { paths: [], markers: [/\bHTTPException\b/] },
  recognise(file, { program }) {
    const result = nothing();
    if (!importsFramework(file, FASTAPI)) return result;
    const seen = new Set<string>();
    for (const fn of file.ir.functions) {
      const ref = program.nodeOf.get(fn);
      if (!ref || ref.fn !== fn) continue;
      const route = fastapiRoute(file, fn.decorators);
      if (!route) continue;
      pushOnce(result.entries, seen, viewEntry(ref, 'fastapi', `@${route.text.split('\n')[0] ?? ''}`, { route: route.path, ...(route.verb === 'websocket' ? { kind: 'websocket' } : {}) }));
    }
    for (const call of file.ir.calls) {
      if (call.callee !== 'add_api_route') continue;
      const args = callArgumentsOf(callText(file, call.line, call.callee), call.callee);
      const keyword = args.find((a) => /^endpoint\s*=/.test(a))?.replace(/^endpoint\s*=\s*/, '');
      const named = namedView(program, file, keyword ?? args[1] ?? '');
      const path = /^[rbu]?['"]([^'"]*)['"]/.exec(args[0] ?? '')?.[1] ?? '';
      if (named.fn) pushOnce(result.entries, seen, viewEntry(named.fn, 'fastapi', `add_api_route('${path}') at ${file.path}:${call.line}`, { registeredBy: `${file.path}:${call.line}`, route: path }));
      else result.unresolved.registration_unresolved = (result.unresolved.registration_unresolved ?? 0) + 1;
    }
    return result;
  },
};
