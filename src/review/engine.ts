/**
 * The review pipeline (seeds behaviour.md, SPEC 2 and 4). A flat sequence of steps, one module each;
 * each step records its status, and only this engine decides completeness and the exit code.
 */
import { loadConfig, parseConfigText, type JscrConfig } from '../config/index.js';
import { configTextAtRevision } from '../git/config-at-revision.js';
import { readChange, resolveRepository, untrackedFiles, filesHiddenByIndexFlags, type ChangeSpec, type RawChange } from '../git/change.js';
import { parseUnifiedDiff, changedLineNumbers, addedLines, touchedLines, touchesChangedLines, type DiffFile } from '../git/diff.js';
import { proveFromReader } from '../prover/source.js';
import { toReviewFinding } from '../prover/render.js';
import { incompleteDegradationLines } from '../prover/degradation.js';
import { openBoundary } from '../policy/paths.js';
import { scanInjection } from './injection.js';
import { maskError, maskFinding, maskReport, secretFindings, SecretBook } from '../redact/index.js';
import { redactionStep } from './steps/redaction.js';
import { loadBuiltinRules, runRules, fileKind, MAX_HITS_PER_RULE_PER_FILE } from '../rules/engine.js';
import { builtinCheckMeta } from '../rules/checks.js';
import { SCANNERS } from './scanners/index.js';
import { jscrBinDirs } from './scanners/common.js';
import { createWorkCopy } from './work-copy.js';
import { ALLOWED_PROGRAMS, locateProgram, type AllowedProgram } from '../policy/process.js';
import { applySuppressions, baseLineCounts } from './suppress.js';
import { buildContext, type ChangedSource, type ContextBundle } from './context.js';
import { createSourceReader, type SourceReader } from '../git/sources.js';
import { readLinguistMarks } from '../git/attributes.js';
import { decideCoverage, skippedFiles, type CoveredFile } from './coverage.js';
import { assembleMaterial, materialSources } from './material.js';
import { findImporters, profileChangedFiles, type ProfiledFile } from './steps/profile.js';
import { StepLog } from './step-log.js';
import { unfinishedDetail } from './deadline.js';
import { buildIR, MAX_FILE_PARSE_MS, parseWasStopped, type FileIR } from '../syntax/ir.js';
import { loadGrammars } from '../syntax/parser.js';
import { languageForPath } from '../syntax/languages.js';
import { makeFinding } from '../report/fingerprint.js';
import { orderFindings } from '../report/order.js';
import { exitCodeFor } from '../report/exit.js';
import type { ChangeSummary, Finding, RejectedFinding, ReviewReport, ScannerRecord, StepRecord } from '../report/finding.js';
import { Writable } from 'node:stream';
import type { RuleMeta } from '../report/options.js';
import { VERSION } from '../version.js';

export type FailOn = 'critical' | 'high' | 'medium' | 'low';

export interface ReviewRequest {
  /** Any directory inside the repository. */
  repoDir: string;
  change: ChangeSpec;
  /** `--config FILE`, overriding the base revision's `.jscr.toml`. */
  configPath?: string;
  /** `--fail-on`; defaults to `review.fail_on`. */
  failOn?: FailOn;
  /** False with `--no-model`. */
  useModel: boolean;
  env: NodeJS.ProcessEnv;
  /** Today as YYYY-MM-DD, for suppression expiry. */
  today: string;
  /** Called as each step starts (progress display). */
  onStep?: (name: string) => void;
  /** Called as each step's outcome is recorded, with its duration (the per-step lines in CI). */
  onStepRecorded?: (record: StepRecord) => void;
  /** Where one-line diagnostics go (the token estimate before a model call); none when absent. */
  diagnostics?: NodeJS.WritableStream;
}

export interface ReviewOutcome {
  report: ReviewReport;
  config: JscrConfig;
  /** Metadata of the built-in rules (titles, help) for renderers such as SARIF. */
  rules: RuleMeta[];
}

const CONFIG_FILE = '.jscr.toml';
/** Public-surface changes whose importers are searched (each search is one git grep). */
const MAX_IMPORTER_SEARCHES = 20;
/** A changed file that is reviewed, with its changed (added) line numbers worked out once. */
type ReadableFile = CoveredFile & { text: string; changedLines: Set<number> };

/** A review whose report and errors have passed the masking of every secret found (src/redact/mask.ts): the one choke point before any renderer. */
export async function review(request: ReviewRequest): Promise<ReviewOutcome> {
  const book = new SecretBook();
  try {
    const outcome = await runReview(request, book);
    return { ...outcome, report: maskReport(outcome.report, book) };
  } catch (error) {
    throw maskError(error, book);
  }
}

async function runReview(request: ReviewRequest, book: SecretBook): Promise<ReviewOutcome> {
  const startedAt = Date.now();
  // Step 1: the repository boundary. A directory that is not in a repository is exit 2 (GitError).
  const root = await resolveRepository(request.repoDir);

  // Step 2: read the change (git only; nothing else in the repository is read yet).
  const raw = await readChange(root, request.change);

  // Step 3: parse the diff.
  const readAt = Date.now();
  const parsedDiff = parseUnifiedDiff(raw.diffText);
  const parsedAt = Date.now();

  // The configuration of the base, so the change cannot weaken its own review (SPEC 3).
  const { config, source: configSource } = await loadConfig({
    repoRoot: root,
    ...(request.configPath === undefined ? {} : { configPath: request.configPath }),
    // No base revision (a root commit, a repository with no commits): the defaults, never the
    // working tree's file, which may be part of the change itself.
    baseText: raw.baseRev === null ? null : await configTextAtRevision(root, raw.baseRev),
  });
  const boundary = await openBoundary(root, { followSymlinks: config.repository.follow_symlinks });
  // The deadline counts from the start of the run: reading and parsing a huge diff use it up too.
  const steps = new StepLog(config.review.deadline_s - (Date.now() - startedAt) / 1000, request.onStep);
  if (request.onStepRecorded !== undefined) steps.onRecord(request.onStepRecorded);
  // the first three steps ran before the log could exist (its deadline comes from the configuration)
  steps.record('boundary', 'ran', `root .; symlinks ${config.repository.follow_symlinks ? 'followed inside the root' : 'refused'}`, Date.now() - parsedAt);
  // `git diff HEAD` leaves untracked files out; say so, or a new file's review would read as clean.
  const untracked = raw.kind === 'working-tree' ? await untrackedFiles(root) : [];
  steps.record(
    'read_change',
    'ran',
    `${raw.kind} ${raw.range}` + (untracked.length > 0 ? `; ${untracked.length} untracked file(s) not part of the change (git add them to review them)` : ''),
    readAt - startedAt,
  );
  steps.record('parse_diff', 'ran', `${parsedDiff.length} file(s)`, parsedAt - readAt);

  const maxFileBytes = config.review.max_file_bytes;
  const reader = createSourceReader({
    root,
    boundary,
    source: sourceFor(raw),
    maxFileBytes,
    followSymlinks: config.repository.follow_symlinks,
  });
  const baseReader =
    raw.baseRev === null
      ? null
      : createSourceReader({ root, boundary, source: { kind: 'revision', rev: raw.baseRev }, maxFileBytes, followSymlinks: config.repository.follow_symlinks });

  // Every changed file is reviewed in full, excluded by the base's configuration, or not reviewed.
  const changedFiles = await decideCoverage({
    root,
    change: raw,
    diffFiles: parsedDiff,
    reader,
    baseReader,
    exclude: config.review.exclude,
    maxFileBytes,
    marks: await readLinguistMarks(baseReader),
    hiddenByIndex: raw.kind === 'working-tree' ? await filesHiddenByIndexFlags(root) : [],
  });
  const diffFiles = changedFiles.map((f) => f.diff);
  const unread = changedFiles.filter((f) => f.class === 'not_reviewed');
  if (unread.length > 0) {
    steps.incomplete(
      'read_files',
      'failed',
      `${unread.length} changed file(s) not reviewed: ${unread.slice(0, 5).map((f) => `${f.diff.path} (${f.reason ?? ''})`).join('; ')}${unread.length > 5 ? '; ...' : ''}`,
    );
  }
  const findings: Finding[] = [];
  const scanners: ScannerRecord[] = [];
  const readable: ReadableFile[] = changedFiles.flatMap((f) => (f.class === 'reviewed' && f.text !== null ? [{ ...f, text: f.text, changedLines: changedLineNumbers(f.diff) }] : []));
  const readableByPath = new Map(readable.map((f) => [f.diff.path, f]));
  const scanLinesFor = (file: ReadableFile): Set<number> | 'all' => (config.review.scope === 'changed-files' ? 'all' : file.changedLines);

  // The IR of every changed file that jscr parses (grammars loaded together, before the first parse).
  const irs = await steps.run(
    'syntax',
    async () => {
      const out = new Map<string, FileIR>();
      const langs = new Set(readable.map((f) => languageForPath(f.diff.path)).filter((l) => l !== null));
      await loadGrammars(langs);
      let degraded = 0;
      const unfinished: string[] = [];
      for (const file of readable) {
        const language = languageForPath(file.diff.path);
        if (!language) continue;
        if (steps.expired()) {
          unfinished.push(file.diff.path);
          continue;
        }
        const ir = await buildIR(file.diff.path, language, file.text, { stopAt: Date.now() + steps.remainingMs() });
        if (parseWasStopped(ir)) {
          unfinished.push(file.diff.path);
          continue; // a half-built IR is not passed on as if it were the file
        }
        if (ir.degradations.length > 0 || ir.hasErrors) degraded++;
        out.set(file.diff.path, ir);
      }
      const detail = `${out.size} file(s) parsed${degraded ? `, ${degraded} with parse errors or degradations` : ''}`;
      if (unfinished.length > 0) {
        const cause = steps.expired() ? undefined : `parsing a file reached its limit of ${MAX_FILE_PARSE_MS / 1000} s`;
        steps.incomplete('syntax', 'failed', `${detail}; ${unfinishedDetail('parsing', unfinished, cause)}`);
      } else steps.record('syntax', 'ran', detail);
      return out;
    },
    new Map<string, FileIR>(),
  );

  // The change profile of each file (the edit gate's lexer): trivial changes are not expanded or sent.
  const profiles = await steps.run(
    'profile',
    async () => {
      const { profiled: out, unfinished } = await profileChangedFiles(readable, baseReader, steps.deadline);
      const trivial = out.filter((p) => p.profile.known && p.profile.trivial).length;
      const surface = out.filter((p) => p.profile.known && p.profile.touchesPublicSurface).length;
      const detail = `${out.length} file(s): ${trivial} trivial (comments or whitespace only), ${surface} touching public surface`;
      // A file left unprofiled is simply not trivial: it keeps its context and its place in the material.
      if (unfinished.length > 0) steps.incomplete('profile', 'failed', `${detail}; ${unfinishedDetail('the change profile', unfinished)}`);
      else steps.record('profile', 'ran', detail);
      return out;
    },
    [] as ProfiledFile[],
  );
  const trivialPaths = new Set(profiles.filter((p) => p.profile.known && p.profile.trivial).map((p) => p.path));

  // Step 4: the context bundle.
  const changedSources: ChangedSource[] = readable.map((f) => ({
    path: f.diff.path,
    text: f.text,
    changedLines: f.changedLines,
    ir: irs.get(f.diff.path) ?? null,
    trivial: trivialPaths.has(f.diff.path),
  }));
  const context = await steps.run(
    'context',
    async () => {
      const publicSurfaceChanged = new Map<string, string[]>();
      const surface = profiles.filter((x) => x.profile.known && x.profile.touchesPublicSurface).slice(0, MAX_IMPORTER_SEARCHES);
      const repositoryFiles = surface.length > 0 ? new Set(await reader.listFiles()) : new Set<string>();
      for (const p of surface) {
        if (steps.expired()) break; // later steps are then not run, and the review says so
        const importers = await findImporters(p.path, reader, repositoryFiles);
        if (importers.length > 0) publicSurfaceChanged.set(p.path, importers);
      }
      const bundle = await buildContext({
        changed: changedSources,
        reader,
        publicSurfaceChanged,
        limits: {
          maxFiles: config.context.max_files,
          maxTotalBytes: config.context.max_total_bytes,
          maxExpansionRounds: config.context.max_expansion_rounds,
        },
      });
      const expanded = bundle.files.filter((f) => f.reason !== 'changed').length;
      steps.record(
        'context',
        'ran',
        `${bundle.files.length} file(s), ${bundle.totalBytes} bytes (${expanded} by expansion)` +
          (bundle.limitsReached.length ? `; stopped at ${bundle.limitsReached.join(', ')}` : ''),
      );
      return bundle;
    },
    emptyBundle(),
  );

  // Step 5: deterministic scanners. The built-in rules and the secret detector always run.
  let ruleMeta: RuleMeta[] = [];
  const ruleLimits: string[] = [];
  await steps.run(
    'rules',
    async () => {
      const rules = await loadBuiltinRules();
      ruleMeta = [...rules.map((r) => ({ id: r.id, title: r.title, severity: r.severity, cwe: r.cwe, message: r.message })), ...builtinCheckMeta()];
      const targets = readable
        .filter((f) => !isSymlink(f.diff))
        .map((f) => ({
          path: f.diff.path,
          language: languageForPath(f.diff.path),
          kind: fileKind(f.diff.path, f.text),
          text: f.text,
          scanLines: scanLinesFor(f),
        }));
      const ruleRun = await runRules({ files: targets, rules, limits: steps.deadline });
      // One file at a time, so the deadline stops the secret detector between files too.
      const secretsUnfinished: string[] = [];
      for (const t of targets) {
        if (steps.expired()) secretsUnfinished.push(t.path);
        else findings.push(...secretFindings([{ path: t.path, text: t.text, scanLines: t.scanLines }], book));
      }
      findings.push(...ruleRun.findings);
      if (ruleRun.capped.length > 0) ruleLimits.push(`rules: at most ${MAX_HITS_PER_RULE_PER_FILE} lines per rule per file (${ruleRun.capped.slice(0, 5).join('; ')}${ruleRun.capped.length > 5 ? '; ...' : ''})`);
      const detail = `${rules.length} built-in rules and the secret detector over ${targets.length} file(s)`;
      const problems = [
        ...ruleRun.unfinished.map((u) => `${u.path} (${u.reason})`),
        ...(secretsUnfinished.length > 0 ? [unfinishedDetail('the secret detector', secretsUnfinished)] : []),
      ];
      if (problems.length > 0) {
        steps.incomplete('rules', 'failed', `${detail}; not finished: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? '; ...' : ''}`);
      } else steps.record('rules', 'ran', detail);
    },
    undefined,
  );

  await steps.run(
    'scanners',
    async () => {
      const enabled = config.scanners.enabled;
      if (enabled.length === 0) {
        steps.record('scanners', 'skipped', 'no external scanner enabled (scanners.enabled)');
        return;
      }
      const outcome = await runExternalScanners(enabled, readable, () => steps.remainingMs(), request.env, book);
      scanners.push(...outcome.records);
      findings.push(...outcome.findings);
      const bad = outcome.records.filter((r) => r.status !== 'ran');
      if (bad.length > 0) {
        steps.incomplete('scanners', bad.some((r) => r.status === 'failed') ? 'failed' : 'not_run', bad.map((r) => `${r.name}: ${r.detail}`).join('; '));
      } else {
        steps.record('scanners', 'ran', outcome.records.map((r) => `${r.name}: ${r.detail}`).join('; '));
      }
    },
    undefined,
  );

  // The access-control prover, as a built-in scanner over the change (prover.enabled).
  await steps.run(
    'prover',
    async () => {
      if (!config.prover.enabled) {
        steps.record('prover', 'skipped', 'prover.enabled is false');
        return;
      }
      const touched = readable.map((f) => ({ path: f.diff.path, lines: touchedLines(f.diff) }));
      const outcome = await proveFromReader({ root, reader, touched, maxDepth: config.prover.max_depth, fanOut: config.prover.fan_out, irs, deadline: steps.deadline });
      findings.push(...outcome.result.findings.map(toReviewFinding));
      const c = outcome.result.coverage;
      const detail = `${outcome.fileCount} file(s) read, ${c.entryPoints} entry point(s), ${outcome.result.findings.length} unguarded operation(s)`;
      if (outcome.incomplete) steps.incomplete('prover', 'failed', `${detail}; ${incompleteDegradationLines(outcome.result.degradations).slice(0, 3).join('; ')}`);
      else steps.record('prover', 'ran', detail);
    },
    undefined,
  );

  // Step 6: prompt injection in the change: reported, never obeyed.
  await steps.run(
    'injection',
    async () => {
      const scan = scanInjection(
        readable.map((f) => ({ path: f.diff.path, addedLines: addedLines(f.diff) })),
        steps.deadline,
      );
      findings.push(...scan.findings);
      const detail = `${scan.findings.length} attempt(s) found`;
      if (scan.unfinished.length > 0) steps.incomplete('injection', 'failed', `${detail}; ${unfinishedDetail('the injection check', scan.unfinished)}`);
      else steps.record('injection', 'ran', detail);
    },
    undefined,
  );

  // Step 7: redaction of everything that would be sent.
  const modelConfigured = config.model.provider !== 'none' && request.useModel;
  // Trivial changes stay home: the rules scanned them, a model has nothing to add.
  const material = assembleMaterial(
    context,
    diffFiles.filter((d) => readableByPath.has(d.path)),
    trivialPaths,
  );
  const redaction = await steps.run(
    'redaction',
    async () => {
      const outcome = redactionStep(
        {
          material: material.map((m) => ({ path: m.path, text: m.text, kind: m.kind })),
          files: await materialSources(readable, context, modelConfigured ? baseReader : null),
          blockOnSecret: config.redaction.block_on_secret,
          modelConfigured,
        },
        book,
      );
      if (modelConfigured && outcome.withheld.length > 0) steps.incomplete('redaction', 'ran', outcome.detail);
      else steps.record('redaction', 'ran', outcome.detail);
      return outcome;
    },
    null,
  );

  // Steps 8-10: the model, anchoring and verification. A model finding must quote real evidence.
  const rejected: RejectedFinding[] = [];
  let modelUsage: { calls: number; input_tokens: number; output_tokens: number } | null = null;
  if (!modelConfigured) {
    const why = config.model.provider === 'none' ? 'no model configured (model.provider = "none")' : 'disabled by --no-model';
    steps.record('model', 'skipped', why);
    steps.record('anchor', 'skipped', 'no model findings to anchor');
    steps.record('verify', 'skipped', 'no model findings to verify');
  } else if (redaction === null) {
    steps.incomplete('model', 'not_run', 'the redaction step did not run, so nothing may be sent');
  } else {
    const out = await steps.run(
      'model',
      // Loaded only when a model will be asked: the HTTP client is not part of every review's start-up.
      async () =>
        (await import('./steps/model-calls.js')).runModelSteps({
          config,
          env: request.env,
          redaction,
          book,
          segments: material,
          deterministicFindings: findings,
          remainingMs: steps.remainingMs(),
          stderr: request.diagnostics ?? nullStream(),
        }),
      null,
    );
    if (out !== null) {
      for (const step of out.steps) {
        if (step.incomplete) steps.incomplete(step.name, step.status, step.detail);
        else steps.record(step.name, step.status, step.detail);
      }
      // The same scope as the rules: a model finding on an unchanged line is not this change's.
      for (const finding of out.findings) {
        const file = readableByPath.get(finding.path);
        const inScope = file !== undefined && (config.review.scope === 'changed-files' || touchesChangedLines(file.diff, finding.line, finding.end_line));
        if (inScope) findings.push(finding);
        else rejected.push({ finding, reason: 'outside the reviewed scope (not on a changed line)' });
      }
      rejected.push(...out.rejected);
      modelUsage = out.usage;
    }
  }

  // The review's own configuration changed by the change is itself a finding.
  findings.push(...configChangeFindings(changedFiles));

  // Suppressions: by fingerprint or rule+glob, never by line; those the change adds are refused.
  const suppression = applySuppressions({
    // Fingerprints from masked evidence, so no hash of a secret is printed and suppressions match the report.
    findings: findings.map((finding) => maskFinding(finding, book)),
    fileTexts: new Map(readable.map((f) => [f.diff.path, f.text])),
    addedLines: new Map(readable.map((f) => [f.diff.path, f.changedLines])),
    // Only a fingerprint entry asks whether a line existed at the base: read the base files just then.
    baseLines: config.suppress.some((entry) => entry.fingerprint !== undefined) ? await baseLinesOf(baseReader, readable, findings) : new Map<string, Map<string, number>>(),
    configEntries: config.suppress.map(toSuppressEntry),
    entriesAddedByChange: suppressEntriesAddedByChange(config, readableByPath.get(CONFIG_FILE)),
    today: request.today,
  });

  // Step 11: order and report.
  const ordered = orderFindings([...suppression.kept, ...suppression.added], {
    minConfidence: config.review.min_confidence,
    maxFindings: config.review.max_findings,
  });
  const limitsReached = [...context.limitsReached, ...ruleLimits, ...book.limitsReached()];
  if (ordered.truncated > 0) limitsReached.push('review.max_findings');
  steps.record('report', 'ran', `${ordered.findings.length} finding(s)${ordered.truncated ? `, ${ordered.truncated} cut by review.max_findings` : ''}`);

  const complete = steps.incompleteReasons.length === 0;
  const failOn = request.failOn ?? config.review.fail_on;
  const report: ReviewReport = {
    schema_version: 1,
    tool: { name: 'jscr', version: VERSION },
    change: summarise(raw, diffFiles),
    findings: ordered.findings,
    rejected,
    steps: steps.records,
    scanners,
    limits_reached: limitsReached,
    complete,
    incomplete_reasons: steps.incompleteReasons,
    exit_code: 0,
    omitted: { duplicates: ordered.duplicates, below_min_confidence: ordered.droppedLowConfidence, truncated: ordered.truncated },
    // Never an absolute path in the report body: the same input must give the same bytes anywhere.
    config_source: configSource === null ? null : configSource.startsWith(`${root}/`) ? configSource.slice(root.length + 1) : request.configPath !== undefined ? '--config' : configSource,
    trivial_files: [...trivialPaths].sort(),
    ...(raw.kind === 'working-tree' ? { untracked_files: untracked } : {}),
    skipped_files: skippedFiles(changedFiles),
    context: {
      files: context.files.map((f) => ({ path: f.path, reason: f.reason, via: f.via })),
      left_out: context.leftOut,
    },
    redaction:
      redaction === null
        ? null
        : {
            blocked: redaction.blocked,
            secrets_found: redaction.secretsFound,
            per_file: perFileRedaction(redaction.files),
          },
    suppressed: suppression.suppressed.map((s) => ({ rule: s.finding.rule, path: s.finding.path, fingerprint: s.finding.fingerprint, by: s.by })),
    unused_suppressions: suppression.unused,
    ...(modelUsage === null ? {} : { model: { usage: modelUsage } }),
  };
  report.exit_code = exitCodeFor(report, failOn);
  steps.deadline.dispose();
  return { report, config, rules: ruleMeta };
}

function emptyBundle(): ContextBundle {
  return { files: [], totalBytes: 0, limitsReached: [], leftOut: [] };
}

function sourceFor(raw: RawChange): Parameters<typeof createSourceReader>[0]['source'] {
  if (raw.kind === 'staged') return { kind: 'index' };
  if (raw.kind === 'working-tree' || raw.headRev === null) return { kind: 'worktree' };
  return { kind: 'revision', rev: raw.headRev };
}


function isSymlink(diff: DiffFile): boolean {
  return diff.newMode === '120000';
}

/** The base revision's lines of each reviewed file with findings (read at its old path for a rename). */
async function baseLinesOf(baseReader: SourceReader | null, files: ReadableFile[], findings: Finding[]): Promise<Map<string, Map<string, number>>> {
  const out = new Map<string, Map<string, number>>();
  const withFindings = new Set(findings.map((f) => f.path));
  const wanted = files.filter((f) => withFindings.has(f.diff.path));
  if (baseReader === null || wanted.length === 0) return out;
  const reads = await baseReader.readMany(wanted.map((f) => f.diff.oldPath ?? f.diff.path));
  for (const file of wanted) {
    const read = reads.get(file.diff.oldPath ?? file.diff.path);
    if (read?.ok === true) out.set(file.diff.path, baseLineCounts(read.text));
  }
  return out;
}

function summarise(raw: RawChange, diffFiles: DiffFile[]): ChangeSummary {
  return {
    kind: raw.kind,
    range: raw.range,
    files: diffFiles.map((f) => ({ path: f.path, status: f.status, old_path: f.oldPath })),
  };
}

function configChangeFindings(files: CoveredFile[]): Finding[] {
  const out: Finding[] = [];
  for (const file of files) {
    if (file.diff.path !== CONFIG_FILE && file.diff.oldPath !== CONFIG_FILE) continue;
    const added = [...addedLines(file.diff).entries()];
    const first = added[0];
    out.push(
      makeFinding({
        rule: 'jscr/review-config-changed',
        source: 'rule',
        severity: 'low',
        confidence: 1,
        path: file.diff.path,
        line: first ? first[0] : 1,
        end_line: first ? first[0] : 1,
        title: 'The change edits jscr\'s own configuration',
        message:
          'This change modifies .jscr.toml. The review used the base revision\'s configuration, so the edit takes effect only after it lands; check that it does not weaken the review (suppressions, scanners, limits).',
        evidence: added.map(([, text]) => text).slice(0, 20).join('\n') || `(${file.diff.status} ${CONFIG_FILE})`,
        cwe: 'CWE-693',
      }),
    );
  }
  return out;
}

function toSuppressEntry(s: JscrConfig['suppress'][number]) {
  return {
    rule: s.rule,
    reason: s.reason,
    ...(s.path === undefined ? {} : { path: s.path }),
    ...(s.fingerprint === undefined ? {} : { fingerprint: s.fingerprint }),
    ...(s.expires === undefined ? {} : { expires: s.expires }),
  };
}

/**
 * [[suppress]] entries the change itself adds to .jscr.toml: they are reported and never honoured.
 * With --config the file in force is the user's own; entries are compared with the head's anyway.
 */
function suppressEntriesAddedByChange(
  config: JscrConfig,
  head: ReadableFile | undefined,
): ReturnType<typeof toSuppressEntry>[] {
  if (!head) return [];
  let headEntries: JscrConfig['suppress'];
  try {
    headEntries = parseConfigText(head.text, `${CONFIG_FILE} (head)`).suppress;
  } catch {
    return []; // an invalid head config is reported by the config-change finding, not honoured anyway
  }
  const inForce = new Set(config.suppress.map((s) => JSON.stringify(s)));
  return headEntries.filter((s) => !inForce.has(JSON.stringify(s))).map(toSuppressEntry);
}

/** Run each enabled external scanner on a private copy of the changed files, outside the repository. */
async function runExternalScanners(
  enabled: readonly string[],
  files: ReadableFile[],
  /** Asked before each scanner: the deadline is shared, not granted afresh to each one. */
  remainingMs: () => number,
  env: NodeJS.ProcessEnv,
  /** Learns the secret values a scanner found, so they are masked wherever else they appear. */
  book: SecretBook,
): Promise<{ records: ScannerRecord[]; findings: Finding[] }> {
  const records: ScannerRecord[] = [];
  const findings: Finding[] = [];
  // Scanners read a copy of the reviewed revision's files, so they never see (or write to) the repository.
  const workCopy = await createWorkCopy(files.map((f) => ({ path: f.diff.path, text: f.text })));
  const workDir = workCopy.dir;
  try {
    const contents = new Map(files.map((f) => [f.diff.path, f.text]));
    for (const name of enabled) {
      const adapter = SCANNERS.find((s) => s.name === name);
      if (!adapter) {
        records.push({ name, status: 'not_run', detail: `${name} is enabled but jscr has no adapter for it in this version` });
        continue;
      }
      const taken = adapter.filesFor(files.map((f) => f.diff.path));
      if (taken.length === 0) {
        // Nothing to scan is still only "clean" when the scanner could have run at all.
        const installed = (ALLOWED_PROGRAMS as readonly string[]).includes(name) && locateProgram(name as AllowedProgram, env, jscrBinDirs()) !== null;
        const hasAdapter = adapter.name !== 'semgrep' && adapter.name !== 'gitleaks';
        records.push(
          installed && hasAdapter
            ? { name, status: 'ran', detail: 'no changed file of the kinds it scans' }
            : { name, status: 'not_run', detail: hasAdapter ? `${name} is enabled but not installed (not found on PATH)` : `${name} is enabled but jscr has no adapter for it in this version` },
        );
        continue;
      }
      const left = remainingMs();
      if (left === 0) {
        records.push({ name, status: 'not_run', detail: 'the review deadline (review.deadline_s) passed before this scanner' });
        continue;
      }
      const outcome = await adapter.run({ root: workDir, files: taken, timeoutMs: Math.min(left, 300_000), env, contents, learnSecret: (secret) => book.learn(secret) });
      records.push({ name, status: outcome.status, detail: outcome.detail });
      findings.push(...outcome.findings);
    }
  } finally {
    await workCopy.remove();
  }
  return { records, findings };
}

/** Redaction counts per path (material has several segments per file). */
function perFileRedaction(files: { path: string; found: number; redacted: number; rules: string[] }[]): { path: string; found: number; redacted: number; rules: string[] }[] {
  const byPath = new Map<string, { path: string; found: number; redacted: number; rules: Set<string> }>();
  for (const f of files) {
    if (f.found === 0) continue;
    const entry = byPath.get(f.path) ?? { path: f.path, found: 0, redacted: 0, rules: new Set<string>() };
    entry.found += f.found;
    entry.redacted += f.redacted;
    for (const r of f.rules) entry.rules.add(r);
    byPath.set(f.path, entry);
  }
  return [...byPath.values()].sort((a, b) => a.path.localeCompare(b.path)).map((e) => ({ ...e, rules: [...e.rules].sort() }));
}

/** A sink for diagnostics nobody asked to see. */
function nullStream(): NodeJS.WritableStream {
  return new Writable({ write: (_chunk, _encoding, done) => done() });
}
