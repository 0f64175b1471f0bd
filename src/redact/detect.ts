/**
 * The secret detector: finds secret VALUES in text using the rule set of ruleset/secrets.toml.
 *
 * Linear by construction: one pass builds the line index, one native substring search per keyword
 * finds the few candidate lines, and only those lines meet the (precompiled, shape-checked) rule
 * regexes. No regex is ever built from the text being scanned.
 */
import { builtInSecretRules, type SecretRule, type SecretRuleSet } from './rules.js';

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
  /** The value's first four characters and an ellipsis: enough to recognise it, never to use it. */
  preview: string;
  /** The value's length in characters. */
  length: number;
  /** The value was written without quotes (a `value_bare` match). */
  bare: boolean;
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

/** Run one rule's pattern over `slice` (which starts at `base` in the text) and collect candidates. */
function collect(
  rule: SecretRule,
  priority: number,
  slice: string,
  base: number,
  rules: SecretRuleSet,
  into: Candidate[],
): void {
  const pattern = rule.pattern;
  const indexed = rule.indexedPattern;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(slice); match; match = pattern.exec(slice)) {
    if (match[0].length === 0) pattern.lastIndex += 1;
    indexed.lastIndex = match.index;
    const groups = indexed.exec(slice)?.indices?.groups;
    const quoted = groups?.['value'];
    const bareSpan = groups?.['value_bare'];
    const span = quoted ?? bareSpan;
    if (!span) continue;
    const value = slice.slice(span[0], span[1]);
    if (isNotSecret(value, quoted === undefined, rule, rules)) continue;
    into.push({ rule: rule.id, priority, start: base + span[0], end: base + span[1], bare: quoted === undefined });
  }
}

/** Find every secret value in `text`. Overlapping candidates resolve to the earliest, longest, then first rule. */
export function detectSecrets(text: string, rules: SecretRuleSet = builtInSecretRules()): SecretMatch[] {
  const starts = lineStarts(text);
  const lower = asciiLower(text);
  const candidates: Candidate[] = [];
  // text-context conditions, evaluated at most once per rule per text.
  const textContextHolds = (rule: SecretRule): boolean => rule.textContext === null || rule.textContext.test(text);

  // Prefilter: the lines containing each keyword, found by native substring search. Offsets come in
  // increasing order, so a forward cursor turns them into line numbers without searching.
  const keywordLines = new Map<string, number[]>();
  const linesWithKeyword = (keyword: string): number[] => {
    let lines = keywordLines.get(keyword);
    if (!lines) {
      lines = [];
      let line = 1;
      for (let at = lower.indexOf(keyword); at >= 0; at = lower.indexOf(keyword, at + 1)) {
        while (line < starts.length && (starts[line] as number) <= at) line += 1;
        if (lines[lines.length - 1] !== line) lines.push(line);
      }
      keywordLines.set(keyword, lines);
    }
    return lines;
  };

  rules.rules.forEach((rule, priority) => {
    if (rule.scope === 'text') {
      if (rule.keywords.some((keyword) => lower.includes(keyword)) && textContextHolds(rule)) {
        collect(rule, priority, text, 0, rules, candidates);
      }
      return;
    }
    const perKeyword = rule.keywords.map(linesWithKeyword).filter((lines) => lines.length > 0);
    if (perKeyword.length === 0 || !textContextHolds(rule)) return;
    const lines = perKeyword.length === 1 ? (perKeyword[0] as number[]) : [...new Set(perKeyword.flat())].sort((a, b) => a - b);
    for (const line of lines) {
      const start = starts[line - 1] as number;
      let end = line < starts.length ? (starts[line] as number) - 1 : text.length;
      if (end > start && text.charCodeAt(end - 1) === 13) end -= 1; // CRLF
      const slice = text.slice(start, end);
      if (rule.lineContext && !rule.lineContext.test(slice)) continue;
      collect(rule, priority, slice, start, rules, candidates);
    }
  });

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
      preview: `${value.slice(0, 4)}…`,
      length: candidate.end - candidate.start,
      bare: candidate.bare,
    });
  }
  return matches;
}
