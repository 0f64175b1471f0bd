/**
 * What the prover could not do in full, as values. Code decides on the kind (does it leave the run
 * incomplete?); the reports print `degradationText`, the one line each kind has always had.
 */
import type { SourceRefusal } from '../git/sources.js';
import type { RespelledName } from '../languages/identifier-spelling.js';

export type Degradation =
  /** The review's deadline passed before the file was parsed: nothing in it was proved. */
  | { kind: 'deadline_before_parse'; path: string }
  /** Parsing hit its time limit part-way; a half-built IR is not proved. */
  | { kind: 'parse_stopped'; path: string; limitSeconds: number }
  /** The parse had errors; what did parse is still proved. */
  | { kind: 'parse_error'; path: string }
  /** The prover (a recogniser, the operation scan, the parser) threw on the file. */
  | { kind: 'exception'; path: string; errorName: string; message: string }
  /** git could not give the file's content: the run cannot say the file is clean. */
  | { kind: 'unreadable'; path: string; detail: string }
  /** A file left out on purpose (binary, too large, a refused symlink, ...). */
  | { kind: 'not_read'; path: string; reason: Exclude<SourceRefusal, 'unreadable'>; detail: string }
  /** Minified or bundled code no other file names: build output, not the application's handlers. */
  | { kind: 'minified'; path: string; detail: string }
  /** A name the language reads as another than its text (`db.users.\u0064elete`): the prover, matching names by text, may not see an operation in it. */
  | { kind: 'respelled_name'; path: string; name: RespelledName };

/** True when the degradation means some code was not proved, so the run is incomplete (exit 3). */
export function leavesIncomplete(degradation: Degradation): boolean {
  switch (degradation.kind) {
    case 'deadline_before_parse':
    case 'parse_stopped':
    case 'exception':
    case 'unreadable':
    case 'respelled_name':
      return true;
    case 'parse_error':
    case 'not_read':
    case 'minified':
      return false;
  }
}

/** The line printed for a degradation in the text and JSON reports and in incomplete reasons. */
export function degradationText(degradation: Degradation): string {
  switch (degradation.kind) {
    case 'deadline_before_parse':
      return `error: ${degradation.path}: the review deadline passed before it was parsed`;
    case 'parse_stopped':
      return `error: ${degradation.path}: parsing stopped at its time limit (the review deadline or ${degradation.limitSeconds} s per file)`;
    case 'parse_error':
      return `parse_error ${degradation.path}: the parse had errors; what parsed is still proved`;
    case 'exception':
      return `error:${degradation.errorName} ${degradation.path}: ${degradation.message}`;
    case 'unreadable':
      return `unreadable ${degradation.path}: ${degradation.detail}`;
    case 'not_read':
      return `skipped_${degradation.reason} ${degradation.path}: ${degradation.detail}`;
    case 'minified':
      return `skipped_minified ${degradation.path}: ${degradation.detail}`;
    case 'respelled_name':
      return `${degradation.name.code} ${degradation.path}: ${degradation.name.detail}`;
  }
}

/** The lines of the degradations that leave the run incomplete, in order (the incomplete reasons). */
export function incompleteDegradationLines(degradations: readonly Degradation[]): string[] {
  return degradations.filter(leavesIncomplete).map(degradationText);
}
