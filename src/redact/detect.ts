/**
 * The secret detector: finds secret VALUES in text using the rule set of ruleset/secrets.toml.
 *
 * Linear by construction: one pass builds the line index, one native substring search per keyword
 * finds the few candidate lines, and only those lines meet the (precompiled, shape-checked, bounded)
 * rule regexes. Multi-line values (PEM blocks) are found by pairing begin and end markers in one
 * forward pass, never by a regex spanning the value. Matches are capped per rule and per file, so a
 * crafted file costs bounded time and memory; the scan says when the cap was reached. No regex is
 * ever built from the text being scanned.
 */
import { builtInSecretRules, type BlockMatcher, type LineMatcher, type SecretRule, type SecretRuleSet } from './rules.js';

/** One secret value found in a text. Offsets cover the value only, never the identifier before it. */
export interface SecretMatch {
  /** Rule id, e.g. `aws-access-key-id`. */
  rule: string;
  /** 1-based line where the value starts. */
  line: number;
  /** Offset of the value's first character in the text. */
  start: number;
  /** Offset just past the value's last character. */
  end: number;
  /** A short prefix of the value and an ellipsis (see `previewOf`): enough to recognise it, never to use it. */
  preview: string;
  /** The value's length in characters. */
  length: number;
  /** The value was written without quotes (a `value_bare` match). */
  bare: boolean;
}

/** What a whole scan found, and whether a rule stopped at the per-file match cap. */
export interface SecretScan {
  matches: SecretMatch[];
  /** Some rule reached `maxMatchesPerFile`: later values of that rule were not looked for. */
  capped: boolean;
}

/**
 * The prefix shown for a value: its first four characters, fewer for a short value (at most a fifth
 * of it), so a short password is never shown whole. Provider prefixes (`ghp_`, `AKIA`) stay visible.
 */
export function previewOf(value: string): string {
  return `${value.slice(0, Math.min(4, Math.floor(value.length / 5)))}…`;
}

/** Shannon entropy of `value`, in bits per character. */
export function shannonEntropy(value: string): number {
  if (value.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  const total = Array.from(value).length;
  let entropy = 0;
  for (const count of counts.values()) {
    const share = count / total;
    entropy -= share * Math.log2(share);
  }
  return entropy;
}

/** Offsets where each line starts; `lineStarts[n]` is the start of line n+1. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  let at = text.indexOf('\n');
  while (at >= 0) {
    starts.push(at + 1);
    at = text.indexOf('\n', at + 1);
  }
  return starts;
}

/** 1-based line of `offset`, by binary search over `starts`. */
export function lineAt(starts: number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((starts[middle] as number) <= offset) low = middle;
    else high = middle - 1;
  }
  return low + 1;
}

/** ASCII-only lowercasing keeps offsets identical to the original text (full Unicode folding does not). */
function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (run) => run.toLowerCase());
}

/** The value is a placeholder, template, reference or word rather than a credential. */
function isNotSecret(value: string, bare: boolean, rule: SecretRule, rules: SecretRuleSet): boolean {
  const lower = value.toLowerCase();
  if (rules.placeholderSubstrings.some((word) => lower.includes(word))) return true;
  if (rules.placeholderPatterns.some((pattern) => pattern.test(value))) return true;
  if (rule.generic) {
    if (bare && rules.bareReferencePatterns.some((pattern) => pattern.test(value))) return true;
    if (rules.wordLikePatterns.some((pattern) => pattern.test(value))) return true;
  }
  if (rule.minEntropy !== null && shannonEntropy(value) < rule.minEntropy) return true;
  return !rule.valueRequires.every((requirement) => requirement.test(value));
}

interface Candidate {
  rule: string;
  priority: number;
  start: number;
  end: number;
  bare: boolean;
}

/** Where one rule's candidates go; `full` turns true when one more was found than a file may hold. */
interface Collector {
  into: Candidate[];
  limit: number;
  taken: number;
  full: boolean;
}

function take(collector: Collector, candidate: Candidate): void {
  if (collector.taken >= collector.limit) {
    collector.full = true;
    return;
  }
  collector.into.push(candidate);
  collector.taken += 1;
}

/** Run one line rule's pattern over `slice` (which starts at `base` in the text) and collect candidates. */
function collectLine(
  rule: SecretRule,
  matcher: LineMatcher,
  priority: number,
  slice: string,
  base: number,
  rules: SecretRuleSet,
  collector: Collector,
): void {
  const pattern = matcher.pattern;
  const indexed = matcher.indexedPattern;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(slice); match && !collector.full; match = pattern.exec(slice)) {
    if (match[0].length === 0) pattern.lastIndex += 1;
    indexed.lastIndex = match.index;
    const groups = indexed.exec(slice)?.indices?.groups;
    const quoted = groups?.['value'];
    const bareSpan = groups?.['value_bare'];
    const span = quoted ?? bareSpan;
    if (!span) continue;
    const value = slice.slice(span[0], span[1]);
    if (isNotSecret(value, quoted === undefined, rule, rules)) continue;
    take(collector, { rule: rule.id, priority, start: base + span[0], end: base + span[1], bare: quoted === undefined });
  }
}

/** Characters a key body is made of: base64, whitespace, and the backslash of a `\n` escape. */
function isBodyChar(code: number): boolean {
  return (
    (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || (code >= 48 && code <= 57) ||
    code === 43 || code === 47 || code === 61 || code === 32 || code === 9 || code === 10 || code === 13 || code === 92
  );
}

/** `[from, to)` without the whitespace and `\n` / `\r` escapes at either end. */
function trimBody(text: string, from: number, to: number): [number, number] {
  const isPadding = (at: number): number => {
    const code = text.charCodeAt(at);
    if (code === 32 || code === 9 || code === 10 || code === 13) return 1;
    return code === 92 && (text[at + 1] === 'n' || text[at + 1] === 'r') ? 2 : 0;
  };
  let start = from;
  for (let step = isPadding(start); start < to && step > 0; step = isPadding(start)) start += step;
  let end = to;
  while (end > start) {
    const code = text.charCodeAt(end - 1);
    if (code === 32 || code === 9 || code === 10 || code === 13) end -= 1;
    else if ((code === 110 || code === 114) && end - 2 >= start && text.charCodeAt(end - 2) === 92) end -= 2;
    else break;
  }
  return [start, end];
}

/**
 * A block rule: every begin marker is paired with the first end marker after it, unless another
 * begin comes first. One cursor moves forward over the end markers, so the pairing is linear. A
 * begin with no end of its own is an unterminated block (a key cut off, or a crafted file): its value
 * is the key-like text after it, so it is still reported and masked.
 */
function collectBlocks(rule: SecretRule, matcher: BlockMatcher, priority: number, text: string, rules: SecretRuleSet, collector: Collector): void {
  const begins: [number, number][] = [];
  // One more begin than may be kept: the last one only bounds the value of the one before it.
  matcher.begin.lastIndex = 0;
  for (let m = matcher.begin.exec(text); m && begins.length <= collector.limit; m = matcher.begin.exec(text)) {
    begins.push([m.index, m.index + m[0].length]);
    if (m[0].length === 0) matcher.begin.lastIndex += 1;
  }
  let nextEnd: number | null = null; // start of the first end marker at or after the cursor
  let endSearchedFrom = -1;
  const endAtOrAfter = (from: number): number | null => {
    if (endSearchedFrom >= 0 && (nextEnd === null || nextEnd >= from)) return nextEnd;
    matcher.end.lastIndex = from;
    const m = matcher.end.exec(text);
    nextEnd = m ? m.index : null;
    endSearchedFrom = from;
    return nextEnd;
  };
  for (let i = 0; i < begins.length && !collector.full; i += 1) {
    const bodyStart = (begins[i] as [number, number])[1];
    const nextBegin = begins[i + 1]?.[0] ?? text.length;
    const end = endAtOrAfter(bodyStart);
    let bodyEnd: number;
    if (end !== null && end <= Math.min(nextBegin, bodyStart + matcher.maxValue)) {
      bodyEnd = end;
    } else {
      // Unterminated (or too long to be one key): the value is all the key-like text that follows,
      // however long, so no line of it is left unmasked. One character loop: linear.
      bodyEnd = bodyStart;
      while (bodyEnd < nextBegin && isBodyChar(text.charCodeAt(bodyEnd))) bodyEnd += 1;
    }
    const [start, stop] = trimBody(text, bodyStart, bodyEnd);
    if (stop <= start || !isBodyChar(text.charCodeAt(start))) continue;
    const value = text.slice(start, stop);
    if (isNotSecret(value, false, rule, rules)) continue;
    take(collector, { rule: rule.id, priority, start, end: stop, bare: false });
  }
}

/**
 * A value written encoded (base64, hex, percent-escapes, `\\x` / `\\u` escapes) reaches a log as
 * unreadable text that any reader decodes again. Each decoder names the runs it can read and how;
 * one level inside another (base64 of a hex string) is decoded too, never deeper.
 */
interface Decoder {
  /** Where an encoded run may be: base64 matches whole runs; the escapes mark a run to widen. */
  marker: RegExp;
  /** For escape decoders: the characters a run of escapes and plain token text is made of. */
  widenOver?: RegExp;
  /** A character every run holds: a text without it has no run, and is not searched. */
  cue?: string;
  /** The run's decoded text, or null when this decoder does not apply to it. */
  decode: (run: string) => string | null;
  /**
   * For whole-run decoders (base64): the run's characters, its least length and the padding that may
   * end it. Found by one table-driven pass; the equivalent regex retries every start inside each short
   * run of word characters, which is most of the cost on ordinary code.
   */
  runOf?: { table: readonly boolean[]; minLength: number; pad: number };
}

/** Which ASCII codes are in `chars` (a character class regex), as a lookup table. */
export function asciiTable(chars: RegExp): boolean[] {
  return Array.from({ length: 128 }, (_v, code) => chars.test(String.fromCharCode(code)));
}

/**
 * Maximal runs of `runOf.table` characters at least `minLength` long, each with up to `pad` `=` after it.
 * A run that long must cover the character `minLength - 1` places ahead, so where that one is not a run
 * character the search jumps past it: on ordinary code most characters are never looked at.
 */
export function wholeRuns(text: string, runOf: NonNullable<Decoder['runOf']>): { start: number; end: number }[] {
  const runs: { start: number; end: number }[] = [];
  const { table, minLength, pad } = runOf;
  const inRun = (at: number): boolean => table[text.charCodeAt(at)] === true;
  // Every run character before `from` is settled: `from` is 0, follows a character that is not a run
  // character, or ends a run found (its padding included).
  let from = 0;
  while (from + minLength <= text.length) {
    const probe = from + minLength - 1;
    if (!inRun(probe)) {
      from = probe + 1;
      continue;
    }
    let start = probe;
    while (start > from && inRun(start - 1)) start -= 1;
    let stop = probe + 1;
    while (stop < text.length && inRun(stop)) stop += 1;
    if (stop - start < minLength) {
      from = stop + 1;
      continue;
    }
    let end = stop;
    while (end < text.length && end - stop < pad && text.charCodeAt(end) === 0x3d) end += 1;
    runs.push({ start, end });
    from = end;
  }
  return runs;
}

const MAX_DECODE_DEPTH = 2;

const DECODERS: readonly Decoder[] = [
  {
    // Base64 and base64url; an even run of hex digits is hex, not base64.
    marker: /[A-Za-z0-9+/_-]{24,}={0,2}/g,
    runOf: { table: asciiTable(/[A-Za-z0-9+/_-]/), minLength: 24, pad: 2 },
    decode: (run) =>
      /^[0-9A-Fa-f]+$/.test(run) ? (run.length % 2 === 0 ? Buffer.from(run, 'hex').toString('latin1') : null) : Buffer.from(run, 'base64').toString('latin1'),
  },
  {
    marker: /%[0-9A-Fa-f]{2}/g,
    cue: '%',
    widenOver: /[A-Za-z0-9_.~+%-]/,
    // `unescape` reads `%XX` as one character each (no UTF-8 step that could throw), natively.
    decode: (run) => unescape(run),
  },
  {
    marker: /\\(?:x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4})/g,
    cue: '\\',
    widenOver: /[A-Za-z0-9_\\-]/,
    decode: (run) => run.replace(/\\(?:x([0-9A-Fa-f]{2})|u([0-9A-Fa-f]{4}))/g, (_m, x?: string, u?: string) => String.fromCharCode(parseInt(x ?? u ?? '0', 16))),
  },
];

/** Each escape decoder's widening set as a table of ASCII codes: one lookup per character, no regex call. */
const WIDEN_TABLES = new Map(
  DECODERS.flatMap((decoder) => {
    const over = decoder.widenOver;
    return over ? [[decoder, Array.from({ length: 128 }, (_v, code) => over.test(String.fromCharCode(code)))] as const] : [];
  }),
);

/** The encoded runs of `text` for one decoder: whole base64 runs, or each escape widened over its token text. */
function encodedRuns(text: string, decoder: Decoder): { start: number; end: number }[] {
  const runs: { start: number; end: number }[] = [];
  const table = WIDEN_TABLES.get(decoder) ?? null;
  if (decoder.cue !== undefined && !text.includes(decoder.cue)) return runs;
  if (decoder.runOf !== undefined) return wholeRuns(text, decoder.runOf);
  const widen = (at: number): boolean => table?.[text.charCodeAt(at)] === true;
  decoder.marker.lastIndex = 0;
  for (let m = decoder.marker.exec(text); m; m = decoder.marker.exec(text)) {
    let start = m.index;
    let end = m.index + m[0].length;
    if (table) {
      // One pass each way; the next search starts past the run, so every character is widened over once.
      while (start > 0 && (runs.length === 0 || start > (runs[runs.length - 1] as { end: number }).end) && widen(start - 1)) start -= 1;
      while (end < text.length && widen(end)) end += 1;
      decoder.marker.lastIndex = end;
    }
    runs.push({ start, end });
  }
  return runs;
}

/**
 * Runs of encoded text whose decoding holds a secret: the whole run is the value. The decoded runs of
 * one decoder are scanned together as one text (a line each), so the cost stays linear in the text.
 * True when the decoded text reached the match cap.
 */
function collectEncoded(text: string, rules: SecretRuleSet, depth: number, into: Candidate[]): boolean {
  let capped = false;
  for (const decoder of DECODERS) {
    const runs: { start: number; end: number }[] = [];
    const decoded: string[] = [];
    for (const run of encodedRuns(text, decoder)) {
      const plain = decoder.decode(text.slice(run.start, run.end));
      if (plain === null || plain.length === 0) continue;
      runs.push(run);
      decoded.push(plain.replace(/[\n\r]/g, ' '));
    }
    if (runs.length === 0) continue;
    const joined = decoded.join('\n');
    const scan = scanSecrets(joined, rules, depth + 1);
    capped ||= scan.capped;
    const starts = lineStarts(joined);
    let last = -1;
    for (const found of scan.matches) {
      const index = lineAt(starts, found.start) - 1;
      if (index === last) continue;
      last = index;
      const run = runs[index] as { start: number; end: number };
      into.push({ rule: found.rule, priority: rules.rules.length, start: run.start, end: run.end, bare: false });
    }
  }
  return capped;
}

/** The keywords of a rule set's line rules, by their first two characters. */
interface KeywordIndex {
  /** `first * 128 + second` for two ASCII characters: the keywords starting with them. */
  ascii: (string[] | undefined)[];
  /** The same for keywords that start with any other pair, `first * 65536 + second`. */
  other: Map<number, string[]>;
}

const keywordIndexes = new WeakMap<SecretRuleSet, KeywordIndex>();

function keywordIndexOf(rules: SecretRuleSet): KeywordIndex {
  let index = keywordIndexes.get(rules);
  if (index === undefined) {
    index = { ascii: new Array<string[] | undefined>(128 * 128).fill(undefined), other: new Map() };
    const keywords = new Set(rules.rules.filter((rule) => rule.matcher.scope !== 'block').flatMap((rule) => rule.keywords));
    for (const keyword of keywords) {
      // Keywords have at least two characters (rules.ts); their first two are the bucket.
      const first = keyword.charCodeAt(0);
      const second = keyword.charCodeAt(1);
      if (first < 128 && second < 128) (index.ascii[first * 128 + second] ??= []).push(keyword);
      else index.other.set(first * 65536 + second, [...(index.other.get(first * 65536 + second) ?? []), keyword]);
    }
    keywordIndexes.set(rules, index);
  }
  return index;
}

/**
 * The lines (1-based, ascending, once each) holding each keyword in `lower`. One pass looks up each
 * pair of characters in a table, instead of one substring search per keyword over the whole text;
 * a text made of keywords (crafted) costs a few comparisons per character, no more.
 */
export function keywordLinesOf(lower: string, starts: number[], rules: SecretRuleSet): Map<string, number[]> {
  const out = new Map<string, number[]>();
  const { ascii, other } = keywordIndexOf(rules);
  let line = 1;
  let second = lower.charCodeAt(0);
  for (let at = 0; at + 1 < lower.length; at++) {
    const first = second;
    second = lower.charCodeAt(at + 1);
    const bucket = first < 128 && second < 128 ? ascii[first * 128 + second] : other.size === 0 ? undefined : other.get(first * 65536 + second);
    if (bucket === undefined) continue;
    for (const keyword of bucket) {
      if (!lower.startsWith(keyword, at)) continue;
      while (line < starts.length && (starts[line] as number) <= at) line += 1;
      const lines = out.get(keyword);
      if (lines === undefined) out.set(keyword, [line]);
      else if (lines[lines.length - 1] !== line) lines.push(line);
    }
  }
  return out;
}

/** Find every secret value in `text`. Overlapping candidates resolve to the earliest, longest, then first rule. */
export function detectSecrets(text: string, rules: SecretRuleSet = builtInSecretRules()): SecretMatch[] {
  return scanSecrets(text, rules).matches;
}

/** `detectSecrets`, saying also whether the per-file match cap was reached. */
export function scanSecrets(text: string, rules: SecretRuleSet = builtInSecretRules(), depth = 0): SecretScan {
  const starts = lineStarts(text);
  const lower = asciiLower(text);
  const candidates: Candidate[] = [];
  let capped = false;
  // text-context conditions, evaluated at most once per rule per text.
  const textContextHolds = (rule: SecretRule): boolean => rule.textContext === null || rule.textContext.test(text);

  // Prefilter: the lines containing each keyword of a line rule, all found in one pass.
  const keywordLines = keywordLinesOf(lower, starts, rules);
  const linesWithKeyword = (keyword: string): number[] => keywordLines.get(keyword) ?? [];

  rules.rules.forEach((rule, priority) => {
    const collector: Collector = { into: candidates, limit: rules.maxMatchesPerFile, taken: 0, full: false };
    const matcher = rule.matcher;
    if (matcher.scope === 'block') {
      if (rule.keywords.some((keyword) => lower.includes(keyword)) && textContextHolds(rule)) {
        collectBlocks(rule, matcher, priority, text, rules, collector);
      }
      capped ||= collector.full;
      return;
    }
    const perKeyword = rule.keywords.map(linesWithKeyword).filter((lines) => lines.length > 0);
    if (perKeyword.length === 0 || !textContextHolds(rule)) return;
    const lines = perKeyword.length === 1 ? (perKeyword[0] as number[]) : [...new Set(perKeyword.flat())].sort((a, b) => a - b);
    for (const line of lines) {
      if (collector.full) break;
      const start = starts[line - 1] as number;
      let end = line < starts.length ? (starts[line] as number) - 1 : text.length;
      if (end > start && text.charCodeAt(end - 1) === 13) end -= 1; // CRLF
      const slice = text.slice(start, end);
      if (rule.lineContext && !rule.lineContext.test(slice)) continue;
      collectLine(rule, matcher, priority, slice, start, rules, collector);
    }
    capped ||= collector.full;
  });

  if (depth < MAX_DECODE_DEPTH) capped = collectEncoded(text, rules, depth, candidates) || capped;

  candidates.sort((a, b) => a.start - b.start || b.end - b.start - (a.end - a.start) || a.priority - b.priority);
  const matches: SecretMatch[] = [];
  let coveredUntil = -1;
  for (const candidate of candidates) {
    if (candidate.start < coveredUntil) continue;
    coveredUntil = candidate.end;
    const value = text.slice(candidate.start, candidate.end);
    matches.push({
      rule: candidate.rule,
      line: lineAt(starts, candidate.start),
      start: candidate.start,
      end: candidate.end,
      preview: previewOf(value),
      length: candidate.end - candidate.start,
      bare: candidate.bare,
    });
  }
  return { matches, capped };
}
