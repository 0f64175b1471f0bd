/**
 * Step 2 of `jscr fix`: the question about one finding. The context is the enclosing function (or a
 * window around the line when the function is long), read from the working tree through the path
 * boundary, split with the guard's own line splitter and redacted before the model sees it. The
 * consultation records the hash of the bytes read, so the guard and the write can tell when the file
 * changed afterwards.
 */
import { decodeStrict, detectEncoding, withoutBom } from '../guard/encoding.js';
import { sha256 } from '../guard/fsutil.js';
import { guardLanguageForPath } from '../guard/languages.js';
import { lineBody, splitLines } from '../guard/lines.js';
import type { Consultation } from '../guard/shapes.js';
import { EDIT_LINE_LIMIT } from '../guard/refusal-words.js';
import type { RepoBoundary } from '../policy/paths.js';
import { learnJoinedSecrets, redact, RedactionCounter, SecretBook } from '../redact/index.js';
import type { Finding } from '../report/finding.js';
import { buildIR, enclosingFunction } from '../syntax/ir.js';

/** Files larger than this are not read for a fix. */
const MAX_FIX_FILE_BYTES = 2 * 1024 * 1024;

/** A question that can be asked, with what the model is shown beyond the consultation itself. */
export interface PreparedConsultation {
  ok: true;
  consultation: Consultation;
  /** How many secret values redaction replaced in the context. */
  secretsRedacted: number;
  /** The file's bytes as read (hashed into the consultation); kept to restore them after a failed --verify. */
  fileBytes: Buffer;
}

/** Why no question can be asked about this finding (the row is `needs_review`). */
export interface NotFixable {
  ok: false;
  reason: string;
}

/** Input of `prepareConsultation`. */
export interface ConsultationInput {
  finding: Finding;
  boundary: RepoBoundary;
  /** The finding's rule licence (`fix.allowed_imports`); empty for findings not made by a rule. */
  allowedImports: readonly string[];
}

/** Build the consultation for one finding from the file as it is on disk now. */
export async function prepareConsultation(input: ConsultationInput): Promise<PreparedConsultation | NotFixable> {
  const { finding, boundary } = input;
  const info = guardLanguageForPath(finding.path);
  if (info === null) return { ok: false, reason: 'not a Python, JavaScript or TypeScript file, which the guard cannot check' };

  const read = await boundary.readFile(finding.path, { maxBytes: MAX_FIX_FILE_BYTES });
  if (!read.ok) return { ok: false, reason: `the file cannot be read for a fix (${read.reason}: ${read.detail})` };
  const bytes = read.bytes;
  const detected = detectEncoding(bytes, info.language);
  if (detected.encoding === null) return { ok: false, reason: `the file declares the encoding "${detected.declared}", which jscr cannot write back exactly` };
  const text = decodeStrict(withoutBom(bytes), detected.encoding);
  if (text === null) return { ok: false, reason: `the file's bytes are not valid ${detected.encoding}` };

  const lines = splitLines(text);
  // The review may have read another revision than the working tree: the evidence must be on disk, at that line.
  const onDisk = lines[finding.line - 1];
  // Secrets are found on the whole file first: the report's evidence shows them masked, and the
  // context sent below is masked with every value of the file, even a key cut by the window.
  const book = new SecretBook();
  book.scan(finding.path, text);
  await learnJoinedSecrets(book, finding.path, text);
  const matchesDisk = (line: string): boolean => evidenceMatches(finding.evidence, line) || evidenceMatches(finding.evidence, book.mask(line));
  if (onDisk === undefined || !matchesDisk(lineBody(onDisk))) {
    return { ok: false, reason: `line ${finding.line} on disk is not the line the finding quotes (the working tree differs from the reviewed revision)` };
  }

  const ir = await buildIR(finding.path, info.grammar, text);
  const enclosing = enclosingFunction(ir, finding.line);
  if (enclosing === null) return { ok: false, reason: `line ${finding.line} is not inside a function, and the guard accepts edits only within a named function` };
  const span = enclosing.endLine - enclosing.startLine + 1;
  const range = span <= EDIT_LINE_LIMIT ? { start: enclosing.startLine, end: enclosing.endLine } : windowAround(finding.line, lines.length, EDIT_LINE_LIMIT);
  const end = Math.min(range.end, lines.length);

  const redacted = redact(lines.slice(range.start - 1, end).join(''), new RedactionCounter(), book);
  return {
    ok: true,
    consultation: {
      context: {
        path: finding.path,
        start_line: range.start,
        end_line: end,
        text: redacted.text,
        file_sha256: sha256(bytes),
        encoding: detected.bom ? `${detected.encoding} (with BOM)` : detected.encoding,
      },
      line: finding.line,
      symbol: enclosing.qualifiedName,
      to_modules: [...input.allowedImports],
    },
    secretsRedacted: redacted.values,
    fileBytes: bytes,
  };
}

/** The evidence's first line is the disk line, blanks around it aside (the rules cut long lines with `…`). */
function evidenceMatches(evidence: string, diskLine: string): boolean {
  // Some sources quote the line without its indentation (the prover's evidence is trimmed).
  const first = (evidence.split(/\r?\n/)[0] ?? '').trim();
  const disk = diskLine.trim();
  if (first.endsWith('…')) return disk.startsWith(first.slice(0, -1));
  return first === disk;
}

/** At most `limit` lines around `line`, inside 1..lineCount. */
export function windowAround(line: number, lineCount: number, limit: number): { start: number; end: number } {
  const half = Math.floor((limit - 1) / 2);
  let start = Math.max(1, line - half);
  const end = Math.min(lineCount, start + limit - 1);
  start = Math.max(1, end - limit + 1);
  return { start, end };
}
