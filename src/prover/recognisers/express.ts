/**
 * Express and Koa routers: `app.get('/x', mw, handler)`, `router.post(...)`, `router.route('/x').put(...)`
 * on an application or router the module creates (`express()`, `express.Router()`, `Router()`,
 * `new Router()` of koa-router). The last argument is the handler; the arguments between the path and it
 * are middleware, and so is every `router.use(mw)` of the same router written above the route (with a
 * path, only for routes under it). Middleware counts by what its code does (js-middleware.ts). A route
 * registered inside a function on one of its parameters (`function workspaceEndpoints(app) { app.get('/x',
 * [mw], async (req, res) => ...) }`, the app or router handed in by the server's index) is a route too:
 * its handler lambda is its own node (`parameterRouteLines`, read by resolution.ts). Any other lambda
 * inside a function folds into that function's node and is counted `handler_in_function`.
 */
import { callArguments } from '../ownership.js';
import type { CallIR, FileIR } from '../../syntax/ir-types.js';
import type { FunctionRef, MiddlewareUse, ProgramFile } from '../types.js';
import type { Program } from '../resolution.js';
import { functionStartingAt, moduleStatement, namedFunction } from './js-handlers.js';
import { developmentOnlyAt, onlyCalledInDevelopment } from '../development-only.js';
import { nothing, type Recognised, type Recogniser } from './types.js';

const VERBS = new Set(['get', 'post', 'put', 'patch', 'delete', 'del', 'all', 'options', 'head']);
const ROUTER_MODULES = /^(express|express-promise-router|router|koa-router|@koa\/router|express5?-?router)$/;
const ROUTER_MADE = /^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:express\s*\(|express\.Router\s*\(|(?:express\.)?Router\s*\(|new\s+(?:Koa)?Router\s*\(|Router\.\w+\s*\()/;
const LAMBDA = /^(async\s+)?(function\b|\([^)]*\)\s*(:\s*[^=]+)?=>|[A-Za-z_$][\w$]*\s*=>)/;
const STRING = /^(['"`])([^'"`]*)\1$/;

export interface Argument {
  text: string;
  line: number;
}

export const express: Recogniser = {
  id: 'express',
  languages: ['typescript'],
  recognise(file, { program }) {
    const result = nothing();
    const handedIn = parameterRouters(file.ir);
    if (handedIn.size === 0 && !file.ir.imports.some((imp) => ROUTER_MODULES.test(imp.module))) return result;
    const routers = new Set<string>(handedIn.keys());
    for (const text of file.lines) {
      const made = ROUTER_MADE.exec(text);
      if (made?.[1]) routers.add(made[1]);
    }
    if (routers.size === 0) return result;
    // `router.use(...)` above a route: middleware for the routes after it (under its path, if it names one).
    const uses: { router: string; line: number; prefix: string | null; middleware: MiddlewareUse[] }[] = [];
    for (const call of file.ir.calls) {
      const router = call.receiver?.trim();
      if (call.callee !== 'use' || router === undefined || !routers.has(router)) continue;
      const args = argumentsOf(file, call);
      const prefix = STRING.exec(args[0]?.text ?? '')?.[2] ?? null;
      const middleware = args.slice(prefix === null ? 0 : 1).flatMap((a) => middlewareOf(program, file, a, routers));
      uses.push({ router, line: call.line, prefix, middleware });
    }
    const seen = new Set<string>();
    for (const call of file.ir.calls) {
      if (!VERBS.has(call.callee) || call.receiver === null) continue;
      const receiver = call.receiver.trim();
      const chained = /^([A-Za-z_$][\w$]*)\s*\.\s*route\s*\(\s*(['"`])([^'"`]*)\2/.exec(receiver);
      const router = chained?.[1] ?? receiver;
      if (!routers.has(router)) continue;
      const args = argumentsOf(file, call);
      // `router.put(['/', '/:id'], handler)`: one handler for several paths, named by the first.
      const written = (args[0]?.text ?? '').trim();
      const pathArgument = written.startsWith('[') ? (written.slice(1, -1).split(',')[0] ?? '').trim() : written;
      const pathText = chained ? (chained[3] ?? '') : STRING.exec(pathArgument)?.[2];
      if (pathText === undefined) continue;
      if (handedIn.has(router) && !pathText.startsWith('/')) continue;
      // A route a production deployment does not serve is no entry (development-only.ts).
      if (developmentOnlyAt(file, call.line) || (handedIn.has(router) && registeredInDevelopment(program, file.ir, call, router))) {
        result.unresolved.development_only = (result.unresolved.development_only ?? 0) + 1;
        continue;
      }
      const rest = chained ? args : args.slice(1);
      const last = rest[rest.length - 1];
      if (!last) continue;
      const handler = routeHandler(program, file, last, result, seen);
      if (handler === null) continue;
      const before = uses.filter((u) => u.router === router && u.line < call.line && (u.prefix === null || pathText.startsWith(u.prefix))).flatMap((u) => u.middleware);
      const middleware = [...before, ...rest.slice(0, -1).flatMap((a) => middlewareOf(program, file, a, routers))];
      result.entries.push({
        functionId: handler.id,
        path: handler.path,
        function: handler.fn.qualifiedName,
        line: handler.fn.startLine,
        framework: 'express',
        kind: 'route',
        access: 'protected',
        evidence: `${router}.${call.callee}('${pathText}') at ${file.path}:${call.line}`,
        route: pathText,
        registeredBy: `${file.path}:${call.line}-${Math.max(call.line, last.line)}`,
        middleware,
      });
    }
    return result;
  },
};

/** Modules of a server framework whose instances share Express's verb methods but not its middleware: a parameter of a file importing one is that framework's instance (a Fastify plugin's `fastify`). */
const OTHER_SERVER_MODULES = /^(fastify|fastify-plugin|@fastify\/.+|hono|hono\/.+|@hapi\/hapi|elysia|h3)$/;
/** Declared types of an Express or Koa application or router parameter (`app: Express`, `router: express.Router`, `app: Koa`). */
const ROUTER_TYPES = /^(?:express\.|Express\.|Koa\.)?(?:Express|Application|Router|IRouter|Koa|KoaRouter)\b/;
/** Instance methods only Fastify has (hooks, plugins, decorations): a parameter they are called on is a Fastify instance. */
const FASTIFY_ONLY = new Set(['addHook', 'register', 'decorate', 'decorateRequest', 'decorateReply', 'setErrorHandler', 'withTypeProvider']);

/**
 * The parameters of the file's functions that are Express or Koa routers: `P.get|post|...('/path', ...)`
 * is written on `P` inside the function (a path literal starting with `/`, so `cache.get('key')` is not
 * a route). Each maps to the calls that register routes on it. Not a router: a parameter declared with
 * another type, one a Fastify-only method is called on, one whose route takes an options object
 * (`fastify.get('/x', { preHandler }, handler)`: Express middleware are functions), and any parameter of
 * a file importing another server framework. Their hooks are that framework's, which this reading
 * would drop, so their routes stay folded into the plugin function.
 */
function parameterRouters(ir: FileIR): Map<string, CallIR[]> {
  const out = new Map<string, CallIR[]>();
  if (ir.imports.some((imp) => OTHER_SERVER_MODULES.test(imp.module))) return out;
  const foreign = new Set<string>();
  for (const call of ir.calls) {
    const receiver = call.receiver?.trim() ?? '';
    if (FASTIFY_ONLY.has(call.callee)) foreign.add(receiver);
    if (!VERBS.has(call.callee) || !/^[A-Za-z_$][\w$]*$/.test(receiver)) continue;
    const written = new RegExp(String.raw`^\s*${receiver.replace(/\$/g, '\\$')}\s*\.\s*${call.callee}\s*\(\s*(['"\`])\/[^'"\`]*\1\s*(,\s*\{)?`).exec(call.text);
    if (!written) continue;
    if (written[2] !== undefined) foreign.add(receiver);
    const owners = ir.functions.filter((fn) => fn.startLine <= call.line && fn.endLine >= call.line).flatMap((fn) => fn.parameters.filter((p) => p.name === receiver));
    if (owners.length === 0) continue;
    if (owners.some((p) => p.type !== null && !ROUTER_TYPES.test(p.type.trim()))) foreign.add(receiver);
    out.set(receiver, [...(out.get(receiver) ?? []), call]);
  }
  for (const name of foreign) out.delete(name);
  return out;
}

/** True when the function registering `call` on its parameter `router` is only called under a development-only test. */
function registeredInDevelopment(program: Program, ir: FileIR, call: CallIR, router: string): boolean {
  const owner = ir.functions
    .filter((fn) => fn.startLine <= call.line && fn.endLine >= call.line && fn.parameters.some((p) => p.name === router))
    .sort((a, b) => b.startLine - a.startLine)[0];
  return owner !== undefined && onlyCalledInDevelopment(program, owner.name);
}

/** The lines where the handler (last argument) of a route registered on a function's parameter starts: those lambdas are their own nodes. */
export function parameterRouteLines(file: ProgramFile): Set<number> {
  const lines = new Set<number>();
  for (const calls of parameterRouters(file.ir).values()) {
    for (const call of calls) {
      const last = argumentsOf(file, call).at(-1);
      if (last && LAMBDA.test(last.text)) lines.add(last.line);
    }
  }
  return lines;
}

/** A call's arguments with the line each starts on, read from the file (the call's own text is cut short). */
export function argumentsOf(file: ProgramFile, call: CallIR): Argument[] {
  const statement = moduleStatement(file, call.line, 400).text;
  const start = Math.max(0, statement.search(new RegExp(String.raw`\b${call.callee}\s*\(`)));
  const text = statement.slice(start);
  const out: Argument[] = [];
  let from = 0;
  for (const arg of callArguments(text, call.callee) ?? []) {
    const at = Math.max(from, text.indexOf(arg, from));
    from = at + arg.length;
    out.push({ text: arg, line: call.line + (statement.slice(0, start + at).match(/\n/g)?.length ?? 0) });
  }
  return out;
}

/** The handler a route hands over, once per handler; one that cannot be an entry is counted in `result.unresolved`. */
export function routeHandler(program: Program, file: ProgramFile, arg: Argument | null, result: Recognised, seen: Set<string>): FunctionRef | null {
  const handler = arg === null ? null : handlerOf(program, file, arg);
  if (handler === 'in_function' || handler === null) {
    const reason = handler === null ? 'handler_unresolved' : 'handler_in_function';
    result.unresolved[reason] = (result.unresolved[reason] ?? 0) + 1;
    return null;
  }
  if (seen.has(handler.id)) return null;
  seen.add(handler.id);
  return handler;
}

/** The handler an argument hands over: a lambda's own node, or a named function; `in_function` when the lambda folds into an enclosing function. */
export function handlerOf(program: Program, file: ProgramFile, arg: Argument): FunctionRef | 'in_function' | null {
  if (LAMBDA.test(arg.text)) {
    const ref = functionStartingAt(program, file, arg.line);
    if (ref) return ref;
    return file.ir.functions.some((fn) => fn.startLine === arg.line || fn.startLine === arg.line + 1) ? 'in_function' : null;
  }
  const name = /^[A-Za-z_$][\w$.]*$/.exec(arg.text)?.[0];
  return name === undefined ? null : namedFunction(program, file, name);
}

/** The middleware an argument names: identifiers and factory calls (`requireRole('admin')`), arrays of them, lambdas written in place. */
export function middlewareOf(program: Program, file: ProgramFile, arg: Argument, routers: ReadonlySet<string>): MiddlewareUse[] {
  const text = arg.text.trim();
  if (text.startsWith('[')) {
    return topLevelItems(text.slice(1, -1)).map((t) => t.trim()).filter((t) => t !== '').flatMap((t) => middlewareOf(program, file, { text: t, line: arg.line }, routers));
  }
  if (LAMBDA.test(text)) {
    const ref = functionStartingAt(program, file, arg.line);
    return ref ? [{ text: `middleware at line ${arg.line}`, path: file.path, line: arg.line, role: 'middleware', functionId: ref.id }] : [];
  }
  const name = /^[A-Za-z_$][\w$.]*/.exec(text)?.[0];
  if (name === undefined || routers.has(name)) return [];
  return [{ text, path: file.path, line: arg.line, role: 'middleware' }];
}

/** The comma-separated items of a list, commas inside brackets, parentheses or strings left alone (`[auth, role([A, B])]`). */
function topLevelItems(text: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let current = '';
  for (const ch of text) {
    if (quote !== null) {
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'" || ch === '`') quote = ch;
    else if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) depth--;
    else if (ch === ',' && depth === 0) {
      items.push(current);
      current = '';
      continue;
    }
    current += ch;
  }
  items.push(current);
  return items;
}
