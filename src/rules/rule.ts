/** The normalised, checked rule the engine interprets (phase two and three of loading produce it). */
import type { Query } from 'web-tree-sitter';
import type { Severity } from '../report/finding.js';
import type { Language } from '../syntax/languages.js';
import type { RuleLanguage } from './schema.js';

/** A regex rule: tested against each scanned (added) line. */
export interface PatternMatcher {
  kind: 'pattern';
  pattern: RegExp;
  /** A match on a line that also matches this is cancelled. */
  notPattern: RegExp | null;
  /** A match is cancelled when any later line of the file matches this. */
  unlessLater: RegExp | null;
  /** A match counts only on a line matching this or indented under one that does (YAML blocks). */
  insideBlock: RegExp | null;
  /** A match whose `value` group matches one of these whole is cancelled (empty: no value test). */
  safeValues: readonly RegExp[];
  /** A check in code the matched line must also pass. */
  lineCheck: LineCheckName | null;
}

/** The checks in code a pattern rule may name (`line_check`). */
export type LineCheckName = 'bidi-reorders-code';

/** What makes a query rule's `@value` capture safe beyond being a literal. */
export interface SafeValueData {
  /** Callee texts of escapers and sanitisers (whole match). */
  producers: readonly RegExp[];
  /** Callee texts of calls that are as safe as their arguments: translations (whole match). */
  wrappers: readonly RegExp[];
  /** Import sources whose bindings are the application's own static data (whole match). */
  imports: readonly RegExp[];
}

/**
 * A tree-sitter rule: the query, compiled once per grammar. Compiled at load when validating rule files,
 * and on first use in a run (src/rules/load.ts `queryFor`), so a run pays only for its own languages.
 */
export interface QueryMatcher {
  kind: 'query';
  source: string;
  languages: readonly Language[];
  /** Queries compiled so far, by grammar. */
  compiled: Map<Language, Query>;
  /** Where the rule came from, for a compile error found on first use. */
  origin: { file: string; index: number; line: number | null };
  /** A match whose `@value` capture is a literal or built only from known-safe producers is cancelled. */
  safe: SafeValueData;
}

export interface Rule {
  /** `jscr/<name>`. */
  id: string;
  title: string;
  severity: Severity;
  /** 0..1, copied into every finding. */
  confidence: number;
  /** `CWE-78` style. */
  cwe: string;
  /** Languages and file kinds the rule applies to; `any` means every file. */
  languages: readonly RuleLanguage[];
  /** What is wrong and what to do instead. */
  message: string;
  matcher: PatternMatcher | QueryMatcher;
  /** The rule applies only to files whose text matches this somewhere. */
  requiresInFile: RegExp | null;
  /** Globs over the repository-relative path; empty means every path. */
  paths: readonly string[];
  /** Whether `path` is one the rule applies to (always true when `paths` is empty). */
  appliesToPath: (path: string) => boolean;
  /** What a fix for this rule may import (used by the fix command). */
  fix: { allowedImports: readonly string[] };
  /** Where the rule was defined, for error messages. */
  origin: { file: string; line: number | null };
}
