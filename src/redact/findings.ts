/**
 * Secrets on reviewed lines become `jscr/hardcoded-secret` findings. The value never reaches a
 * finding: evidence and message show a four-character prefix and the length, and the fingerprint is
 * computed from that masked evidence.
 */
import type { Finding } from '../report/finding.js';
import { makeFinding } from '../report/fingerprint.js';
import { detectSecrets, lineStarts, type SecretMatch } from './detect.js';
import { builtInSecretRules, type SecretRule, type SecretRuleSet } from './rules.js';

export const HARDCODED_SECRET_RULE = 'jscr/hardcoded-secret';

/** A file to scan for secrets and which of its lines are in the review's scope. */
export interface SecretScanFile {
  /** Repository-relative path with forward slashes. */
  path: string;
  /** The new text of the file. */
  text: string;
  /** 1-based lines to report on (the added lines), or every line. */
  scanLines: Set<number> | 'all';
}

/** What a value is shown as: `<prefix>…[N chars]`. */
export function maskValue(match: SecretMatch): string {
  return `${match.preview}[${match.length} chars]`;
}

/** The text of 1-based `line` with every secret value on it replaced by its mask. `matches` are those touching the line, in order. */
function maskedLine(text: string, starts: number[], line: number, matches: SecretMatch[]): string {
  const lineStart = starts[line - 1] as number;
  let lineEnd = line < starts.length ? (starts[line] as number) - 1 : text.length;
  if (lineEnd > lineStart && text.charCodeAt(lineEnd - 1) === 13) lineEnd -= 1;
  let out = '';
  let cursor = lineStart;
  for (const match of matches) {
    if (match.end <= lineStart || match.start >= lineEnd) continue;
    const from = Math.max(match.start, lineStart);
    out += text.slice(cursor, from);
    // A value that began on an earlier line was already shown by its mask there.
    out += match.start >= lineStart ? maskValue(match) : '…';
    cursor = Math.min(match.end, lineEnd);
  }
  return out + text.slice(cursor, lineEnd);
}

/**
 * Whether a match is worth a finding at `path`. A generic (assignment-shaped) match is only as good
 * as its surroundings: in tests, docs and examples it is a fixture, and an unquoted identifier in
 * program source is a variable. Provider-shaped matches are reported everywhere. Redaction does not
 * use this: it masks every match.
 */
function isFindingHere(match: SecretMatch, file: SecretScanFile, rules: SecretRuleSet, byId: ReadonlyMap<string, SecretRule>): boolean {
  if (!byId.get(match.rule)?.generic) return true;
  if (rules.isFixturePath(file.path)) return false;
  if (match.bare && rules.codeReferencePattern !== null && rules.isCodePath(file.path)) {
    return !rules.codeReferencePattern.test(file.text.slice(match.start, match.end));
  }
  return true;
}

/** Findings for the secrets on the in-scope lines of each file. */
export function secretFindings(files: SecretScanFile[], rules: SecretRuleSet = builtInSecretRules()): Finding[] {
  const titles = new Map(rules.rules.map((rule) => [rule.id, rule]));
  const findings: Finding[] = [];
  for (const file of files) {
    const matches = detectSecrets(file.text, rules).filter((match) => isFindingHere(match, file, rules, titles));
    if (matches.length === 0) continue;
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
    for (const match of matches) {
      const endLine = endLines.get(match) ?? match.line;
      if (file.scanLines !== 'all') {
        let inScope = false;
        for (let line = match.line; line <= endLine && !inScope; line += 1) inScope = file.scanLines.has(line);
        if (!inScope) continue;
      }
      const rule = titles.get(match.rule);
      const title = rule?.title ?? match.rule;
      findings.push(
        makeFinding({
          rule: HARDCODED_SECRET_RULE,
          source: 'rule',
          severity: rule?.severity ?? 'high',
          confidence: rule?.confidence ?? 0.5,
          path: file.path,
          line: match.line,
          end_line: endLine,
          title: `Hardcoded ${title}`,
          message:
            `A ${title} (${maskValue(match)}, rule ${match.rule}) is written into the source. ` +
            'Load it from a secret store or the environment instead, and revoke it: it is in the history now.',
          evidence: maskedLine(file.text, starts, match.line, byLine.get(match.line) ?? []),
          cwe: 'CWE-798',
          extra: { secret_rule: match.rule, length: match.length },
        }),
      );
    }
  }
  return findings;
}
