/** The one interface every external scanner adapter implements. */
import type { Finding } from '../../report/finding.js';
import type { KnownSecret } from '../../redact/mask.js';

/** What the engine hands an adapter. */
export interface ScannerInput {
  /** Directory holding the files to scan (the engine's private copy, never the repository itself). */
  root: string;
  /** Root-relative paths with `/`, already narrowed by `filesFor`. */
  files: string[];
  /** Kill the scanner after this long; a kill is a `failed` outcome, never a clean one. */
  timeoutMs: number;
  /** Environment for the scanner process (PATH decides which scanners are installed). */
  env: NodeJS.ProcessEnv;
  /** The admitted text of each file, by root-relative path: the evidence is quoted from here. */
  contents: Map<string, string>;
  /**
   * Told each secret value a scanner finds, so jscr masks it wherever else it appears (another
   * rule's evidence, a message). Values go here only, never into an outcome.
   */
  learnSecret?: (secret: KnownSecret) => void;
}

/** A file the scanner was given but could not analyse (it could not parse it), with the scanner's reason. */
export interface UnanalysedFile {
  path: string;
  reason: string;
}

/**
 * How a scanner run ended. Only `ran` and `partial` may carry findings; `partial` (some files could not
 * be analysed), `not_run` and `failed` make the review incomplete (exit 3) and are never read as
 * "nothing found".
 */
export type ScannerOutcome =
  | { status: 'ran'; findings: Finding[]; detail: string }
  | { status: 'partial'; findings: Finding[]; detail: string; unanalysed: UnanalysedFile[] }
  | { status: 'not_run'; findings: []; detail: string }
  | { status: 'failed'; findings: []; detail: string };

/** An external scanner: which changed files it takes, and how to run it on them. */
export interface ScannerAdapter {
  /** The name used in `scanners.enabled` and in `source: scanner:<name>`. */
  name: string;
  /** The subset of changed paths this scanner reads (by extension). */
  filesFor(paths: string[]): string[];
  run(input: ScannerInput): Promise<ScannerOutcome>;
}
