/**
 * The prover over a revision's files: which files it reads (source languages with facts, and the
 * security configuration files), read through the shared source reader, then `proveChange`. Used by
 * `jscr prove` and by the review's prover step, so both judge the same files the same way.
 */
import type { SourceReader } from '../git/sources.js';
import { fileTypeOf } from '../languages/registry.js';
import { languageForPath } from '../syntax/languages.js';
import { isLeftOut, isProverConfig, proveChange } from './prove.js';
import { leavesIncomplete, type Degradation } from './degradation.js';
import type { ProveResult } from './types.js';
import type { FileIR } from '../syntax/ir.js';
import type { ProverDeclarations } from './declarations.js';

export interface ProveFromReaderInput {
  root: string;
  reader: SourceReader;
  /** Touched lines per changed file, or null for the whole repository. */
  touched: { path: string; lines: Set<number> }[] | null;
  maxDepth: number;
  fanOut: number;
  /** IRs already built for some files (the review's changed files). */
  irs?: ReadonlyMap<string, FileIR>;
  /** The review's deadline, checked between files. */
  deadline?: { remainingMs(): number };
  /** `[prover] guards` and `public` of the base configuration. */
  declarations?: ProverDeclarations;
}

export interface ProveFromReaderOutcome {
  result: ProveResult;
  /** Files the prover read. */
  fileCount: number;
  /** True when a file could not be read or the prover failed on one: the run is incomplete. */
  incomplete: boolean;
}

export async function proveFromReader(input: ProveFromReaderInput): Promise<ProveFromReaderOutcome> {
  // A change is proved against the files of its own fact languages only: a change to Python code
  // cannot be reached from a Java entry point, and reading the rest of a large repository costs seconds.
  const wanted = input.touched === null ? null : new Set(input.touched.map((t) => factsLanguageOf(t.path)).filter((l): l is string => l !== undefined));
  if (wanted !== null && wanted.size === 0) {
    return { result: { findings: [], coverage: emptyCoverage(), degradations: [] }, fileCount: 0, incomplete: false };
  }
  const candidates = (await input.reader.listFiles()).filter(
    (p) => !isLeftOut(p) && (isProverConfig(p) || (languageForPath(p) !== null && (wanted === null || wanted.has(factsLanguageOf(p) ?? '')))),
  );
  const reads = await input.reader.readMany(candidates);
  const files: { path: string; text: string }[] = [];
  const readProblems: Degradation[] = [];
  for (const path of candidates) {
    const read = reads.get(path);
    if (read === undefined) continue;
    if (read.ok) files.push({ path, text: read.text });
    else if (read.reason === 'unreadable') readProblems.push({ kind: 'unreadable', path, detail: read.detail });
    else readProblems.push({ kind: 'not_read', path, reason: read.reason, detail: read.detail });
  }
  const result = await proveChange({ root: input.root, files, touched: input.touched, maxDepth: input.maxDepth, fanOut: input.fanOut, ...(input.irs ? { irs: input.irs } : {}), ...(input.deadline ? { deadline: input.deadline } : {}), ...(input.declarations ? { declarations: input.declarations } : {}) });
  result.degradations.unshift(...readProblems);
  return { result, fileCount: files.length, incomplete: result.degradations.some(leavesIncomplete) };
}

function factsLanguageOf(path: string): string | undefined {
  return fileTypeOf(path)?.facts ?? undefined;
}

function emptyCoverage(): ProveResult['coverage'] {
  return { filesByLanguage: {}, frameworksRecognised: {}, entryPoints: 0, reached: 0, unreached: 0, operationsChecked: 0, operationsDischarged: 0, uncheckedByReason: {} };
}
