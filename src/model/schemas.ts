/**
 * The shapes a model must answer in. Each reply has two forms: the JSON Schema sent to the provider
 * (OpenAI structured output, Anthropic tool input) and the zod schema that validates what comes back.
 * The JSON Schemas are written out by hand because strict structured output accepts only a subset of
 * JSON Schema: an object root, `additionalProperties: false` and every property listed in `required`
 * on every object (optional values are a union with null), and no bounds or formats (minLength,
 * pattern, minimum...), which older OpenAI models, Azure deployments and local grammar engines refuse
 * or ignore; bounds are zod's job. tests/model/providers.test.ts walks each schema for those rules and
 * tests/model/units.test.ts checks the JSON Schemas and the zod schemas agree.
 */
import { z } from 'zod';
import { ProposalSchema } from '../guard/shapes.js';
import { SEVERITIES } from '../report/finding.js';

/** Name of the review reply's schema (OpenAI) and of the forced tool (Anthropic). */
export const FINDINGS_SCHEMA_NAME = 'jscr_findings';
export const FINDINGS_TOOL_NAME = 'report_findings';
/** Name of the verification reply's schema (OpenAI) and of the forced tool (Anthropic). */
export const VERDICT_SCHEMA_NAME = 'jscr_verdict';
export const VERDICT_TOOL_NAME = 'report_verdict';

const severity = z.preprocess((value) => (typeof value === 'string' ? value.trim().toLowerCase() : value), z.enum(SEVERITIES));

/** One finding as the model states it, before anchoring. */
export const modelFindingSchema = z.object({
  title: z.string().trim().min(1),
  severity,
  /** Clamped to 0..1 later: a model saying 1.2 still meant "very sure". */
  confidence: z.number().finite(),
  path: z.string().trim().min(1),
  line: z.number().finite(),
  /** One or more whole lines copied from the material. */
  evidence: z.string(),
  explanation: z.string(),
  cwe: z.string().nullable(),
});

export const findingsReplySchema = z.object({ findings: z.array(modelFindingSchema) });

export const verdictReplySchema = z.object({
  verdict: z.enum(['reject', 'keep']),
  reason: z.string(),
});

export type ModelFinding = z.output<typeof modelFindingSchema>;

/** JSON Schema of the review reply, in the subset strict structured output accepts. */
export const FINDINGS_JSON_SCHEMA = {
  type: 'object',
  properties: {
    findings: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          title: { type: 'string', description: 'A short name of the problem.' },
          severity: { type: 'string', enum: [...SEVERITIES] },
          confidence: { type: 'number', description: 'How sure you are, from 0 to 1.' },
          path: { type: 'string', description: 'The file path exactly as given in the material.' },
          line: { type: 'integer', description: 'The new-file line number of the first quoted line.' },
          evidence: { type: 'string', description: 'One or more whole consecutive lines copied exactly from the material, without the line-number gutter or diff marker.' },
          explanation: { type: 'string', description: 'What is wrong and how it could be exploited.' },
          cwe: { type: ['string', 'null'], description: 'A CWE id such as CWE-89, or null.' },
        },
        required: ['title', 'severity', 'confidence', 'path', 'line', 'evidence', 'explanation', 'cwe'],
        additionalProperties: false,
      },
    },
  },
  required: ['findings'],
  additionalProperties: false,
} as const;

/** JSON Schema of the verification reply. */
export const VERDICT_JSON_SCHEMA = {
  type: 'object',
  properties: {
    verdict: { type: 'string', enum: ['reject', 'keep'] },
    reason: { type: 'string', description: 'One or two sentences saying why.' },
  },
  required: ['verdict', 'reason'],
  additionalProperties: false,
} as const;

/** Name of the fix command's edit-proposal reply schema (OpenAI) and of the forced tool (Anthropic). */
export const PROPOSAL_SCHEMA_NAME = 'jscr_proposal';
export const PROPOSAL_TOOL_NAME = 'propose_edit';

/**
 * One edit proposal (SPEC 6): the guard's own ProposalSchema, so the reply is validated against
 * exactly the shape the guard checks. It checks only the types; whether the edit makes sense is the
 * guard's question.
 */
export const proposalReplySchema = ProposalSchema;

/** JSON Schema of the edit-proposal reply. */
export const PROPOSAL_JSON_SCHEMA = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'The file path exactly as given in the data block.' },
    start_line: { type: 'integer', description: 'The first line replaced (a number from the gutter).' },
    end_line: { type: 'integer', description: 'The last line replaced, inclusive.' },
    symbol: { type: ['string', 'null'], description: 'The symbol named in the question, copied exactly.' },
    replaces: { type: 'string', description: 'The replaced lines copied exactly from the data, without the gutter.' },
    replacement: { type: 'string', description: 'The new text of those lines, with their indentation.' },
  },
  required: ['path', 'start_line', 'end_line', 'symbol', 'replaces', 'replacement'],
  additionalProperties: false,
} as const;

/** Name of the fact-acquisition reply schema (OpenAI) and of the forced tool (Anthropic). */
export const FACTS_SCHEMA_NAME = 'jscr_facts';
export const FACTS_TOOL_NAME = 'propose_guards';

const GUARD_CHECKS = ['authentication', 'permission', 'ownership'] as const;

/** One proposed `[prover] guards` row: the gate (src/facts/gate.ts) decides whether it is true. */
export const factRowSchema = z.object({
  name: z.string().trim().min(1),
  checks: z.enum(GUARD_CHECKS),
  /** The parameter naming the checked object, or null. */
  resource: z.string().nullable(),
  path: z.string().trim().min(1),
  line: z.number().int().positive(),
  reason: z.string(),
});

export const factsReplySchema = z.object({ rows: z.array(factRowSchema) });

/** JSON Schema of the fact-acquisition reply. */
export const FACTS_JSON_SCHEMA = {
  type: 'object',
  properties: {
    rows: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'The function, or Class.method, exactly as defined in the material.' },
          checks: { type: 'string', enum: [...GUARD_CHECKS], description: 'What a call to it proves about the caller when it returns.' },
          resource: { type: ['string', 'null'], description: 'The parameter naming the object the check is about, or null.' },
          path: { type: 'string', description: 'The file path exactly as given in the material.' },
          line: { type: 'integer', description: 'A line number inside the function, as numbered in the material.' },
          reason: { type: 'string', description: 'One sentence: which line tests what, and how it refuses.' },
        },
        required: ['name', 'checks', 'resource', 'path', 'line', 'reason'],
        additionalProperties: false,
      },
    },
  },
  required: ['rows'],
  additionalProperties: false,
} as const;
