/**
 * The shape of a data-flow row file (`rules/flow/*.toml`) as a zod schema: phase one of loading it.
 * docs/flow.md explains each table; src/rules/flow-load.ts normalises the result to src/flow/rows.ts.
 */
import { z } from 'zod';
import { SEVERITIES } from '../report/finding.js';
import { BUILTIN_OPERATIONS } from '../flow/rows.js';
import { LANGUAGES } from '../syntax/languages.js';

const regex = (what: string) => z.string().min(1).describe(what);
const names = z.array(z.string().min(1)).min(1);

/**
 * `receiver`, `return`, `arguments` (every positional argument), `arg0`, `arg1`..., `named:shell`; an
 * argument or named slot may read into an options object: `arg2.secure`, `arg0.cookie.secure`.
 */
export const SLOT_SHAPE = /^(receiver|return|arguments|callee|(arg(0|[1-9]\d*)|named:[A-Za-z_$][\w$]*)(\.([A-Za-z_$][\w$-]*|\d+))*)$/;
const slot = z.string().regex(SLOT_SHAPE, 'expected receiver, return, arguments, callee, argN or named:<name> (argN and named:<name> may add .<key> or a position, .0)');
/** One slot, or several of which the first the call gives decides. */
const slotChoice = z.union([slot, z.array(slot).min(1)]);

const CallSchema = z
  .strictObject({
    names: names.describe('callee names, or for `new` the class constructed; "*" for any'),
    new: z.boolean().optional().describe('true: only `new X(...)`; false: only plain calls; absent: both'),
    receiver_types: names.optional().describe("the receiver's declared type (simple name); an unknown type still matches unless strict_receiver"),
    strict_receiver: z.boolean().optional().describe('an unknown receiver type does not match'),
    not_receiver_types: names.optional().describe("the receiver's declared type must not be one of these"),
    receiver_label: z.string().min(1).optional().describe('the receiver must carry a taint with this label (an object built from a request)'),
    receiver: regex('tested against the receiver as written').optional(),
    callee_text: regex('tested against the callee as written (`cursor.execute`)').optional(),
    arity: z.number().int().min(0).optional(),
    imported_from: regex('the module a bare callee was imported from').optional(),
    not_imported_from: regex('the module a bare callee was imported from must not match (a name another library also exports)').optional(),
    arguments: z.array(z.string()).min(1).optional().describe("regexes over the constant arguments, by position (`replaceAll` with '[\\r\\n]')"),
  })
  .describe('which calls a row applies to');

/** Snippets the rule tester runs: `flagged` must give a finding of the row, `quiet` none. */
const TestsSchema = z
  .strictObject({
    flagged: z.array(z.string().min(1)).optional(),
    quiet: z.array(z.string().min(1)).optional(),
  })
  .describe('rule-tester snippets for this row');

const ReportSchema = {
  cwe: z.string().regex(/^CWE-[1-9]\d*$/, 'expected a CWE id such as CWE-89'),
  title: z.string().min(1),
  message: z.string().min(1),
  severity: z.enum(SEVERITIES),
  confidence: z.number().min(0).max(1),
  aliases: z.array(z.string().min(1)).optional().describe('earlier rule ids that suppressions and --finding still match'),
  in_tests: z.boolean().optional().describe('false: not reported in test code (tests/, *.test.ts, *.spec.ts): what a test makes up is no secret'),
};

const id = z.string().describe('`<language>-<kebab-case-name>`, unique across rules/flow/');

const SourceSchema = z.strictObject({
  id,
  label: z.string().min(1).optional().describe('the taint label given; default `input`'),
  mark: z.string().min(1).optional().describe('a mark the taint carries from here (sinks may decline marked taints: `ignores_mark`)'),
  call: CallSchema.optional(),
  fills: z
    .union([z.number().int().min(0), z.literal('receiver')])
    .optional()
    .describe('with `call`: the call writes the value into this argument (0-based), as `random.nextBytes(buffer)` does, or into its receiver (`parser.setFeature(feature_external_ges, True)`), rather than returning it'),
  field: names.optional().describe('access paths (`request.args`, `$_GET`); reading them or below them is tainted'),
  fixed_route: z
    .strictObject({
      route: regex('a decorator that names a route'),
      literal: regex('a route decorator whose rule is a literal without variable parts'),
    })
    .optional()
    .describe('with field: not a source in a function whose route decorators all give a literal rule'),
  parameter: z
    .strictObject({
      annotations: regex('tested against each annotation without @').optional(),
      types: regex("tested against the parameter's declared type").optional(),
      handler_decorators: regex("every parameter of a function whose decorator matches").optional(),
      except_names: names.optional(),
      unannotated: z.boolean().optional().describe('only parameters without annotations (a JAX-RS resource method\'s entity parameter)'),
    })
    .optional(),
  tests: TestsSchema.optional(),
});

const SinkSchema = z.strictObject({
  id,
  kind: z.string().min(1).describe('the sink kind (`sql`, `command`, `path`...) sanitisers and guards name'),
  ...ReportSchema,
  accepts: names.optional().describe('taint labels that count; default ["input"]'),
  call: CallSchema,
  slots: z.array(slot).min(1).optional().describe('slots that must stay clean; default ["arguments"]'),
  when: z
    .union([
      z.strictObject({ named: z.string().min(1), equals: z.union([z.string(), z.number(), z.boolean()]) }),
      z.strictObject({
        slot: slotChoice,
        matches: regex('tested against the constant in slot').optional(),
        any_bits: z.number().int().min(1).optional().describe('instead of matches: the constant is an integer with any of these bits set (flags)'),
        absent: z.boolean().optional().describe('a call that leaves the slot out holds too (the default is the weak setting)'),
      }),
    ])
    .optional()
    .describe('the sink holds only with this literal keyword argument, or this constant in a slot'),
  argv: z.boolean().optional().describe('the slots are a program and its arguments: a tainted argument of a fixed, non-shell program does not count'),
  requires_dependency: names.optional().describe('the sink holds only in a project whose package manifest declares one of these packages'),
  unless: z
    .strictObject({ named: z.array(z.string().min(1)).min(1), matches: regex('tested against the constant named argument') })
    .optional()
    .describe('the sink does not hold when one of these named arguments is a constant that matches'),
  requires_text: z.array(z.string().min(4)).min(1).optional().describe('the sink holds only when a file of the repository contains one of these texts'),
  vetted_for_any: z.boolean().optional().describe('a value a check vetted for any sink kind does not count (trust boundaries)'),
  ignores_mark: z.string().min(1).optional().describe('taints with this mark do not count (`through-call`: passed as an argument to a call flow does not know)'),
  collections_are_json: z.boolean().optional().describe('an object or array the code built in the slot is sent as JSON by the framework, so it does not count (Koa `ctx.body = {...}`, Express `res.send({...})`)'),
  text_types: z
    .array(z.string().min(1))
    .optional()
    .describe('the slots take text (SQL): a value the code built as an array or object, or of a known type not listed here (an entity, a column map the query builder binds), does not count'),
  tests: TestsSchema.optional(),
});

const SanitiserSchema = z.strictObject({
  id,
  clears: names.describe('sink kinds the result is clean for; "*" for all'),
  call: CallSchema,
  strip: z
    .strictObject({
      pattern: slot,
      replacement: slot,
      syntax: z.enum(['plain', 'regex-literal', 'delimited']).describe('a plain string, a /.../flags literal, or a delimited PHP pattern'),
      every_match: z.boolean().describe('the call replaces every match whatever the flags'),
    })
    .optional()
    .describe('a character-class strip: clears only the kinds whose harmful characters cannot survive'),
  in_place: z.boolean().optional().describe('the call cleans its receiver where it stands (`ois.setObjectInputFilter(filter)`), not only its result'),
  tests: TestsSchema.optional(),
});

const GuardSchema = z.strictObject({
  id,
  clears: names,
  call: CallSchema,
  vets: slot.describe('the value the check vets'),
  against: slot.optional().describe('the list the value is checked against; the check holds only when the list carries no outside data'),
  vets_key: z.boolean().optional().describe('the vetted slot holds `list[key]`: the key is vetted, against the list'),
  requires_mark: z.string().min(1).optional(),
  raises: z.boolean().optional().describe('true: the check raises when it fails, so called as a statement it vets the value for the code after it'),
  vets_in_receiver: z.boolean().optional().describe('`vets` names a slot of the call the check is called on (`PATTERN.matcher(x).matches()` vets arg0 of `matcher`)'),
  tests: TestsSchema.optional(),
});

const PropagatorSchema = z.strictObject({
  id,
  call: CallSchema,
  from: z.array(slot).default([]).describe('slots whose taint flows; empty with `to` empty: the result is clean'),
  to: z.array(slot).default([]),
  mark: z.string().min(1).optional(),
  builtin: z
    .enum(BUILTIN_OPERATIONS)
    .optional()
    .describe('a collection or lookup operation the engine models slot by slot (list-add, get, put, remove, set, clear, property)'),
  tests: TestsSchema.optional(),
});

const CheckSchema = z.strictObject({
  id,
  kind: z.enum(['weak-value', 'missing-setting']),
  ...ReportSchema,
  call: CallSchema.optional().describe('weak-value: the call whose argument is checked'),
  slot: slotChoice.optional().describe('weak-value: where the setting is (the first slot the call gives); missing-setting: where the object is used'),
  weak: regex('weak-value: tested (ignoring case) against the constant value').optional(),
  absent_is_weak: z.boolean().optional().describe('weak-value: a call without the slot (a keyword argument left out) is weak too'),
  created_by: CallSchema.optional().describe('missing-setting: the call making the object'),
  settings: z.array(z.strictObject({ call: CallSchema, arguments: z.array(z.string().min(1)).optional() })).min(1).optional(),
  need: z.enum(['all', 'any']).optional(),
  used_by: CallSchema.optional().describe('missing-setting: the use where the finding goes'),
  tainted: z.array(slot).min(1).optional().describe('missing-setting: the use counts only with outside data in one of these slots'),
  tests: TestsSchema.optional(),
});

const ExitSchema = z.strictObject({
  id,
  call: CallSchema,
  tests: TestsSchema.optional(),
});

export const FlowRowFileSchema = z.strictObject({
  languages: z.array(z.enum(LANGUAGES)).min(1),
  source: z.array(SourceSchema).optional(),
  sink: z.array(SinkSchema).optional(),
  sanitiser: z.array(SanitiserSchema).optional(),
  guard: z.array(GuardSchema).optional(),
  propagator: z.array(PropagatorSchema).optional(),
  check: z.array(CheckSchema).optional(),
  exit: z.array(ExitSchema).optional().describe('calls that never return'),
  constants: z
    .record(z.string().regex(/^[A-Za-z_]\w*(\.[A-Za-z_]\w*)?$/), z.union([z.number(), z.string(), z.boolean()]))
    .optional()
    .describe("named constants of the language or its libraries, folded where code reads them by name (PHP's LIBXML_NOENT) or on their class (`XMLInputFactory.SUPPORT_DTD`)"),
});

export type FlowRowFile = z.infer<typeof FlowRowFileSchema>;
export type CallEntry = z.infer<typeof CallSchema>;
export type TestsEntry = z.infer<typeof TestsSchema>;
