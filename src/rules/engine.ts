/**
 * The one interpreter of the built-in rules: pattern rules over the scanned lines, query rules over
 * each file's parse tree (parsed once per file), findings only on scanned lines.
 */
import { packageDirectoryFiles, packageFileText, packagePath } from '../package-root.js';
import type { Finding } from '../report/finding.js';
import { makeFinding } from '../report/fingerprint.js';
import { loadGrammars, parseForQueries, ParseStopped } from '../syntax/parser.js';
import type { Language } from '../syntax/languages.js';
import { loadRuleSources, queryFor } from './load.js';
import { createLineMatcher, type LineMatcher, type MatchRequest, type PatternJob, type RegexSource } from './line-match.js';
import { MatchWorker, type BoundedMatch } from './match-worker.js';
import type { LineCheckName, PatternMatcher, QueryMatcher, Rule } from './rule.js';
import { bidiReordersCode } from './bidi-check.js';
import type { QueryCapture } from 'web-tree-sitter';
import { isInertValue } from './inert-value.js';
import type { FileKind } from '../languages/registry.js';

export type { Rule } from './rule.js';
/** What kind of non-language file a path is, for the shell, Dockerfile and GitHub Actions rules. */
export { fileKindOf as fileKind } from '../languages/registry.js';

/** One file to check. */
export interface RuleTarget {
  /** Repository-relative path with forward slashes. */
  path: string;
  /** The tree-sitter language, or null for files jscr does not parse. */
  language: Language | null;
  /** The file kind for rules that are not about a programming language (see `fileKind`). */
  kind: FileKind | null;
  /** The new file content. */
  text: string;
  /** 1-based line numbers to report on (the changed lines), or every line. */
  scanLines: Set<number> | 'all';
}

/**
 * Files with a scanned line longer than this, or larger than WORKER_FILE_BYTES, are matched on a
 * worker thread under a hard time and memory limit. In a smaller file every regex test is short (a
 * near-miss costs at worst the square of the line length), so the clock checks between lines keep
 * it within its budget.
 */
const LONG_LINE = 1000;
const WORKER_FILE_BYTES = 256 * 1024;
/** A pattern rule reports at most this many lines per file; more are listed in `capped`. */
export const MAX_HITS_PER_RULE_PER_FILE = 200;
/** No file's rule matching takes longer than this, whatever the deadline leaves. */
const MAX_FILE_MATCH_MS = 20_000;
/** Evidence is quoted, not dumped: longer lines are cut. */
const MAX_EVIDENCE_LINE = 400;
const MAX_EVIDENCE_LINES = 5;


/** The directory of the built-in rule files. */
export function builtinRulesDirectory(): string {
  return packagePath('rules');
}


let builtin: Promise<Rule[]> | null = null;

/** Every built-in rule from rules/*.toml, loaded and checked once per process. */
export function loadBuiltinRules(): Promise<Rule[]> {
  builtin ??= (async () => {
    // Through package-root, not builtinRulesDirectory(): inside the single executable the rules are embedded.
    const names = packageDirectoryFiles('rules').filter((name) => name.endsWith('.toml')).sort();
    const sources = names.map((name) => ({ file: `rules/${name}`, text: packageFileText('rules', name) }));
    return loadRuleSources(sources, { eager: false });
  })();
  // A failed load is not cached: the next caller sees the same error again rather than a stale promise.
  builtin.catch(() => {
    builtin = null;
  });
  return builtin;
}

function appliesTo(rule: Rule, target: RuleTarget): boolean {
  const languages = rule.languages as readonly string[];
  const byLanguage =
    languages.includes('any') ||
    (target.language !== null && languages.includes(target.language)) ||
    (target.kind !== null && languages.includes(target.kind));
  return byLanguage && rule.appliesToPath(target.path);
}

/** Split like git does: on \n, with a trailing \r kept off the line. Index 0 is line 1. */
function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

function evidence(lines: readonly string[], first: number, last: number): string {
  return lines
    .slice(first - 1, Math.min(last, first + MAX_EVIDENCE_LINES - 1))
    .map((line) => {
      const trimmed = line.trimEnd();
      return trimmed.length > MAX_EVIDENCE_LINE ? `${trimmed.slice(0, MAX_EVIDENCE_LINE)}…` : trimmed;
    })
    .join('\n');
}

function finding(rule: Rule, target: RuleTarget, lines: readonly string[], line: number, endLine: number): Finding {
  return makeFinding({
    rule: rule.id,
    source: 'rule',
    severity: rule.severity,
    confidence: rule.confidence,
    path: target.path,
    line,
    end_line: endLine,
    title: rule.title,
    message: rule.message,
    evidence: evidence(lines, line, endLine),
    cwe: rule.cwe,
  });
}

/** True when the span line..endLine touches a line the review scans (all of them for `changed-files`). */
export function spansScannedLine(scanLines: Set<number> | 'all', line: number, endLine: number): boolean {
  if (scanLines === 'all') return true;
  for (let at = line; at <= endLine; at++) if (scanLines.has(at)) return true;
  return false;
}

function linesToScan(target: RuleTarget, lineCount: number): number[] | null {
  if (target.scanLines === 'all') return null;
  return [...target.scanLines].filter((line) => line >= 1 && line <= lineCount).sort((a, b) => a - b);
}

function regexSource(regex: RegExp | null): RegexSource | null {
  return regex === null ? null : { source: regex.source, flags: regex.flags };
}

/** The pattern rules of one rule list as data for the matcher, with each rule's index. */
interface PatternSet {
  rules: Rule[];
  jobs: PatternJob[];
  indexOf: Map<Rule, number>;
  local: LineMatcher;
}

const patternSets = new WeakMap<readonly Rule[], PatternSet>();

function patternSetOf(rules: readonly Rule[]): PatternSet {
  const known = patternSets.get(rules);
  if (known) return known;
  const patternRules = rules.filter((rule) => rule.matcher.kind === 'pattern');
  const jobs = patternRules.map((rule) => {
    const matcher = rule.matcher as PatternMatcher;
    return {
      pattern: regexSource(matcher.pattern) as RegexSource,
      notPattern: regexSource(matcher.notPattern),
      unlessLater: regexSource(matcher.unlessLater),
      insideBlock: regexSource(matcher.insideBlock),
      requiresInFile: regexSource(rule.requiresInFile),
      safeValues: matcher.safeValues.map((regex) => regexSource(regex) as RegexSource),
    };
  });
  const set = { rules: patternRules, jobs, indexOf: new Map(patternRules.map((rule, index) => [rule, index])), local: createLineMatcher(jobs) };
  patternSets.set(rules, set);
  return set;
}

function hasLongLine(lines: readonly string[], scan: readonly number[] | null): boolean {
  if (scan === null) return lines.some((line) => line.length > LONG_LINE);
  return scan.some((line) => (lines[line - 1]?.length ?? 0) > LONG_LINE);
}

/** Query rules over one parse of the file; false in `finished` when `stopAt` cut parsing or a query short. */
async function runQueryRules(
  rules: readonly { rule: Rule; matcher: QueryMatcher }[],
  target: RuleTarget & { language: Language },
  lines: readonly string[],
  stopAt: number,
): Promise<{ findings: Finding[]; finished: boolean; capped: string[] }> {
  const found: Finding[] = [];
  let stopped = false;
  // tree-sitter asks this while a query runs; true cancels it.
  const progressCallback = (): boolean => (stopped ||= Date.now() >= stopAt);
  let tree: Awaited<ReturnType<typeof parseForQueries>>;
  try {
    tree = await parseForQueries(target.language, target.text, { stopAt });
  } catch (error) {
    if (error instanceof ParseStopped) return { findings: [], finished: false, capped: [] };
    throw error;
  }
  const capped: string[] = [];
  try {
    for (const { rule, matcher } of rules) {
      if (!matcher.languages.includes(target.language)) continue;
      const query = await queryFor(rule.id, matcher, target.language);
      const reported = new Set<number>();
      const matches = query.matches(tree.rootNode, { progressCallback });
      // A cancelled query returns no matches, which would read as "nothing found".
      if (stopped) return { findings: found, finished: false, capped };
      for (const match of matches) {
        const node = match.captures.find((capture) => capture.name === 'match')?.node;
        if (node === undefined) continue;
        const line = node.startPosition.row + 1;
        const endLine = node.endPosition.row + 1;
        if (reported.has(line)) continue;
        // A match spanning lines is the change's when any of its lines is: a rewritten argument on the
        // line below `os.system(` makes the call new, though its first line is unchanged.
        if (!spansScannedLine(target.scanLines, line, endLine)) continue;
        if (isSafeSink(match.captures, target.language, matcher)) continue;
        if (reported.size === MAX_HITS_PER_RULE_PER_FILE) {
          capped.push(`${rule.id} in ${target.path}`);
          break;
        }
        reported.add(line);
        found.push(finding(rule, target, lines, line, endLine));
      }
    }
  } finally {
    tree.delete();
  }
  return { findings: found, finished: true, capped };
}

/** The checks in code a pattern rule can name (`line_check`). */
const LINE_CHECKS: Record<LineCheckName, (lines: readonly string[], lineNumber: number, path: string) => boolean> = {
  'bidi-reorders-code': bidiReordersCode,
};

function passesLineCheck(rule: Rule, lines: readonly string[], line: number, path: string): boolean {
  const name = rule.matcher.kind === 'pattern' ? rule.matcher.lineCheck : null;
  return name === null || LINE_CHECKS[name](lines, line, path);
}

/** A match whose `@value` is inert (a literal, a known-safe producer) does not count. */
function isSafeSink(captures: readonly QueryCapture[], language: Language, matcher: QueryMatcher): boolean {
  const value = captures.find((capture) => capture.name === 'value')?.node;
  if (value === undefined) return false;
  return isInertValue(value, { language, safe: matcher.safe });
}

/** What bounds a run of the rules: the time left (the review's deadline), asked per file. */
export interface RuleRunLimits {
  remainingMs: () => number;
}

export interface RuleRun {
  findings: Finding[];
  /** Files whose rules did not all run to the end, with why: the review of them is incomplete. */
  unfinished: { path: string; reason: string }[];
  /** `rule in path` for each rule that reached MAX_HITS_PER_RULE_PER_FILE in a file. */
  capped: string[];
}

/**
 * Run `rules` over `files`. Pattern rules test only the scanned lines, each line whole; query rules
 * parse a file once and report only matches starting on a scanned line. Each file gets at most
 * MAX_FILE_MATCH_MS and never more than the time left; a file not finished in it is listed, and so
 * is every file after the time left ran out. Findings come back per file in input order, then by line.
 */
export async function runRules(input: { files: readonly RuleTarget[]; rules: readonly Rule[]; limits?: RuleRunLimits }): Promise<RuleRun> {
  const limits = input.limits;
  const remainingMs = (): number => (limits === undefined ? Number.MAX_SAFE_INTEGER : limits.remainingMs());
  const queryLanguages = new Set<Language>();
  for (const rule of input.rules) {
    if (rule.matcher.kind === 'query') for (const language of rule.matcher.languages) queryLanguages.add(language);
  }
  const parsedLanguages = input.files.flatMap((file) => (file.language !== null && queryLanguages.has(file.language) ? [file.language] : []));
  // Every grammar before the first parse: a grammar loaded after parsing has begun loads slowly.
  await loadGrammars(parsedLanguages);

  const patterns = patternSetOf(input.rules);
  let worker: MatchWorker | null = null;
  const run: RuleRun = { findings: [], unfinished: [], capped: [] };
  try {
    for (const target of input.files) {
      if (target.scanLines !== 'all' && target.scanLines.size === 0) continue;
      const left = remainingMs();
      if (left === 0) {
        run.unfinished.push({ path: target.path, reason: 'the review deadline (review.deadline_s) passed before its rules ran' });
        continue;
      }
      const stopAt = Date.now() + Math.min(left, MAX_FILE_MATCH_MS);
      const limit = left <= MAX_FILE_MATCH_MS ? 'the review deadline (review.deadline_s) passed' : `the ${MAX_FILE_MATCH_MS / 1000} s allowed per file ran out`;
      const lines = splitLines(target.text);
      const scan = linesToScan(target, lines.length);
      const applicable = input.rules.filter((rule) => appliesTo(rule, target));
      const request: MatchRequest = {
        text: target.text,
        ruleIndexes: applicable.flatMap((rule) => {
          const index = patterns.indexOf.get(rule);
          return index === undefined ? [] : [index];
        }),
        scan,
        maxHitsPerRule: MAX_HITS_PER_RULE_PER_FILE,
        stopAt,
      };
      let matched: BoundedMatch;
      if (target.text.length > WORKER_FILE_BYTES || hasLongLine(lines, scan)) matched = await (worker ??= new MatchWorker(patterns.jobs)).match(request);
      else matched = { kind: 'done', result: patterns.local(request) };
      const fileFindings: Finding[] = [];
      if (matched.kind === 'stopped') run.unfinished.push({ path: target.path, reason: `pattern rules: ${matched.reason}${matched.outOfTime ? `; ${limit}` : ''}` });
      else {
        for (const [index, line] of matched.result.hits) {
          const rule = patterns.rules[index];
          if (rule && passesLineCheck(rule, lines, line, target.path)) fileFindings.push(finding(rule, target, lines, line, line));
        }
        for (const index of matched.result.capped) run.capped.push(`${patterns.rules[index]?.id ?? '?'} in ${target.path}`);
        if (!matched.result.finished) run.unfinished.push({ path: target.path, reason: `pattern rules: ${limit}` });
      }
      // A query rule whose file condition fails costs no parse (the pattern rules test theirs in the matcher).
      const queryRules = applicable.flatMap((rule) =>
        rule.matcher.kind === 'query' && (rule.requiresInFile === null || rule.requiresInFile.test(target.text)) ? [{ rule, matcher: rule.matcher }] : [],
      );
      if (queryRules.length > 0 && target.language !== null && matched.kind === 'done' && matched.result.finished) {
        const queried = await runQueryRules(queryRules, { ...target, language: target.language }, lines, stopAt);
        fileFindings.push(...queried.findings);
        run.capped.push(...queried.capped);
        if (!queried.finished) run.unfinished.push({ path: target.path, reason: `query rules: ${limit}` });
      }
      fileFindings.sort((a, b) => a.line - b.line || a.rule.localeCompare(b.rule));
      run.findings.push(...fileFindings);
    }
  } finally {
    await worker?.close();
  }
  return run;
}
