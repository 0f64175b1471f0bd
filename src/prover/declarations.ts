/**
 * What the repository's base configuration tells the prover (`[prover] guards` and `[prover] public`,
 * SPEC 3): calls to a declared guard are checks of the declared kind at their call sites, and declared
 * public entries are not starting points of unguarded-operation findings. Entries skipped and
 * declarations that matched nothing are reported, so an exemption is never silent.
 */
import type { CallIR } from '../syntax/ir-types.js';
import { resolveCall, type Program } from './resolution.js';
import type { DischargeKind, EntryPoint, FunctionRef, ProgramFile } from './types.js';

/** One `[[prover.guards]]` entry as the configuration gives it. */
export interface GuardDeclaration {
  name: string;
  checks: 'authentication' | 'permission' | 'ownership';
  /** The parameter (index or name) that names the checked object; carried for resource binding. */
  resource?: number | string | undefined;
}

/** One `[[prover.public]]` entry as the configuration gives it. */
export interface PublicDeclaration {
  route?: string | undefined;
  handler?: string | undefined;
  reason: string;
}

/** The `[prover]` declarations the prover reads. */
export interface ProverDeclarations {
  guards: readonly GuardDeclaration[];
  public: readonly PublicDeclaration[];
}

/** An entry left out as a starting point because the configuration declares it public. */
export interface SkippedPublicEntry {
  path: string;
  function: string;
  line: number;
  framework: string;
  /** The declaration that matched, as written (`route /login` or `handler LoginController.show`). */
  declared: string;
  reason: string;
}

/** What the declarations did in one run. */
export interface DeclarationReport {
  publicSkipped: SkippedPublicEntry[];
  /** One sentence per declaration that matched nothing (a stale or misspelt entry). */
  stale: string[];
}

export const GUARD_KINDS: Record<GuardDeclaration['checks'], DischargeKind> = {
  authentication: 'authn',
  permission: 'path_guard',
  ownership: 'ownership_check',
};

export const NO_DECLARATIONS: ProverDeclarations = { guards: [], public: [] };

/** `Class::method` and `Class.method` are the same name; a bare name has no class. */
function splitName(name: string): { cls: string | null; method: string } {
  const parts = name.split(/::|\./);
  return parts.length === 2 ? { cls: parts[0] ?? null, method: parts[1] ?? name } : { cls: null, method: name };
}

/** The last segment of a receiver's text (`\App\Auth`, `auth.Gate`, `$this`). */
function receiverTail(receiver: string): string {
  return receiver.trim().replace(/^\$/, '').split(/\\|\.|->|::/).pop() ?? receiver;
}

const SELF = new Set(['this', 'self', 'static']);

/** True when `call` (in `caller`) calls the declared guard `name`. */
export function callsGuard(program: Program, file: ProgramFile, caller: FunctionRef | null, call: CallIR, name: string): boolean {
  const { cls, method } = splitName(name);
  if (call.kind === 'new' || call.callee !== method) return false;
  const receiver = call.receiver === null ? null : receiverTail(call.receiver);
  if (cls === null) {
    // A function: a bare call, or one through the module object it is exported from.
    if (receiver === null) return true;
    return resolveCall(program, file, caller?.fn ?? null, call).targets.some((t) => t.fn.name === method && t.fn.className === null);
  }
  if (receiver === cls) return true;
  if (receiver !== null && SELF.has(receiver) && caller?.fn.className === cls) return true;
  // A typed receiver (`$this->gate->check()`, `policy.check()`): resolved to the declared class or a subclass's copy of it.
  return resolveCall(program, file, caller?.fn ?? null, call).targets.some((t) => t.fn.className === cls && t.fn.name === method);
}

/** How a `[[prover.public]]` entry is written in messages. */
export function describePublic(entry: PublicDeclaration): string {
  return [entry.route === undefined ? null : `route ${entry.route}`, entry.handler === undefined ? null : `handler ${entry.handler}`].filter((s) => s !== null).join(', ');
}

function routeMatches(pattern: string, route: string | undefined): boolean {
  if (route === undefined) return false;
  const normal = (r: string): string => (r.length > 1 ? r.replace(/\/+$/, '') : r);
  if (pattern.endsWith('*')) return normal(route).startsWith(normal(pattern.slice(0, -1)));
  return normal(route) === normal(pattern);
}

function handlerMatches(pattern: string, entry: EntryPoint): boolean {
  const normal = pattern.replace(/::/g, '.');
  const at = normal.lastIndexOf(':');
  // `app/routes/signup.tsx:action`: a module's exported handler, named with its file.
  if (at > 0) return normal.slice(0, at) === entry.path && normal.slice(at + 1) === entry.function;
  return normal === entry.function || normal === entry.function.replace(/::/g, '.');
}

/** True when a `[[prover.public]]` entry names this entry (every field it gives must match). */
function publicMatches(declaration: PublicDeclaration, entry: EntryPoint): boolean {
  if (declaration.route !== undefined && !routeMatches(declaration.route, entry.route)) return false;
  if (declaration.handler !== undefined && !handlerMatches(declaration.handler, entry)) return false;
  return true;
}

/**
 * Remove the entries the configuration declares public from the starting points, and say which were
 * removed and why. Returns the declarations that matched no entry as stale sentences.
 */
export function applyPublicDeclarations(
  entries: Map<string, EntryPoint>,
  declarations: readonly PublicDeclaration[],
  addedByChange: (entry: EntryPoint) => boolean = () => false,
): { skipped: SkippedPublicEntry[]; stale: string[] } {
  const skipped: SkippedPublicEntry[] = [];
  const stale: string[] = [];
  // A handler the change under proof adds under a declared name (a second `LoginController.show`) stays a starting point.
  const all = [...entries.values()].filter((entry) => !addedByChange(entry));
  for (const declaration of declarations) {
    const matching = all.filter((entry) => publicMatches(declaration, entry));
    if (matching.length === 0) stale.push(`[[prover.public]] ${describePublic(declaration)} matched no entry point`);
    for (const entry of matching) {
      if (!entries.delete(entry.functionId)) continue; // an earlier declaration already took it
      skipped.push({ path: entry.path, function: entry.function, line: entry.line, framework: entry.framework, declared: describePublic(declaration), reason: declaration.reason });
    }
  }
  return { skipped, stale };
}

/** The sentence for a guard that no call reached. */
export function staleGuard(guard: GuardDeclaration): string {
  return `[[prover.guards]] ${guard.name} is called nowhere in the proved files`;
}
