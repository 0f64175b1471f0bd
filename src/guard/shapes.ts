/**
 * The guard's input and output shapes (SPEC 6). Field names are the JSON ones (snake_case) because
 * these records are written to run folders and read back as they are.
 */
import { z } from 'zod';
import type { RefusalWord } from './refusal-words.js';

const lineNumber = z.number().int().min(1);

/** The context a model was shown: a slice of one file, after redaction. */
const ContextSchema = z.object({
  /** Relative POSIX path of the file under the repository root. */
  path: z.string(),
  /** First line of the slice (1-based, inclusive). */
  start_line: lineNumber,
  /** Last line of the slice (1-based, inclusive). */
  end_line: lineNumber,
  /** The slice's text as the model saw it (redacted), split with `splitLines`. */
  text: z.string(),
  /** sha256 (hex) of the file's bytes when the context was read. */
  file_sha256: z.string().regex(/^[0-9a-f]{64}$/, 'a lowercase hex sha256'),
  /** The file's encoding as recorded by the reader (see `detectEncoding`). */
  encoding: z.string(),
});
export type Context = z.infer<typeof ContextSchema>;

/** One question to the model about one finding in one file. */
export const ConsultationSchema = z.object({
  context: ContextSchema,
  /** The line the finding is about; a proposal must replace it. */
  line: lineNumber,
  /** The enclosing symbol the question is about; null when the scan found none (then nothing is accepted). */
  symbol: z.string().nullable(),
  /** Modules a proposal may newly import (the finding's rule licence); a module under one counts. */
  to_modules: z.array(z.string()),
});
export type Consultation = z.infer<typeof ConsultationSchema>;

/** The model's answer: replace lines start_line..end_line of path, quoted as `replaces`, with `replacement`. */
export const ProposalSchema = z.object({
  path: z.string(),
  /** Line numbers are whole numbers; whether they make sense is the guard's question, not the schema's. */
  start_line: z.number().int(),
  end_line: z.number().int(),
  symbol: z.string().nullable(),
  /** The text of the replaced lines as the model was shown them. */
  replaces: z.string(),
  /** The new text of those lines (may be empty: the lines are removed). */
  replacement: z.string(),
});
export type Proposal = z.infer<typeof ProposalSchema>;

/** What the guard decided about one proposal. */
export interface Checked {
  /** The proposal checked, as given. */
  proposal: Proposal;
  /** The first refusal, or null when every check passed. */
  refusal: RefusalWord | null;
  /** One line: on refusal which way the check failed, on acceptance a summary. */
  detail: string;
  /** On acceptance, the whole file as a guarded write would put it on disk; otherwise null. */
  resultBytes: Buffer | null;
  /** sha256 (hex) of resultBytes, or null. */
  result_sha256: string | null;
}

/** `Context.holds`: whether lines start..end lie inside the context's range (and form a range at all). */
export function contextHolds(context: Context, startLine: number, endLine: number): boolean {
  return startLine <= endLine && context.start_line <= startLine && endLine <= context.end_line;
}
