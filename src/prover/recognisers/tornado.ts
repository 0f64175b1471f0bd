/**
 * Tornado (and Jupyter Server): verb methods of classes deriving from `RequestHandler` (directly or
 * through repository base classes), and `open`/`on_message` of `WebSocketHandler`s.
 */
import { lineage, methodsOf } from './shared.js';
import { nothing, type Recogniser } from './types.js';

const HANDLER_BASES = /^(RequestHandler|WebSocketHandler|JupyterHandler|APIHandler|AuthenticatedHandler|ExtensionHandlerMixin|web\.RequestHandler|tornado\.web\.RequestHandler)$/;
const VERBS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options']);
const SOCKET_METHODS = new Set(['open', 'on_message']);

export const tornado: Recogniser = {
  id: 'tornado',
  languages: ['python'],
  recognise(file, { program }) {
    const result = nothing();
    for (const cls of file.ir.classes) {
      const names = [...lineage(program, cls.name, file.path)].map((n) => n.split('.').pop() ?? n);
      const base = names.find((n) => HANDLER_BASES.test(n));
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
