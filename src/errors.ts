/**
 * Typed errors. Library code throws these; `src/cli.ts` is the one place that maps them to an exit
 * code and a single line of text (SPEC 2). Expected outcomes (refusals, scanner failures, rejected
 * findings) are values in reports, never exceptions.
 */
import { escapeOneLine } from './report/escape.js';

/** Base of every error the CLI knows how to report in one line. */
export abstract class JscrError extends Error {
  /** SPEC 2 exit code this error maps to. */
  abstract readonly exitCode: 2 | 3;
}

/** Bad flags or arguments on the command line. */
export class UsageError extends JscrError {
  readonly exitCode = 2;
}

/**
 * Where a problem in a data file (`.jscr.toml`, a rule, secret-rule or facts file) sits and what was
 * expected there: the one error shape every data-file loader reports.
 */
export interface DataFileProblem {
  /** 1-based line, when known. */
  line: number | null;
  /** 1-based column, when known (TOML syntax errors). */
  column: number | null;
  /** Dotted key path such as `rule[3].pattern`, when the problem belongs to a key. */
  keyPath: string | null;
  /** What was expected (and found), in words. */
  expected: string;
}

/** `file: line 3, column 5: rule[0].pattern: expected …`; the parts not known are left out. */
function formatDataFileProblem(file: string, problem: DataFileProblem): string {
  const parts = [file];
  if (problem.line !== null) parts.push(`line ${problem.line}${problem.column === null ? '' : `, column ${problem.column}`}`);
  if (problem.keyPath !== null && problem.keyPath !== '') parts.push(problem.keyPath);
  parts.push(problem.expected);
  return parts.join(': ');
}

/** A data file could not be read, parsed or validated (exit 2, one line in the one format). */
export abstract class DataFileError extends JscrError {
  readonly exitCode = 2;
  readonly line: number | null;
  readonly column: number | null;
  readonly keyPath: string | null;
  readonly expected: string;
  constructor(
    readonly file: string,
    problem: DataFileProblem,
  ) {
    super(formatDataFileProblem(file, problem));
    this.line = problem.line;
    this.column = problem.column;
    this.keyPath = problem.keyPath === '' ? null : problem.keyPath;
    this.expected = problem.expected;
  }
}

/** `.jscr.toml` could not be read, parsed or validated. `keyPath` is the dotted key, when known. */
export class ConfigError extends DataFileError {
  constructor(file: string, keyPath: string | null, expected: string, position: { line: number; column: number | null } | null = null) {
    super(file, { line: position?.line ?? null, column: position?.column ?? null, keyPath, expected });
  }
}

/** A rule or facts file under rules/ or ruleset/ is invalid (a defect of the build, but reported plainly). */
export class RuleFileError extends DataFileError {
  constructor(file: string, line: number | null, expected: string, keyPath: string | null = null, column: number | null = null) {
    super(file, { line, column, keyPath, expected });
  }

  /** The message after the file and position: the key path (when known) and what was expected. */
  get problem(): string {
    return this.keyPath === null ? this.expected : `${this.keyPath}: ${this.expected}`;
  }
}

/** A path or the repository itself is outside what jscr may read. */
export class BoundaryError extends JscrError {
  readonly exitCode = 2;
}

/**
 * git failed or refused what jscr asked: not a repository, a bad revision, a missing or damaged object,
 * git not installed. The CLI prints `account` as jscr's line and `gitSaid` on a line of its own under
 * it; `message` joins the two for places that hold one line (the JSON report's reasons).
 */
export class GitError extends JscrError {
  readonly exitCode = 2;
  constructor(
    /** jscr's own line: what it asked of git and what went wrong. */
    readonly account: string,
    /** git's own message (its stderr without warnings and hints), or null when git said nothing or jscr found the problem itself. */
    readonly gitSaid: string | null = null,
  ) {
    super(gitSaid === null ? account : `${account}: ${gitSaid}`);
  }

  /** The same error with both texts passed through `mask` (a token in a revision name that git echoes). */
  masked(mask: (text: string) => string): GitError {
    return new GitError(mask(this.account), this.gitSaid === null ? null : mask(this.gitSaid));
  }
}

/** Input that is not what the command takes (a malformed JSON payload, an unreadable file). */
export class InputError extends JscrError {
  readonly exitCode = 2;
}

/** A bug in jscr. Reported as one line plus a request to report it; exit 2 (could not run). */
export class InternalError extends JscrError {
  readonly exitCode = 2;
}

/** Collapse any message to one line so the CLI never prints a multi-line error or a stack trace. */
export function oneLine(text: string): string {
  return text.replace(/\s*\r?\n\s*/g, ' ').trim();
}

/**
 * Map anything thrown to one line on stderr (a GitError adds git's own message on a second) and an
 * exit code; never a stack trace. Messages quote paths and git's words, so they are escaped like
 * report text (stderr is in the CI log too).
 */
export function reportError(error: unknown, stderr: NodeJS.WritableStream): 2 | 3 {
  if (error instanceof GitError) {
    stderr.write(`jscr: ${escapeOneLine(oneLine(error.account))}\n`);
    if (error.gitSaid !== null) stderr.write(`git: ${escapeOneLine(oneLine(error.gitSaid))}\n`);
    return error.exitCode;
  }
  if (error instanceof JscrError) {
    stderr.write(`jscr: ${escapeOneLine(oneLine(error.message))}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  stderr.write(`jscr: internal error: ${escapeOneLine(oneLine(message))} (please report this)\n`);
  return 2;
}
