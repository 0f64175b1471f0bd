/**
 * The one interpreter of the built-in rules: pattern rules over the scanned lines, query rules over
 * each file's parse tree (parsed once per file), findings only on scanned lines.
 */
import { packageDirectoryFiles, packageFileText, packagePath } from '../package-root.js';
import type { Finding } from '../report/finding.js';
import { makeFinding } from '../report/fingerprint.js';
import { loadGrammars, parse } from '../syntax/parser.js';
import type { Language } from '../syntax/languages.js';
import { loadRuleSources, queryFor } from './load.js';
import type { PatternMatcher, QueryMatcher, Rule } from './rule.js';
import type { FileKind } from './schema.js';

export type { Rule } from './rule.js';

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

/** Long lines (minified code) are tested in overlapping windows so a regex never sees more than this. */
const WINDOW = 4000;
const WINDOW_OVERLAP = 400;
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

const SHELL_EXTENSIONS = /\.(sh|bash|zsh|ksh)$/i;
const SHELL_SHEBANG = /^#!\s*\S*?(\/|\s)(env\s+)?(sh|bash|zsh|dash|ksh)(\s|$)/;
const DOCKERFILE_NAME = /(^|\/)((Dockerfile|Containerfile)(\.[^/]*)?|[^/]+\.(dockerfile|containerfile))$/i;
const WORKFLOW_PATH = /^\.github\/workflows\/[^/]+\.ya?ml$/;

/** What kind of non-language file `path` is, for the shell, Dockerfile and GitHub Actions rules. */
export function fileKind(path: string, text: string): FileKind | null {
  if (WORKFLOW_PATH.test(path)) return 'github-actions';
  if (DOCKERFILE_NAME.test(path)) return 'dockerfile';
  if (SHELL_EXTENSIONS.test(path)) return 'shell';
  const firstLine = text.slice(0, text.indexOf('\n') === -1 ? Math.min(text.length, 200) : Math.min(text.indexOf('\n'), 200));
  if (SHELL_SHEBANG.test(firstLine)) return 'shell';
  return null;
}

function appliesTo(rule: Rule, target: RuleTarget): boolean {
  const languages = rule.languages as readonly string[];
  const byLanguage =
    languages.includes('any') ||
    (target.language !== null && languages.includes(target.language)) ||
    (target.kind !== null && languages.includes(target.kind));
  return byLanguage && rule.appliesToPath(target.path) && (rule.requiresInFile === null || rule.requiresInFile.test(target.text));
}

/** Split like git does: on \n, with a trailing \r kept off the line. Index 0 is line 1. */
function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

function testLine(regex: RegExp, line: string): boolean {
  if (line.length <= WINDOW) return regex.test(line);
  for (let start = 0; start < line.length; start += WINDOW - WINDOW_OVERLAP) {
    if (regex.test(line.slice(start, start + WINDOW))) return true;
  }
  return false;
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** Whether line `index` matches `block` or sits, by indentation, under a line that does. */
function insideBlock(lines: readonly string[], index: number, block: RegExp): boolean {
  const line = lines[index] ?? '';
  if (block.test(line)) return true;
  let indent = indentOf(line);
  for (let i = index - 1; i >= 0 && indent > 0; i--) {
    const candidate = lines[i] ?? '';
    if (candidate.trim() === '') continue;
    const candidateIndent = indentOf(candidate);
    if (candidateIndent >= indent) continue;
    if (block.test(candidate)) return true;
    indent = candidateIndent;
  }
  return false;
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

function linesToScan(target: RuleTarget, lineCount: number): number[] {
  if (target.scanLines === 'all') return Array.from({ length: lineCount }, (_, i) => i + 1);
  return [...target.scanLines].filter((line) => line >= 1 && line <= lineCount).sort((a, b) => a - b);
}

function runPatternRule(rule: Rule, matcher: PatternMatcher, target: RuleTarget, lines: readonly string[], scan: readonly number[]): Finding[] {
  const found: Finding[] = [];
  for (const lineNumber of scan) {
    const text = lines[lineNumber - 1] ?? '';
    if (!testLine(matcher.pattern, text)) continue;
    if (matcher.notPattern && testLine(matcher.notPattern, text)) continue;
    if (matcher.insideBlock && !insideBlock(lines, lineNumber - 1, matcher.insideBlock)) continue;
    if (matcher.unlessLater) {
      const later = matcher.unlessLater;
      if (lines.slice(lineNumber).some((next) => testLine(later, next))) continue;
    }
    found.push(finding(rule, target, lines, lineNumber, lineNumber));
  }
  return found;
}

async function runQueryRules(
  rules: readonly { rule: Rule; matcher: QueryMatcher }[],
  target: RuleTarget & { language: Language },
  lines: readonly string[],
): Promise<Finding[]> {
  const found: Finding[] = [];
  const tree = await parse(target.language, target.text);
  try {
    for (const { rule, matcher } of rules) {
      if (!matcher.languages.includes(target.language)) continue;
      const query = await queryFor(rule.id, matcher, target.language);
      const reported = new Set<number>();
      for (const capture of query.captures(tree.rootNode)) {
        if (capture.name !== 'match') continue;
        const line = capture.node.startPosition.row + 1;
        if (reported.has(line)) continue;
        if (target.scanLines !== 'all' && !target.scanLines.has(line)) continue;
        reported.add(line);
        found.push(finding(rule, target, lines, line, capture.node.endPosition.row + 1));
      }
    }
  } finally {
    tree.delete();
  }
  return found;
}

/**
 * Run `rules` over `files`. Pattern rules test only the scanned lines; query rules parse a file once
 * and report only matches starting on a scanned line. Findings come back per file in input order,
 * then by line.
 */
export async function runRules(input: { files: readonly RuleTarget[]; rules: readonly Rule[] }): Promise<Finding[]> {
  const queryLanguages = new Set<Language>();
  for (const rule of input.rules) {
    if (rule.matcher.kind === 'query') for (const language of rule.matcher.languages) queryLanguages.add(language);
  }
  const parsedLanguages = input.files.flatMap((file) => (file.language !== null && queryLanguages.has(file.language) ? [file.language] : []));
  // Every grammar before the first parse: a grammar loaded after parsing has begun loads slowly.
  await loadGrammars(parsedLanguages);

  const findings: Finding[] = [];
  for (const target of input.files) {
    if (target.scanLines !== 'all' && target.scanLines.size === 0) continue;
    const lines = splitLines(target.text);
    const scan = linesToScan(target, lines.length);
    const fileFindings: Finding[] = [];
    const queryRules: { rule: Rule; matcher: QueryMatcher }[] = [];
    for (const rule of input.rules) {
      if (!appliesTo(rule, target)) continue;
      if (rule.matcher.kind === 'pattern') fileFindings.push(...runPatternRule(rule, rule.matcher, target, lines, scan));
      else queryRules.push({ rule, matcher: rule.matcher });
    }
    if (queryRules.length > 0 && target.language !== null) {
      fileFindings.push(...(await runQueryRules(queryRules, { ...target, language: target.language }, lines)));
    }
    fileFindings.sort((a, b) => a.line - b.line || a.rule.localeCompare(b.rule));
    findings.push(...fileFindings);
  }
  return findings;
}
