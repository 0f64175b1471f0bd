/**
 * Suppressions that cannot rot or be smuggled in.
 *
 * Two kinds: inline `jscr-ignore: <rule-id> <reason>` comments, and `[[suppress]]` entries of
 * `.jscr.toml`. Both must name a rule (or an old id of it) and give a reason. Config entries match by
 * fingerprint (version 2 names one occurrence; version 1 the first copy) or by rule + path glob, never by line number; an inline comment binds to the finding on its own line or,
 * when it stands alone, on the line below, so it moves with the code. A suppression that the reviewed
 * change adds is reported and not honoured: a change must not be able to silence its own review.
 */
import picomatch from 'picomatch';
import { CONFIG_FILE_NAME } from '../config-file.js';
import type { Suppression } from '../config/schema.js';
import type { Finding } from '../report/finding.js';
import { makeFinding, normaliseEvidence } from '../report/fingerprint.js';
import type { RuleAliases } from '../rules/aliases.js';
import { FingerprintIndex } from './fingerprint-index.js';

const INVALID_SUPPRESSION_RULE = 'jscr/invalid-suppression';
const SUPPRESSION_ADDED_RULE = 'jscr/suppression-added-by-change';

/** Input of the suppression step. */
export interface SuppressionInput {
  findings: Finding[];
  /** The new text of each changed file, by path. */
  fileTexts: Map<string, string>;
  /** 1-based added lines of each file, by path. */
  addedLines: Map<string, Set<number>>;
  /**
   * How often each line (whitespace folded) occurs in each changed file as the base revision held it
   * (`baseLineCounts`), by new path; absent for a file the base did not have. A fingerprint covers an
   * added line only when its content was already there.
   */
  baseLines: Map<string, Map<string, number>>;
  /** The entries in force (from the base revision's `.jscr.toml`, or `--config`). */
  configEntries: Suppression[];
  /** Entries the reviewed change adds to `.jscr.toml` (head entries not present at the base). */
  entriesAddedByChange: Suppression[];
  /** Today's date, `YYYY-MM-DD`, for expiry. */
  today: string;
  /** Old ids of renamed or retired rules: an entry or comment naming one still applies. */
  aliases: RuleAliases;
}

/** Output of the suppression step. */
export interface SuppressionOutcome {
  /** Findings left standing. */
  kept: Finding[];
  /** Findings silenced, with what silenced them. */
  suppressed: { finding: Finding; by: string }[];
  /** Config entries that silenced nothing, or are past their date. */
  unused: { entry: string; reason: 'unused' | 'expired' }[];
  /** New findings about suppressions themselves (invalid ones, ones added by the change). */
  added: Finding[];
  /** What a user should do about an entry that still works but no longer says enough (a shared v1 fingerprint). */
  notes: string[];
}

/** An inline `jscr-ignore:` comment found in a file. */
export interface InlineSuppression {
  /** 1-based line of the comment. */
  line: number;
  /** The rule id it names, or null when it names none. */
  rule: string | null;
  /** The reason it gives, or null when it gives none. */
  reason: string | null;
  /** True when the comment is the whole line, so it applies to the line below. */
  standalone: boolean;
  /** The line's text, trimmed. */
  text: string;
}

// A comment opener (#, //, /*, <!--, --, ;, or a `*` continuation) followed by the directive.
const INLINE_DIRECTIVE = /(^\s*\*|#|\/\/|\/\*|<!--|--|;)\s*jscr-ignore:(.*)$/;
const RULE_ID = /^[\w.@-]+\/[\w.:/@-]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Every `jscr-ignore:` comment in `text`. A cheap substring test skips files without one. */
export function parseInlineSuppressions(text: string): InlineSuppression[] {
  if (!text.includes('jscr-ignore:')) return [];
  const found: InlineSuppression[] = [];
  const lines = text.split('\n');
  lines.forEach((raw, index) => {
    if (!raw.includes('jscr-ignore:')) return;
    const line = raw.replace(/\r$/, '');
    const match = INLINE_DIRECTIVE.exec(line);
    if (!match) return;
    const body = (match[2] ?? '').replace(/\s*(?:\*\/|-->)\s*$/, '').trim();
    const [first = '', ...rest] = body.split(/\s+/);
    const rule = RULE_ID.test(first) ? first : null;
    const reasonText = (rule ? rest : [first, ...rest]).join(' ').trim();
    found.push({
      line: index + 1,
      rule,
      reason: rule && reasonText.length > 0 ? reasonText : null,
      standalone: line.slice(0, match.index).trim() === '',
      text: line.trim(),
    });
  });
  return found;
}

/** A stable one-line name for a config entry, used in reports and as the evidence of findings about it. */
export function describeEntry(entry: Suppression): string {
  const parts = [`rule = "${entry.rule}"`];
  if (entry.path !== undefined) parts.push(`path = "${entry.path}"`);
  if (entry.fingerprint !== undefined) parts.push(`fingerprint = "${entry.fingerprint}"`);
  if (entry.expires !== undefined) parts.push(`expires = "${entry.expires}"`);
  parts.push(`reason = "${entry.reason}"`);
  return `[[suppress]] ${parts.join(' ')}`;
}

function sameEntry(a: Suppression, b: Suppression): boolean {
  return a.rule === b.rule && a.path === b.path && a.fingerprint === b.fingerprint && a.reason === b.reason && a.expires === b.expires;
}

/** 1-based line of the `[[suppress]]` table holding `entry` in the config text, or 1 when not found. */
function entryLine(configText: string | undefined, entry: Suppression): number {
  if (!configText) return 1;
  const lines = configText.split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    if ((lines[index] ?? '').trim() !== '[[suppress]]') continue;
    let block = '';
    for (let next = index + 1; next < lines.length && !(lines[next] ?? '').trim().startsWith('['); next += 1) block += `${lines[next]}\n`;
    const ruleHere = block.includes(`"${entry.rule}"`) || block.includes(`'${entry.rule}'`);
    if (ruleHere && (entry.fingerprint === undefined || block.includes(entry.fingerprint))) return index + 1;
  }
  return 1;
}

/** Why an entry cannot be honoured as written, or null when it is well formed. */
function entryProblem(entry: Suppression): string | null {
  if (!RULE_ID.test(entry.rule.trim())) return 'it names no rule id';
  if (entry.reason.trim().length === 0) return 'it gives no reason';
  if (entry.expires !== undefined && !DATE.test(entry.expires)) return `its expiry "${entry.expires}" is not a YYYY-MM-DD date`;
  if (entry.fingerprint !== undefined && !/^[0-9a-f]{12,64}$/i.test(entry.fingerprint)) {
    return 'its fingerprint is not 12 to 64 hex digits';
  }
  return null;
}

interface LiveEntry {
  entry: Suppression;
  name: string;
  matchesPath: (path: string) => boolean;
  uses: number;
}

/**
 * How often each line occurs in `text`, for `SuppressionInput.baseLines`. Lines are compared as
 * fingerprints compare evidence (whitespace folded), but whole: evidence quotes only a line's start.
 */
export function baseLineCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of text.split('\n')) {
    const content = normaliseEvidence(line);
    counts.set(content, (counts.get(content) ?? 0) + 1);
  }
  return counts;
}

/** The lines of the finding's span (line to end_line) that the change added or rewrote. */
function addedInSpan(input: SuppressionInput, finding: Finding): number[] {
  const added = input.addedLines.get(finding.path);
  const out: number[] = [];
  if (added === undefined) return out;
  for (let line = finding.line; line <= Math.max(finding.line, finding.end_line); line += 1) if (added.has(line)) out.push(line);
  return out;
}

/** The new file's line counts, worked out once per file of one suppression pass (not once per finding). */
const countsByInput = new WeakMap<SuppressionInput, Map<string, Map<string, number>>>();
function lineCountsOf(input: SuppressionInput, path: string, text: string): Map<string, number> {
  let byPath = countsByInput.get(input);
  if (byPath === undefined) countsByInput.set(input, (byPath = new Map<string, Map<string, number>>()));
  let counts = byPath.get(path);
  if (counts === undefined) byPath.set(path, (counts = baseLineCounts(text)));
  return counts;
}

/**
 * True when every added line the finding spans holds content the base already had, as many times as
 * the new file has it: what a fingerprint was written for. A rewritten line, or one more copy of
 * suppressed code pasted in, is not covered.
 */
function contentExistedAtBase(input: SuppressionInput, finding: Finding): boolean {
  const added = addedInSpan(input, finding);
  if (added.length === 0) return true;
  const base = input.baseLines.get(finding.path);
  const text = input.fileTexts.get(finding.path);
  if (base === undefined || text === undefined) return false;
  const lines = text.split('\n');
  const now = lineCountsOf(input, finding.path, text);
  return added.every((line) => {
    const content = normaliseEvidence(lines[line - 1] ?? '');
    return (base.get(content) ?? 0) >= (now.get(content) ?? 0);
  });
}

/** Whether the entry covers the finding: its rule (or an old id of it), its fingerprint, its path. */
function entryMatches(live: LiveEntry, finding: Finding, input: SuppressionInput, index: FingerprintIndex, notes: string[]): boolean {
  const { entry } = live;
  if (!input.aliases.names(entry.rule, finding.rule) || !live.matchesPath(finding.path)) return false;
  if (entry.fingerprint === undefined) return true;
  // the fingerprint may be computed with the rule's id now or any old one: it names one finding either way
  const hit = index.hits(entry.fingerprint).find((h) => h.finding === finding);
  if (hit === undefined || !contentExistedAtBase(input, finding)) return false;
  if (hit.version === 'v1' && hit.sharedBy > 1) {
    notes.push(
      `${live.name}: its fingerprint is a version 1 value that ${hit.sharedBy} findings of ${finding.rule} in ${finding.path} share (copies of one line). ` +
        `It covers the first, on line ${finding.line}, and the other copies are reported. Pin it to that occurrence with fingerprint = "${finding.fingerprint}".`,
    );
  }
  return true;
}

function findingAbout(
  rule: typeof INVALID_SUPPRESSION_RULE | typeof SUPPRESSION_ADDED_RULE,
  path: string,
  line: number,
  evidence: string,
  message: string,
): Finding {
  const invalid = rule === INVALID_SUPPRESSION_RULE;
  return makeFinding({
    rule,
    source: 'rule',
    severity: invalid ? 'low' : 'medium',
    confidence: 1,
    path,
    line,
    end_line: line,
    title: invalid ? 'Suppression without a rule or a reason' : 'The change adds a suppression of its own findings',
    message,
    evidence,
    cwe: invalid ? null : 'CWE-693',
  });
}

/** Apply inline and config suppressions to the findings; report what cannot be honoured. */
export function applySuppressions(input: SuppressionInput): SuppressionOutcome {
  const added: Finding[] = [];
  const unused: SuppressionOutcome['unused'] = [];
  const configText = input.fileTexts.get(CONFIG_FILE_NAME);

  // Config entries: those the change adds are reported and never honoured; malformed and expired ones
  // are not honoured either.
  const live: LiveEntry[] = [];
  for (const entry of input.entriesAddedByChange) {
    added.push(
      findingAbout(
        SUPPRESSION_ADDED_RULE,
        CONFIG_FILE_NAME,
        entryLine(configText, entry),
        describeEntry(entry),
        `The reviewed change adds a [[suppress]] entry for ${entry.rule} ("${entry.reason}"). ` +
          'It is not honoured in this review; it takes effect once the change is merged and reviewed on its own.',
      ),
    );
  }
  for (const entry of input.configEntries) {
    if (input.entriesAddedByChange.some((addedEntry) => sameEntry(addedEntry, entry))) continue;
    const name = describeEntry(entry);
    const problem = entryProblem(entry);
    if (problem) {
      added.push(
        findingAbout(INVALID_SUPPRESSION_RULE, CONFIG_FILE_NAME, entryLine(configText, entry), name, `A [[suppress]] entry is not honoured: ${problem}.`),
      );
      continue;
    }
    if (entry.expires !== undefined && entry.expires < input.today) {
      unused.push({ entry: name, reason: 'expired' });
      continue;
    }
    const glob = entry.path === undefined ? null : picomatch(entry.path, { dot: true });
    live.push({ entry, name, matchesPath: glob ? (path) => glob(path) : () => true, uses: 0 });
  }

  // Inline comments, per file that has findings or added lines.
  const inlineByPath = new Map<string, InlineSuppression[]>();
  const findingLines = new Map<string, Set<number>>();
  for (const finding of input.findings) {
    let lines = findingLines.get(finding.path);
    if (!lines) findingLines.set(finding.path, (lines = new Set()));
    lines.add(finding.line);
  }
  for (const [path, text] of input.fileTexts) {
    const comments = parseInlineSuppressions(text);
    if (comments.length === 0) continue;
    const addedHere = input.addedLines.get(path) ?? new Set<number>();
    const findingsHere = findingLines.get(path) ?? new Set<number>();
    const honoured: InlineSuppression[] = [];
    for (const comment of comments) {
      const target = comment.standalone ? comment.line + 1 : comment.line;
      const relevant = addedHere.has(comment.line) || findingsHere.has(target);
      if (comment.rule === null || comment.reason === null) {
        if (relevant) {
          const missing = comment.rule === null ? 'names no rule id' : 'gives no reason';
          added.push(
            findingAbout(
              INVALID_SUPPRESSION_RULE,
              path,
              comment.line,
              comment.text,
              `This jscr-ignore comment ${missing}, so it is not honoured. Write \`jscr-ignore: <rule-id> <reason>\`.`,
            ),
          );
        }
        continue;
      }
      if (addedHere.has(comment.line)) {
        added.push(
          findingAbout(
            SUPPRESSION_ADDED_RULE,
            path,
            comment.line,
            comment.text,
            `The reviewed change adds a jscr-ignore comment for ${comment.rule} ("${comment.reason}"). ` +
              'It is not honoured in this review: a change cannot silence its own findings.',
          ),
        );
        continue;
      }
      honoured.push(comment);
    }
    inlineByPath.set(path, honoured);
  }

  const kept: Finding[] = [];
  const suppressed: SuppressionOutcome['suppressed'] = [];
  const notes: string[] = [];
  const index = new FingerprintIndex(input.findings, input.aliases, (finding) => (addedInSpan(input, finding).length > 0 ? 1 : 0));
  for (const finding of input.findings) {
    // A comment covers code only as the base had it: not when the change added or rewrote a line of the finding.
    const comment = addedInSpan(input, finding).length > 0
      ? undefined
      : (inlineByPath.get(finding.path) ?? []).find(
          (candidate) => candidate.rule !== null && input.aliases.names(candidate.rule, finding.rule) && (candidate.standalone ? candidate.line + 1 : candidate.line) === finding.line,
        );
    if (comment) {
      suppressed.push({ finding, by: `jscr-ignore comment at ${finding.path}:${comment.line}: ${comment.reason ?? ''}` });
      continue;
    }
    const entry = live.find((candidate) => entryMatches(candidate, finding, input, index, notes));
    if (entry) {
      entry.uses += 1;
      suppressed.push({ finding, by: entry.name });
      continue;
    }
    kept.push(finding);
  }
  for (const entry of live) if (entry.uses === 0) unused.push({ entry: entry.name, reason: 'unused' });
  return { kept, suppressed, unused, added, notes };
}
