/**
 * Proposal mode of fact acquisition: the repository's functions whose names suggest a check, and that
 * the engine does not already read as one, are shown to the configured model (the review's egress
 * decision, the same secret redaction, a random data fence, a structured reply), which names the
 * authorization checks among them. Its rows are proposals only: the gate decides.
 */
import type { JscrConfig } from '../config/index.js';
import type { SourceReader } from '../git/sources.js';
import type { ModelAccess } from '../model/access.js';
import { callModel, chooseFence, factsReplySchema, factsSystemPrompt, factsUserPrompt, type FactsCandidate } from '../model/index.js';
import type { ProgramFunction, RecognisedHelper } from '../prover/types.js';
import { learnJoinedSecrets, RedactionCounter, redact, type SecretBook } from '../redact/index.js';
import type { ProposedRow } from './rows.js';

/** Names that suggest a check (requireAdmin, checkPermission, ensureOwner, authorize, canEdit, isAdmin...). */
const CHECK_NAME = /^(require|ensure|assert|check|verify|authori[sz]e|guard|protect|must|deny|enforce|can|may|is_?(admin|owner|allowed|authori[sz]ed|staff|member|super)|has_?(role|perm|access|scope|abilit))|(permission|authori[sz]|admin|owner|access|auth|role|login|signed_?in|policy)/i;
/** Lines shown per candidate: a check is short; the head of a long function still shows its test. */
const MAX_CANDIDATE_LINES = 60;
/** Candidates per run: the proposal is a one-time pass, bounded so it stays one or a few calls. */
const MAX_CANDIDATES = 120;

export interface ProposeInput {
  access: Extract<ModelAccess, { ok: true }>;
  config: JscrConfig;
  functions: readonly ProgramFunction[];
  recognised: readonly RecognisedHelper[];
  reader: SourceReader;
  book: SecretBook;
}

export interface ProposeOutcome {
  rows: ProposedRow[];
  /** Candidates shown to the model. */
  shown: number;
  /** Candidates left out by the bound. */
  leftOut: number;
  /** Calls that failed, with the reason (the run is then incomplete). */
  failures: string[];
}

/** The functions worth asking about: check-like names the engine does not already read as checks. */
export function proposalCandidates(functions: readonly ProgramFunction[], recognised: readonly RecognisedHelper[]): ProgramFunction[] {
  const known = new Set(recognised.map((h) => `${h.path}\u0000${h.qualifiedName}`));
  return functions.filter((f) => CHECK_NAME.test(f.name) && !known.has(`${f.path}\u0000${f.qualifiedName}`) && !/(^|\/)(tests?|spec|__tests__|fixtures?)\//.test(f.path));
}

/** Ask the model in calls that fit `model.max_input_bytes`; every row it gives is checked against the schema. */
export async function proposeRows(input: ProposeInput): Promise<ProposeOutcome> {
  const all = proposalCandidates(input.functions, input.recognised);
  const chosen = all.slice(0, MAX_CANDIDATES);
  const reads = await input.reader.readMany([...new Set(chosen.map((c) => c.path))]);
  const counter = new RedactionCounter();
  const shownCandidates: FactsCandidate[] = [];
  for (const fn of chosen) {
    const read = reads.get(fn.path);
    if (!read?.ok) continue;
    await learnJoinedSecrets(input.book, fn.path, read.text);
    const lines = read.text.split(/\r?\n/).slice(fn.startLine - 1, Math.min(fn.endLine, fn.startLine - 1 + MAX_CANDIDATE_LINES));
    // Secrets in the shown code are masked before anything leaves, like the review's material.
    shownCandidates.push({ path: fn.path, startLine: fn.startLine, lines: redact(lines.join('\n'), counter, input.book).text.split('\n') });
  }
  const rows: ProposedRow[] = [];
  const failures: string[] = [];
  const budget = Math.max(4096, input.config.model.max_input_bytes - 4096);
  let batch: FactsCandidate[] = [];
  let bytes = 0;
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const fence = chooseFence(batch.flatMap((c) => c.lines));
    const call = await callModel(input.access.target, { model: input.access.modelName, system: factsSystemPrompt(fence), user: factsUserPrompt(batch, fence), kind: 'facts', maxOutputTokens: input.config.model.max_output_tokens });
    batch = [];
    bytes = 0;
    if (!call.delivered) return void failures.push(input.access.scrub(call.reason));
    if (!call.reply.ok) return void failures.push(input.access.scrub(call.reply.problem));
    const parsed = factsReplySchema.safeParse(call.reply.payload);
    if (!parsed.success) return void failures.push('the reply does not match the facts schema');
    for (const row of parsed.data.rows) {
      const resource = row.resource === null || row.resource.trim() === '' ? null : /^\d+$/.test(row.resource.trim()) ? Number(row.resource.trim()) : row.resource.trim();
      rows.push({ name: row.name, checks: row.checks, resource, path: row.path, line: row.line, reason: row.reason, origin: 'model' });
    }
  };
  for (const candidate of shownCandidates) {
    const size = candidate.lines.reduce((n, l) => n + Buffer.byteLength(l, 'utf8') + 10, 200);
    if (bytes + size > budget) await flush();
    batch.push(candidate);
    bytes += size;
  }
  await flush();
  return { rows, shown: shownCandidates.length, leftOut: all.length - chosen.length, failures };
}
