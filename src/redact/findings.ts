/**
 * Secrets on reviewed lines become `jscr/hardcoded-secret` findings. The value never reaches a
 * finding: evidence and message show the rule, the length and a short prefix, the evidence is a
 * bounded window of the masked line, and the fingerprint is computed from that masked evidence.
 */
import type { Finding } from '../report/finding.js';
import { makeFinding } from '../report/fingerprint.js';
import { lineStarts, type SecretMatch } from './detect.js';
import { maskDisplay, SecretBook } from './mask.js';
import type { SecretRule, SecretRuleSet } from './rules.js';

const HARDCODED_SECRET_RULE = 'jscr/hardcoded-secret';

/** A file to scan for secrets and which of its lines are in the review's scope. */
export interface SecretScanFile {
  /** Repository-relative path with forward slashes. */
  path: string;
  /** The new text of the file. */
  text: string;
  /** 1-based lines to report on (the added lines), or every line. */
  scanLines: Set<number> | 'all';
  /** How a value at [start, end) is written, from the syntax tree; absent: judged by its quoting. */
  literalAt?: (start: number, end: number) => LiteralKind;
}

/** A value in a string literal, in a comment, or in code (an expression, a call, a name). */
export type LiteralKind = 'literal' | 'comment' | 'code';

/** What a value is shown as: `<prefix>…[<rule>, N chars]`. */
function maskValue(match: SecretMatch, text: string): string {
  return maskDisplay(match.rule, text.slice(match.start, match.end));
}

/** Characters of the masked line shown on each side of a value's mask. */
const EVIDENCE_SIDE = 160;

/**
 * The text of 1-based `line` with every secret value on it replaced by its mask, built once per line
 * however many values it holds, and where each value's mask sits in it. `matches` touch the line, in order.
 */
function maskedLine(text: string, starts: number[], line: number, matches: SecretMatch[]): { text: string; at: Map<SecretMatch, [number, number]> } {
  const lineStart = starts[line - 1] as number;
  let lineEnd = line < starts.length ? (starts[line] as number) - 1 : text.length;
  if (lineEnd > lineStart && text.charCodeAt(lineEnd - 1) === 13) lineEnd -= 1;
  const pieces: string[] = [];
  const at = new Map<SecretMatch, [number, number]>();
  let length = 0;
  let cursor = lineStart;
  const add = (piece: string): void => {
    pieces.push(piece);
    length += piece.length;
  };
  for (const match of matches) {
    if (match.end <= lineStart || match.start >= lineEnd) continue;
    add(text.slice(cursor, Math.max(match.start, lineStart)));
    // A value that began on an earlier line was already shown by its mask there.
    const mask = match.start >= lineStart ? maskValue(match, text) : '…';
    at.set(match, [length, length + mask.length]);
    add(mask);
    cursor = Math.min(match.end, lineEnd);
  }
  add(text.slice(cursor, lineEnd));
  return { text: pieces.join(''), at };
}

/** At most EVIDENCE_SIDE characters either side of `[from, to)`, an ellipsis marking each cut. */
function window(line: string, from: number, to: number): string {
  const start = Math.max(0, from - EVIDENCE_SIDE);
  const end = Math.min(line.length, to + EVIDENCE_SIDE);
  return `${start > 0 ? '…' : ''}${line.slice(start, end)}${end < line.length ? '…' : ''}`;
}

/** How much a match is worth as a finding here: null for none, or the confidence and severity to report. */
interface Weight {
  confidence: number;
  severity: Finding['severity'];
}

/** A quoted value followed by `?` is the left side of a ternary (`secret === 'x' ? a : b`), a condition, not an assignment. */
function isTernaryCondition(text: string, end: number): boolean {
  let at = end + 1; // past the closing quote
  while (text[at] === ' ' || text[at] === '\t') at += 1;
  return text[at] === '?' && text[at + 1] !== '?' && text[at + 1] !== '.';
}

const CHARACTER_CLASSES: [string, RegExp][] = [['lowercase', /[a-z]/], ['uppercase', /[A-Z]/], ['digits', /[0-9]/], ['symbols', /[^A-Za-z0-9]/]];

/** Which of lowercase, uppercase, digits and other characters `value` holds. */
function characterClasses(value: string): string[] {
  return CHARACTER_CLASSES.filter(([, kind]) => kind.test(value)).map(([name]) => name);
}

/**
 * The mask with the value's shape, for the message: kind, length and character classes tell a reviewer
 * a key from a word or a line of code. (The evidence keeps the plain mask: fingerprints are made from it.)
 */
function maskWithShape(match: SecretMatch, text: string): string {
  const mask = maskValue(match, text);
  const classes = characterClasses(text.slice(match.start, match.end)).join(', ');
  return `${mask.slice(0, -1)}; ${classes}]`;
}

/**
 * Whether a match is worth a finding at `path`, and how much. A generic (assignment-shaped) match is
 * only as good as its surroundings: in tests, docs and examples it is a fixture, in a translation
 * catalogue it is the word translated; in program source only
 * a quoted string literal is a literal, anything unquoted is an expression, a call or a
 * variable; a value of one character class is a word, not a key; a well-known default in a CI workflow or test compose file is a throwaway service password;
 * a value in a comment is an example, reported low. Provider-shaped matches are reported everywhere.
 * Redaction does not use this: it masks every match.
 */
function weightHere(match: SecretMatch, file: SecretScanFile, rules: SecretRuleSet, rule: SecretRule | undefined): Weight | null {
  const full: Weight = { confidence: rule?.confidence ?? 0.5, severity: rule?.severity ?? 'high' };
  if (!rule?.generic) return full;
  if (rules.isFixturePath(file.path) || rules.isTranslationPath(file.path)) return null;
  const value = file.text.slice(match.start, match.end);
  if (characterClasses(value).length < rules.minCharacterClasses) return null;
  const inCode = rules.isCodePath(file.path);
  // The tree decides where there is one; otherwise the quoting does.
  const kind = inCode && file.literalAt ? file.literalAt(match.start, match.end) : null;
  if (kind === 'code') return null;
  if (kind === null && inCode && match.bare) return null;
  if (kind === null && inCode && isTernaryCondition(file.text, match.end)) return null;
  if (rules.isThrowawayPath(file.path) && rules.throwawayValues.has(value.toLowerCase())) return null;
  const lineStart = file.text.lastIndexOf('\n', match.start - 1) + 1;
  const asExample = { confidence: Math.min(full.confidence, rules.commentConfidence), severity: 'low' } as const;
  if (kind === 'comment') return asExample;
  if (rules.commentLinePattern?.test(file.text.slice(lineStart, match.start))) return asExample;
  return full;
}

/**
 * Findings for the secrets on the in-scope lines of each file. Each whole file is scanned through
 * `book`, which remembers every value found so that later output can be masked with it.
 */
export function secretFindings(files: SecretScanFile[], book: SecretBook = new SecretBook()): Finding[] {
  return files.flatMap((file) => matchFindings(file, book.scan(file.path, file.text).matches, book.rules));
}

/** Where a finding made from `file.text`'s line `line` is reported: itself, unless the text stands for other lines. */
export type PlaceFinding = (line: number, endLine: number) => { line: number; endLine: number };

/**
 * Findings for `found`, secrets detected in `file.text`. `place` moves them when the text is a reading
 * of the file rather than the file (joined literals, src/redact/joined-literals.ts): scope is then
 * judged on the lines placed.
 */
export function matchFindings(file: SecretScanFile, found: SecretMatch[], rules: SecretRuleSet, place: PlaceFinding = (line, endLine) => ({ line, endLine })): Finding[] {
  const titles = new Map(rules.rules.map((rule) => [rule.id, rule]));
  const findings: Finding[] = [];
  const weights = new Map<SecretMatch, Weight>();
  for (const match of found) {
    const weight = weightHere(match, file, rules, titles.get(match.rule));
    if (weight) weights.set(match, weight);
  }
  const matches = [...weights.keys()];
  if (matches.length === 0) return findings;
  const starts = lineStarts(file.text);
  // Matches touching each line, so masking a line never walks every match of the file.
  const byLine = new Map<number, SecretMatch[]>();
  const endLines = new Map<SecretMatch, number>();
  for (const match of matches) {
    const endLine = match.line + (file.text.slice(match.start, match.end).match(/\n/g)?.length ?? 0);
    endLines.set(match, endLine);
    for (let line = match.line; line <= endLine; line += 1) {
      const onLine = byLine.get(line);
      if (onLine) onLine.push(match);
      else byLine.set(line, [match]);
    }
  }
  const masked = new Map<number, ReturnType<typeof maskedLine>>();
  for (const match of matches) {
    const placed = place(match.line, endLines.get(match) ?? match.line);
    if (file.scanLines !== 'all') {
      let inScope = false;
      for (let line = placed.line; line <= placed.endLine && !inScope; line += 1) inScope = file.scanLines.has(line);
      if (!inScope) continue;
    }
    const rule = titles.get(match.rule);
    const title = rule?.title ?? match.rule;
    let line = masked.get(match.line);
    if (!line) {
      line = maskedLine(file.text, starts, match.line, byLine.get(match.line) ?? []);
      masked.set(match.line, line);
    }
    const [from, to] = line.at.get(match) ?? [0, 0];
    const weight = weights.get(match) as Weight; // every kept match has one
    findings.push(
      makeFinding({
        rule: HARDCODED_SECRET_RULE,
        source: 'rule',
        severity: weight.severity,
        confidence: weight.confidence,
        path: file.path,
        line: placed.line,
        end_line: placed.endLine,
        title: `Hardcoded ${title}`,
        message:
          `${withArticle(title)} (${maskWithShape(match, file.text)}) is written into the source. ` +
          'Load it from a secret store or the environment instead, and revoke it: it is in the history now.',
        evidence: window(line.text, from, to),
        cwe: 'CWE-798',
        extra: { secret_rule: match.rule, length: match.length, character_classes: characterClasses(file.text.slice(match.start, match.end)) },
      }),
    );
  }
  return findings;
}

/** "An AWS access key", "A GitHub token": the article a title starts with when read aloud. */
function withArticle(title: string): string {
  // a vowel, or an initialism read from a letter whose name starts with one ("npm" is "en-pee-em")
  const an = /^[aeiou]/i.test(title) || /^(npm|[FHLMNRSX][A-Z0-9]{1,4}\b)/.test(title);
  return `${an ? 'An' : 'A'} ${title}`;
}
