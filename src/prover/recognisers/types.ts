/**
 * The recogniser interface: one plain object per framework (STYLE 4), listed in `./index.ts`.
 * A recogniser reads one file (with the whole program at hand, for route files that name controllers
 * elsewhere) and returns the entry points it is sure of, each with the cue it saw as evidence.
 */
import type { Facts, FactsLanguage } from '../facts.js';
import type { Program } from '../resolution.js';
import type { EntryPoint, ProgramFile } from '../types.js';
import type { RegistrationFiles } from '../scope.js';

/** What a recogniser may read besides the file. */
interface RecogniserContext {
  program: Program;
  facts: Facts;
  /** Configuration files the prover reads (Symfony's routes and security files, web.xml), by path. */
  configTexts?: ReadonlyMap<string, string>;
}

/** Entries found, and what the recogniser saw but could not resolve (reason → count). */
export interface Recognised {
  entries: EntryPoint[];
  unresolved: Record<string, number>;
}

export interface Recogniser {
  /** The framework id findings and coverage carry (`stapler`, `laravel`...). */
  id: string;
  languages: readonly FactsLanguage[];
  /**
   * Files that make entries of functions declared elsewhere (route files, kernels): a change's scoped
   * proof always reads them. Omitted when every entry is recognised from its own file and its lineage.
   */
  registrationFiles?: RegistrationFiles;
  recognise(file: ProgramFile, ctx: RecogniserContext): Recognised;
}

/** An empty result, to start from. */
export function nothing(): Recognised {
  return { entries: [], unresolved: {} };
}
