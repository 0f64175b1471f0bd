/**
 * The change profile (seed: "Change profile"): three booleans read from the change itself, used to
 * drop questions that do not apply and to let comment-only edits through. It only ever removes
 * questions, so anything uncertain yields the unknown profile.
 */
import { editsAreTrivial, type EditEntry } from './edit-window.js';
import { touchesData } from './data.js';
import { profileLanguageFor, type ProfileLanguage } from './languages.js';
import { enclosingOpenerMakesSurface, isAllSurfaceFile, MAX_OPENER_SCAN, snippetTouchesSurface, type ScanBudget } from './surface.js';
import { utf8Length } from './text.js';
import { pythonEncodingReadingOtherCode } from '../languages/source-encoding.js';

export type { EditEntry } from './edit-window.js';

/** What the profile says about one change to one file. */
export interface ChangeProfile {
  /** False when the profile could not read the change: every question is asked, never trivial. */
  known: boolean;
  /** The language the profile read the file as, or null when unknown. */
  language: ProfileLanguage | null;
  /** The change declares, exposes or sits inside a public name. */
  touchesPublicSurface: boolean;
  /** The change mentions data formats, storage, SQL, dates, encodings or file I/O. */
  touchesData: boolean;
  /** Every entry only changes ordinary comments or blanks between tokens, checked against the file. */
  trivial: boolean;
}

/** A change as the profile reads it: an Edit (one or more entries) or a Write of a whole file. */
export type ChangeInput =
  | {
      kind: 'edit';
      /** The target path (only its name and extension are read). */
      path: string;
      /** Entries in the order the tool applies them; all for this one file. */
      edits: readonly EditEntry[];
      /** The current text of the file (CRLF folded to LF), or null when it could not be read. */
      fileText: string | null;
    }
  | { kind: 'write'; path: string; content: string };

/** MultiEdit entries beyond this make the profile unknown. */
const MAX_EDITS = 64;
/** One side (UTF-8 bytes). */
const MAX_SIDE_BYTES = 64 * 1024;
/** All sides together (UTF-8 bytes). */
const MAX_TOTAL_BYTES = 256 * 1024;

/** The unknown profile: every question asked, never trivial. */
export const UNKNOWN_PROFILE: Readonly<ChangeProfile> = Object.freeze({
  known: false,
  language: null,
  touchesPublicSurface: true,
  touchesData: true,
  trivial: false,
});

function unknown(): ChangeProfile {
  return { ...UNKNOWN_PROFILE };
}

function sidesWithinBounds(sides: readonly unknown[]): sides is readonly string[] {
  let total = 0;
  for (const side of sides) {
    if (typeof side !== 'string') return false;
    const bytes = utf8Length(side);
    if (bytes > MAX_SIDE_BYTES) return false;
    total += bytes;
    if (total > MAX_TOTAL_BYTES) return false;
  }
  return true;
}

/** The whole lines an entry touches in `text`, before and after (for member-indentation rules). */
function wholeLines(text: string, offset: number, entry: EditEntry): string[] {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const end = offset + entry.oldString.length;
  const newline = text.indexOf('\n', end);
  const lineEnd = newline < 0 ? text.length : newline;
  const head = text.slice(lineStart, offset);
  const tail = text.slice(end, lineEnd);
  return [head + entry.oldString + tail, head + entry.newString + tail];
}

function snippetsTouchSurface(entry: EditEntry, language: ProfileLanguage): boolean {
  return snippetTouchesSurface(entry.oldString, language, true) || snippetTouchesSurface(entry.newString, language, true);
}

function editTouchesSurface(input: Extract<ChangeInput, { kind: 'edit' }>, language: ProfileLanguage): boolean {
  if (isAllSurfaceFile(input.path, language)) return true;
  if (input.fileText === null) return input.edits.some((entry) => snippetsTouchSurface(entry, language));
  // With the file: judge each entry by what it changes. An entry that only changes a comment cannot
  // change a public name, even on a line that declares one (`export const X = 1; // note`); every
  // other entry is read by its snippets, its whole lines (the snippet may start mid-line) and the
  // enclosing opener.
  const budget: ScanBudget = { left: MAX_OPENER_SCAN };
  let text = input.fileText;
  for (const entry of input.edits) {
    const offset = entry.oldString.length === 0 ? -1 : text.indexOf(entry.oldString);
    const commentOnly = offset >= 0 && editsAreTrivial(text, [entry], language, input.path);
    if (!commentOnly && snippetsTouchSurface(entry, language)) return true;
    if (offset < 0) continue;
    if (commentOnly) {
      text = text.slice(0, offset) + entry.newString + text.slice(offset + entry.oldString.length);
      continue;
    }
    const lines = wholeLines(text, offset, entry);
    for (const whole of lines) if (snippetTouchesSurface(whole, language, false)) return true;
    const editedLines = lines.flatMap((whole) => whole.split('\n'));
    if (enclosingOpenerMakesSurface(text, offset, editedLines, language, budget)) return true;
    if (budget.left < 0) return true;
    text = text.slice(0, offset) + entry.newString + text.slice(offset + entry.oldString.length);
  }
  return false;
}

function profileOrThrow(input: ChangeInput): ChangeProfile {
  if (typeof input.path !== 'string') return unknown();
  const language = profileLanguageFor(input.path);
  if (language === null) return unknown();
  if (input.kind === 'write') {
    if (!sidesWithinBounds([input.content])) return unknown();
    return { known: true, language, touchesPublicSurface: true, touchesData: touchesData([input.content], language), trivial: false };
  }
  const edits: readonly unknown[] = Array.isArray(input.edits) ? input.edits : [];
  if (edits.length === 0 || edits.length > MAX_EDITS) return unknown();
  const sides: unknown[] = [];
  for (const entry of edits) {
    if (typeof entry !== 'object' || entry === null) return unknown();
    const { oldString, newString } = entry as Partial<EditEntry>;
    sides.push(oldString, newString);
  }
  if (!sidesWithinBounds(sides)) return unknown();
  const fileText = typeof input.fileText === 'string' ? input.fileText : null;
  const checked = { ...input, fileText };
  return {
    known: true,
    language,
    touchesPublicSurface: editTouchesSurface(checked, language),
    touchesData: touchesData(sides, language),
    // In a Python file declaring utf-7 (or another encoding that reads other code), a comment to the
    // lexer can be code to Python: no edit there is trivial.
    trivial: fileText !== null && !(language === 'python' && pythonEncodingReadingOtherCode(fileText) !== null) && editsAreTrivial(fileText, input.edits, language, input.path),
  };
}

/**
 * The change profile of one change to one file. Pure: it reads only its input, never the disk.
 * Any exception or bound past its limit yields the unknown profile.
 */
export function profileChange(input: ChangeInput): ChangeProfile {
  try {
    return profileOrThrow(input);
  } catch {
    return unknown();
  }
}
