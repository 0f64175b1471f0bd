/**
 * The real-repository precision trial of docs/precision.md, for one repository: each of the last N
 * non-merge commits reviewed by the built CLI, then `jscr prove` on the head, with the default
 * configuration plus the excludes `jscr init` proposes. Findings go to one JSONL, runs and exit codes to
 * another, so grading can start while the trial runs and a stopped trial resumes where it stopped.
 *
 * Run (after `node tools/build.mjs`):
 *   npx tsx tools/precision-trial.ts --repo /work/trial/kimai --out /work/trial/out [--commits 100] [--no-prove]
 *
 * Every child runs under `nice -n 19`, one at a time: the trial shares the machine with other work.
 * The outputs quote the reviewed code, so they belong outside this repository.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const JSCR = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'jscr');
const EVIDENCE_CLIP = 300;
/** A review that runs longer than its own 600 s deadline is stuck; killed and counted as such. */
const CHILD_TIMEOUT_MS = 700_000;

interface TrialOptions {
  repo: string;
  name: string;
  out: string;
  commits: number;
  prove: boolean;
}

/** One finding as the grading table needs it. */
interface TrialFinding {
  repository: string;
  commit: string;
  command: 'review' | 'prove';
  rule: string;
  severity: string;
  confidence: number | null;
  path: string;
  line: number | null;
  title: string;
  evidence: string;
  /** Prover findings of `prove` (the review's report does not carry the path): the entry point and the checks seen on the way. */
  entry?: string;
  weaker_checks?: string[];
}

/** One run of the CLI: how it ended and what it found. */
interface TrialRun {
  repository: string;
  commit: string;
  command: 'review' | 'prove';
  exit_code: number | 'timeout';
  findings: number;
  complete: boolean | null;
  incomplete_reasons: string[];
  duration_ms: number;
  stderr: string;
  /** Prove: what it recognised and reached, which tells "nothing to find" from "nothing understood". */
  coverage?: Record<string, unknown>;
}

interface ChildResult {
  code: number | 'timeout';
  stdout: string;
  stderr: string;
  ms: number;
}

function usage(message: string): never {
  process.stderr.write(`precision-trial: ${message}\n`);
  process.exit(2);
}

function readOptions(): TrialOptions {
  const { values } = parseArgs({
    options: {
      repo: { type: 'string' },
      name: { type: 'string' },
      out: { type: 'string' },
      commits: { type: 'string', default: '100' },
      'no-prove': { type: 'boolean', default: false },
    },
  });
  if (values.repo === undefined || values.out === undefined) usage('give --repo <work tree> and --out <folder>');
  const commits = Number(values.commits);
  if (!Number.isInteger(commits) || commits < 1) usage(`--commits must be a whole number above 0, not ${values.commits}`);
  const repo = resolve(values.repo);
  return { repo, name: values.name ?? basename(repo), out: resolve(values.out), commits, prove: !values['no-prove'] };
}

/** Runs one program niced, collecting its output whole (a report can be megabytes). */
function run(args: readonly string[], cwd: string): Promise<ChildResult> {
  const started = Date.now();
  return new Promise((done, fail) => {
    const child = spawn('nice', ['-n', '19', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, CHILD_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code: timedOut ? 'timeout' : (code ?? -1), stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8'), ms: Date.now() - started });
    });
  });
}

async function git(repo: string, args: readonly string[]): Promise<string> {
  const result = await run(['git', '-C', repo, ...args], repo);
  if (result.code !== 0) usage(`git ${args.join(' ')} failed: ${result.stderr.trim()}`);
  return result.stdout;
}

/**
 * The configuration a user gets by accepting `jscr init`'s proposal: init writes `.jscr.toml` into the
 * work tree, and the file is moved out to be given with `--config` (committing it would only apply to
 * later commits, since a review reads the configuration of the change's base).
 */
async function initConfig(options: TrialOptions): Promise<string> {
  const target = join(options.out, `${options.name}.jscr.toml`);
  if (existsSync(target)) return target;
  const inTree = join(options.repo, '.jscr.toml');
  if (existsSync(inTree)) usage(`${inTree} exists; the trial needs the repository without its own configuration`);
  const init = await run(['node', JSCR, 'init', '--write', '--repo', options.repo], options.repo);
  if (init.code !== 0 || !existsSync(inTree)) usage(`jscr init failed: ${init.stderr.trim()}`);
  renameSync(inTree, target);
  return target;
}

function clip(text: unknown): string {
  const value = typeof text === 'string' ? text : '';
  return value.length > EVIDENCE_CLIP ? `${value.slice(0, EVIDENCE_CLIP)}…` : value;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function findingOf(options: TrialOptions, commit: string, command: TrialFinding['command'], raw: unknown): TrialFinding {
  const f = asRecord(raw);
  return {
    repository: options.name,
    commit,
    command,
    rule: text(f['rule']),
    severity: text(f['severity']),
    confidence: typeof f['confidence'] === 'number' ? f['confidence'] : null,
    path: text(f['path']),
    line: typeof f['line'] === 'number' ? f['line'] : null,
    // prover findings have no title: what is unchecked stands in for it
    title: typeof f['title'] === 'string' ? f['title'] : `${text(f['function'])}: missing ${text(f['missing'])} (${text(f['label'])})`,
    evidence: clip(f['evidence']),
    ...(f['entry'] === undefined ? {} : proverPath(f)),
  };
}

/** Where a prover path starts, and what it passed, which grading needs to read the right code. */
function proverPath(f: Record<string, unknown>): Pick<TrialFinding, 'entry' | 'weaker_checks'> {
  const entry = asRecord(f['entry']);
  const line = typeof entry['line'] === 'number' ? entry['line'] : 0;
  const weaker = Array.isArray(f['weaker_checks']) ? f['weaker_checks'].map(text) : [];
  return { entry: `${text(entry['path'])}:${line} ${text(entry['function'])} (${text(entry['framework'])})`, weaker_checks: weaker };
}

/** Runs one CLI command and appends its run line and finding lines. */
async function record(options: TrialOptions, commit: string, command: TrialFinding['command'], args: readonly string[]): Promise<TrialRun> {
  const result = await run(['node', JSCR, ...args], options.repo);
  let report: Record<string, unknown> = {};
  try {
    report = asRecord(JSON.parse(result.stdout));
  } catch {
    // no report: the exit code and stderr say why
  }
  const findings = Array.isArray(report['findings']) ? report['findings'].map((f) => findingOf(options, commit, command, f)) : [];
  for (const finding of findings) appendFileSync(join(options.out, `${options.name}.findings.jsonl`), `${JSON.stringify(finding)}\n`);
  const reasons = Array.isArray(report['incomplete_reasons']) ? report['incomplete_reasons'].map(String) : Array.isArray(report['degradations']) ? report['degradations'].map(String) : [];
  const line: TrialRun = {
    repository: options.name,
    commit,
    command,
    exit_code: result.code,
    findings: findings.length,
    complete: typeof report['complete'] === 'boolean' ? report['complete'] : null,
    incomplete_reasons: reasons.map(clip),
    duration_ms: result.ms,
    stderr: clip(result.stderr.trim()),
    ...(command === 'prove' ? { coverage: asRecord(report['coverage']) } : {}),
  };
  appendFileSync(join(options.out, `${options.name}.runs.jsonl`), `${JSON.stringify(line)}\n`);
  return line;
}

/** Runs already recorded, so a second start only does what is missing. */
function recordedRuns(options: TrialOptions): TrialRun[] {
  const path = join(options.out, `${options.name}.runs.jsonl`);
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as TrialRun);
}

function countExitCodes(runs: readonly TrialRun[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of runs) counts[String(r.exit_code)] = (counts[String(r.exit_code)] ?? 0) + 1;
  return counts;
}

async function main(): Promise<void> {
  const options = readOptions();
  mkdirSync(options.out, { recursive: true });
  const config = await initConfig(options);
  const head = (await git(options.repo, ['rev-parse', 'HEAD'])).trim();
  const commits = (await git(options.repo, ['rev-list', '--no-merges', '-n', String(options.commits), 'HEAD'])).split('\n').filter((c) => c !== '');
  const done = new Set(recordedRuns(options).map((r) => `${r.command} ${r.commit}`));
  for (const [i, commit] of commits.entries()) {
    if (done.has(`review ${commit}`)) continue;
    const line = await record(options, commit, 'review', ['review', '--repo', options.repo, '--commit', commit, '--config', config, '--no-model', '--format', 'json', '--quiet']);
    process.stderr.write(`${options.name} ${i + 1}/${commits.length} ${commit.slice(0, 10)} exit ${line.exit_code}, ${line.findings} finding(s), ${line.duration_ms} ms\n`);
  }
  if (options.prove && !done.has(`prove ${head}`)) await record(options, head, 'prove', ['prove', '--repo', options.repo, '--format', 'json']);
  const runs = recordedRuns(options);
  const summary = {
    repository: options.name,
    head,
    config,
    reviews: countExitCodes(runs.filter((r) => r.command === 'review')),
    prove: countExitCodes(runs.filter((r) => r.command === 'prove')),
    findings: runs.reduce((n, r) => n + r.findings, 0),
  };
  writeFileSync(join(options.out, `${options.name}.summary.json`), `${JSON.stringify(summary, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(summary)}\n`);
}

await main();
