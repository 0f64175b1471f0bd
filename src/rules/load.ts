/**
 * Loading rule files through the data-file loader (src/data-file): the zod schema, then each entry
 * normalised to a strict `Rule` with its checks (id shape, one matcher, safe regexes, queries), then
 * ids unique across every file. Any failure is a RuleFileError naming the file, the line and the key.
 */
import picomatch from 'picomatch';
import type { Query } from 'web-tree-sitter';
import { loadDataFile, UniqueIds, type DataFileContext } from '../data-file/load.js';
import { RuleFileError } from '../errors.js';
import { grammar, loadGrammars, treeSitter } from '../syntax/parser.js';
import { LANGUAGES, type Language } from '../syntax/languages.js';
import { RuleFileSchema, type RuleEntry } from './schema.js';
import type { QueryMatcher, Rule } from './rule.js';

/** One rule file's name (as shown in errors) and its text. */
export interface RuleSource {
  file: string;
  text: string;
}

const ID_SHAPE = /^jscr\/[a-z0-9]+(-[a-z0-9]+)*$/;
const PATTERN_ONLY_KEYS = ['not_pattern', 'ignore_case', 'unless_later', 'inside_block', 'safe_values', 'line_check'] as const;
const QUERY_ONLY_KEYS = ['safe_producers', 'safe_wrappers', 'safe_imports'] as const;
/** Rule keys that hold a regex. */
type RegexKey = 'pattern' | 'not_pattern' | 'unless_later' | 'inside_block' | 'requires_in_file';

function isTreeSitterLanguage(name: string): name is Language {
  return (LANGUAGES as readonly string[]).includes(name);
}

/** One entry to a strict Rule (queries not yet compiled), or the file refused at the entry's key. */
function normaliseRule(context: DataFileContext, entry: RuleEntry, index: number): Rule {
  const fail = (key: string | null, expected: string): never => {
    throw context.problem(key === null ? ['rule', index] : ['rule', index, key], expected);
  };

  if (!ID_SHAPE.test(entry.id)) fail('id', `id must look like jscr/<kebab-case-name>`);
  if ((entry.pattern === undefined) === (entry.query === undefined)) fail(null, 'a rule needs exactly one of pattern or query');
  if (new Set(entry.languages).size !== entry.languages.length) fail('languages', 'a language is listed twice');
  if (entry.languages.includes('any') && entry.languages.length > 1) fail('languages', '"any" already covers every file; list nothing else');

  const ignoreCase = entry.ignore_case ?? false;
  const regex = (key: RegexKey): RegExp | null => {
    const text = entry[key];
    return text === undefined ? null : context.pattern(['rule', index, key], text, ignoreCase && key !== 'requires_in_file' ? 'i' : '');
  };
  const requiresInFile = regex('requires_in_file');
  const regexList = (key: 'safe_values' | 'safe_producers' | 'safe_wrappers' | 'safe_imports', flags = ''): RegExp[] =>
    (entry[key] ?? []).map((text, at) => context.pattern(['rule', index, key, at], text, flags));

  let matcher: Rule['matcher'];
  if (entry.query !== undefined) {
    for (const key of PATTERN_ONLY_KEYS) {
      if (entry[key] !== undefined) fail(key, `${key} applies to pattern rules only`);
    }
    const languages = entry.languages.filter(isTreeSitterLanguage);
    if (languages.length !== entry.languages.length) fail('languages', 'a query rule may list only tree-sitter languages');
    const origin = { file: context.file, index, line: context.lineOf(['rule', index, 'query']) };
    const safe = { producers: regexList('safe_producers'), wrappers: regexList('safe_wrappers'), imports: regexList('safe_imports') };
    matcher = { kind: 'query', source: entry.query, languages, compiled: new Map(), origin, safe };
  } else {
    for (const key of QUERY_ONLY_KEYS) {
      if (entry[key] !== undefined) fail(key, `${key} applies to query rules only`);
    }
    const pattern = regex('pattern') as RegExp; // present: checked above
    if (entry.safe_values !== undefined && !/\(\?<value>/.test(pattern.source)) fail('safe_values', 'safe_values needs a (?<value>...) group in pattern');
    matcher = {
      kind: 'pattern',
      pattern,
      notPattern: regex('not_pattern'),
      unlessLater: regex('unless_later'),
      insideBlock: regex('inside_block'),
      safeValues: regexList('safe_values', ignoreCase ? 'i' : ''),
      lineCheck: entry.line_check ?? null,
    };
  }

  const paths = entry.paths ?? [];
  const pathMatcher = paths.length > 0 ? picomatch(paths, { dot: true }) : null;
  const notPaths = entry.not_paths ?? [];
  const notPathMatcher = notPaths.length > 0 ? picomatch(notPaths, { dot: true, nocase: true }) : null;
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
    appliesToPath: (path) => (pathMatcher === null || pathMatcher(path)) && (notPathMatcher === null || !notPathMatcher(path)),
    fix: { allowedImports: entry.fix?.allowed_imports ?? [] },
    origin: { file: context.file, line: context.lineOf(['rule', index]) },
  };
}

/** One rule file through the loader: its rules, in definition order, each id claimed in `ids`. */
function loadRuleFile(source: RuleSource, ids: UniqueIds): Rule[] {
  return loadDataFile({
    file: source.file,
    text: source.text,
    kind: 'rules',
    schema: RuleFileSchema,
    normalise: (data, context) =>
      data.rule.map((entry, index) => {
        const rule = normaliseRule(context, entry, index);
        ids.claim(rule.id, context, ['rule', index]);
        return rule;
      }),
  });
}

/**
 * The rule's query for one grammar, compiled on first use and kept. A query that does not compile, or
 * has no `@match` capture, is a RuleFileError naming the rule file and the query's line.
 */
export async function queryFor(ruleId: string, matcher: QueryMatcher, language: Language): Promise<Query> {
  const known = matcher.compiled.get(language);
  if (known) return known;
  const { origin } = matcher;
  const refuse = (expected: string): RuleFileError => new RuleFileError(origin.file, origin.line, `${expected} (rule ${ruleId})`, `rule[${origin.index}].query`);
  const { Query } = await treeSitter();
  let query: Query;
  try {
    query = new Query(await grammar(language), matcher.source);
  } catch (error) {
    throw refuse(`query does not compile for ${language}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!query.captureNames.includes('match')) {
    query.delete();
    throw refuse('query has no @match capture');
  }
  matcher.compiled.set(language, query);
  return query;
}

/**
 * Load rule files together, each through the loader, with ids unique across all of them. Rules come back in file order, then definition order. `eager` (the default, for
 * validating rule files) compiles every query now; the review passes false so each query compiles on
 * first use, for the languages a run actually has.
 */
export async function loadRuleSources(sources: readonly RuleSource[], options: { eager?: boolean } = {}): Promise<Rule[]> {
  const eager = options.eager ?? true;
  // One registry across the files: an id may be defined once in all of them.
  const ids = new UniqueIds('rule id');
  const rules = sources.flatMap((source) => loadRuleFile(source, ids));
  if (eager) {
    const queries = rules.flatMap((rule) => (rule.matcher.kind === 'query' ? [{ id: rule.id, matcher: rule.matcher }] : []));
    // Every grammar a query needs, in one go, before any query compiles (deps.md T16).
    await loadGrammars(queries.flatMap(({ matcher }) => matcher.languages));
    for (const { id, matcher } of queries) {
      for (const language of matcher.languages) await queryFor(id, matcher, language);
    }
  }
  return rules;
}
