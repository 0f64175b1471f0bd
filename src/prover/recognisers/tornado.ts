/**
 * Tornado (and Jupyter Server): verb methods of classes deriving from `RequestHandler` (directly or
 * through repository base classes), and `open`/`on_message` of `WebSocketHandler`s. A class the
 * application's URL list names (`tornado.web.Application([(r"/api/x", XHandler)])`) is a handler by
 * Tornado's contract even when its base comes from a library outside the repository (SkyPortal's
 * handlers derive from baselayer's, a git submodule the clone does not hold).
 */
import type { Program } from '../resolution.js';
import { lineage, methodsOf } from './shared.js';
import { nothing, type Recogniser } from './types.js';

const HANDLER_BASES = /^(RequestHandler|WebSocketHandler|JupyterHandler|APIHandler|AuthenticatedHandler|ExtensionHandlerMixin|web\.RequestHandler|tornado\.web\.RequestHandler)$/;
const VERBS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options']);
const SOCKET_METHODS = new Set(['open', 'on_message']);
/** A file that builds the application (or subclasses it): its `(pattern, Handler)` tuples register handlers. */
const APPLICATION_BUILDER = /\b(tornado\.web\.|web\.)Application\b|\bfrom\s+tornado\.web\s+import\b[^\n]*\b(Application|url|URLSpec)\b/;
/** `(r"/api/x(/[0-9]+)?", XHandler` or `url(r"/x", XHandler`: a pattern string, then the handler class. */
const URL_SPEC = /\(\s*[rbu]*(['"])([^'"\n]*)\1\s*,\s*([A-Z]\w*)\s*[,)]/g;

/** Handler class names the program's Tornado URL lists register: computed once per program. */
const registeredByProgram = new WeakMap<Program, Set<string>>();

function registeredHandlers(program: Program): Set<string> {
  let names = registeredByProgram.get(program);
  if (names) return names;
  names = new Set();
  for (const file of program.files) {
    if (file.factsLanguage !== 'python' || !APPLICATION_BUILDER.test(file.text)) continue;
    for (const match of file.text.matchAll(URL_SPEC)) if (match[3]) names.add(match[3]);
  }
  registeredByProgram.set(program, names);
  return names;
}

export const tornado: Recogniser = {
  id: 'tornado',
  languages: ['python'],
  registrationFiles: { markers: [APPLICATION_BUILDER] },
  recognise(file, { program }) {
    const result = nothing();
    for (const cls of file.ir.classes) {
      const names = [...lineage(program, cls.name, file.path)].map((n) => n.split('.').pop() ?? n);
      const base = names.find((n) => HANDLER_BASES.test(n)) ?? (registeredHandlers(program).has(cls.name) ? 'handler the URL list registers' : undefined);
      if (!base) continue;
      const socket = names.includes('WebSocketHandler');
      for (const ref of methodsOf(program, file, cls.name)) {
        const name = ref.fn.name;
        if (!VERBS.has(name) && !(socket && SOCKET_METHODS.has(name))) continue;
        result.entries.push({
          functionId: ref.id,
          path: file.path,
          function: ref.fn.qualifiedName,
          line: ref.fn.startLine,
          framework: 'tornado',
          kind: socket && SOCKET_METHODS.has(name) ? 'websocket' : 'route',
          access: 'protected',
          evidence: `${name}() of ${cls.name}, a ${base}`,
        });
      }
    }
    return result;
  },
};
