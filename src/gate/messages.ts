/** What the gate says: denial reasons and pass notes, in our own words (gate-reference §1, §3). */
import { CONDENSED_PHRASE, QUESTION_TEXT, type QuestionId } from '../profile/questions.js';
import type { NearMiss, NearMissCode } from './transcript.js';

const MAX_MESSAGE_PATH = 500;

/** Characters that can hide or reorder text in a terminal or a model's context. */
function isHiddenOrControl(code: number): boolean {
  return (
    code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0xad || code === 0x115f || code === 0x1160 ||
    code === 0x3164 || code === 0xffa0 || (code >= 0x200b && code <= 0x200f) || (code >= 0x2028 && code <= 0x202e) ||
    (code >= 0x2060 && code <= 0x2064) || (code >= 0x2066 && code <= 0x2069) || code === 0xfeff ||
    (code >= 0xfe00 && code <= 0xfe0f) || (code >= 0xe0000 && code <= 0xe007f) || (code >= 0xe0100 && code <= 0xe01ef)
  );
}

/** A path fit for a message: hidden and control characters become spaces, trimmed, at most 500 characters. */
export function sanitisePath(path: string): string {
  let out = '';
  for (const ch of path) out += isHiddenOrControl(ch.codePointAt(0) ?? 0) ? ' ' : ch;
  out = out.trim();
  return out.length > MAX_MESSAGE_PATH ? out.slice(0, MAX_MESSAGE_PATH) : out;
}

const TAG = '[jscr gate]';

/** A target the reduced checks do not apply to. */
export type TargetNote = 'sensitive' | 'hard-linked' | null;

function targetNoteText(note: TargetNote): string | null {
  if (note === 'sensitive') return 'Sensitive target: prior-search credit, sibling collapse and the denial cap do not apply to it.';
  if (note === 'hard-linked') return 'Hard-linked target: prior-search credit, sibling collapse and the denial cap do not apply to it.';
  return null;
}

function batchWarning(path: string): string {
  return `If this call was one of a parallel batch, other edits to ${path} from that batch may already be applied; read the file again before building on them.`;
}

/** The full denial: numbered questions, ending with the request to quote the instruction. */
const NEAR_MISS_WHY: Readonly<Record<NearMissCode, string>> = {
  'same-batch': 'it went out in the same message as this edit, so its result could not have been read first',
  excluded: 'it excluded or inverted matches, so it may have skipped this file',
  'out-of-scope': 'it looked in a place that does not hold this file',
  'stdin-only': 'it filtered the output of another command instead of searching the tree',
  'not-a-search': 'it read or ran something rather than searching the tree for the file',
  'generic-stem': "this file's name is too short or too common for a search to single it out",
};

/** The line explaining why the closest search of the turn did not count. */
function nearMissLine(miss: NearMiss): string {
  return `The nearest search in this turn did not count (${miss.tool} ${sanitisePath(miss.detail).slice(0, 60)}): ${NEAR_MISS_WHY[miss.why]}.`;
}

export function fullDenial(path: string, isCreate: boolean, questions: readonly QuestionId[], note: TargetNote, nearMiss: NearMiss | null = null): string {
  const lines = [TAG, '', `Before you ${isCreate ? 'create' : 'edit'} ${path}, answer these first:`, ''];
  questions.forEach((id, index) => lines.push(`${index + 1}. ${QUESTION_TEXT[id]}`));
  lines.push('', batchWarning(path));
  if (nearMiss !== null) lines.push(nearMissLine(nearMiss));
  const noteText = targetNoteText(note);
  if (noteText !== null) lines.push(noteText);
  lines.push(
    '',
    'Give the answers, then send the same operation again.',
    '',
    'Paths that need no check can be exempted with globs in JSCR_GATE_EXEMPT_GLOBS. If the gate is in the way of setup or repair work, run the session with JSCR_GATE=off.',
  );
  return lines.join('\n');
}

function joinPhrases(phrases: readonly string[]): string {
  if (phrases.length <= 1) return phrases.join('');
  return `${phrases.slice(0, -1).join(', ')} and ${phrases[phrases.length - 1] as string}`;
}

/** The one-line denial used after the full-denial budget. */
export function condensedDenial(
  path: string,
  isCreate: boolean,
  ordinal: number,
  questions: readonly QuestionId[],
  note: TargetNote,
  nearMiss: NearMiss | null = null,
): string {
  const hint = `briefly give ${joinPhrases(questions.map((id) => CONDENSED_PHRASE[id]))}, then retry.`;
  const parts = [`${TAG} (denial #${ordinal} this session) First ${isCreate ? 'creation' : 'edit'} of ${path}: ${hint}`, batchWarning(path)];
  if (nearMiss !== null) parts.push(nearMissLine(nearMiss));
  const noteText = targetNoteText(note);
  if (noteText !== null) parts.push(noteText);
  parts.push('(JSCR_GATE_EXEMPT_GLOBS exempts paths; JSCR_GATE_MAX_DENIALS caps denials per session; JSCR_GATE=off turns the gate off.)');
  return parts.join(' ');
}

export function creditNote(path: string, tool: string, detail: string, callsAgo: number): string {
  const shortDetail = sanitisePath(detail).slice(0, 80);
  return `${TAG} A search earlier in this turn (${tool} ${shortDetail}, ${callsAgo} tool call(s) ago) already covers ${path}; its first-touch check is satisfied.`;
}

export function trivialNote(path: string): string {
  return `${TAG} Only comments or blanks change in ${path}, so no first-touch check is needed. The next change to this file that alters code is still checked.`;
}

export function siblingNote(first: string, ordinal: number): string {
  // `first` comes back from the state file, which is read as untrusted input: clean it again
  return `${TAG} Another new file beside ${sanitisePath(first)} (checked at denial #${ordinal} this session); going ahead without asking again.`;
}

export const STATE_WARNING =
  'jscr gate: the gate state could not be saved, so this edit passes unchecked rather than looping on retries; check JSCR_GATE_STATE_DIR and its permissions.';

export const LOCK_WARNING =
  'jscr gate: the gate state stayed locked by other gate calls for too long, so this edit passes unchecked rather than waiting longer; a lock left by a killed call clears itself.';

/** The reverse maps a test (or a reader of metrics) uses to recover ids from text. */
export function questionIdsInDenial(reason: string): QuestionId[] {
  const ids: QuestionId[] = [];
  const byText = new Map(Object.entries(QUESTION_TEXT).map(([id, text]) => [text, id as QuestionId]));
  for (const line of reason.split('\n')) {
    const dot = line.indexOf('. ');
    if (dot < 1 || dot > 3) continue;
    const id = byText.get(line.slice(dot + 2));
    if (id !== undefined) ids.push(id);
  }
  if (ids.length > 0) return ids;
  // condensed: phrases in order of appearance
  const found: { at: number; id: QuestionId }[] = [];
  for (const [id, phrase] of Object.entries(CONDENSED_PHRASE)) {
    const at = reason.indexOf(phrase);
    if (at >= 0) found.push({ at, id: id as QuestionId });
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.id);
}

