/**
 * The fix pipeline (issue 6): findings from the review's deterministic steps → one consultation per
 * finding → one proposal from the model → the guard → (with --accept-model) a guarded write →
 * (with --verify) the user's check, and a byte-for-byte restore when it fails → a row per finding in
 * the run folder. Nothing is written to the repository unless the guard accepted the proposal and the
 * user asked for writes; every other path ends in a row that says why.
 */
import type { JscrConfig } from '../config/index.js';
import { UsageError } from '../errors.js';
import type { ChangeSpec } from '../git/change.js';
import { resolveRepository } from '../git/change.js';
import { check, checkedToJson } from '../guard/check.js';
import { decodeStrict, withoutBom, type SupportedEncoding } from '../guard/encoding.js';
import { guardedApply } from '../guard/fsutil.js';
import type { Checked, Consultation, Proposal } from '../guard/shapes.js';
import type { RefusalWord } from '../guard/refusal-words.js';
import { scrubDeep } from '../model/scrub.js';
import { openBoundary, type RepoBoundary } from '../policy/paths.js';
import { runUserCommand, type RunResult } from '../policy/process.js';
import { escapeOneLine } from '../report/escape.js';
import type { Finding } from '../report/finding.js';
import { review } from '../review/engine.js';
import { builtinRuleAliases, type RuleAliases } from '../rules/aliases.js';
import { loadBuiltinRules } from '../rules/engine.js';
import { FingerprintIndex } from '../review/fingerprint-index.js';
import { prepareConsultation } from './consultation.js';
import { unifiedDiff } from './diff.js';
import { modelAccess, type ModelAccess } from '../model/access.js';
import { askForProposal, FIX_DEADLINE_MS } from './propose.js';
import { chooseRunFolder, writeRunFolder } from './runfolder.js';

/** How long one run of the --verify command may take before it counts as failed. */
const VERIFY_TIMEOUT_MS = 10 * 60 * 1000;

/** What `runFix` needs: the change, the selection and the two switches. */
export interface FixRequest {
  repoDir: string;
  change: ChangeSpec;
  configPath?: string;
  /** Fingerprints or 12-character ids; empty means every finding of the change. */
  findings: readonly string[];
  acceptModel: boolean;
  /** The --verify command as an argument vector (already split), or null. */
  verify: readonly string[] | null;
  /** `--out`, relative to `cwd`. */
  out?: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  now: Date;
  /** One-line diagnostics (model sends, verify runs); never content, never the key. */
  diagnostics: NodeJS.WritableStream;
}

/**
 * The outcome of one finding: `applied` (written, and verified when asked), `needs_review` (accepted
 * but not written without --accept-model, or no question could be asked), `refused:<word>` (the guard
 * at check or write time), `verify_failed` (written, the check failed, restored), `model_failed` (no
 * proposal), `write_failed` (a write or a restore could not be done).
 */
type RowOutcome = 'applied' | 'needs_review' | `refused:${RefusalWord}` | 'verify_failed' | 'model_failed' | 'write_failed';

/** Where in the pipeline the row's outcome was decided. */
type RowStage = 'consult' | 'model' | 'check' | 'write' | 'verify';

/** The verify command's result, as recorded (output cut to its last lines). */
interface VerifyRecord {
  code: number | null;
  signal: string | null;
  timed_out: boolean;
  spawn_error: string | null;
  output_tail: string;
}

/** One finding's row in the run folder. */
interface FixRow {
  finding: Pick<Finding, 'id' | 'fingerprint' | 'rule' | 'source' | 'severity' | 'path' | 'line' | 'title'>;
  outcome: RowOutcome;
  stage: RowStage;
  detail: string;
  consultation: Consultation | null;
  proposal: Proposal | null;
  /** The guard's verdict (`checkedToJson`, without the base64 result bytes: `diff` shows them). */
  checked: Record<string, unknown> | null;
  /** The accepted change as a unified diff; null when nothing was accepted. */
  diff: string | null;
  verify: VerifyRecord | null;
}

/** Counts for summary.json and the text summary. */
interface FixSummary {
  findings: number;
  outcomes: Record<string, number>;
  refusals_by_word: Record<string, number>;
  accept_model: boolean;
  verify: readonly string[] | null;
  review_complete: boolean;
  /** Why the review's deterministic steps were incomplete (then findings may be missing: exit 3). */
  review_incomplete_reasons: readonly string[];
  exit_code: 0 | 1 | 3;
}

export interface FixOutcome {
  rows: FixRow[];
  summary: FixSummary;
  runFolder: string;
  exitCode: 0 | 1 | 3;
}

export async function runFix(request: FixRequest): Promise<FixOutcome> {
  // Step 0: where the record goes, refused early when it would land inside the repository.
  const root = await resolveRepository(request.repoDir);
  const runFolder = await chooseRunFolder({ ...(request.out === undefined ? {} : { out: request.out }), cwd: request.cwd, env: request.env, root, now: request.now });

  // Step 1: the review's deterministic steps, never its model.
  const reviewed = await review({
    repoDir: root,
    change: request.change,
    ...(request.configPath === undefined ? {} : { configPath: request.configPath }),
    useModel: false,
    env: request.env,
    today: request.now.toISOString().slice(0, 10),
  });
  const config = reviewed.config;
  const selected = selectFindings(reviewed.report.findings, request.findings);

  const rules = new Map((await loadBuiltinRules()).map((rule) => [rule.id, rule]));
  const access = modelAccess(config, request.env, Date.now() + FIX_DEADLINE_MS);
  const boundary = await openBoundary(root, { followSymlinks: config.repository.follow_symlinks });

  // Steps 2-5, one finding at a time: each question is read from the disk as the earlier writes left it.
  const rows: FixRow[] = [];
  for (const finding of selected) {
    const row = await fixOne(finding, { request, root, config, access, boundary, allowedImports: rules.get(finding.rule)?.fix.allowedImports ?? [] });
    rows.push(scrubDeep(row, access.scrub));
  }

  const summary = summarise(rows, request, reviewed.report.incomplete_reasons);
  await writeRunFolder(runFolder, rows, summary, access.scrub);
  return { rows, summary, runFolder, exitCode: summary.exit_code };
}

/**
 * The findings named by --finding, or all of them. A name is a fingerprint in full (version 2, or a
 * version 1 value from an older report, which names the first copy of its line) or a 12-character id,
 * also as computed with an old id of a renamed rule.
 */
export function selectFindings(findings: readonly Finding[], wanted: readonly string[], aliases: RuleAliases = builtinRuleAliases()): Finding[] {
  if (wanted.length === 0) return [...findings];
  const index = new FingerprintIndex(findings, aliases);
  const out: Finding[] = [];
  for (const name of wanted) {
    const key = name.trim().toLowerCase();
    // a full fingerprint (64 hex digits) or an id (its first 12); never some other prefix
    const matches = key.length === 64 || key.length === 12 ? index.hits(key).map((hit) => hit.finding) : [];
    if (matches.length === 0) throw new UsageError(`--finding ${name}: no finding of this change has that fingerprint or id`);
    for (const match of matches) if (!out.includes(match)) out.push(match);
  }
  return out;
}

interface FixContext {
  request: FixRequest;
  root: string;
  config: JscrConfig;
  access: ModelAccess;
  boundary: RepoBoundary;
  allowedImports: readonly string[];
}

async function fixOne(finding: Finding, ctx: FixContext): Promise<FixRow> {
  const base: FixRow = {
    finding: { id: finding.id, fingerprint: finding.fingerprint, rule: finding.rule, source: finding.source, severity: finding.severity, path: finding.path, line: finding.line, title: finding.title },
    outcome: 'needs_review',
    stage: 'consult',
    detail: '',
    consultation: null,
    proposal: null,
    checked: null,
    diff: null,
    verify: null,
  };
  const done = (fields: Partial<FixRow> & Pick<FixRow, 'outcome' | 'stage' | 'detail'>): FixRow => Object.assign(base, fields);

  // Step 2: the question.
  const prepared = await prepareConsultation({ finding, boundary: ctx.boundary, allowedImports: ctx.allowedImports });
  if (!prepared.ok) return done({ outcome: 'needs_review', stage: 'consult', detail: prepared.reason });
  const consultation = prepared.consultation;
  base.consultation = consultation;

  // Step 3: the model, under the review's egress and redaction rules.
  if (!ctx.access.ok) return done({ outcome: 'model_failed', stage: 'model', detail: ctx.access.reason });
  if (prepared.secretsRedacted > 0 && ctx.config.redaction.block_on_secret) {
    return done({ outcome: 'model_failed', stage: 'model', detail: `nothing was sent: the context holds ${prepared.secretsRedacted} secret value(s) and redaction.block_on_secret is true` });
  }
  const asked = await askForProposal(ctx.access, consultation, { rule: finding.rule, title: finding.title, advice: finding.message, cwe: finding.cwe }, ctx.config, ctx.request.diagnostics);
  if (!asked.ok) return done({ outcome: 'model_failed', stage: 'model', detail: asked.reason });
  const proposal = asked.proposal;
  base.proposal = proposal;

  // Step 4: the guard. It reads the file again and refuses if it changed since the question.
  const checked = await check(consultation, proposal, ctx.root, { env: ctx.request.env });
  base.checked = checkedRecord(checked);
  if (checked.refusal !== null || checked.resultBytes === null) {
    return done({ outcome: `refused:${checked.refusal ?? 'file_changed_since_read'}`, stage: 'check', detail: checked.detail });
  }
  const encoding = encodingOf(consultation);
  base.diff = unifiedDiff(proposal.path, decodeForDiff(prepared.fileBytes, encoding), decodeForDiff(checked.resultBytes, encoding));
  if (!ctx.request.acceptModel) {
    return done({ outcome: 'needs_review', stage: 'check', detail: `${checked.detail}; not written (run with --accept-model to write it)` });
  }

  // Step 5: the guarded write; it checks the hash again, so a file changed since the question is refused here.
  const admitted = await ctx.boundary.admit(proposal.path);
  if (!admitted.ok) return done({ outcome: 'refused:file_changed_since_read', stage: 'write', detail: `${admitted.reason}: ${admitted.detail}` });
  const target = admitted.abs;
  const written = await guardedApply(target, consultation.context.file_sha256, checked.resultBytes);
  if (!written.ok) {
    if (written.reason === 'write_failed') return done({ outcome: 'write_failed', stage: 'write', detail: written.detail });
    return done({ outcome: 'refused:file_changed_since_read', stage: 'write', detail: `${written.reason}: ${written.detail}; nothing was written` });
  }
  if (ctx.request.verify === null) return done({ outcome: 'applied', stage: 'write', detail: checked.detail });

  const result = await runVerify(ctx.request.verify, ctx.root, ctx.request.env);
  const record = verifyRecord(result);
  base.verify = record;
  if (verifyPassed(result)) return done({ outcome: 'applied', stage: 'verify', detail: `${checked.detail}; --verify passed` });
  ctx.request.diagnostics.write(`jscr: fix: --verify failed after writing ${escapeOneLine(proposal.path)}; restoring it\n${shownTail(record.output_tail)}`);
  const restored = await guardedApply(target, written.newSha256, prepared.fileBytes);
  if (!restored.ok) {
    return done({ outcome: 'write_failed', stage: 'verify', detail: `--verify failed (${verifyFailure(result)}) and the file could not be restored: ${restored.reason}: ${restored.detail}` });
  }
  return done({ outcome: 'verify_failed', stage: 'verify', detail: `--verify failed (${verifyFailure(result)}); the file was restored byte for byte` });
}

function runVerify(argv: readonly string[], root: string, env: NodeJS.ProcessEnv): Promise<RunResult> {
  return runUserCommand(argv, { cwd: root, timeoutMs: VERIFY_TIMEOUT_MS, env, maxOutputBytes: 1024 * 1024 });
}

function verifyPassed(result: RunResult): boolean {
  return result.spawnError === null && !result.timedOut && result.signal === null && result.code === 0;
}

function verifyFailure(result: RunResult): string {
  if (result.spawnError !== null) return `it could not be started: ${result.spawnError}`;
  if (result.timedOut) return `it ran longer than ${VERIFY_TIMEOUT_MS / 1000} s`;
  if (result.signal !== null) return `it was killed by ${result.signal}`;
  return `exit code ${String(result.code)}`;
}

const TAIL_LINES = 20;
/** Lines of the verify output shown on the terminal when it fails (the run folder keeps TAIL_LINES). */
const SHOWN_TAIL_LINES = 10;

/** The last lines of the recorded output tail, each escaped as one line and indented, for the user to see why. */
function shownTail(outputTail: string): string {
  const lines = outputTail.split(/\r?\n/).filter((line) => line.trim() !== '');
  return lines
    .slice(-SHOWN_TAIL_LINES)
    .map((line) => `  | ${escapeOneLine(line)}\n`)
    .join('');
}

function verifyRecord(result: RunResult): VerifyRecord {
  const output = `${result.stdout}${result.stderr}`.split('\n').slice(-TAIL_LINES).join('\n');
  return { code: result.code, signal: result.signal, timed_out: result.timedOut, spawn_error: result.spawnError, output_tail: output };
}

/** The Checked as stored: everything `checkedToJson` gives but the base64 copy of the whole file. */
function checkedRecord(checked: Checked): Record<string, unknown> {
  const json = checkedToJson(checked);
  delete json['result_bytes_base64'];
  return json;
}

function encodingOf(consultation: Consultation): SupportedEncoding {
  const name = consultation.context.encoding.split(' ')[0];
  return name === 'latin-1' || name === 'ascii' ? name : 'utf-8';
}

function decodeForDiff(bytes: Buffer, encoding: SupportedEncoding): string {
  return decodeStrict(withoutBom(bytes), encoding) ?? withoutBom(bytes).toString('latin1');
}

/** SPEC 2 for fix: 3 when the model or a write could not run, 1 when anything is left to review, else 0. */
function summarise(rows: readonly FixRow[], request: FixRequest, reviewIncomplete: readonly string[]): FixSummary {
  const outcomes: Record<string, number> = {};
  const refusals: Record<string, number> = {};
  for (const row of rows) {
    const key = row.outcome.startsWith('refused:') ? 'refused' : row.outcome;
    outcomes[key] = (outcomes[key] ?? 0) + 1;
    if (row.outcome.startsWith('refused:')) {
      const word = row.outcome.slice('refused:'.length);
      refusals[word] = (refusals[word] ?? 0) + 1;
    }
  }
  // An incomplete review may have missed findings, so "nothing left" cannot be claimed (SPEC 2).
  // A --verify program that could not even start is a check that did not run: incomplete, not a verdict.
  const incomplete =
    reviewIncomplete.length > 0 ||
    rows.some((r) => r.outcome === 'model_failed' || r.outcome === 'write_failed' || (r.verify !== undefined && r.verify !== null && r.verify.spawn_error !== null));
  const left = rows.some((r) => r.outcome !== 'applied');
  const exitCode = incomplete ? 3 : left ? 1 : 0;
  return { findings: rows.length, outcomes, refusals_by_word: refusals, accept_model: request.acceptModel, verify: request.verify, review_complete: reviewIncomplete.length === 0, review_incomplete_reasons: reviewIncomplete, exit_code: exitCode };
}
