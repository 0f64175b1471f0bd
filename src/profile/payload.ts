/** Reading a PreToolUse payload's tool call into a ChangeInput (SPEC 7). Untrusted input throughout. */
import type { ChangeInput, EditEntry } from './profile.js';

/** The tools the gate and the profile understand, by their canonical names. */
export type EditTool = 'Edit' | 'MultiEdit' | 'Write' | 'NotebookEdit';

const TOOL_NAMES: ReadonlyMap<string, EditTool> = new Map([
  ['edit', 'Edit'],
  ['multiedit', 'MultiEdit'],
  ['write', 'Write'],
  ['notebookedit', 'NotebookEdit'],
]);

/** The canonical tool name (case-insensitive), or null for any other tool. */
export function editToolOf(toolName: unknown): EditTool | null {
  return typeof toolName === 'string' ? (TOOL_NAMES.get(toolName.toLowerCase()) ?? null) : null;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One entry of a MultiEdit (or the single Edit), with the path it names when it names one. */
export interface RawEntry {
  filePath: string | null;
  entry: EditEntry;
  /** False when a side is not a string: the profile of its file is unknown. */
  wellFormed: boolean;
}

/** The entries of an Edit or MultiEdit call, in order. Non-object entries are skipped. */
export function entriesOf(tool: EditTool, toolInput: Record<string, unknown>): RawEntry[] {
  const callPath = typeof toolInput.file_path === 'string' ? toolInput.file_path : null;
  const read = (raw: Record<string, unknown>, filePath: string | null): RawEntry => {
    const oldString = raw.old_string;
    const newString = raw.new_string;
    const wellFormed = typeof oldString === 'string' && typeof newString === 'string';
    return {
      filePath,
      wellFormed,
      entry: {
        oldString: typeof oldString === 'string' ? oldString : '',
        newString: typeof newString === 'string' ? newString : '',
        replaceAll: raw.replace_all === true,
      },
    };
  };
  if (tool === 'Edit') return [read(toolInput, callPath)];
  if (tool !== 'MultiEdit') return [];
  const edits = Array.isArray(toolInput.edits) ? toolInput.edits : [];
  const entries: RawEntry[] = [];
  for (const raw of edits) {
    if (!isRecord(raw)) continue;
    entries.push(read(raw, typeof raw.file_path === 'string' && raw.file_path.length > 0 ? raw.file_path : callPath));
  }
  return entries;
}

/**
 * The ChangeInput for one target of a call, or null when the profile cannot read it (a malformed
 * side, no entries). `belongs` says whether an entry's path is this target.
 */
export function changeInputFor(
  tool: EditTool,
  toolInput: Record<string, unknown>,
  path: string,
  belongs: (entryPath: string | null) => boolean,
  fileText: string | null,
): ChangeInput | null {
  if (tool === 'Write') {
    return typeof toolInput.content === 'string' ? { kind: 'write', path, content: toolInput.content } : null;
  }
  if (tool === 'NotebookEdit') return null;
  const mine = entriesOf(tool, toolInput).filter((raw) => belongs(raw.filePath));
  if (mine.length === 0 || mine.some((raw) => !raw.wellFormed)) return null;
  return { kind: 'edit', path, edits: mine.map((raw) => raw.entry), fileText };
}
