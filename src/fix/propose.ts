/**
 * Step 3 of `jscr fix`: ask the configured model for one edit proposal per consultation, under the
 * same egress rules as the review (egress enabled, destination listed in net.connect, the key read
 * from the environment variable the configuration names). The repository's text is framed as data
 * inside a random fence; the model's answer is parsed against the proposal schema and nothing else.
 */
import type { JscrConfig } from '../config/index.js';
import type { Consultation, Proposal } from '../guard/shapes.js';
import { ProposalSchema } from '../guard/shapes.js';
import { splitLines, lineBody } from '../guard/lines.js';
import {
  PROVIDERS,
  callModel,
  chooseFence,
  estimateTokens,
  fixSystemPrompt,
  fixUserPrompt,
  proposalReplySchema,
  type CallTarget,
  type FixQuestion,
} from '../model/index.js';
import { egressDecision } from '../policy/egress.js';

/** A model that may be asked, or why none may. */
export type ModelAccess =
  | { ok: true; target: CallTarget; modelName: string; where: string; scrub: (text: string) => string }
  | { ok: false; reason: string; scrub: (text: string) => string };

const identity = (text: string): string => text;

/** Longest a whole fix run may wait on the model, in all (the per-call timeout is `model.timeout_s`). */
const FIX_DEADLINE_MS = 30 * 60 * 1000;

/** Decide whether the model may be asked at all, exactly as the review's model step does. */
export function modelAccess(config: JscrConfig, env: NodeJS.ProcessEnv): ModelAccess {
  const provider = config.model.provider;
  if (provider === 'none') return { ok: false, reason: 'no model configured (model.provider = "none")', scrub: identity };
  const modelName = config.model.name;
  if (modelName === null) return { ok: false, reason: `model.name is not set (model.provider is "${provider}")`, scrub: identity };
  const dialect = PROVIDERS[provider];
  const url = dialect.endpoint(config.model.base_url ?? dialect.defaultBaseUrl);
  const decision = egressDecision(config, url);
  if (!decision.allowed) return { ok: false, reason: `the model was not asked: ${decision.reason}`, scrub: identity };
  let apiKey: string | null = null;
  if (config.model.api_key_env !== null) {
    const value = env[config.model.api_key_env];
    if (value === undefined || value === '') return { ok: false, reason: `the environment variable ${config.model.api_key_env} (model.api_key_env) is not set`, scrub: identity };
    apiKey = value;
  }
  // Defence in depth: no text that leaves this module may carry the key, even if a server echoes it.
  const scrub = (text: string): string => (apiKey === null ? text : text.split(apiKey).join('[api key]'));
  const target: CallTarget = { provider: dialect, url, decision, apiKey, timeoutMs: config.model.timeout_s * 1000, deadlineAt: Date.now() + FIX_DEADLINE_MS };
  return { ok: true, target, modelName, where: `${decision.hostPort} (${dialect.name}, ${modelName})`, scrub };
}

/** What the finding says, for the question (never its evidence). */
export interface FindingBrief {
  rule: string;
  title: string;
  advice: string;
  cwe: string | null;
}

/** The proposal, or why there is none. */
export type ProposalOutcome = { ok: true; proposal: Proposal } | { ok: false; reason: string };

/** Ask for one proposal about one consultation. */
export async function askForProposal(
  access: Extract<ModelAccess, { ok: true }>,
  consultation: Consultation,
  brief: FindingBrief,
  config: JscrConfig,
  stderr: NodeJS.WritableStream,
): Promise<ProposalOutcome> {
  const context = consultation.context;
  if (consultation.symbol === null) return { ok: false, reason: 'the consultation names no symbol' };
  const question: FixQuestion = {
    path: context.path,
    line: consultation.line,
    symbol: consultation.symbol,
    rule: brief.rule,
    title: brief.title,
    advice: brief.advice,
    cwe: brief.cwe,
    allowedImports: consultation.to_modules,
    startLine: context.start_line,
    lines: splitLines(context.text).map(lineBody),
  };
  const fence = chooseFence([...question.lines, JSON.stringify(question)]);
  const system = fixSystemPrompt(fence);
  const user = fixUserPrompt(question, fence);
  if (Buffer.byteLength(user, 'utf8') > config.model.max_input_bytes) {
    return { ok: false, reason: `the question is larger than model.max_input_bytes (${config.model.max_input_bytes})` };
  }
  stderr.write(`jscr: fix: asking ${access.where} about ${context.path}:${consultation.line}, about ${estimateTokens(system, user)} input tokens\n`);
  const call = await callModel(access.target, { model: access.modelName, system, user, kind: 'proposal', maxOutputTokens: config.model.max_output_tokens });
  if (!call.delivered) return { ok: false, reason: access.scrub(call.reason) };
  if (!call.reply.ok) return { ok: false, reason: access.scrub(call.reply.problem) };
  const parsed = proposalReplySchema.safeParse(call.reply.payload);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(reply)'}: ${i.message}`);
    return { ok: false, reason: access.scrub(`the reply does not match the proposal schema (${issues.join('; ')})`) };
  }
  // The guard's own schema, so what is checked is exactly the SPEC 6 proposal shape.
  const proposal = ProposalSchema.parse(parsed.data);
  return { ok: true, proposal };
}
