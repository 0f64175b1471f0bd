/**
 * Redaction: replace secret VALUES with numbered, typed markers before any text leaves the machine.
 * Identifiers around a value stay (`password = "[REDACTED:generic-password#1]"`,
 * `process.env.GITHUB_TOKEN` untouched) so the model still sees what the code does.
 */
import { lineStarts, lineAt } from './detect.js';
import { SecretBook } from './mask.js';

/** Numbers markers across every file of one prompt, so `#n` is unique within what is sent. */
export class RedactionCounter {
  private issued = 0;

  /** The next marker number (1, 2, ...). */
  next(): number {
    this.issued += 1;
    return this.issued;
  }

  /** How many markers have been issued so far. */
  get total(): number {
    return this.issued;
  }
}

/** One marker written into redacted text. */
export interface Replacement {
  /** The secret rule that matched, e.g. `github-token`. */
  rule: string;
  /** The marker text, e.g. `[REDACTED:github-token#3]`. */
  marker: string;
  /** 1-based line of the marker (the same line number in the original and the redacted text). */
  line: number;
}

/** Redacted text and what was replaced. */
export interface RedactionResult {
  text: string;
  replacements: Replacement[];
  /** How many secret values were replaced (a multi-line value counts once but has several markers). */
  values: number;
  /**
   * Whether a redaction removed a line break. Always false: a value spanning several lines (a PEM
   * body) gets one marker per line, so line numbers and line count are the same before and after,
   * and anchoring and the proposal guard can trust them. The field stays so callers can assert it.
   */
  joinedLines: boolean;
}

/**
 * Replace every secret value in `text` with `[REDACTED:<rule>#<n>]`: those the detector finds in the
 * text itself and, with a `book`, every value remembered from the whole files the text was cut from
 * (so a segment holding two lines of a key body, without its BEGIN and END, is masked too).
 */
export function redact(
  text: string,
  counter: RedactionCounter = new RedactionCounter(),
  book: SecretBook = new SecretBook(),
  options: { lineMarks: boolean } = { lineMarks: false },
): RedactionResult {
  const matches = book.spans(text, { parts: false });
  if (matches.length === 0) return { text, replacements: [], values: 0, joinedLines: false };
  const starts = lineStarts(text);
  const pieces: string[] = [];
  const replacements: Replacement[] = [];
  let copiedUntil = 0;
  for (const match of matches) {
    pieces.push(text.slice(copiedUntil, match.start));
    // One marker per line of the value; line breaks and each line's indentation are kept.
    const segments = text.slice(match.start, match.end).split(/(\r?\n)/);
    let offset = match.start;
    for (const segment of segments) {
      const isBreak = segment === '\n' || segment === '\r\n';
      // A diff line's first column is its +/-/space mark, never part of a value: it stays.
      const mark = options.lineMarks && !isBreak && (offset === 0 || text[offset - 1] === '\n') ? segment.slice(0, 1) : '';
      const rest = segment.slice(mark.length);
      const content = rest.trimStart();
      if (isBreak || content.length === 0) {
        pieces.push(segment);
      } else {
        const marker = `[REDACTED:${match.rule}#${counter.next()}]`;
        pieces.push(mark, rest.slice(0, rest.length - content.length), marker);
        replacements.push({ rule: match.rule, marker, line: lineAt(starts, offset) });
      }
      offset += segment.length;
    }
    copiedUntil = match.end;
  }
  pieces.push(text.slice(copiedUntil));
  return { text: pieces.join(''), replacements, values: matches.length, joinedLines: false };
}
