/**
 * What every adapter shares: finding jscr's own npm-installed tools, running a scanner through the
 * process allowlist and classifying how it ended, mapping its paths back to root-relative ones, and
 * quoting evidence from the admitted file contents.
 */
import { realpathSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { locateProgram, runProgram, type AllowedProgram } from '../../policy/process.js';
import { z } from 'zod';
import type { ScannerOutcome, UnanalysedFile } from './types.js';
import type { Finding } from '../../report/finding.js';
import { jscrPackageRoot, packageFileText } from '../../package-root.js';
import { loadDataFile } from '../../data-file/load.js';
import { createWorkCopy } from '../work-copy.js';
import type { ScannerInput } from './types.js';

export { jscrPackageRoot };


/**
 * Where npm-installed scanners (secretlint, eslint) are looked for before PATH: jscr's own
 * node_modules/.bin and, when jscr is itself installed as a dependency (npm hoists its dependencies
 * beside it), the .bin of the node_modules folder holding jscr. Never the reviewed repository's
 * node_modules, which the change under review could control. The single executable has no package:
 * it finds the scanners on PATH only, and reports them not run when they are not there.
 */
export function jscrBinDirs(): string[] {
  const root = jscrPackageRoot();
  if (root === null) return [];
  const dirs = [join(root, 'node_modules', '.bin')];
  const segments = root.split(sep);
  const holder = segments.lastIndexOf('node_modules');
  if (holder > 0) dirs.push(join(segments.slice(0, holder + 1).join(sep), '.bin'));
  return dirs;
}


/** A path for a scanner's argument vector: `./x` so a file named `-rf` can never read as an option. */
export function asArgument(path: string): string {
  return `./${path}`;
}

export function notRun(detail: string): ScannerOutcome {
  return { status: 'not_run', findings: [], detail };
}

/**
 * A completed scan's outcome: `ran`, or `partial` when the scanner could not analyse some of the files
 * it was given (those files are not reviewed by it, so the review is incomplete). The detail names them.
 */
export function scanned(findings: Finding[], fileCount: number, unanalysed: readonly UnanalysedFile[]): ScannerOutcome {
  const detail = `${findings.length} finding(s) in ${fileCount} file(s)`;
  if (unanalysed.length === 0) return { status: 'ran', findings, detail };
  const named = unanalysed.map((u) => `${u.path} (${u.reason.replace(/\s+/g, ' ').trim().slice(0, 200)})`);
  return { status: 'partial', findings, detail: `${detail}; could not analyse ${unanalysed.length} file(s): ${named.join(', ')}`, unanalysed: [...unanalysed] };
}

function failed(detail: string): ScannerOutcome {
  return { status: 'failed', findings: [], detail };
}

export interface ScannerProcess {
  /** Scanner name for messages. */
  name: string;
  program: AllowedProgram;
  args: string[];
  root: string;
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
  /** Directories searched before PATH. */
  searchPath?: string[];
  /** Exit codes that mean the scan completed (0 and the scanner's "found issues" code). */
  completedCodes: readonly number[];
}

/** The output of a scan that completed, or the outcome saying why it did not. */
export type ScanRun = { completed: true; stdout: string; stderr: string; code: number } | { completed: false; outcome: ScannerOutcome };

function firstLine(text: string): string {
  return text.split('\n').map((line) => line.trim()).find((line) => line.length > 0) ?? '';
}

/** Run a scanner through the process allowlist and classify the ending: not installed, crashed, timed out. */
export async function runScanner(spec: ScannerProcess): Promise<ScanRun> {
  const searchPath = spec.searchPath ?? [];
  if (locateProgram(spec.program, spec.env, searchPath) === null) {
    return { completed: false, outcome: notRun(`${spec.name} is enabled but not installed (${spec.program} not found on PATH)`) };
  }
  const result = await runProgram(spec.program, spec.args, {
    cwd: spec.root,
    timeoutMs: spec.timeoutMs,
    env: withNodeOnPath(spec.env, searchPath.length > 0),
    searchPath,
  });
  if (result.timedOut) {
    return { completed: false, outcome: failed(`${spec.name} timed out after ${Math.round(spec.timeoutMs / 100) / 10} s`) };
  }
  if (result.spawnError !== null) return { completed: false, outcome: failed(`${spec.name} could not be started (${result.spawnError})`) };
  if (result.code === null) return { completed: false, outcome: failed(`${spec.name} was killed by signal ${result.signal ?? 'unknown'}`) };
  if (!spec.completedCodes.includes(result.code)) {
    const reason = firstLine(result.stderr) || firstLine(result.stdout) || 'no output';
    return { completed: false, outcome: failed(`${spec.name} crashed: exit code ${result.code}: ${reason.slice(0, 300)}`) };
  }
  return { completed: true, stdout: result.stdout, stderr: result.stderr, code: result.code };
}

/**
 * npm-installed scanners start with `#!/usr/bin/env node`; put the node running jscr on their PATH so
 * they run with it even when the caller's PATH has no node.
 */
function withNodeOnPath(env: NodeJS.ProcessEnv, needsNode: boolean): NodeJS.ProcessEnv {
  if (!needsNode || !/(^|[/\\])node(\.exe)?$/.test(process.execPath)) return env;
  return { ...env, PATH: [dirname(process.execPath), env.PATH ?? ''].filter((p) => p.length > 0).join(delimiter) };
}

/** A line number in a scanner's report: a whole number from 1. */
export const reportedLine = z.number().int().min(1);

/** A completed scan's report in its checked shape, or the `failed` outcome saying why it is not one. */
export type ReportRead<T> = { ok: true; report: T } | { ok: false; outcome: ScannerOutcome };

/**
 * A completed scan's standard output read as the scanner's report: JSON first, then the adapter's
 * schema. Output that is not JSON, or JSON of another shape (a field missing, a wrong type, the report
 * nested one level deeper), fails the scanner with one line naming the first mismatch; it is never
 * cast and read as a report with nothing in it.
 */
export function readReport<T>(scan: { stdout: string; code: number }, name: string, reportName: string, schema: z.ZodType<T>): ReportRead<T> {
  const notReport = `${name} printed output that is not its ${reportName} (exit code ${scan.code})`;
  let json: unknown;
  try {
    json = JSON.parse(scan.stdout) as unknown;
  } catch {
    return { ok: false, outcome: failed(notReport) };
  }
  const checked = schema.safeParse(json);
  if (checked.success) return { ok: true, report: checked.data };
  const issue = checked.error.issues[0];
  const where = issue === undefined ? '' : `: ${issuePath(issue.path)}: ${issue.message.slice(0, 160)}`;
  return { ok: false, outcome: failed(`${notReport}${where}`) };
}

/** `results[0].line_number`, or `(the report)` for the top level. Keys come from the schema, indexes from the output. */
function issuePath(path: readonly PropertyKey[]): string {
  const shown = path.map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${String(key)}`)).join('');
  return shown === '' ? '(the report)' : shown.slice(0, 120);
}

/**
 * Turn a path a scanner printed (relative to the root, `./x`, or absolute, possibly through the real
 * path of the root) into the root-relative `/` path; null when it is outside the root.
 */
export function rootRelative(root: string, printed: string): string | null {
  const candidates = [root];
  try {
    candidates.push(realpathSync(root));
  } catch {
    // a root that cannot be resolved is compared as given
  }
  for (const base of candidates) {
    const rel = relative(base, isAbsolute(printed) ? printed : resolve(base, printed));
    if (rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel)) return rel.split(sep).join('/');
  }
  return null;
}

/** Lines `line..endLine` (1-based, inclusive) of an admitted file, for a finding's evidence. */
export function quoteLines(contents: Map<string, string>, path: string, line: number, endLine: number = line): string {
  const text = contents.get(path);
  if (text === undefined) return '';
  const lines = text.split('\n');
  const last = Math.max(line, Math.min(endLine, line + 4)); // a few lines are evidence; a whole function is not
  return lines
    .slice(Math.max(0, line - 1), last)
    .map((l) => l.replace(/\r$/, ''))
    .join('\n');
}

/*
 * The CWE of an external scanner's rule when the scanner reports none (rules/scanners/cwe.toml), so its
 * finding can merge with jscr's own at the same line and CWE. What the scanner says itself wins.
 */
const CWE = z.string().regex(/^CWE-[1-9]\d*$/, 'expected CWE-<number>');
const CweFileSchema = z.strictObject({ bandit: z.record(z.string(), CWE), eslint: z.record(z.string(), CWE), shellcheck: z.record(z.string(), CWE) });

type ScannerWithTable = keyof z.infer<typeof CweFileSchema>;

export function parseScannerCwes(text: string, file = 'rules/scanners/cwe.toml'): z.infer<typeof CweFileSchema> {
  return loadDataFile({ file, text, kind: 'rules', schema: CweFileSchema, normalise: (data) => data });
}

let cached: z.infer<typeof CweFileSchema> | null = null;

/** `CWE-78` style: the scanner's own CWE when it gave one, else the table's for `rule`, else null. */
export function scannerCwe(scanner: ScannerWithTable, rule: string, given: string | null): string | null {
  if (given !== null) return given;
  cached ??= parseScannerCwes(packageFileText('rules', 'scanners', 'cwe.toml'));
  return Object.hasOwn(cached[scanner], rule) ? (cached[scanner][rule] ?? null) : null;
}

/** A scanner's inline-suppression keyword, renamed in place (`shellcheck` and `secretlint` are both 10 letters). */
const NOTED = 'jscr-noted';

/**
 * `text` with every match of `directive` (the keyword of a scanner's inline suppression comment)
 * replaced by a word of the same length, so lines, columns and offsets stay where the scanner reports them.
 */
export function withoutDirectives(text: string, directive: RegExp): string {
  return text.replace(directive, (keyword) => NOTED.padEnd(keyword.length, '-').slice(0, keyword.length));
}

/**
 * Run a scanner that has no switch to ignore its own suppression comments on a private copy of its
 * files with those comments' keyword renamed: a change cannot silence the scan of itself. The copy
 * is removed whatever happens.
 */
export async function scanWithoutDirectives(input: ScannerInput, directive: RegExp, scan: (input: ScannerInput) => Promise<ScannerOutcome>): Promise<ScannerOutcome> {
  const copy = await createWorkCopy(input.files.map((path) => ({ path, text: withoutDirectives(input.contents.get(path) ?? '', directive) })));
  try {
    return await scan({ ...input, root: copy.dir });
  } finally {
    await copy.remove();
  }
}
