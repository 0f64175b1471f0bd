/**
 * tRPC: the handler of every procedure, `<builder>...query(fn)`, `.mutation(fn)` and `.subscription(fn)`,
 * wherever it is written (in a `router({...})` literal or as a module constant a router lists). Each
 * procedure is its own endpoint with the client's input. Its middleware is the builder it starts from
 * (`authenticatedProcedure`, `t.procedure`) and each `.use(...)` of the chain; those are judged by what
 * they do (js-middleware.ts), never by their names while their code is in the repository.
 */
import type { MiddlewareUse } from '../types.js';
import { functionStartingAt, namedFunction, withoutComments } from './js-handlers.js';
import { nothing, type Recogniser } from './types.js';

const HANDLER_METHODS: Record<string, string> = { query: 'route', mutation: 'server_action', subscription: 'websocket' };
/** The chain's first name: a procedure builder (`publicProcedure`, `authedProcedure`) or `t.procedure`. */
const BUILDER = /^\s*([A-Za-z_$][\w$]*)(\s*\.\s*procedure\b)?/;
const USE = /\.\s*use\s*\(\s*([A-Za-z_$][\w$.]*)?/g;

export const trpc: Recogniser = {
  id: 'trpc',
  languages: ['typescript'],
  // The builders' definitions (`initTRPC`, `t.middleware`) hold the middleware every procedure runs.
  registrationFiles: { markers: [/\binitTRPC\b|\.middleware\s*\(\s*(async\s*)?\(?\s*\{[^}]*\bnext\b/] },
  recognise(file, { program }) {
    const result = nothing();
    const seen = new Set<string>();
    for (const call of file.ir.calls) {
      const kind = HANDLER_METHODS[call.callee];
      if (kind === undefined || call.receiver === null) continue;
      const chain = withoutComments(call.receiver);
      const builder = BUILDER.exec(chain);
      const root = builder?.[1];
      if (!root || !(builder[2] !== undefined || /[Pp]rocedure$/.test(root))) continue;
      // The handler is the argument of `.query(`/`.mutation(`: a lambda on that line, or a name.
      const at = handlerLine(file.lines, call.line, call.callee);
      if (at === null) continue;
      const argument = /^\s*([A-Za-z_$][\w$.]*)\s*\)/.exec(file.lines[at - 1]?.slice((file.lines[at - 1] ?? '').search(new RegExp(String.raw`\b${call.callee}\s*\(`)) + call.callee.length + 1) ?? '');
      const handler = argument?.[1] ? namedFunction(program, file, argument[1]) : functionStartingAt(program, file, at);
      if (!handler) {
        result.unresolved.handler_unresolved = (result.unresolved.handler_unresolved ?? 0) + 1;
        continue;
      }
      if (seen.has(handler.id)) continue;
      seen.add(handler.id);
      const middleware: MiddlewareUse[] = [];
      if (builder[2] === undefined) middleware.push({ text: root, path: file.path, line: call.line, role: 'builder' });
      for (const use of chain.matchAll(USE)) {
        const useLine = call.line + (chain.slice(0, use.index).match(/\n/g)?.length ?? 0);
        const inline = use[1] === undefined ? functionStartingAt(program, file, useLine) : null;
        middleware.push({ text: use[1] ?? `middleware at line ${useLine}`, path: file.path, line: useLine, role: 'middleware', ...(inline ? { functionId: inline.id } : {}) });
      }
      result.entries.push({
        functionId: handler.id,
        path: handler.path,
        function: handler.fn.qualifiedName,
        line: handler.fn.startLine,
        framework: 'trpc',
        kind,
        access: 'protected',
        evidence: `tRPC ${call.callee} of ${builder[2] === undefined ? root : `${root}.procedure`} at ${file.path}:${call.line}`,
        middleware,
      });
    }
    return result;
  },
};

/** The line holding `.query(`/`.mutation(` of a chain that starts at `line`. */
function handlerLine(lines: readonly string[], line: number, method: string): number | null {
  const opening = new RegExp(String.raw`\.\s*${method}\s*\(|^\s*${method}\s*\(`);
  for (let l = line; l <= Math.min(lines.length, line + 80); l++) if (opening.test(lines[l - 1] ?? '')) return l;
  return null;
}
