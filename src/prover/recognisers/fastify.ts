/**
 * Fastify routes on an instance the module creates (`const app = Fastify()`): `app.get|post|put|patch|
 * delete|all(url, [options], handler)` and `app.route({ method, url, handler, preHandler })`. Route-level
 * hooks (`onRequest`, `preParsing`, `preValidation`, `preHandler` in the options) and the instance's
 * `addHook('onRequest' | 'preValidation' | 'preHandler', fn)` run before the handler; Fastify composes an
 * instance's hooks for all its routes when it starts, so a hook counts wherever the module adds it. A hook
 * named through a decoration (`app.authenticate`, defined by `app.decorate('authenticate', fn)`) is
 * judged by that function's code. Routes registered inside a plugin function fold into the plugin's
 * node: counted `handler_in_function`, not made entries (their hooks are the plugin's, as in Express).
 */
import type { FunctionRef, MiddlewareUse, ProgramFile } from '../types.js';
import type { Program } from '../resolution.js';
import { argumentsOf, middlewareOf, routeHandler, type Argument } from './express.js';
import { functionStartingAt } from './js-handlers.js';
import { nothing, type Recogniser } from './types.js';

const VERBS = new Set(['get', 'post', 'put', 'patch', 'delete', 'all', 'options', 'head']);
const INSTANCE_MADE = /^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:await\s+)?(?:Fastify|fastify|require\(\s*['"]fastify['"]\s*\))\s*\(/;
const HOOKS = /^(onRequest|preParsing|preValidation|preHandler)$/;
const STRING = /^(['"`])([^'"`]*)\1$/;

export const fastify: Recogniser = {
  id: 'fastify',
  languages: ['typescript'],
  // A decorated hook (`app.authenticate`) is defined where `decorate('authenticate', ...)` is written.
  registrationFiles: { markers: [/\.decorate\(\s*['"`]\w+['"`]\s*,/] },
  recognise(file, { program }) {
    const result = nothing();
    if (!file.ir.imports.some((imp) => imp.module === 'fastify')) return result;
    const instances = new Set<string>();
    for (const text of file.lines) {
      const made = INSTANCE_MADE.exec(text);
      if (made?.[1]) instances.add(made[1]);
    }
    if (instances.size === 0) return result;
    const hooks = new Map<string, MiddlewareUse[]>();
    for (const call of file.ir.calls) {
      const instance = call.receiver?.trim() ?? '';
      if (call.callee !== 'addHook' || !instances.has(instance)) continue;
      const args = argumentsOf(file, call);
      if (!HOOKS.test(STRING.exec(args[0]?.text ?? '')?.[2] ?? '')) continue;
      hooks.set(instance, [...(hooks.get(instance) ?? []), ...args.slice(1).flatMap((a) => hookUses(program, file, a, instances))]);
    }
    const seen = new Set<string>();
    for (const call of file.ir.calls) {
      const instance = call.receiver?.trim() ?? '';
      if (!instances.has(instance) || !(VERBS.has(call.callee) || call.callee === 'route')) continue;
      const args = argumentsOf(file, call);
      const route = call.callee === 'route' ? routeObject(file, args[0]) : verbRoute(args);
      if (route === null) continue;
      const handler = routeHandler(program, file, route.handler, result, seen);
      if (handler === null) continue;
      const middleware = [...(hooks.get(instance) ?? []), ...route.hooks.flatMap((a) => hookUses(program, file, a, instances))];
      result.entries.push(entryOf(handler, `${instance}.${call.callee}('${route.url}') at ${file.path}:${call.line}`, route.url, middleware));
    }
    return result;
  },
};

interface FastifyRoute {
  url: string;
  handler: Argument | null;
  hooks: Argument[];
}

function entryOf(handler: FunctionRef, evidence: string, route: string, middleware: MiddlewareUse[]) {
  return { functionId: handler.id, path: handler.path, function: handler.fn.qualifiedName, line: handler.fn.startLine, framework: 'fastify', kind: 'route', access: 'protected' as const, evidence, route, middleware };
}

/** `app.get('/x', { preHandler: [a] }, handler)`. */
function verbRoute(args: readonly Argument[]): FastifyRoute | null {
  const url = STRING.exec(args[0]?.text ?? '')?.[2];
  const handler = args[args.length - 1];
  if (url === undefined || args.length < 2 || !handler) return null;
  const options = args.length > 2 ? args[1] : undefined;
  return { url, handler, hooks: options ? optionHooks(options) : [] };
}

/** `app.route({ method: 'DELETE', url: '/x', preHandler: a, handler: async (req) => ... })`. */
function routeObject(file: ProgramFile, arg: Argument | undefined): FastifyRoute | null {
  if (!arg || !arg.text.trim().startsWith('{')) return null;
  const url = /\burl\s*:\s*(['"`])([^'"`]*)\1/.exec(arg.text)?.[2] ?? '';
  const property = /\bhandler\s*(:|\()/.exec(arg.text);
  let handler: Argument | null = null;
  if (property) {
    const line = arg.line + (arg.text.slice(0, property.index).match(/\n/g)?.length ?? 0);
    const value = arg.text.slice(property.index + property[0].length).trim();
    const name = /^[A-Za-z_$][\w$.]*/.exec(value)?.[0];
    // A method (`handler(req, reply) {`) or a lambda starts a function on that line; otherwise the value names one.
    const inPlace = property[1] === '(' || name === undefined || name === 'async' || name === 'function';
    handler = { text: inPlace ? 'async () =>' : name, line };
  }
  return { url, handler, hooks: optionHooks(arg) };
}

/** The hook values of a route's options: `preHandler: [app.authenticate, requireAdmin]`. */
function optionHooks(options: Argument): Argument[] {
  const out: Argument[] = [];
  for (const match of options.text.matchAll(/\b(onRequest|preParsing|preValidation|preHandler)\s*:\s*(\[[^\]]*\]|[A-Za-z_$][\w$.]*(?:\([^)]*\))?)/g)) {
    const line = options.line + (options.text.slice(0, match.index ?? 0).match(/\n/g)?.length ?? 0);
    out.push({ text: match[2] ?? '', line });
  }
  return out;
}

/** What one hook value hands over: a decoration (`app.authenticate`) is the function `decorate` gave it. */
function hookUses(program: Program, file: ProgramFile, arg: Argument, instances: ReadonlySet<string>): MiddlewareUse[] {
  const text = arg.text.trim();
  if (text.startsWith('[')) {
    return text.slice(1, -1).split(',').map((t) => t.trim()).filter((t) => t !== '').flatMap((t) => hookUses(program, file, { text: t, line: arg.line }, instances));
  }
  const decorated = /^([A-Za-z_$][\w$]*)\.([A-Za-z_$][\w$]*)$/.exec(text);
  if (decorated && instances.has(decorated[1] ?? '')) {
    return decoration(program, decorated[2] ?? '', { text, path: file.path, line: arg.line });
  }
  return middlewareOf(program, file, arg, instances);
}

/**
 * The function `x.decorate('name', fn)` hands over, in any file of the program. Written inside a plugin
 * function it has no node of its own: then only a `request.jwtVerify()` in its text is read (a login).
 */
function decoration(program: Program, name: string, use: Pick<MiddlewareUse, 'text' | 'path' | 'line'>): MiddlewareUse[] {
  for (const file of program.files) {
    if (file.factsLanguage !== 'typescript' || !file.text.includes('decorate')) continue;
    const index = file.lines.findIndex((l) => new RegExp(String.raw`\.decorate\(\s*['"\`]${name}['"\`]\s*,`).test(l));
    if (index < 0) continue;
    const ref = functionStartingAt(program, file, index + 1);
    if (ref) return [{ ...use, role: 'middleware', functionId: ref.id }];
    const folded = file.ir.functions.find((fn) => fn.startLine === index + 1 || fn.startLine === index + 2);
    const body = folded ? file.lines.slice(folded.startLine - 1, folded.endLine).join('\n') : '';
    return /\.jwtVerify\s*\(/.test(body) ? [{ ...use, text: 'jwtVerify', role: 'middleware' }] : [];
  }
  return [];
}
