/** Question ids per target class and change profile (seed: "Questions from the change profile"). */
import type { ChangeProfile } from './profile.js';

/** Every question the gate may ask, by stable id. */
export type QuestionId =
  | 'importers'
  | 'public-api'
  | 'local-callers'
  | 'callers'
  | 'no-duplicate'
  | 'data-schema'
  | 'external-contract'
  | 'loader'
  | 'behaviour-change'
  | 'no-duplicate-instruction'
  | 'under-test'
  | 'existing-tests'
  | 'supersedes'
  | 'linked-from'
  | 'why-new-file'
  | 'references'
  | 'corrects-or-adds'
  | 'config-reader'
  | 'config-effect'
  | 'no-plaintext-secrets'
  | 'quote-instruction';

/** How the gate classes a target. */
export type TargetClass = 'instruction' | 'test' | 'prose' | 'config' | 'code';

const SEARCH_HINT = '(look it up in the tree: Glob or Grep, or grep/find through the shell)';

/** The full text of each question, in our words. */
export const QUESTION_TEXT: Readonly<Record<QuestionId, string>> = {
  importers: `Name every file that imports or requires this one ${SEARCH_HINT}`,
  'public-api': 'Name the public functions, classes or types this change alters',
  'local-callers': `Name the call sites in this file or its module that depend on the behaviour being changed ${SEARCH_HINT}`,
  callers: 'Name the file(s) and line(s) that will call this new file',
  'no-duplicate': `Show that no existing file already does what this one will ${SEARCH_HINT}`,
  'data-schema':
    'If this code reads or writes data, give the field names, the structure and the date/time format (with made-up or redacted values, never real production data)',
  'external-contract':
    'Say what outside this repository fixes the format, units, timezone or protocol meaning here (a consumer, a producer or a written convention), or say that nothing constrains it',
  loader: 'Name the harness or loader that reads this file (Claude Code, Codex, Cursor, OpenCode, ...) and when it reads it',
  'behaviour-change': 'Describe how the agent will behave differently after this change',
  'no-duplicate-instruction': `Show that no existing instruction, skill or agent file already covers this ${SEARCH_HINT}`,
  'under-test': 'Name the behaviour under test and the module or function it exercises',
  'existing-tests': `Name the test files that already cover this module, or show that there are none ${SEARCH_HINT}`,
  supersedes: `Name any existing document this one replaces or repeats ${SEARCH_HINT}`,
  'linked-from': 'Say where this document will be linked or referenced from',
  'why-new-file': 'Explain why this needs a new file instead of an edit to an existing one',
  references: `Name the other documents or code that refer to the part being changed ${SEARCH_HINT}`,
  'corrects-or-adds': 'Say what this change corrects or adds',
  'config-reader': 'Name the process or tool that reads this file, and when',
  'config-effect': 'Describe what the change will do once it is read',
  'no-plaintext-secrets': 'Confirm that no secret or credential is being written in plain text',
  'quote-instruction': "Quote the user's current instruction word for word",
};

/** A short phrase per id for the condensed one-line denial. */
export const CONDENSED_PHRASE: Readonly<Record<QuestionId, string>> = {
  importers: 'the files importing this one',
  'public-api': 'the public functions or classes affected',
  'local-callers': 'the call sites in this file or module that rely on the change',
  callers: 'where the new file will be called from',
  'no-duplicate': 'that no existing file does the same job',
  'data-schema': 'the data shapes it reads or writes',
  'external-contract': 'what outside the repository fixes the format or meaning',
  loader: 'which harness loads this file',
  'behaviour-change': 'how agent behaviour changes',
  'no-duplicate-instruction': 'that no instruction file already covers it',
  'under-test': 'the behaviour and module under test',
  'existing-tests': 'the existing tests for it (or none)',
  supersedes: 'what this replaces',
  'linked-from': 'where it is linked from',
  'why-new-file': 'why a new file',
  references: 'what refers to the changed part',
  'corrects-or-adds': 'what the change corrects or adds',
  'config-reader': 'which process reads this file',
  'config-effect': 'the effect of the change',
  'no-plaintext-secrets': 'that no secret is written in plain text',
  'quote-instruction': "the user's instruction, word for word",
};

/** Options of question selection. */
export interface QuestionOptions {
  /** Ask external-contract after data-schema (opt-in, JSCR_GATE_EXTERNAL_CONTRACT_QUESTION). */
  externalContract?: boolean;
}

/**
 * The question ids for a target, in the order asked; always ending with quote-instruction.
 * `profile` null (sensitive, hard-linked, NotebookEdit, not computed) asks the full code set.
 */
export function questionIdsFor(
  targetClass: TargetClass,
  isWrite: boolean,
  profile: Pick<ChangeProfile, 'known' | 'touchesPublicSurface' | 'touchesData'> | null,
  options: QuestionOptions = {},
): QuestionId[] {
  const ids: QuestionId[] = [];
  switch (targetClass) {
    case 'instruction':
      ids.push('loader', 'behaviour-change', 'no-duplicate-instruction');
      break;
    case 'test':
      ids.push('under-test', 'existing-tests');
      break;
    case 'prose':
      if (isWrite) ids.push('supersedes', 'linked-from', 'why-new-file');
      else ids.push('references', 'corrects-or-adds');
      break;
    case 'config':
      ids.push('config-reader', 'config-effect', 'no-plaintext-secrets');
      break;
    case 'code': {
      const known = profile !== null && profile.known;
      const surface = !known || profile.touchesPublicSurface;
      const data = !known || profile.touchesData;
      if (isWrite) ids.push('callers', 'no-duplicate');
      else if (surface) ids.push('importers', 'public-api');
      else ids.push('local-callers');
      if (data) {
        ids.push('data-schema');
        if (options.externalContract === true) ids.push('external-contract');
      }
      break;
    }
  }
  ids.push('quote-instruction');
  return ids;
}
