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
