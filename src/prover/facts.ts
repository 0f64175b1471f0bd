/**
 * The prover's facts: which calls are protected operations, which calls, annotations and middleware
 * are checks, and which call sites register handlers. They live as data in
 * `ruleset/obligations/<language>.toml` and load through the data-file loader (STYLE 7): the zod schema
 * parses the TOML, normalisation compiles it into a strict type, and semantic checks refuse duplicates,
 * unknown references, regexes that do not compile or can backtrack catastrophically.
 */
import { z } from 'zod';
import { dataFileContext, loadDataFile, UniqueIds, type DataFileContext } from '../data-file/load.js';
import type { KeyPath } from '../data-file/key-path.js';
import { packageFileText } from '../package-root.js';
import type { DischargeKind } from './types.js';

import { FACTS_LANGUAGES, type FactsLanguage } from '../languages/registry.js';

export { FACTS_LANGUAGES, type FactsLanguage };

const OPERATION_KINDS = [
  'credential_access',
  'secret_export',
  'user_admin',
  'role_admin',
  'data_deletion',
  'data_write',
  'data_export',
  'file_write',
  'command_execution',
  'code_execution',
  'config_change',
  'job_control',
  'outbound_request',
  'server_control',
  'self_service_update',
  'read',
] as const;

const DISCHARGE_KINDS = ['authn', 'path_guard', 'ownership_check', 'csrf_guard', 'public'] as const;
/** The kinds an operation may require; `csrf_guard` and `public` are never authorization (framework reference 0.2). */
const REQUIRABLE_KINDS = ['authn', 'path_guard', 'ownership_check'] as const;

const pattern = z.string().min(1);
const nonEmpty = z.string().min(1);

/** Phase one: the file as written. */
const factsFileSchema = z.strictObject({
  header: z.strictObject({
    /** Where the vocabulary comes from (documentation pages, framework source). */
    source: nonEmpty,
    version: nonEmpty,
    /** The frameworks this file covers, e.g. `stapler, jetty, servlet, jax-rs`. */
    region: nonEmpty,
    language: z.enum(FACTS_LANGUAGES),
    /** Methods of a handler's class chain that run before every handler (`getTarget`, `prepare`, `boot`). */
    hook_methods: z.array(nonEmpty).default([]),
    /** Frameworks that give every non-public entry an authentication baseline (Jenkins Overall/Read). */
    baseline_authn: z.array(nonEmpty).default([]),
    /**
     * Regexes over source text for expressions that denote the logged-in user (`$request->user()`,
     * `self.current_user`): an operation on a value derived from one acts on the caller's own records.
     */
    current_user: z.array(pattern).default([]),
    /** Regexes over a parameter's declared type or annotation that the framework fills with the logged-in user (`Authenticatable`, `CurrentUser`). */
    current_user_types: z.array(pattern).default([]),
    /** Regexes over an `if` line that tests whether anyone is logged in (`!auth()->check()`, `Auth::guest()`): read in middleware `handle()`. */
    login_tests: z.array(pattern).default([]),
    /** Regexes over an assignment's right-hand side that creates a record and returns it (`db.create(...)`, `Model::create(...)`): the request's own object. */
    created_objects: z.array(pattern).default([]),
    /** Regexes over an expression that denotes the caller's own session, named by the signed session cookie (`getSession(request)`, `req.session`). */
    own_session: z.array(pattern).default([]),
    /** Regexes over an assignment's right-hand side that looks a stored record up (`db.find(...)`, `->first()`): what a verification or a token can prove possession of. */
    record_lookups: z.array(pattern).default([]),
    /** Regexes over a right-hand side that looks one stored record up (`get_object_or_404(Model, code=code)`), only as what a possession check can prove: not read as a query the user must scope. */
    possessed_lookups: z.array(pattern).default([]),
    /** Regexes over a lookup keyed by a secret token, with a named group `value` for the token (`->where('token', '=', (?<value>\$\w+))`). */
    token_lookups: z.array(pattern).default([]),
    /** Regexes over a parameter's declared type or annotation that the framework fills from the request (`QueryParameter`, `StaplerRequest`): what `arguments_from = "request"` rows test. */
    request_inputs: z.array(pattern).default([]),
    /** Regexes over a check's attribute that only allow viewing (`view`, `show`): no check for a resource-bound write of that object. */
    read_attributes: z.array(pattern).default([]),
    /** Regexes over a model method that is a visibility scope (`scopeVisible`): relation reads that skip it hand out rows the caller may not see (scoped-relations.ts). */
    visibility_scopes: z.array(pattern).default([]),
    /** Regexes over a check's attribute that is a login, not a permission (`ROLE_USER`): it binds no object and covers no resource-bound operation. */
    login_roles: z.array(pattern).default([]),
    /** Regexes over a check's attribute that is a role (`ROLE_ADMIN`): authority over every object, whatever the path's other checks bind. */
    global_roles: z.array(pattern).default([]),
    /** Library types (simple names) → their direct supertypes, so a call's argument type picks among same-arity overloads (overloads.ts). */
    library_supertypes: z.record(nonEmpty, z.array(nonEmpty)).default({}),
  }),
  operation: z
    .array(
      z.strictObject({
        id: nonEmpty,
        kind: z.enum(OPERATION_KINDS),
        description: nonEmpty,
        /** Regexes over the call signature `receiver.callee` (`->`, `::`, `?.` written as `.`; `new X` for constructors). */
        calls: z.array(pattern).default([]),
        /** Regex over the source line of the call; the row matches only when it also matches. */
        line: pattern.optional(),
        /** Regexes over a source line that assigns a privilege (`user.admin = True`): the assignment is the operation (privilege-grants.ts). */
        assignments: z.array(pattern).default([]),
        /** Regex over a check's text or the conditions around it that tests the caller's own privilege: only such a check discharges (privilege-grants.ts). */
        held_by: pattern.optional(),
        /** Regex over an expression that reads the request (`get_json_body()`, `request.POST`): with it, an `assignments` line counts only when its value (or the `if` around a literal `True`) derives from such an expression in its function. */
        value_from: pattern.optional(),
        /** Regexes over a handler's name: the handler itself is the operation (needs `framework`). */
        handlers: z.array(pattern).default([]),
        /** For a handler-named row: a regex some line of the handler must match (it reads stored records). */
        body: pattern.optional(),
        /** For a handler-named row: an obligation only where every other entry of the file declares a permission (sibling-norm.ts). */
        sibling_norm: z.boolean().default(false),
        /** For a handler-named row: an obligation only where another verb of the handler's class checks (verb-norm.ts). */
        verb_norm: z.boolean().default(false),
        framework: nonEmpty.optional(),
        /** Call-signature regexes of calls whose first argument this operation writes later (Doctrine `persist`/`remove` before `flush`). */
        queued_by: z.array(pattern).default([]),
        /** `request`: the call is the operation only when one of its arguments is request input (src/prover/request-input.ts). */
        arguments_from: z.enum(['request']).optional(),
        /** Regexes over the entry handler's name: the operation is an obligation only on paths from such an entry (a configuration read disclosed by a list box). */
        entries: z.array(pattern).default([]),
        /** The operation acts on one object, and only a check bound to that object discharges it when the request chose it (resource-binding.ts). */
        resource_bound: z.boolean().default(false),
        /** Which argument is that object (0-based), or `receiver`; default: the receiver variable, else the first plain argument. */
        resource_arg: z.union([z.number().int().min(0), z.literal('receiver')]).optional(),
        /** `route-entity`: the calls answer with an object, an obligation only for a route-bound entity its project checks per object (entity-reads.ts), never by the call alone; `on-behalf-write`: the calls create a record for a user, an obligation only when the request chose that user (on-behalf-writes.ts); `route-record`: the same for a Laravel record a route key names, judged against the handler's own check of that key (route-record-reads.ts); `scoped-relation`: the calls declare Eloquent relations, and reading one to a model with a visibility scope is the operation (scoped-relations.ts); `django-generic-write`: the calls name Django's and DRF's generic views, whose inherited handlers write (django-generic-writes.ts); `python-record-read`: the calls look a record up by a URL key, an obligation only where the module checks that model per object (python-record-reads.ts). */
        judged_as: z.enum(['route-entity', 'on-behalf-write', 'route-record', 'scoped-relation', 'django-generic-write', 'python-record-read']).optional(),
        /** For `on-behalf-write`: a regex over a call's argument that says whose record it is (`$user`, `$owner`). */
        owner_argument: pattern.optional(),
        /** For `python-record-read`: a regex over a line (a decorator or a statement) that checks one record per object (`user_has_permission(`, `has_perm(`). */
        object_check: pattern.optional(),
        /** Further objects the operation acts on, each needing a check bound to it (a move changes the child and its new parent). */
        also_bound: z.array(z.union([z.number().int().min(0), z.literal('receiver')])).default([]),
        /** Regexes over a permission a check names (`Item.BUILD`) that does not grant this operation: such a check, or a disjunction offering it, discharges nothing (permission-strength.ts). */
        insufficient_permissions: z.array(pattern).default([]),
        /** The rows are a tenant's access model (groups, memberships, invitations, API tokens): a check that the caller is a member of the tenant discharges nothing, only a role does (tenant-access.ts). */
        administers_tenant: z.boolean().default(false),
        requires: z.array(z.enum(DISCHARGE_KINDS)).min(1),
        /** Kinds that also discharge it without being required of it: a declared-public entry needs none of them (ADR 0076). */
        alternatives: z.array(z.enum(DISCHARGE_KINDS)).default([]),
        severity: z.enum(['critical', 'high', 'medium', 'low']).default('medium'),
        cwe: z.string().regex(/^CWE-\d+$/).default('CWE-862'),
      }),
    )
    .default([]),
  discharger: z
    .array(
      z.strictObject({
        id: nonEmpty,
        kind: z.enum(DISCHARGE_KINDS),
        description: nonEmpty,
        /** Call-signature regexes (statement scope). */
        calls: z.array(pattern).default([]),
        /** Decorator/annotation/attribute regexes over the text without `@`/`#[ ]` (decorator or class scope). */
        decorators: z.array(pattern).default([]),
        /** Middleware-name regexes (router scope: route files, controller constructors, Django's `MIDDLEWARE` setting). */
        middleware: z.array(pattern).default([]),
        /** Regexes over a class's base names (Django's `LoginRequiredMixin`): class scope, every handler of the class and its subclasses. */
        bases: z.array(pattern).default([]),
        /** Regexes over a class attribute's assignment (`permission_classes = [IsAdminUser]`), also read in a framework's default setting (class scope). */
        class_attributes: z.array(pattern).default([]),
        /** Role regexes for `access_control` entries of Symfony's security.yaml. */
        roles: z.array(pattern).default([]),
        /** Regex over the call's source line; the row matches only when it also matches. */
        line: pattern.optional(),
        /** Regex over the guarding condition (the nearest `if`/`unless` line above); absent = any. */
        condition: pattern.optional(),
        /**
         * Regexes over an `if`/`elif`/`else if` condition line: the condition itself is the check (a
         * credential comparison such as `token == typed`, `hash_equals(...)`), a statement witness there.
         */
        comparisons: z.array(pattern).default([]),
        /**
         * The check verifies a secret against a stored record (a password or code hash, a passkey): the
         * records its arguments read, looked up earlier in the function, are the caller's own after it.
         */
        possession: z.boolean().default(false),
        /** Regex the test of a boolean check's result must match (`\.verified\b`: the result is an object whose flag decides). */
        tested: pattern.optional(),
        /**
         * `throws`: the call ends the request on denial; `value_only`: a boolean that counts only when a
         * branch on it leaves the function; `constrains`: the check is part of the operation's own call
         * (a query constrained by the current user).
         */
        effect: z.enum(['throws', 'value_only', 'constrains']).default('throws'),
      }),
    )
    .default([]),
  auth_flow: z
    .array(
      z.strictObject({
        id: nonEmpty,
        description: nonEmpty,
        /** Regexes over the entry's qualified name (`GoogleCallbackController.__invoke`, `LoginHandler.post`). */
        names: z.array(pattern).default([]),
        /** Regexes over the entry's route, when the recogniser knows it (`auth/google/callback`). */
        routes: z.array(pattern).default([]),
        /** Regexes over the path of the entry's file (the application's own first-run installer folder). */
        paths: z.array(pattern).default([]),
        /** Operation kinds that, behind such an entry, act on the account being authenticated. */
        acts_on: z.array(z.enum(OPERATION_KINDS)).min(1),
        /** Regex over the entry's own source: when it matches (a role read from the request), `role_admin` stays an obligation. */
        escalation: pattern.optional(),
      }),
    )
    .default([]),
  registration: z
    .array(
      z.strictObject({
        id: nonEmpty,
        description: nonEmpty,
        /** Call-signature regexes of registration calls (`addServlet`, `new ServletHolder`). */
        calls: z.array(pattern).min(1),
        /** The request methods of a registered class that become entries. */
        request_methods: z.array(nonEmpty).min(1),
      }),
    )
    .default([]),
});

type FactsFileInput = z.infer<typeof factsFileSchema>;

/** A compiled operation row. */
export interface OperationFact {
  id: string;
  kind: (typeof OPERATION_KINDS)[number];
  description: string;
  calls: RegExp[];
  line: RegExp | null;
  handlers: RegExp[];
  /** Assignment lines that are the operation (a privilege flag set on a user). */
  assignments: RegExp[];
  /** What a check must test of the caller for it to discharge the operation; null: any check of a required kind. */
  heldBy: RegExp | null;
  /** What the assigned value must derive from (the request); null: any value. */
  valueFrom: RegExp | null;
  /** For a handler-named row: what some line of the handler must match; null: any handler. */
  body: RegExp | null;
  /** For a handler-named row: an obligation only under the file's declared-permission norm. */
  siblingNorm: boolean;
  /** For a handler-named row: an obligation only where another verb of the handler's class checks. */
  verbNorm: boolean;
  framework: string | null;
  queuedBy: RegExp[];
  /** `request` when the call counts only with an argument taken from the request. */
  argumentsFrom: 'request' | null;
  /** The entry handler names behind which the operation is an obligation; empty: every entry. */
  entries: RegExp[];
  resourceBound: boolean;
  resourceArg: number | 'receiver' | null;
  /** `route-entity` (entity-reads.ts), `on-behalf-write` (on-behalf-writes.ts), `route-record` (route-record-reads.ts), `scoped-relation` (scoped-relations.ts), `django-generic-write` (django-generic-writes.ts), `python-record-read` (python-record-reads.ts): judged by their module, not found by their calls. */
  judgedAs: 'route-entity' | 'on-behalf-write' | 'route-record' | 'scoped-relation' | 'django-generic-write' | 'python-record-read' | null;
  /** For `on-behalf-write`: the argument that names whose record is written. */
  ownerArgument: RegExp | null;
  objectCheck: RegExp | null;
  alsoBound: (number | 'receiver')[];
  /** Permissions that do not grant the operation. */
  insufficientPermissions: RegExp[];
  /** A membership of the tenant does not discharge it (tenant-access.ts). */
  administersTenant: boolean;
  requires: DischargeKind[];
  /** Kinds that also discharge it, not required of a declared-public entry. */
  alternatives: DischargeKind[];
  severity: 'critical' | 'high' | 'medium' | 'low';
  cwe: string;
}

/** A compiled discharger row. */
export interface DischargerFact {
  id: string;
  kind: DischargeKind;
  description: string;
  calls: RegExp[];
  decorators: RegExp[];
  middleware: RegExp[];
  bases: RegExp[];
  classAttributes: RegExp[];
  roles: RegExp[];
  line: RegExp | null;
  condition: RegExp | null;
  comparisons: RegExp[];
  possession: boolean;
  tested: RegExp | null;
  effect: 'throws' | 'value_only' | 'constrains';
}

/**
 * A compiled auth-flow row: entries (login, registration, OAuth/SSO callbacks, password reset,
 * invitation acceptance) whose purpose is to create or update the account being authenticated.
 */
interface AuthFlowFact {
  id: string;
  description: string;
  names: RegExp[];
  routes: RegExp[];
  paths: RegExp[];
  actsOn: string[];
  escalation: RegExp | null;
}

/** A compiled registration row. */
interface RegistrationFact {
  id: string;
  calls: RegExp[];
  requestMethods: string[];
}

/** Phase two's output: the facts of one language, strict and compiled. */
export interface LanguageFacts {
  language: FactsLanguage;
  file: string;
  source: string;
  version: string;
  region: string;
  hookMethods: string[];
  baselineAuthn: string[];
  /** Expressions denoting the logged-in user. */
  currentUser: RegExp[];
  /** Parameter types/annotations the framework fills with the logged-in user. */
  currentUserTypes: RegExp[];
  /** Conditions that test whether anyone is logged in. */
  loginTests: RegExp[];
  /** Right-hand sides that create a record and return it. */
  createdObjects: RegExp[];
  /** Expressions denoting the caller's own session. */
  ownSession: RegExp[];
  /** Right-hand sides that look a stored record up. */
  recordLookups: RegExp[];
  /** Right-hand sides that look one record up, only for possession. */
  possessedLookups: RegExp[];
  /** Lookups keyed by a secret token (group `value`: the token). */
  tokenLookups: RegExp[];
  /** Parameter types/annotations the framework fills from the request. */
  requestInputs: RegExp[];
  readAttributes: RegExp[];
  /** Model methods that are visibility scopes. */
  visibilityScopes: RegExp[];
  loginRoles: RegExp[];
  globalRoles: RegExp[];
  /** Library type → its direct supertypes (simple names). */
  librarySupertypes: ReadonlyMap<string, readonly string[]>;
  authFlows: AuthFlowFact[];
  operations: OperationFact[];
  dischargers: DischargerFact[];
  registrations: RegistrationFact[];
}

export type Facts = Record<FactsLanguage, LanguageFacts>;

/** Load one facts file from its text. Throws RuleFileError naming the file, line and key. */
export function parseFactsFile(file: string, text: string): LanguageFacts {
  return loadDataFile({ file, text, kind: 'rules', schema: factsFileSchema, normalise: normaliseFacts, checks: [everyRequirementProducible] });
}

function normaliseFacts(input: FactsFileInput, context: DataFileContext): LanguageFacts {
  const ids = new UniqueIds('id');
  /** Each pattern of a row's list, compiled at its own key. */
  const patterns = (path: KeyPath, sources: readonly string[]): RegExp[] => sources.map((source, at) => context.pattern([...path, at], source));
  const optionalPattern = (path: KeyPath, source: string | undefined): RegExp | null => (source === undefined ? null : context.pattern(path, source));

  const operations = input.operation.map((row, index): OperationFact => {
    const at = ['operation', index] as const;
    ids.claim(row.id, context, [...at, 'id']);
    if (row.calls.length === 0 && row.handlers.length === 0 && row.assignments.length === 0) throw context.problem(at, 'needs calls, handlers or assignments');
    if (row.handlers.length > 0 && row.framework === undefined) throw context.problem([...at, 'handlers'], 'handlers need a framework');
    for (const kind of row.requires) {
      if (!(REQUIRABLE_KINDS as readonly string[]).includes(kind)) throw context.problem([...at, 'requires'], `requires ${kind}, which is never an authorization check`);
    }
    for (const kind of row.alternatives) {
      if (!(REQUIRABLE_KINDS as readonly string[]).includes(kind)) throw context.problem([...at, 'alternatives'], `${kind} is never an authorization check`);
    }
    return {
      id: row.id,
      kind: row.kind,
      description: row.description,
      calls: patterns([...at, 'calls'], row.calls),
      line: optionalPattern([...at, 'line'], row.line),
      handlers: patterns([...at, 'handlers'], row.handlers),
      assignments: patterns([...at, 'assignments'], row.assignments),
      heldBy: optionalPattern([...at, 'held_by'], row.held_by),
      valueFrom: optionalPattern([...at, 'value_from'], row.value_from),
      body: optionalPattern([...at, 'body'], row.body),
      siblingNorm: row.sibling_norm,
      verbNorm: row.verb_norm,
      framework: row.framework ?? null,
      queuedBy: patterns([...at, 'queued_by'], row.queued_by),
      argumentsFrom: row.arguments_from ?? null,
      entries: patterns([...at, 'entries'], row.entries),
      resourceBound: row.resource_bound,
      resourceArg: row.resource_arg ?? null,
      judgedAs: row.judged_as ?? null,
      ownerArgument: optionalPattern([...at, 'owner_argument'], row.owner_argument),
      objectCheck: optionalPattern([...at, 'object_check'], row.object_check),
      alsoBound: row.also_bound,
      insufficientPermissions: patterns([...at, 'insufficient_permissions'], row.insufficient_permissions),
      administersTenant: row.administers_tenant,
      requires: [...new Set(row.requires)],
      alternatives: [...new Set(row.alternatives)].filter((k) => !row.requires.includes(k)),
      severity: row.severity,
      cwe: row.cwe,
    };
  });
  const dischargers = input.discharger.map((row, index): DischargerFact => {
    const at = ['discharger', index] as const;
    ids.claim(row.id, context, [...at, 'id']);
    if (row.calls.length + row.decorators.length + row.middleware.length + row.bases.length + row.class_attributes.length + row.roles.length + row.comparisons.length === 0) {
      throw context.problem(at, 'needs calls, decorators, middleware, bases, class_attributes, roles or comparisons');
    }
    return {
      id: row.id,
      kind: row.kind,
      description: row.description,
      calls: patterns([...at, 'calls'], row.calls),
      decorators: patterns([...at, 'decorators'], row.decorators),
      middleware: patterns([...at, 'middleware'], row.middleware),
      bases: patterns([...at, 'bases'], row.bases),
      classAttributes: patterns([...at, 'class_attributes'], row.class_attributes),
      roles: patterns([...at, 'roles'], row.roles),
      line: optionalPattern([...at, 'line'], row.line),
      condition: optionalPattern([...at, 'condition'], row.condition),
      comparisons: patterns([...at, 'comparisons'], row.comparisons),
      possession: row.possession,
      tested: optionalPattern([...at, 'tested'], row.tested),
      effect: row.effect,
    };
  });
  const authFlows = input.auth_flow.map((row, index): AuthFlowFact => {
    const at = ['auth_flow', index] as const;
    ids.claim(row.id, context, [...at, 'id']);
    if (row.names.length + row.routes.length + row.paths.length === 0) throw context.problem(at, 'needs names, routes or paths');
    return {
      id: row.id,
      description: row.description,
      names: patterns([...at, 'names'], row.names),
      routes: patterns([...at, 'routes'], row.routes),
      paths: patterns([...at, 'paths'], row.paths),
      actsOn: [...new Set(row.acts_on)],
      escalation: optionalPattern([...at, 'escalation'], row.escalation),
    };
  });
  const registrations = input.registration.map((row, index): RegistrationFact => {
    ids.claim(row.id, context, ['registration', index, 'id']);
    return { id: row.id, calls: patterns(['registration', index, 'calls'], row.calls), requestMethods: row.request_methods };
  });
  return {
    language: input.header.language,
    file: context.file,
    source: input.header.source,
    version: input.header.version,
    region: input.header.region,
    hookMethods: input.header.hook_methods,
    baselineAuthn: input.header.baseline_authn,
    currentUser: patterns(['header', 'current_user'], input.header.current_user),
    currentUserTypes: patterns(['header', 'current_user_types'], input.header.current_user_types),
    loginTests: patterns(['header', 'login_tests'], input.header.login_tests),
    createdObjects: patterns(['header', 'created_objects'], input.header.created_objects),
    ownSession: patterns(['header', 'own_session'], input.header.own_session),
    recordLookups: patterns(['header', 'record_lookups'], input.header.record_lookups),
    possessedLookups: patterns(['header', 'possessed_lookups'], input.header.possessed_lookups),
    tokenLookups: patterns(['header', 'token_lookups'], input.header.token_lookups),
    requestInputs: patterns(['header', 'request_inputs'], input.header.request_inputs),
    readAttributes: patterns(['header', 'read_attributes'], input.header.read_attributes),
    visibilityScopes: patterns(['header', 'visibility_scopes'], input.header.visibility_scopes),
    loginRoles: patterns(['header', 'login_roles'], input.header.login_roles),
    globalRoles: patterns(['header', 'global_roles'], input.header.global_roles),
    librarySupertypes: new Map(Object.entries(input.header.library_supertypes)),
    authFlows,
    operations,
    dischargers,
    registrations,
  };
}

/** Every kind an operation requires must be producible by some discharger of the same file. */
function everyRequirementProducible(facts: LanguageFacts, context: DataFileContext): void {
  const producible = new Set(facts.dischargers.map((d) => d.kind));
  facts.operations.forEach((op, index) => {
    if (!op.requires.some((k) => producible.has(k))) {
      throw context.problem(['operation', index, 'requires'], `no discharger of this file has a kind it requires (${op.requires.join(', ')})`);
    }
  });
}

let cached: Promise<Facts> | null = null;

/** Every facts file, loaded and checked once per process. */
export function loadFacts(): Promise<Facts> {
  cached ??= (async () => {
    // Read as package files, not from a directory: inside the single executable the facts are embedded.
    const entries = await Promise.all(
      FACTS_LANGUAGES.map(async (language) => {
        const file = `ruleset/obligations/${language}.toml`;
        const text = packageFileText('ruleset', 'obligations', `${language}.toml`);
        const facts = parseFactsFile(file, text);
        if (facts.language !== language) throw dataFileContext(file, text, 'rules').problem(['header', 'language'], `expected ${language} (the file's name), found ${facts.language}`);
        return [language, facts] as const;
      }),
    );
    return Object.fromEntries(entries) as Facts;
  })();
  cached.catch(() => {
    cached = null;
  });
  return cached;
}
