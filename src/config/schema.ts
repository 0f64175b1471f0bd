/**
 * The one zod schema of `.jscr.toml` (SPEC 3). Every key has a default, every table is strict (an unknown
 * key is an error), and the parsed value is the fully defaulted `JscrConfig` the rest of jscr reads.
 */
import { z } from 'zod';
import { FAIL_ON_LEVELS } from '../report/exit.js';
import { GATE_SETTINGS, type GateSettingKey } from '../gate/settings-table.js';

/** External scanners a user may switch on (the built-in rules always run). */
const EXTERNAL_SCANNERS = ['bandit', 'shellcheck', 'secretlint', 'eslint', 'semgrep', 'gitleaks'] as const;

const MODEL_PROVIDERS = ['none', 'openai', 'anthropic'] as const;

/** `host:port`, the host a DNS name, an IPv4 address or a bracketed IPv6 address; port 1-65535. */
const HOST_PORT = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*):(?:6553[0-5]|655[0-2]\d|65[0-4]\d{2}|6[0-4]\d{3}|[1-5]\d{4}|[1-9]\d{0,3})$/;

/** The NAME of an environment variable; a key itself never lives in the file. */
const ENV_VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const ISO_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

const nonNegativeInt = z.int().nonnegative();

/** A duration in seconds: more than 0 and at most `max`, so no timer overflows (Node's stop near 24.8 days). */
const seconds = (max: number) =>
  z
    .number()
    .positive({ error: `expected a number of seconds above 0 and at most ${max}` })
    .max(max, { error: `expected a number of seconds above 0 and at most ${max}` });

/** The longest a whole review may run (a day). */
export const MAX_DEADLINE_S = 86_400;
/** The longest one model call may wait for its reply (an hour). */
export const MAX_MODEL_TIMEOUT_S = 3_600;
const positiveInt = z.int().positive();

/**
 * `expires`: a TOML local date (`2025-01-31`, which @iarna/toml gives as a Date) or the same as a string.
 * Normalised to the `YYYY-MM-DD` string so the rest of jscr never handles Date objects.
 */
const expiryDate = z
  .union([
    z.string().regex(ISO_DATE, 'expected a date YYYY-MM-DD'),
    // A TOML local date is marked `isDate`; a full date-time is refused, since a day is what expires.
    z.date().refine((d) => (d as Date & { isDate?: boolean }).isDate === true && !Number.isNaN(d.getTime()), 'expected a date YYYY-MM-DD, not a date-time'),
  ])
  .transform((value) => (typeof value === 'string' ? value : value.toISOString().slice(0, 10)));

const repositorySchema = z.strictObject({
  /** Follow symbolic links inside the repository (their targets must still be inside it). */
  follow_symlinks: z.boolean().default(false),
});

const reviewSchema = z.strictObject({
  /** Lowest severity that makes the review exit 1. */
  fail_on: z.enum(FAIL_ON_LEVELS).default('low'),
  /** Findings below this confidence are rejected. */
  min_confidence: z.number().min(0).max(1).default(0),
  max_findings: nonNegativeInt.default(200),
  /** Report findings on changed lines only, or anywhere in changed files. */
  scope: z.enum(['changed-lines', 'changed-files']).default('changed-lines'),
  /** Wall-clock budget of one review, in seconds. */
  deadline_s: seconds(MAX_DEADLINE_S).default(600),
  /** Globs (repository-relative) of vendored or generated paths: listed as excluded, never reviewed. */
  exclude: z.array(z.string().min(1, 'expected a non-empty glob')).default([]),
  /** A changed file (other than data such as lock files and images) larger than this is not reviewed. */
  max_file_bytes: positiveInt.default(2_097_152),
});

const suppressionSchema = z
  .strictObject({
    /** Rule id the suppression applies to: every suppression must name one (and a reason). */
    rule: z.string().min(1, 'expected a rule id'),
    /** Glob of repository-relative paths. */
    path: z.string().min(1).optional(),
    /** A finding's fingerprint. */
    fingerprint: z.string().min(1).optional(),
    /** Why the finding is accepted; required so every suppression is explained. */
    reason: z.string().trim().min(1, 'expected a non-empty reason'),
    /** After this date the suppression no longer applies. */
    expires: expiryDate.optional(),
  });

const contextSchema = z.strictObject({
  max_files: nonNegativeInt.default(40),
  max_total_bytes: nonNegativeInt.default(262_144),
  max_expansion_rounds: nonNegativeInt.default(2),
});

const scannersSchema = z.strictObject({
  /** The built-in rules cannot be turned off; the key exists so a file saying `true` is valid. */
  builtin: z.literal(true).default(true),
  enabled: z.array(z.enum(EXTERNAL_SCANNERS)).default([]),
});

const redactionSchema = z.strictObject({
  /** Refuse to send anything to a model when a secret is detected in it. */
  block_on_secret: z.boolean().default(true),
});

const egressSchema = z.strictObject({
  /** Nothing leaves the machine unless this is true AND the destination is in `net.connect`. */
  enabled: z.boolean().default(false),
});

const netSchema = z.strictObject({
  /** Exact `host:port` destinations jscr may connect to. */
  connect: z.array(z.string().regex(HOST_PORT, 'expected host:port (IPv6 in brackets)')).default([]),
});

const modelSchema = z.strictObject({
  provider: z.enum(MODEL_PROVIDERS).default('none'),
  base_url: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).nullable().default(null),
  name: z.string().min(1).nullable().default(null),
  /** Name of the environment variable holding the API key. */
  api_key_env: z.string().regex(ENV_VAR_NAME, 'expected the NAME of an environment variable').nullable().default(null),
  timeout_s: seconds(MAX_MODEL_TIMEOUT_S).default(60),
  max_output_tokens: positiveInt.default(4096),
  max_input_bytes: positiveInt.default(204_800),
});

const verifySchema = z.strictObject({
  /** Defaults to true when a model is configured, false otherwise. */
  enabled: z.boolean().optional(),
});

/** A function (`requireAdmin`), or a method as `Class.method` or `Class::method`. */
export const GUARD_NAME = /^[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)?$/;

/** `[[prover.guards]]`: a project's own check helper and the kind of check a call to it makes. */
const proverGuardSchema = z.strictObject({
  /** The helper: a function name, or `Class.method` / `Class::method`. */
  name: z.string().regex(GUARD_NAME, 'expected a function name, or Class.method / Class::method'),
  /** What a call to it proves about the caller. */
  checks: z.enum(['authentication', 'permission', 'ownership']),
  /** The parameter (index from 0, or name) naming the object the check is about; carried for resource binding. */
  resource: z.union([nonNegativeInt, z.string().regex(/^[A-Za-z_$][\w$]*$/, 'expected a parameter name or index')]).optional(),
  /** Provenance of a row `jscr facts init` verified: the file that defines the helper. */
  source: z.string().min(1, 'expected a repository path').optional(),
  /** Provenance: the helper's lines in `source`, as `first-last`. */
  region: z.string().regex(/^\d+-\d+$/, 'expected first-last line numbers, e.g. 12-30').optional(),
  /** Provenance: the commit at which the row was verified. */
  version: z.string().regex(/^[0-9a-f]{7,64}$/, 'expected a commit id').optional(),
});

/** `[[prover.public]]`: an entry that is public on purpose, by route or handler, with the reason. */
const proverPublicSchema = z
  .strictObject({
    /** The URL path as the framework declares it (`/login`); a trailing `*` matches every route under it. */
    route: z.string().min(1, 'expected a route').optional(),
    /** The handler: `Class.method`, `Class::method`, or `path/to/file.ts:function` (Remix `action`/`loader`). */
    handler: z.string().min(1, 'expected a handler name').optional(),
    /** Why it is public; required so every exemption is explained. */
    reason: z.string().trim().min(1, 'expected a non-empty reason'),
  })
  .refine((entry) => entry.route !== undefined || entry.handler !== undefined, { error: 'expected a route or a handler' });

const proverSchema = z.strictObject({
  enabled: z.boolean().default(true),
  max_depth: nonNegativeInt.default(3),
  fan_out: positiveInt.default(25),
  /** The project's own check helpers (read from the base revision: a change cannot declare its own). */
  guards: z.array(proverGuardSchema).default([]),
  /** Entries public on purpose (read from the base revision: a change cannot exempt its own entry). */
  public: z.array(proverPublicSchema).default([]),
  /** In review, prove only the files the change needs (found by text search); false reads every file. */
  scope: z.boolean().default(true),
});

/**
 * `[gate]`: the file form of the JSCR_GATE_* settings (the environment wins over these). Keys, kinds
 * and defaults come from the gate's own table, which its small reader uses too.
 */
const gateSchema = z.strictObject({
  /** `false` turns the edit gate off (the JSCR_GATE environment variable wins). */
  enabled: z.boolean().default(GATE_SETTINGS.enabled.default),
  /** Where per-session gate state lives; null means `$XDG_STATE_HOME/jscr/gate` or `~/.local/state/jscr/gate`. */
  state_dir: z.string().min(1).nullable().default(GATE_SETTINGS.state_dir.default),
  /** Paths (project-relative globs) the gate never stops. */
  exempt_globs: z
    .union([z.array(z.string().min(1)), z.string().transform((list) => list.split(',').map((g) => g.trim()).filter((g) => g.length > 0))])
    .default([...GATE_SETTINGS.exempt_globs.default]),
  /** Denials shown in full before the one-line form. */
  full_denials: nonNegativeInt.default(GATE_SETTINGS.full_denials.default),
  /** Cap of denials per session; null means no cap. */
  max_denials: nonNegativeInt.nullable().default(GATE_SETTINGS.max_denials.default),
  metrics: z.boolean().default(GATE_SETTINGS.metrics.default),
  external_contract_question: z.boolean().default(GATE_SETTINGS.external_contract_question.default),
} satisfies Record<GateSettingKey, z.ZodType>);

/** The schema as a user writes it (before defaults that depend on other keys). */
export const configFileSchema = z.strictObject({
  repository: repositorySchema.prefault({}),
  review: reviewSchema.prefault({}),
  suppress: z.array(suppressionSchema).default([]),
  context: contextSchema.prefault({}),
  scanners: scannersSchema.prefault({}),
  redaction: redactionSchema.prefault({}),
  egress: egressSchema.prefault({}),
  net: netSchema.prefault({}),
  model: modelSchema.prefault({}),
  verify: verifySchema.prefault({}),
  prover: proverSchema.prefault({}),
  gate: gateSchema.prefault({}),
});

/** Parse, then the semantic checks and the defaults that depend on other keys. */
export const configSchema = configFileSchema
  .superRefine((config, ctx) => {
    if (config.model.provider !== 'none' && config.model.name === null) {
      ctx.addIssue({ code: 'custom', path: ['model', 'name'], message: `expected a model name when model.provider is "${config.model.provider}"` });
    }
  })
  .transform((config) => ({
    ...config,
    verify: { enabled: config.verify.enabled ?? config.model.provider !== 'none' },
  }));

/** The fully defaulted configuration every part of jscr reads. */
export type JscrConfig = z.output<typeof configSchema>;

/** The `[prover]` declarations the prover reads: `guards` and `public`. */
export type ProverDeclarations = Pick<JscrConfig['prover'], 'guards' | 'public'>;

/** One `[[suppress]]` entry after defaults. */
export type Suppression = JscrConfig['suppress'][number];

/** JSON Schema of `.jscr.toml` (the input side), committed as schema/jscr-config.schema.json. */
export function configJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(configFileSchema, {
    io: 'input',
    unrepresentable: 'any',
    override: (ctx) => {
      // TOML dates have no JSON form; editors that validate TOML against JSON Schema see them as strings.
      if (ctx.zodSchema._zod.def.type === 'date') {
        ctx.jsonSchema.type = 'string';
        ctx.jsonSchema.format = 'date';
      }
    },
  });
}
