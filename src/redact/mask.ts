/**
 * The one masking function for everything jscr prints or writes. A SecretBook remembers every secret
 * value found in the reviewed files (by jscr's detector, which scans each whole file once, or handed
 * in by a scanner such as secretlint) and masks those values wherever they reappear: in evidence of
 * any rule, messages, titles, step details, errors. Each string also meets the detector itself, so a
 * secret shape is masked even in text from a file that was never scanned. A masked value shows its
 * rule, its length and a short prefix, never the value.
 */
import { clipEvidence } from './clip-evidence.js';
import { GitError } from '../errors.js';
import type { Finding } from '../report/finding.js';
import { makeFinding } from '../report/fingerprint.js';
import { lineAt, previewOf, scanSecrets, type SecretScan } from './detect.js';
import { builtInSecretRules, type SecretRuleSet } from './rules.js';

/** A secret value found by something other than jscr's detector (a scanner), to be masked all the same. */
export interface KnownSecret {
  rule: string;
  value: string;
}

/** A stretch of a text to hide, and the rule that names it. */
export interface SecretSpan {
  start: number;
  end: number;
  rule: string;
}

/** What a hidden value is shown as: `<prefix>…[<rule>, N chars]`. */
export function maskDisplay(rule: string, value: string): string {
  return `${previewOf(value)}[${rule}, ${value.length} chars]`;
}

/** Pieces shorter than this are not remembered: a value's last PEM line (`Zw==`) alone is no secret. */
const MIN_PIECE = 4;
/** Pieces shorter than this are matched only as whole words, so `abc1` never masks part of a hash. */
const WORD_BOUND_BELOW = 12;
/**
 * Where a value was cut (next to an ellipsis, or at a longer string's edge), a run of token characters
 * at least this long that sits inside a known value is masked as a part of it.
 */
const PART_RUN = 6;
/** Masked texts up to this length are remembered (report strings are short; a long text rarely repeats). */
const REMEMBERED_TEXT_CHARS = 4096;
/** Up to this many pieces, one native substring search each beats a scan of every position. */
const DIRECT_SEARCH_PIECES = 16;

const isWordChar = (code: number): boolean => (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;

/** The spans in order with overlaps joined (the first span's rule names the union). */
export function mergeSpans(spans: SecretSpan[]): SecretSpan[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: SecretSpan[] = [];
  for (const span of sorted) {
    const last = out[out.length - 1];
    if (last && span.start < last.end) last.end = Math.max(last.end, span.end);
    else out.push({ ...span });
  }
  return out;
}

/** Every secret value of the reviewed files, and the masking that uses them. */
export class SecretBook {
  private readonly scans = new Map<string, SecretScan>();
  private readonly capped = new Set<string>();
  /** Each remembered piece (one line of a value) and the rule that found it. */
  private readonly pieces = new Map<string, string>();
  private index: { byPrefix: Map<string, string[]>; list: string[]; haystack: string; offsets: number[] } | null = null;
  /** Masked texts by original, while no value is learned: a report repeats its titles, messages and paths. */
  private readonly maskedTexts = new Map<string, string>();

  constructor(readonly rules: SecretRuleSet = builtInSecretRules()) {}

  /** Scan a whole file (once per distinct text) and remember every value found in it. */
  scan(path: string, text: string): SecretScan {
    let scan = this.scans.get(text);
    if (!scan) {
      scan = scanSecrets(text, this.rules);
      this.scans.set(text, scan);
      for (const match of scan.matches) this.learn({ rule: match.rule, value: text.slice(match.start, match.end) });
    }
    if (scan.capped) this.capped.add(path);
    return scan;
  }

  /** Remember a value; a multi-line value is remembered line by line, so any one line of it is masked. */
  learn(secret: KnownSecret): void {
    for (const raw of secret.value.split(/\r?\n|\\[nr]/)) {
      const piece = raw.trim();
      if (piece.length >= MIN_PIECE && !this.pieces.has(piece)) {
        this.pieces.set(piece, secret.rule);
        this.index = null;
        this.maskedTexts.clear();
      }
    }
  }

  /**
   * Remember `value` exactly as written, whatever its length: a stretch of source a joined secret covers
   * on one line (src/redact/joined-literals.ts), quotes included when a whole piece is covered, so even
   * a one-character piece is masked without masking that character everywhere.
   */
  learnExact(secret: KnownSecret): void {
    if (secret.value.length === 0 || this.pieces.has(secret.value)) return;
    this.pieces.set(secret.value, secret.rule);
    this.index = null;
    this.maskedTexts.clear();
  }

  /** Whether the scan of `path` stopped at the per-file match cap (its text holds values not remembered). */
  isCapped(path: string): boolean {
    return this.capped.has(path);
  }

  /** The report's `limits_reached` entries: one per file whose scan reached the cap. */
  limitsReached(): string[] {
    return [...this.capped].sort().map((path) => `secrets.max_matches_per_file (${this.rules.maxMatchesPerFile} per rule) in ${path}`);
  }

  private built(): NonNullable<SecretBook['index']> {
    if (this.index) return this.index;
    // Longest first, so a value is matched whole before a shorter value inside it.
    const list = [...this.pieces.keys()].sort((a, b) => b.length - a.length);
    const byPrefix = new Map<string, string[]>();
    for (const piece of list) {
      const key = piece.slice(0, MIN_PIECE);
      const bucket = byPrefix.get(key);
      if (bucket) bucket.push(piece);
      else byPrefix.set(key, [piece]);
    }
    const offsets: number[] = [];
    let at = 0;
    for (const piece of list) {
      offsets.push(at);
      at += piece.length + 1;
    }
    this.index = { byPrefix, list, haystack: list.join('\n'), offsets };
    return this.index;
  }

  /** Where remembered values occur in `text`. */
  locate(text: string): SecretSpan[] {
    const { byPrefix, list } = this.built();
    const spans: SecretSpan[] = [];
    const accept = (piece: string, at: number): boolean => {
      if (piece.length >= WORD_BOUND_BELOW) return true;
      const end = at + piece.length;
      return !(at > 0 && isWordChar(text.charCodeAt(at - 1))) && !(end < text.length && isWordChar(text.charCodeAt(end)));
    };
    const push = (piece: string, at: number): void => {
      spans.push({ start: at, end: at + piece.length, rule: this.pieces.get(piece) ?? 'secret' });
    };
    if (list.length <= DIRECT_SEARCH_PIECES) {
      for (const piece of list) {
        for (let at = text.indexOf(piece); at >= 0; at = text.indexOf(piece, at + 1)) if (accept(piece, at)) push(piece, at);
      }
    } else {
      for (let at = 0; at + MIN_PIECE <= text.length; at += 1) {
        const bucket = byPrefix.get(text.slice(at, at + MIN_PIECE));
        if (!bucket) continue;
        const found = bucket.find((piece) => text.startsWith(piece, at) && accept(piece, at));
        if (found) push(found, at);
      }
      // Pieces shorter than a bucket key (learnExact's): few, each searched directly.
      for (const piece of list) {
        if (piece.length >= MIN_PIECE) continue;
        for (let at = text.indexOf(piece); at >= 0; at = text.indexOf(piece, at + 1)) if (accept(piece, at)) push(piece, at);
      }
    }
    return spans;
  }

  /** Runs of token characters at a cut that are part of a remembered value (a value cut by an evidence window). */
  private parts(text: string): SecretSpan[] {
    const { haystack, offsets, list } = this.built();
    if (list.length === 0) return [];
    const spans: SecretSpan[] = [];
    for (const run of text.matchAll(/[A-Za-z0-9+/_=-]+/g)) {
      const start = run.index;
      const end = start + run[0].length;
      // Cut off by an ellipsis, or by the string's own start or end (a message cut at N characters).
      const atCut = text[start - 1] === '…' || text[end] === '…' || ((start === 0 || end === text.length) && run[0].length < text.length);
      if (!atCut || run[0].length < PART_RUN) continue;
      const found = haystack.indexOf(run[0]);
      if (found < 0) continue;
      // The piece holding the hit: offsets are the pieces' starts, searched like line starts.
      const piece = list[lineAt(offsets, found) - 1] as string;
      spans.push({ start, end, rule: this.pieces.get(piece) ?? 'secret' });
    }
    return spans;
  }

  /** Every secret in `text`: remembered values, parts of them, and whatever the detector finds in the text itself. */
  spans(text: string, options: { parts: boolean } = { parts: true }): SecretSpan[] {
    const own = (this.scans.get(text) ?? scanSecrets(text, this.rules)).matches.map((m) => ({ start: m.start, end: m.end, rule: m.rule }));
    return mergeSpans([...this.locate(text), ...own, ...(options.parts ? this.parts(text) : [])]);
  }

  /** `text` with every secret replaced by its display; line breaks inside a value are kept. */
  mask(text: string): string {
    if (text.length > REMEMBERED_TEXT_CHARS) return this.maskOnce(text);
    let masked = this.maskedTexts.get(text);
    if (masked === undefined) {
      masked = this.maskOnce(text);
      this.maskedTexts.set(text, masked);
    }
    return masked;
  }

  private maskOnce(text: string): string {
    const spans = this.spans(text);
    if (spans.length === 0) return text;
    let out = '';
    let cursor = 0;
    for (const span of spans) {
      out += text.slice(cursor, span.start);
      out += text
        .slice(span.start, span.end)
        .split('\n')
        .map((line) => (line.trim().length === 0 ? line : maskDisplay(span.rule, line)))
        .join('\n');
      cursor = span.end;
    }
    return out + text.slice(cursor);
  }
}

/**
 * Fields whose values jscr itself chooses from a fixed vocabulary or computes (a status, a severity,
 * a fingerprint). They are left as they are, so a weak secret such as `failed` cannot rewrite a step
 * status; every other string, including any field added later, is masked.
 */
const VOCABULARY_KEYS = new Set(['name', 'status', 'severity', 'source', 'kind', 'fingerprint', 'fingerprint_v1', 'id', 'cwe', 'schema_version', 'exit_code', 'complete']);

/**
 * The report with every string in it masked, and every finding's evidence clipped (src/redact/clip-evidence.ts):
 * the one pass every report goes through before any renderer sees it, so a field added later is
 * covered without being named here.
 */
export function maskReport<T>(report: T, book: SecretBook): T {
  const walk = (value: unknown, key: string | null): unknown => {
    if (typeof value === 'string') {
      if (key !== null && VOCABULARY_KEYS.has(key)) return value;
      // Masked whole, then clipped: a cut must never leave part of a value the mask would not know.
      const masked = book.mask(value);
      return key === 'evidence' ? clipEvidence(masked) : masked;
    }
    if (Array.isArray(value)) return value.map((item: unknown) => walk(item, null));
    if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
    return value;
  };
  return walk(report, null) as T;
}

/**
 * A finding with its evidence masked and its fingerprint (and id) taken from the masked evidence:
 * the hash of a line holding a weak password could be reversed by guessing. Suppressions and the
 * report then use the same fingerprint. A finding with nothing to mask is returned as it is.
 */
export function maskFinding(finding: Finding, book: SecretBook): Finding {
  const evidence = book.mask(finding.evidence);
  if (evidence === finding.evidence) return finding;
  const { id: _id, fingerprint: _fingerprint, fingerprint_v1: _v1, ...fields } = finding;
  return makeFinding({ ...fields, evidence });
}

/** A thrown error with its texts masked (its class, and so its exit code, stays). */
export function maskError(error: unknown, book: SecretBook = new SecretBook()): unknown {
  if (error instanceof GitError) return error.masked((text) => book.mask(text));
  if (error instanceof Error) error.message = book.mask(error.message);
  return error;
}
