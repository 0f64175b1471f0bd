/**
 * Steps 8-10 of the review: ask the model, anchor what it says, verify what survives. The model is
 * asked only when a provider is configured, nothing was blocked by redaction, egress is enabled and
 * net.connect lists the destination; otherwise no connection is attempted and the step is `not_run`,
 * which makes the review incomplete. There is no fallback: a failure is reported, never papered over.
 */
import type { JscrConfig } from '../../config/index.js';
import { modelAccess } from '../../model/access.js';
import {
  anchorFinding,
  callModel,
  chooseFence,
  chunkMaterial,
  contextAround,
  estimateTokens,
  findingsReplySchema,
  numberSegment,
  reviewSystemPrompt,
  reviewUserPrompt,
  verdictReplySchema,
  verifySystemPrompt,
  verifyUserPrompt,
  type CallTarget,
  type NumberedSegment,
  type TokenUsage,
} from '../../model/index.js';
import { scrubDeep } from '../../model/scrub.js';
import { redact, RedactionCounter, type SecretBook } from '../../redact/index.js';
import type { RedactionOutcome } from './redaction.js';
import type { Finding, RejectedFinding } from '../../report/finding.js';
import type { ModelSegment as MaterialSegment } from '../../model/index.js';
import type { NamedVerdict } from './step.js';

/** Input of the model steps. */
export interface ModelStepsInput {
  config: JscrConfig;
  /** Where the API key is read from (`env[model.api_key_env]`). */
  env: NodeJS.ProcessEnv;
  /** The redaction step's outcome: blocked means nothing is sent. */
  redaction: RedactionOutcome;
  /**
   * The review's secrets. The material was redacted with it already; every prompt is redacted once
   * more on its way out, since paths and quoted findings reach the prompt besides the material.
   */
  book: SecretBook;
  /** The unredacted segments, in the same order as `redaction.material`, for path, line and kind; the text sent is the redacted one. */
  segments: readonly MaterialSegment[];
  /** Rule, scanner and injection findings; summaries of those on the material's paths are shown to the model. */
  deterministicFindings: readonly Finding[];
  /** Milliseconds left before the review deadline. */
  remainingMs: number;
  /** Receives one line per send with the estimate of input tokens (never content, never the key). */
  stderr: NodeJS.WritableStream;
}

/** The record of one of the three steps. */
export interface ModelStepRecord extends NamedVerdict {
  name: 'model' | 'anchor' | 'verify';
}

/** Output of the model steps. */
export interface ModelStepsOutcome {
  /** Anchored (and, when enabled, verified) model findings, `source: 'model'`. */
  findings: Finding[];
  /** Model findings that were not anchored or that the verifier rejected, with the reason. */
  rejected: RejectedFinding[];
  /** Always the three, in this order: the model step's own record, then the two it is followed by. */
  steps: readonly [model: ModelStepRecord, anchor: ModelStepRecord, verify: ModelStepRecord];
  /** As the provider reports it; `calls` counts requests that got a 2xx reply. */
  usage: { calls: number; input_tokens: number; output_tokens: number };
}

interface Anchored {
  finding: Finding;
  /** The material of the call that produced it, for the verifier's context. */
  material: readonly NumberedSegment[];
}

export async function runModelSteps(input: ModelStepsInput): Promise<ModelStepsOutcome> {
  const { config } = input;
  const counter = new RedactionCounter();
  const send = (target: CallTarget, prompt: Parameters<typeof callModel>[1]): ReturnType<typeof callModel> =>
    callModel(target, { ...prompt, system: redact(prompt.system, counter, input.book).text, user: redact(prompt.user, counter, input.book).text });
  const usage = { calls: 0, input_tokens: 0, output_tokens: 0 };
  const provider = config.model.provider;
  const result = (model: ModelStepRecord): ModelStepsOutcome => ({
    findings: [],
    rejected: [],
    usage,
    steps: [model, { name: 'anchor', status: 'skipped', detail: 'no model reply to anchor', incomplete: false }, { name: 'verify', status: 'skipped', detail: 'no model findings to verify', incomplete: false }],
  });
  const notRun = (detail: string): ModelStepsOutcome => result({ name: 'model', status: 'not_run', detail, incomplete: true });

  if (provider === 'none') return result({ name: 'model', status: 'skipped', detail: 'no model configured (model.provider = "none")', incomplete: false });
  const redacted = input.redaction.material;
  if (input.redaction.blocked || redacted === null) {
    return notRun(`nothing was sent: ${input.redaction.incompleteReason ?? input.redaction.detail}`);
  }
  const access = modelAccess(config, input.env, Date.now() + input.remainingMs);
  if (!access.ok) return notRun(access.reason);
  const { modelName, scrub } = access;

  if (redacted.length !== input.segments.length || redacted.some((m, i) => m.path !== input.segments[i]?.path)) {
    return result({ name: 'model', status: 'failed', detail: 'internal error: the redacted material does not match the segments; nothing was sent', incomplete: true });
  }
  const numbered = input.segments.map((segment, i) => numberSegment({ path: segment.path, startLine: segment.startLine, kind: segment.kind, text: redacted[i]?.text ?? '' }));
  if (numbered.length === 0) {
    return result({ name: 'model', status: 'skipped', detail: 'nothing to send: the change has no reviewable text', incomplete: false });
  }

  const deadlineAt = Date.now() + input.remainingMs;
  const target: CallTarget = { ...access.target, deadlineAt };
  const addUsage = (u: TokenUsage): void => {
    usage.calls += 1;
    usage.input_tokens += u.input_tokens;
    usage.output_tokens += u.output_tokens;
  };
  const where = access.where;

  // Step 8: one review call per chunk of material.
  const chunks = chunkMaterial(numbered, config.model.max_input_bytes);
  const failures: string[] = [];
  const anchored: Anchored[] = [];
  const rejected: RejectedFinding[] = [];
  let answered = 0;
  let proposed = 0;
  let corrected = 0;
  for (const [index, chunk] of chunks.entries()) {
    const part = chunks.length > 1 ? `part ${index + 1}/${chunks.length}: ` : '';
    if (Date.now() >= deadlineAt) {
      failures.push(`${part}the review deadline passed before the call`);
      continue;
    }
    const fence = chooseFence([...chunk.segments.flatMap((s) => [s.path, ...s.lines.map((l) => l.text)]), ...input.deterministicFindings.map((f) => `${f.path} ${f.title}`)]);
    const system = reviewSystemPrompt(fence);
    const user = reviewUserPrompt(chunk, input.deterministicFindings, fence, { index: index + 1, count: chunks.length });
    input.stderr.write(`jscr: model: ${part}sending about ${estimateTokens(system, user)} input tokens to ${where}\n`);
    const call = await send(target, { model: modelName, system, user, kind: 'findings', maxOutputTokens: config.model.max_output_tokens });
    if (!call.delivered) {
      failures.push(`${part}${call.reason}`);
      continue;
    }
    addUsage(call.reply.usage);
    if (!call.reply.ok) {
      failures.push(`${part}${call.reply.problem}`);
      continue;
    }
    const parsed = findingsReplySchema.safeParse(call.reply.payload);
    if (!parsed.success) {
      const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(reply)'}: ${i.message}`);
      failures.push(`${part}the reply does not match the findings schema (${issues.join('; ')})`);
      continue;
    }
    answered += 1;
    proposed += parsed.data.findings.length;
    // Step 9: anchoring, against exactly what this call was shown.
    for (const modelFinding of parsed.data.findings) {
      const anchoring = anchorFinding(modelFinding, chunk.segments);
      if (anchoring.anchored) {
        anchored.push({ finding: anchoring.finding, material: chunk.segments });
        if (anchoring.corrected) corrected += 1;
      } else {
        rejected.push(anchoring.rejected);
      }
    }
  }

  const callsSummary = `${chunks.length} call(s) to ${where}`;
  const modelRecord: ModelStepRecord =
    failures.length === 0
      ? { name: 'model', status: 'ran', detail: `${callsSummary}; ${proposed} finding(s) proposed`, incomplete: false }
      : { name: 'model', status: 'failed', detail: `${answered} of ${callsSummary} answered; ${failures.join('; ')}`, incomplete: true };
  const anchorRecord: ModelStepRecord =
    answered === 0
      ? { name: 'anchor', status: 'skipped', detail: 'no model reply to anchor', incomplete: false }
      : { name: 'anchor', status: 'ran', detail: `${anchored.length} of ${proposed} anchored (${corrected} line(s) corrected), ${rejected.length} rejected`, incomplete: false };

  // Step 10: verification.
  const verified = await verify(input, anchored, rejected, { send: (prompt) => send(target, prompt), modelName, addUsage, where, deadlineAt });
  // Model-written text (titles, quotes, reasons) passes the same scrub: a server that echoes the key
  // must not get it into the report.
  return scrubDeep({ findings: verified.findings, rejected, steps: [modelRecord, anchorRecord, verified.step], usage }, scrub);
}

interface VerifyContext {
  /** Sends one call, its prompt redacted on the way out. */
  send: (prompt: Parameters<typeof callModel>[1]) => ReturnType<typeof callModel>;
  modelName: string;
  addUsage: (u: TokenUsage) => void;
  where: string;
  deadlineAt: number;
}

/** Ask the verifier about each anchored finding; only an explicit `reject` removes one. */
async function verify(
  input: ModelStepsInput,
  anchored: readonly Anchored[],
  rejected: RejectedFinding[],
  ctx: VerifyContext,
): Promise<{ findings: Finding[]; step: ModelStepRecord }> {
  if (anchored.length === 0) return { findings: [], step: { name: 'verify', status: 'skipped', detail: 'no model findings to verify', incomplete: false } };
  if (!input.config.verify.enabled) {
    return { findings: anchored.map((a) => a.finding), step: { name: 'verify', status: 'skipped', detail: 'verify.enabled is false; model findings are unverified', incomplete: false } };
  }
  const prompts = anchored.map(({ finding, material }) => {
    const context = contextAround(finding.path, finding.line, finding.end_line, material);
    const shown = { title: finding.title, severity: finding.severity, cwe: finding.cwe, path: finding.path, line: finding.line, explanation: finding.message, evidence: finding.evidence };
    const fence = chooseFence([...Object.values(shown).map(String), ...context.flatMap((s) => s.lines.map((l) => l.text))]);
    return { system: verifySystemPrompt(fence), user: verifyUserPrompt(shown, context, fence) };
  });
  const total = prompts.reduce((sum, p) => sum + estimateTokens(p.system, p.user), 0);
  input.stderr.write(`jscr: model: verifying ${anchored.length} finding(s), about ${total} input tokens in all, with ${ctx.where}\n`);

  const findings: Finding[] = [];
  const unreachable: string[] = [];
  let kept = 0;
  let unverified = 0;
  let removed = 0;
  for (const [index, { finding }] of anchored.entries()) {
    const prompt = prompts[index];
    const standUnverified = (why: string): void => {
      findings.push({ ...finding, extra: { ...finding.extra, verified: false, verification: why } });
    };
    if (prompt === undefined) continue;
    if (Date.now() >= ctx.deadlineAt) {
      unreachable.push('the review deadline passed');
      standUnverified('the review deadline passed before verification');
      continue;
    }
    const call = await ctx.send({ model: ctx.modelName, system: prompt.system, user: prompt.user, kind: 'verdict', maxOutputTokens: input.config.model.max_output_tokens });
    if (!call.delivered) {
      unreachable.push(call.reason);
      standUnverified(`the verifier did not answer: ${call.reason}`);
      continue;
    }
    ctx.addUsage(call.reply.usage);
    const parsed = call.reply.ok ? verdictReplySchema.safeParse(call.reply.payload) : null;
    if (!call.reply.ok || parsed === null || !parsed.success) {
      unverified += 1;
      standUnverified(call.reply.ok ? 'the verifier\'s answer did not match the verdict schema' : call.reply.problem);
      continue;
    }
    if (parsed.data.verdict === 'reject') {
      removed += 1;
      rejected.push({ finding, reason: `rejected by the verifier: ${parsed.data.reason.replace(/\s+/g, ' ').trim().slice(0, 300)}` });
      continue;
    }
    kept += 1;
    findings.push({ ...finding, extra: { ...finding.extra, verified: true, verification: parsed.data.reason.replace(/\s+/g, ' ').trim().slice(0, 300) } });
  }
  const counts = `${kept} kept, ${removed} rejected, ${unverified} unverified (prose, malformed or refused answers)`;
  if (unreachable.length > 0) {
    const reasons = [...new Set(unreachable)].join('; ');
    return { findings, step: { name: 'verify', status: 'failed', detail: `${counts}; ${unreachable.length} finding(s) left standing unverified because the verifier did not answer: ${reasons}`, incomplete: true } };
  }
  return { findings, step: { name: 'verify', status: 'ran', detail: counts, incomplete: false } };
}
