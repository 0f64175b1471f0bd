/**
 * Loading rule files in three phases: parse TOML and check the shape (zod), normalise each entry to a
 * strict `Rule`, then run the semantic checks (ids, regexes, queries) in order. Any failure throws a
 * RuleFileError naming the file, the line when known, and the problem.
 */
import TOML from '@iarna/toml';
import picomatch from 'picomatch';
import type { Query } from 'web-tree-sitter';
import { RuleFileError } from '../errors.js';
import { grammar, loadGrammars, treeSitter } from '../syntax/parser.js';
import { LANGUAGES, type Language } from '../syntax/languages.js';
import { RuleFileSchema, type RuleEntry } from './schema.js';
import type { QueryMatcher, Rule } from './rule.js';
import { catastrophicBacktrackingHazard } from '../data-file/regex-shape.js';

/** One rule file's name (as shown in errors) and its text. */
export interface RuleSource {
  file: string;
  text: string;
}

const ID_SHAPE = /^jscr\/[a-z0-9]+(-[a-z0-9]+)*$/;
const PATTERN_ONLY_KEYS = ['not_pattern', 'ignore_case', 'unless_later', 'inside_block'] as const;
/** Rule keys that hold a regex. */
type RegexKey = 'pattern' | 'not_pattern' | 'unless_later' | 'inside_block' | 'requires_in_file';

function isTreeSitterLanguage(name: string): name is Language {
  return (LANGUAGES as readonly string[]).includes(name);
}

/** 1-based line of each `[[rule]]` header, in order. */
function ruleHeaderLines(text: string): number[] {
  const lines: number[] = [];
  text.split('\n').forEach((line, index) => {
    if (/^\s*\[\[\s*rule\s*\]\]/.test(line)) lines.push(index + 1);
  });
  return lines;
}

/** The line of `key` inside the rule at `ruleIndex`, else that rule's header line, else null. */
function lineOfKey(text: string, ruleIndex: number, key: string | null): number | null {
  const headers = ruleHeaderLines(text);
  const header = headers[ruleIndex];
  if (header === undefined) return null;
  if (key === null) return header;
  const lines = text.split('\n');
  const end = headers[ruleIndex + 1] ?? lines.length + 1;
  const keyLine = new RegExp(`^\\s*(${key}\\s*=|\\[\\s*rule\\.${key}\\s*\\])`);
  for (let line = header + 1; line < end; line++) {
    if (keyLine.test(lines[line - 1] ?? '')) return line;
  }
  return header;
}

/** Phase 1: TOML, then the zod schema. */
function parseRuleFile(source: RuleSource): RuleEntry[] {
  let data: unknown;
  try {
    data = TOML.parse(source.text);
  } catch (error) {
    const line = typeof (error as { line?: unknown }).line === 'number' ? (error as { line: number }).line + 1 : null;
    const message = error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
    throw new RuleFileError(source.file, line, `not valid TOML: ${message}`);
  }
  const parsed = RuleFileSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (!issue) throw new RuleFileError(source.file, null, 'does not match the rule file schema');
    const [top, index, key] = issue.path;
    const unknownKeys = issue.code === 'unrecognized_keys' ? ` ${issue.keys.join(', ')}` : '';
    const where = issue.path.join('.');
    const line =
      top === 'rule' && typeof index === 'number'
        ? lineOfKey(source.text, index, issue.code === 'unrecognized_keys' ? (issue.keys[0] ?? null) : typeof key === 'string' ? key : null)
        : null;
    throw new RuleFileError(source.file, line, `${where === '' ? 'file' : where}: ${issue.message}${unknownKeys && !issue.message.includes(unknownKeys.trim()) ? unknownKeys : ''}`);
  }
  return parsed.data.rule;
}

function compileRegex(source: RuleSource, index: number, id: string, key: string, text: string, ignoreCase: boolean): RegExp {
  const line = lineOfKey(source.text, index, key);
  let regex: RegExp;
  try {
    regex = new RegExp(text, ignoreCase ? 'i' : '');
  } catch (error) {
    throw new RuleFileError(source.file, line, `${id}: ${key} is not a valid regex: ${error instanceof Error ? error.message : String(error)}`);
  }
  const hazard = catastrophicBacktrackingHazard(text);
  if (hazard) throw new RuleFileError(source.file, line, `${id}: ${key} may backtrack catastrophically: ${hazard}`);
  return regex;
}

/** Phase 2 and the per-rule part of phase 3: a strict Rule, or a RuleFileError. */
async function normaliseRule(source: RuleSource, entry: RuleEntry, index: number, eager: boolean): Promise<Rule> {
  const at = (key: string | null) => lineOfKey(source.text, index, key);
  const fail = (key: string | null, problem: string): never => {
    throw new RuleFileError(source.file, at(key), `${entry.id}: ${problem}`);
  };

  if (!ID_SHAPE.test(entry.id)) fail('id', `id must look like jscr/<kebab-case-name>`);
  if ((entry.pattern === undefined) === (entry.query === undefined)) fail(null, 'a rule needs exactly one of pattern or query');
  if (new Set(entry.languages).size !== entry.languages.length) fail('languages', 'a language is listed twice');
  if (entry.languages.includes('any') && entry.languages.length > 1) fail('languages', '"any" already covers every file; list nothing else');

  const ignoreCase = entry.ignore_case ?? false;
  const regex = (key: RegexKey): RegExp | null => {
    const text = entry[key];
    return text === undefined ? null : compileRegex(source, index, entry.id, key, text, ignoreCase && key !== 'requires_in_file');
  };
  const requiresInFile = regex('requires_in_file');

  let matcher: Rule['matcher'];
  if (entry.query !== undefined) {
    for (const key of PATTERN_ONLY_KEYS) {
      if (entry[key] !== undefined) fail(key, `${key} applies to pattern rules only`);
    }
    const languages = entry.languages.filter(isTreeSitterLanguage);
    if (languages.length !== entry.languages.length) fail('languages', 'a query rule may list only tree-sitter languages');
    matcher = { kind: 'query', source: entry.query, languages, compiled: new Map(), origin: { file: source.file, index } };
    for (const language of eager ? languages : []) {
      try {
        await queryFor(entry.id, matcher, language);
      } catch (error) {
        if (error instanceof RuleFileError) fail('query', error.problem.slice(`${entry.id}: `.length));
        throw error;
      }
    }
  } else {
    matcher = {
      kind: 'pattern',
      pattern: regex('pattern') as RegExp, // present: checked above
      notPattern: regex('not_pattern'),
      unlessLater: regex('unless_later'),
      insideBlock: regex('inside_block'),
    };
  }

  const paths = entry.paths ?? [];
  const pathMatcher = paths.length > 0 ? picomatch(paths, { dot: true }) : null;
  return {
    id: entry.id,
    title: entry.title,
    severity: entry.severity,
    confidence: entry.confidence,
    cwe: entry.cwe,
    languages: entry.languages,
    message: entry.message,
    matcher,
    requiresInFile,
    paths,
    appliesToPath: pathMatcher ? (path) => pathMatcher(path) : () => true,
    fix: { allowedImports: entry.fix?.allowed_imports ?? [] },
    origin: { file: source.file, line: at(null) },
  };
}

/**
 * Load rule files together: every file through all three phases, then the checks that span files
 * (ids unique across all of them). Rules come back in file order, then definition order.
 */
/**
 * The rule's query for one grammar, compiled on first use and kept. A query that does not compile, or
 * has no `@match` capture, is a RuleFileError naming the rule file.
 */
export async function queryFor(ruleId: string, matcher: QueryMatcher, language: Language): Promise<Query> {
  const known = matcher.compiled.get(language);
  if (known) return known;
  const { Query } = await treeSitter();
  let query: Query;
  try {
    query = new Query(await grammar(language), matcher.source);
  } catch (error) {
    throw new RuleFileError(matcher.origin.file, null, `${ruleId}: query does not compile for ${language}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!query.captureNames.includes('match')) {
    query.delete();
    throw new RuleFileError(matcher.origin.file, null, `${ruleId}: query has no @match capture`);
  }
  matcher.compiled.set(language, query);
  return query;
}

/**
 * Load rule files. `eager` (the default, for validating rule files) compiles every query now; the
 * review passes false so each query compiles on first use, for the languages a run actually has.
 */
export async function loadRuleSources(sources: readonly RuleSource[], options: { eager?: boolean } = {}): Promise<Rule[]> {
  const eager = options.eager ?? true;
  const parsed = sources.map((source) => ({ source, entries: parseRuleFile(source) }));
  // Every grammar a query needs, in one go, before any query compiles (deps.md T16).
  if (eager)
    await loadGrammars(
    parsed.flatMap(({ entries }) => entries.flatMap((entry) => (entry.query === undefined ? [] : entry.languages.filter(isTreeSitterLanguage)))),
  );
  const rules: Rule[] = [];
  const seen = new Map<string, Rule>();
  for (const { source, entries } of parsed) {
    for (const [index, entry] of entries.entries()) {
      const rule = await normaliseRule(source, entry, index, eager);
      const earlier = seen.get(rule.id);
      if (earlier) {
        const place = `${earlier.origin.file}${earlier.origin.line === null ? '' : `:${earlier.origin.line}`}`;
        throw new RuleFileError(source.file, rule.origin.line, `duplicate rule id ${rule.id} (first defined at ${place})`);
      }
      seen.set(rule.id, rule);
      rules.push(rule);
    }
  }
  return rules;
}
