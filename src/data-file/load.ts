/**
 * The one loader of data files, in three phases (STYLE 7): the TOML text is parsed and checked against
 * a zod schema, `normalise` turns the data into its strict type (compiling patterns through the
 * context), then `checks` run in order on the result. Every refusal is one DataFileError in one format
 * (file, line, dotted key, expectation), located by one scan of the text (locate.ts).
 */
import type { z } from 'zod';
import { ConfigError, RuleFileError, oneLine, type DataFileError, type DataFileProblem } from '../errors.js';
import { describeIssue } from './issue.js';
import { dottedPath, type KeyPath } from './key-path.js';
import { keyLocator } from './locate.js';
import { compilePattern } from './pattern.js';
import { parseToml } from './toml.js';

/**
 * `config`: `.jscr.toml`, refused with a ConfigError named by its dotted key alone (SPEC 3; the text
 * users see is pinned by tests/foundation/config.test.ts). `rules`: a file under rules/ or ruleset/,
 * refused with a RuleFileError that gives the key's line as well.
 */
export type DataFileKind = 'config' | 'rules';

/** What phases two and three use to refuse the file at a key, or to compile a pattern there. */
export interface DataFileContext {
  /** The file as named in errors. */
  readonly file: string;
  /** The 1-based line of `path` (or its nearest written parent), or null. */
  lineOf(path: KeyPath): number | null;
  /** The error refusing the file at `path`, for the caller to throw. */
  problem(path: KeyPath | null, expected: string): DataFileError;
  /** A pattern compiled with `flags`, or the file refused at `path` (does not compile, or may backtrack catastrophically). */
  pattern(path: KeyPath, source: string, flags?: string): RegExp;
}

export interface DataFileSpec<Schema extends z.ZodType, Value> {
  file: string;
  text: string;
  kind: DataFileKind;
  schema: Schema;
  /** Phase two: the schema's output to the strict type. */
  normalise: (data: z.output<Schema>, context: DataFileContext) => Value;
  /** Phase three: semantic checks, in order; each throws `context.problem(...)` to refuse. */
  checks?: readonly ((value: Value, context: DataFileContext) => void)[];
}

/** The context of one file's text, for loaders that check more after loading (a query, a file name). */
export function dataFileContext(file: string, text: string, kind: DataFileKind): DataFileContext {
  const lineOf = keyLocator(text);
  const problem = (path: KeyPath | null, expected: string): DataFileError => {
    const keyPath = path === null || path.length === 0 ? null : dottedPath(path);
    const line = kind === 'rules' && path !== null ? lineOf(path) : null;
    return dataFileError(kind, file, { line, column: null, keyPath, expected });
  };
  return {
    file,
    lineOf,
    problem,
    pattern(path, source, flags = '') {
      const compiled = compilePattern(source, flags);
      if (!compiled.ok) throw problem(path, compiled.problem);
      return compiled.regex;
    },
  };
}

export function loadDataFile<Schema extends z.ZodType, Value>(spec: DataFileSpec<Schema, Value>): Value {
  const context = dataFileContext(spec.file, spec.text, spec.kind);
  const parsed = parseToml(spec.text);
  if (!parsed.ok) {
    throw dataFileError(spec.kind, spec.file, { line: parsed.line, column: parsed.column, keyPath: null, expected: `invalid TOML: ${parsed.reason}` });
  }
  const result = spec.schema.safeParse(parsed.data);
  if (!result.success) {
    const [first, ...rest] = result.error.issues;
    if (first === undefined) throw context.problem(null, 'does not match its schema');
    const { path, expected } = describeIssue(first, parsed.data, spec.schema);
    const more = rest.length > 0 ? ` (and ${rest.length} more problem${rest.length === 1 ? '' : 's'})` : '';
    throw context.problem(path, oneLine(expected) + more);
  }
  const value = spec.normalise(result.data, context);
  for (const check of spec.checks ?? []) check(value, context);
  return value;
}

/**
 * Ids that must be unique, across one file or several: the second use of an id refuses its file and
 * names where the first one is.
 */
export class UniqueIds {
  private readonly seen = new Map<string, { context: DataFileContext; path: KeyPath }>();
  /** `what` names the ids in messages (`rule id`, `id`). */
  constructor(private readonly what: string) {}

  claim(id: string, context: DataFileContext, path: KeyPath): void {
    const first = this.seen.get(id);
    if (first === undefined) {
      this.seen.set(id, { context, path });
      return;
    }
    const line = first.context.lineOf(first.path);
    const place = line === null ? first.context.file : `${first.context.file}:${line}`;
    throw context.problem(path, `duplicate ${this.what} ${id} (first defined at ${place})`);
  }
}

function dataFileError(kind: DataFileKind, file: string, problem: DataFileProblem): DataFileError {
  if (kind === 'config') return new ConfigError(file, problem.keyPath, problem.expected, problem.line === null ? null : { line: problem.line, column: problem.column });
  return new RuleFileError(file, problem.line, problem.expected, problem.keyPath, problem.column);
}
