/**
 * Step 3 of `jscr fix`: ask the configured model for one edit proposal per consultation, under the
 * same egress rules as the review (egress enabled, destination listed in net.connect, the key read
 * from the environment variable the configuration names). The repository's text is framed as data
 * inside a random fence; whether the model may be asked at all is `modelAccess` (src/model/access.ts),
 * the review's own decision; the model's answer is parsed against the proposal schema and nothing else.
 */
import type { JscrConfig } from '../config/index.js';
import type { Consultation, Proposal } from '../guard/shapes.js';
import { ProposalSchema } from '../guard/shapes.js';
import { splitLines, lineBody } from '../guard/lines.js';
import { type ModelAccess } from '../model/access.js';
import { escapeOneLine } from '../report/escape.js';
import {
  callModel,
  chooseFence,
  estimateTokens,
  fixSystemPrompt,
  fixUserPrompt,
  proposalReplySchema,
  type FixQuestion,
} from '../model/index.js';

/** Longest a whole fix run may wait on the model, in all (the per-call timeout is `model.timeout_s`). */
export const FIX_DEADLINE_MS = 30 * 60 * 1000;

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
  stderr.write(`jscr: fix: asking ${access.where} about ${escapeOneLine(context.path)}:${consultation.line}, about ${estimateTokens(system, user)} input tokens\n`);
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
