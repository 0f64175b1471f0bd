/**
 * Loading the secret rule set (ruleset/secrets.toml) through the data-file loader: TOML + zod schema, then a
 * normalised strict type with compiled regexes, then semantic checks (unique ids, a `value` group,
 * no catastrophic regex shapes). Any problem is a RuleFileError naming the file and, when known, the
 * line: a broken rule file is a defect of the build and must never silently weaken detection.
 */
import { packageFileExists, packageFileText, packagePath } from '../package-root.js';
import { existsSync } from 'node:fs';
import picomatch from 'picomatch';
import { z } from 'zod';
import { loadDataFile, UniqueIds, type DataFileContext } from '../data-file/load.js';
import { RuleFileError } from '../errors.js';

const ruleSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'ids are lowercase words joined by hyphens'),
    title: z.string().min(1),
    severity: z.enum(['critical', 'high']),
    confidence: z.number().min(0).max(1),
    keywords: z.array(z.string().min(2)).min(1),
    pattern: z.string().min(1).optional(),
    ignore_case: z.boolean().default(false),
    scope: z.enum(['line', 'block']).default('line'),
    begin: z.string().min(1).optional(),
    end: z.string().min(1).optional(),
    max_value: z.number().int().min(1).max(100_000).default(20_000),
    line_context: z.string().min(1).optional(),
    text_context: z.string().min(1).optional(),
    min_entropy: z.number().min(0).max(8).optional(),
    value_requires: z.array(z.string().min(1)).default([]),
    generic: z.boolean().default(false),
  })
  .strict();

const fileSchema = z
  .object({
    limits: z.object({ max_matches_per_file: z.number().int().min(1).max(100_000).default(200) }).strict().prefault({}),
    placeholders: z.object({ contains: z.array(z.string().min(1)), patterns: z.array(z.string().min(1)) }).strict(),
    generic: z
      .object({
        bare_reference_patterns: z.array(z.string().min(1)),
        word_like_patterns: z.array(z.string().min(1)),
        fixture_paths: z.array(z.string().min(1)).default([]),
        translation_paths: z.array(z.string().min(1)).default([]),
        code_paths: z.array(z.string().min(1)).default([]),
        throwaway_paths: z.array(z.string().min(1)).default([]),
        throwaway_values: z.array(z.string().min(1)).default([]),
        comment_line_pattern: z.string().min(1).optional(),
        comment_confidence: z.number().min(0).max(1).default(0.3),
        min_character_classes: z.number().int().min(1).max(4).default(1),
      })
      .strict(),
    rule: z.array(ruleSchema).min(1),
  })
  .strict();

/** One compiled secret rule. */
export interface SecretRule {
  /** Stable id, e.g. `aws-access-key-id`; used in markers and finding messages. */
  id: string;
  /** What the value is, for people. */
  title: string;
  severity: 'critical' | 'high';
  confidence: number;
  /** Lowercase literals; the prefilter requires one of them before the pattern runs. */
  keywords: string[];
  /** How values are found: a per-line pattern, or a block between two markers. */
  matcher: LineMatcher | BlockMatcher;
  lineContext: RegExp | null;
  textContext: RegExp | null;
  minEntropy: number | null;
  valueRequires: RegExp[];
  /** Assignment-shaped: refuse word-like values and bare references as well as placeholders. */
  generic: boolean;
}

/** A pattern run over each candidate line (the lines holding a keyword); the value is its `value` group. */
export interface LineMatcher {
  scope: 'line';
  /** Global, for scanning. */
  pattern: RegExp;
  /**
   * The same source, sticky with indices (`dy`): re-run at a match's position to read the value's
   * offsets. Scanning with `d` directly is 10-25x slower in V8, and matches are rare.
   */
  indexedPattern: RegExp;
}

/**
 * A multi-line value between a begin and an end marker (a PEM block). Both markers are found with
 * their own bounded regexes and paired in one forward pass, so no regex ever spans the value.
 */
export interface BlockMatcher {
  scope: 'block';
  begin: RegExp;
  end: RegExp;
  /** The farthest an end marker may be from its begin; past it the block counts as unterminated. */
  maxValue: number;
}

/** The whole rule set, compiled once and shared. */
export interface SecretRuleSet {
  /** In priority order: when two rules match the same value, the earlier one names it. */
  rules: SecretRule[];
  /** Matches kept per rule and per file; past it the file's scan says so (`capped`) instead of growing. */
  maxMatchesPerFile: number;
  /** Lowercase substrings that mark a value as a placeholder. */
  placeholderSubstrings: string[];
  placeholderPatterns: RegExp[];
  bareReferencePatterns: RegExp[];
  wordLikePatterns: RegExp[];
  /** Whether a path holds tests, documentation or examples, where generic matches are not findings. */
  isFixturePath: (path: string) => boolean;
  /** Whether a path is a translation catalogue, whose values are interface text (`"password": "Passwort"`). */
  isTranslationPath: (path: string) => boolean;
  /** Whether a path is program source, where only a quoted string literal is a generic secret's value. */
  isCodePath: (path: string) => boolean;
  /** Whether a path is a CI workflow or a test compose file, whose service containers use throwaway credentials. */
  isThrowawayPath: (path: string) => boolean;
  /** Lowercase well-known default passwords: in a throwaway path, a generic match with one of these is no finding. */
  throwawayValues: Set<string>;
  /** The text before a value on its line, when it matches this, makes the value an example in a comment. */
  commentLinePattern: RegExp | null;
  /** The confidence of a generic match in a code comment. */
  commentConfidence: number;
  /** Of lowercase, uppercase, digits and other characters, how many a generic value must mix to be a finding. */
  minCharacterClasses: number;
}

/** A matcher for repository-relative paths; no globs matches nothing. */
function pathMatcher(globs: string[]): (path: string) => boolean {
  if (globs.length === 0) return () => false;
  const matches = picomatch(globs, { dot: true });
  return (path) => matches(path);
}

/** Parse, validate and compile a secret rule file's text. `file` is only used in error messages. */
export function parseSecretRules(source: string, file: string): SecretRuleSet {
  return loadDataFile({ file, text: source, kind: 'rules', schema: fileSchema, normalise: normaliseSecretRules });
}

function normaliseSecretRules(data: z.output<typeof fileSchema>, context: DataFileContext): SecretRuleSet {
  const ids = new UniqueIds('rule id');
  const rules: SecretRule[] = data.rule.map((rule, index) => {
    ids.claim(rule.id, context, ['rule', index, 'id']);
    const flags = rule.ignore_case ? 'i' : '';
    const pattern = (key: 'pattern' | 'begin' | 'end' | 'line_context' | 'text_context', text: string, patternFlags: string): RegExp =>
      context.pattern(['rule', index, key], text, patternFlags);
    let matcher: LineMatcher | BlockMatcher;
    if (rule.scope === 'block') {
      if (rule.begin === undefined || rule.end === undefined || rule.pattern !== undefined) {
        throw context.problem(['rule', index], 'a block rule has begin and end, and no pattern');
      }
      matcher = { scope: 'block', begin: pattern('begin', rule.begin, `g${flags}`), end: pattern('end', rule.end, `g${flags}`), maxValue: rule.max_value };
    } else {
      if (rule.pattern === undefined || rule.begin !== undefined || rule.end !== undefined) {
        throw context.problem(['rule', index], 'a line rule has a pattern, and no begin or end');
      }
      if (!/\(\?<value(?:_bare)?>/.test(rule.pattern)) throw context.problem(['rule', index, 'pattern'], 'the pattern has no (?<value>...) group');
      matcher = { scope: 'line', pattern: pattern('pattern', rule.pattern, `g${flags}`), indexedPattern: new RegExp(rule.pattern, `dy${flags}`) };
    }
    return {
      id: rule.id,
      title: rule.title,
      severity: rule.severity,
      confidence: rule.confidence,
      keywords: rule.keywords.map((keyword) => keyword.toLowerCase()),
      matcher,
      lineContext: rule.line_context ? pattern('line_context', rule.line_context, 'i') : null,
      textContext: rule.text_context ? pattern('text_context', rule.text_context, 'i') : null,
      minEntropy: rule.min_entropy ?? null,
      valueRequires: rule.value_requires.map((requirement, at) => context.pattern(['rule', index, 'value_requires', at], requirement)),
      generic: rule.generic,
    };
  });
  const patterns = (path: readonly string[], sources: readonly string[], flags = ''): RegExp[] =>
    sources.map((text, at) => context.pattern([...path, at], text, flags));
  return {
    rules,
    maxMatchesPerFile: data.limits.max_matches_per_file,
    placeholderSubstrings: data.placeholders.contains.map((word) => word.toLowerCase()),
    placeholderPatterns: patterns(['placeholders', 'patterns'], data.placeholders.patterns, 'i'),
    bareReferencePatterns: patterns(['generic', 'bare_reference_patterns'], data.generic.bare_reference_patterns),
    wordLikePatterns: patterns(['generic', 'word_like_patterns'], data.generic.word_like_patterns),
    isFixturePath: pathMatcher(data.generic.fixture_paths),
    isTranslationPath: pathMatcher(data.generic.translation_paths),
    isCodePath: pathMatcher(data.generic.code_paths),
    isThrowawayPath: pathMatcher(data.generic.throwaway_paths),
    throwawayValues: new Set(data.generic.throwaway_values.map((value) => value.toLowerCase())),
    commentLinePattern: data.generic.comment_line_pattern ? context.pattern(['generic', 'comment_line_pattern'], data.generic.comment_line_pattern) : null,
    commentConfidence: data.generic.comment_confidence,
    minCharacterClasses: data.generic.min_character_classes,
  };
}

/**
 * ruleset/secrets.toml, found by walking up from this module: two levels from src/redact/ when run from
 * source, one level from dist/ when bundled.
 */
export function secretRulesPath(): string {
  const path = packagePath('ruleset', 'secrets.toml');
  if (!existsSync(path)) throw new RuleFileError('ruleset/secrets.toml', null, 'the built-in secret rules are missing from this installation');
  return path;
}

let builtIn: SecretRuleSet | null = null;

/** The built-in rule set, loaded and checked once per process. */
export function builtInSecretRules(): SecretRuleSet {
  if (!builtIn) {
    // Through package-root, not secretRulesPath(): inside the single executable the rules are embedded.
    if (!packageFileExists('ruleset', 'secrets.toml')) throw new RuleFileError('ruleset/secrets.toml', null, 'the built-in secret rules are missing from this installation');
    builtIn = parseSecretRules(packageFileText('ruleset', 'secrets.toml'), 'ruleset/secrets.toml');
  }
  return builtIn;
}
