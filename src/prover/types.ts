/**
 * The prover's shared record shapes: functions, entries, witnesses, operation sites, paths, findings and
 * coverage. Inside TypeScript the fields are camelCase; the JSON renderer (src/prover/render.ts) writes
 * snake_case (SPEC 5).
 */
import type { FileIR, FunctionIR } from '../syntax/ir-types.js';
import type { Language } from '../syntax/languages.js';
import type { Degradation } from './degradation.js';
import type { FactsLanguage } from './facts.js';
import type { DeclarationReport } from './declarations.js';

/** One source file the prover read, with its IR built once. */
export interface ProgramFile {
  path: string;
  text: string;
  /** The tree-sitter language the file was parsed with. */
  language: Language;
  /** Which facts file applies (javascript and tsx share typescript's). */
  factsLanguage: FactsLanguage;
  ir: FileIR;
  /** The text split into lines; `lines[0]` is line 1. */
  lines: string[];
}

/**
 * A function of the repository, identified across the run by `id` (`path::qualifiedName@startLine`,
 * which keeps overloads and same-name methods apart).
 */
export interface FunctionRef {
  id: string;
  path: string;
  fn: FunctionIR;
}

/** An entry point: a function the framework runs for a request an outsider can send. */
export interface EntryPoint {
  /** FunctionRef id of the handler. */
  functionId: string;
  path: string;
  /** The handler's qualified name, e.g. `ConnDescriptor.doTestConnection`. */
  function: string;
  /** Declaration line of the handler. */
  line: number;
  /** Recogniser id: `stapler`, `jetty`, `registration`, `symfony`, `laravel`, `livewire`, `remix`, `tornado`, `trpc`, `nextjs`, `express`, `react-router`, `django`, `flask`, `fastapi`, `spring`, `nestjs`, `fastify`, `mcp`. */
  framework: string;
  /** `route`, `form_validation`, `component_action`, `server_action`, `websocket`. */
  kind: string;
  /** `public` only when the framework or the repository declares the entry reachable without login. */
  access: 'public' | 'protected';
  /** Why this is an entry: the cue the recogniser saw, e.g. `public do-method on a Descriptor`. */
  evidence: string;
  /** For registered handlers: the registration site `path:line` (Express and Koa: `path:first-last`, the whole registration statement). */
  registeredBy?: string;
  /** The URL path when the declaration names one (`/admin/users`), for path-based configuration. */
  route?: string;
  /**
   * Middleware a JavaScript framework runs before the handler (tRPC procedure builders and `.use(...)`,
   * Express route and `router.use` middleware, page wrappers): judged by what it does (js-middleware.ts).
   */
  middleware?: MiddlewareUse[];
}

/** One middleware an entry's registration names. */
export interface MiddlewareUse {
  /** As written: an identifier (`authenticatedProcedure`, `ensureAdmin`), or a call (`requireRole('admin')`). */
  text: string;
  /** The file that names it (where its import is looked up). */
  path: string;
  line: number;
  /** `builder`: a tRPC procedure builder whose definition chains more middleware; `middleware`: a function run before the handler. */
  role: 'builder' | 'middleware';
  /** A middleware written in place (`.use(async ({ ctx, next }) => ...)`): its node. */
  functionId?: string;
}

/** A discharger kind: what kind of check a witness is. `csrf_guard` and `public` never discharge. */
export type DischargeKind = 'authn' | 'path_guard' | 'ownership_check' | 'csrf_guard' | 'public';

/** Evidence that a check runs before an operation. */
export interface Witness {
  kind: DischargeKind;
  /**
   * `statement` (a call in a function, ordered by line), `decorator` (on one handler), `class` (a class
   * attribute or a hook such as `getTarget()`/`prepare()`, covering every handler of the class),
   * `router` (route files, constructor middleware, security.yaml), `baseline` (the framework itself).
   */
  scope: 'statement' | 'decorator' | 'class' | 'router' | 'baseline';
  /** The function it sits in (statement) or covers (decorator, class, router, baseline). */
  functionId: string;
  /** For statement witnesses: the line of the check; otherwise null. */
  line: number | null;
  /** The discharger row that recognised it. */
  dischargerId: string;
  /** Source text or a description of where it came from. */
  evidence: string;
  /** True when the check is part of the operation's own call (a query constrained by the user): same line counts. */
  sameLine?: boolean;
  /** For a check that guards only its own branch (`if (can(x)) { ... }`): the last line it covers. */
  until?: number;
  /** The last line of the block the check sits in, when that block may not run (a branch, a loop, a try, a closure). */
  blockEnd?: number;
  /** For a declared guard: the parameter (index or name) naming the checked object, for resource binding. */
  resource?: number | string;
  /** For a denial joined to other terms (`exported && !can(x)`): those terms; the check is required only where they hold. */
  narrowedBy?: string;
  /** For a statement check: the name of the call that is the check (none for a comparison written as a condition). */
  callee?: string;
  /** The check's boolean is what protects (`can(x)`, not a call that throws): a branch must read it. */
  valueChecked?: boolean;
  /** Ownership proved against a current user that is a shared guest account when nobody is logged in (guest-users.ts): it counts only where a login check dominates too. */
  guestOpen?: boolean;
}

/** A protected operation found in a function. */
export interface OperationSite {
  operationId: string;
  kind: string;
  functionId: string;
  path: string;
  line: number;
  /** The call's text, or the handler name for handler-named operations. */
  call: string;
  /** True when the function's name is the operation (a handler-named row), not a call in it. */
  handlerNamed: boolean;
  requires: DischargeKind[];
  /** Kinds that also discharge it, not required of a declared-public entry (file writes: an ownership check). */
  alternatives?: readonly DischargeKind[];
  severity: 'critical' | 'high' | 'medium' | 'low';
  cwe: string;
  /** Entry handler names behind which this is an obligation (a configuration read a list box discloses); absent: every entry. */
  onlyFrom?: readonly RegExp[];
  /** With `onlyFrom`: a hop also hands the read on when it assigns the next hop's answer to a local it returns (scoped-relations.ts). */
  answerThroughLocals?: boolean;
  /** A privilege grant: only a check whose text or conditions test the caller's own privilege discharges it (privilege-grants.ts). */
  heldBy?: RegExp;
  /** A handler-named read that is an obligation only where every other entry of its file declares a permission (sibling-norm.ts). */
  siblingNorm?: boolean;
  /** A handler-named submission that is an obligation only where another verb of its class checks (verb-norm.ts). */
  verbNorm?: boolean;
}

/** One hop of a path: a function and the line where it calls the next hop (null on the last hop). */
export interface Hop {
  functionId: string;
  callLine: number | null;
}

/** A chain of calls from an entry to a target function, entry first. */
export interface PathRecord {
  hops: Hop[];
  /** FunctionRef id of the first hop. */
  entry: string;
  /** True when the first hop is an entry point. */
  complete: boolean;
}

/** How the checker labels a finding. */
/** `resource_unbound`: the path checks permissions, but none bound to the object the request chose (resource-binding.ts). */
export type FindingLabel = 'unguarded_path' | 'sibling_norm' | 'authn_only' | 'resource_unbound';

/** One prover finding, in the shape the JSON names (camelCase here). */
export interface ProverFinding {
  /** Stable id: a digest of rule, path, operation call and entry. */
  id: string;
  rule: string;
  label: FindingLabel;
  path: string;
  line: number;
  /** Qualified name of the function holding the operation. */
  function: string;
  entry: { path: string; function: string; line: number; framework: string; evidence: string };
  /** `relation`: a function on the way that is no call (the handler whose own check does not cover an inherited one), in words. */
  hops: { function: string; path: string; callLine: number; relation?: string }[];
  operation: { id: string; kind: string; line: number; call: string };
  /** The discharger kinds that would have discharged the operation, joined by `|` when several do. */
  missing: string;
  /** Checks seen on the path that do not discharge this operation (authn-only, CSRF). */
  weakerChecks: string[];
  severity: 'critical' | 'high' | 'medium' | 'low';
  confidence: number;
  cwe: string;
  /** The source line of the operation call. */
  evidence: string;
  /** For `resource_unbound`: the object the operation acts on and why the checks before it do not cover it. */
  unboundResource?: { variable: string; sentence: string };
  /**
   * How it was judged whether the path's statement checks come before the operation: on the control-flow
   * graph, or by statement order where no graph could be built for one of them (`reason`).
   */
  dominance?: { judgedBy: 'control_flow' } | { judgedBy: 'order'; reason: string };
  /** Checks the change removed from a function on this path (change mode): where they stood and what they said. */
  removedChecks?: { path: string; line: number; text: string }[];
}

/** What the prover covered and what it left unchecked, per repository. */
export interface Coverage {
  filesByLanguage: Record<string, number>;
  /** Recogniser id → number of entries it found. */
  frameworksRecognised: Record<string, number>;
  entryPoints: number;
  /** Operation sites reached from an entry by a complete path. */
  reached: number;
  /** Operation sites no entry reaches within the depth and fan-out bounds. */
  unreached: number;
  operationsChecked: number;
  operationsDischarged: number;
  /** Reason → count: receiver_unresolved, receiver_followed_by_name, library_receiver, registration_unresolved, framework_unrecognised, parse_error, fan_out_cut, error:<Class>... */
  uncheckedByReason: Record<string, number>;
}

/** What `proveChange` returns. */
export interface ProveResult {
  findings: ProverFinding[];
  coverage: Coverage;
  /** What could not be proved in full, in the order met (rendered by `degradationText`). */
  degradations: Degradation[];
  /** What the `[prover]` declarations of the configuration did (entries skipped as public, stale entries). */
  declared?: DeclarationReport;
  /** What the engine recognised in the repository, when asked for (`jscr facts init`). */
  inventory?: ProverInventory;
}

/** A project function the engine reads as a check: called before an operation, it discharges it. */
export interface RecognisedHelper {
  /** The function's own name (what a `[prover] guards` row names). */
  name: string;
  /** `Class.method` for methods. */
  qualifiedName: string;
  className: string | null;
  path: string;
  startLine: number;
  endLine: number;
  /** What a call to it proves (`authn`, `path_guard`, `ownership_check`). */
  kinds: DischargeKind[];
  /** `helper` (checks on every path before it returns) or `predicate` (returns a check's boolean). */
  shape: 'helper' | 'predicate';
}

/** A named function of the program (what a proposal may name). */
export type ProgramFunction = Omit<RecognisedHelper, 'kinds' | 'shape'>;

/** The repository's vocabulary as the engine sees it: entries, check helpers, operations. */
export interface ProverInventory {
  entries: EntryPoint[];
  helpers: RecognisedHelper[];
  /** Every named function (not lambdas), for proposals of helpers the engine does not read as checks. */
  functions: ProgramFunction[];
  /** Operation row id -> how many call sites matched it. */
  operations: Record<string, number>;
}
