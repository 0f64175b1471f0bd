/**
 * The redaction step of the review (seed step 7): everything assembled for the model passes the
 * secret detector. With `redaction.block_on_secret` a secret stops the send; otherwise values are
 * replaced by markers. With no model configured the step still runs and says what it would have done.
 */
import { plural } from '../../report/summary.js';
import { learnJoinedSecrets, redact, RedactionCounter, SecretBook, type Replacement } from '../../redact/index.js';
import type { ContextBundle } from '../context-bundle.js';
import type { ModelSegment as MaterialSegment } from '../../model/index.js';
import { assembleMaterial, materialSources } from '../material-segments.js';
import type { Profiles } from './profile.js';
import type { ReadFiles } from './read-files.js';
import { incomplete, ran, result, type ReviewStep } from './step.js';

/** Input of the redaction step. */
export interface RedactionInput {
  /** The prompt material, segment by segment; a `hunk` is diff text whose lines start with a +/-/space mark. */
  material: { path: string; text: string; kind?: 'context' | 'hunk' }[];
  /**
   * The whole texts the material was cut from (new and base sides). Secrets are detected on these
   * before anything is cut, so a segment with only part of a value (two lines of a key) is masked too.
   */
  files?: { path: string; text: string }[];
  /** Paths whose joined string literals could not be read (the parse stopped): their material is withheld. */
  unreadJoins?: ReadonlySet<string>;
  /** `redaction.block_on_secret`. */
  blockOnSecret: boolean;
  /** Whether a model provider is configured (otherwise nothing would be sent anyway). */
  modelConfigured: boolean;
}

/** Per-file outcome. */
interface RedactionFileOutcome {
  path: string;
  /** Secret values detected in this file. */
  found: number;
  /** Markers written (a multi-line value gets one per line, so this can exceed `found`). */
  redacted: number;
  /** Secret rule ids that matched, sorted and unique. */
  rules: string[];
  replacements: Replacement[];
}

/** Output of the redaction step. */
export interface RedactionOutcome {
  files: RedactionFileOutcome[];
  /** Total secret values found across the material. */
  secretsFound: number;
  /** block_on_secret and at least one secret: nothing may be sent. */
  blocked: boolean;
  /** The redacted material; null when blocked, so blocked material cannot be sent by mistake. */
  material: { path: string; text: string }[] | null;
  /** True when some redaction joined lines (never, by construction; kept for the guard's check). */
  joinedLines: boolean;
  /** Set when the run is incomplete because of this step: a configured model could not be asked. */
  incompleteReason: string | null;
  /** Paths whose material was withheld (their scan reached the match cap); a model not shown them makes the review incomplete. */
  withheld: string[];
  /** One line for the report's step record. */
  detail: string;
}

/** A withheld line keeps its diff mark and hunk range, so line numbers stay; its text is gone. */
function withheldLine(line: string, hunk: boolean): string {
  if (hunk && line.startsWith('@@')) return /^@@[^@]*@@/.exec(line)?.[0] ?? '@@';
  return `${hunk ? line.slice(0, 1) : ''}[REDACTED:withheld]`;
}

/**
 * Run the secret detector over the whole files, then over each piece of prompt material with every
 * value found, and decide block, redact or pass. A file whose scan reached the per-file match cap
 * holds values that were not all looked for: its material is withheld, never sent half-masked.
 */
export function redactionStep(input: RedactionInput, book: SecretBook = new SecretBook()): RedactionOutcome {
  for (const file of input.files ?? []) book.scan(file.path, file.text);
  const counter = new RedactionCounter();
  const files: RedactionFileOutcome[] = [];
  const redactedMaterial: { path: string; text: string }[] = [];
  const withheld = new Set<string>();
  let secretsFound = 0;
  let joinedLines = false;
  for (const item of input.material) {
    const hunk = item.kind === 'hunk';
    const own = book.scan(item.path, item.text).matches;
    if (book.isCapped(item.path) || input.unreadJoins?.has(item.path) === true) {
      withheld.add(item.path);
      secretsFound += own.length;
      files.push({ path: item.path, found: own.length, redacted: 0, rules: [...new Set(own.map((m) => m.rule))].sort(), replacements: [] });
      redactedMaterial.push({ path: item.path, text: item.text.split('\n').map((line) => withheldLine(line, hunk)).join('\n') });
      continue;
    }
    const result = redact(item.text, counter, book, { lineMarks: hunk });
    const found = result.values;
    secretsFound += found;
    joinedLines ||= result.joinedLines;
    redactedMaterial.push({ path: item.path, text: result.text });
    if (found > 0) {
      files.push({
        path: item.path,
        found,
        redacted: result.replacements.length,
        rules: [...new Set(result.replacements.map((r) => r.rule))].sort(),
        replacements: result.replacements,
      });
    }
  }
  const blocked = input.blockOnSecret && secretsFound > 0;
  const what = `${plural(secretsFound, 'secret')} in ${plural(files.length, 'file')}`;
  const capped = [...withheld].filter((path) => book.isCapped(path)).sort();
  const unread = [...withheld].filter((path) => !book.isCapped(path)).sort();
  const withheldNote =
    (capped.length === 0 ? '' : `; withheld ${plural(capped.length, 'file')} with more secrets than the detector keeps (secrets.max_matches_per_file): ${capped.join(', ')}`) +
    (unread.length === 0 ? '' : `; withheld ${plural(unread.length, 'file')} whose joined strings were not read (the parse stopped at its time limit): ${unread.join(', ')}`);
  let detail: string;
  if (!input.modelConfigured) {
    detail =
      secretsFound === 0
        ? `no model configured; no secrets found in ${plural(input.material.length, 'file')} of prompt material`
        : `no model configured; would have ${blocked ? 'blocked' : 'redacted'} ${what}`;
  } else if (secretsFound === 0) {
    detail = `no secrets found in ${plural(input.material.length, 'file')} of prompt material`;
  } else if (blocked) {
    detail = `blocked the send: ${what} (redaction.block_on_secret is true)`;
  } else {
    detail = `redacted ${what} before the send`;
  }
  return {
    files,
    secretsFound,
    blocked,
    material: blocked ? null : redactedMaterial,
    joinedLines,
    incompleteReason: blocked && input.modelConfigured ? `a secret blocked the send to the model (${what})` : null,
    withheld: [...withheld].sort(),
    detail: detail + withheldNote,
  };
}

/** What the model step may send: the material, and what redaction made of it. */
export interface Redaction {
  outcome: RedactionOutcome;
  /** The unredacted segments, in the order of `outcome.material`. */
  segments: MaterialSegment[];
}

export const materialRedactionStep: ReviewStep<'redaction', { read_files: ReadFiles; context: ContextBundle; profile: Profiles }, Redaction | null> = {
  name: 'redaction',
  run: async ({ read_files, context, profile }, { change, book, modelConfigured }) => {
    // Trivial changes stay home: the rules scanned them, a model has nothing to add.
    const segments = assembleMaterial(context, read_files.diffFiles.filter((d) => read_files.readableByPath.has(d.path)), profile.trivialPaths);
    const files = await materialSources(read_files.readable, context, modelConfigured ? change.baseReader : null);
    // Secrets written as joined literals are found by the syntax tree (asynchronous), before the cut.
    const unreadJoins = new Set<string>();
    for (const file of files) if (!(await learnJoinedSecrets(book, file.path, file.text)).complete) unreadJoins.add(file.path);
    const outcome = redactionStep(
      {
        material: segments.map((m) => ({ path: m.path, text: m.text, kind: m.kind })),
        files,
        unreadJoins,
        blockOnSecret: change.config.redaction.block_on_secret,
        modelConfigured,
      },
      book,
    );
    // A model not shown every file's material did not review them all.
    const verdict = modelConfigured && outcome.withheld.length > 0 ? incomplete('ran', outcome.detail) : ran(outcome.detail);
    return result(verdict, { outcome, segments });
  },
  notRun: () => null,
};
