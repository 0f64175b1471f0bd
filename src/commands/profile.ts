import { isAbsolute, resolve } from 'node:path';
import { InputError } from '../errors.js';
import { readAll, type CommandIO, type ExitCode } from '../io.js';
import { readTargetFile, readTargetText } from '../profile/filetext.js';
import { changeInputFor, editToolOf, isRecord } from '../profile/payload.js';
import { profileChange, UNKNOWN_PROFILE } from '../profile/profile.js';
import { questionIdsFor } from '../profile/questions.js';

export interface ProfileOptions {
  /** A file holding the target's current text; otherwise the target itself is read. */
  fileText?: string;
}

const MAX_PAYLOAD_BYTES = 1024 * 1024;

/** `jscr profile`: the change profile of a PreToolUse payload on stdin, as JSON. */
export async function profileCommand(options: ProfileOptions, io: CommandIO): Promise<ExitCode> {
  const raw = await readAll(io.stdin, MAX_PAYLOAD_BYTES);
  if (raw === 'too_large') throw new InputError('the payload on stdin is larger than 1 MiB');
  let payload: unknown;
  try {
    payload = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new InputError('the payload on stdin is not valid JSON');
  }
  if (!isRecord(payload) || !isRecord(payload.tool_input)) throw new InputError('the payload has no tool_input object');
  const tool = editToolOf(payload.tool_name);
  if (tool === null) throw new InputError('tool_name is not Edit, MultiEdit, Write or NotebookEdit');
  const toolInput = payload.tool_input;
  const pathField = tool === 'NotebookEdit' ? toolInput.notebook_path : toolInput.file_path;
  if (typeof pathField !== 'string' || pathField.length === 0) throw new InputError('the payload names no target file');
  const base = typeof payload.cwd === 'string' && isAbsolute(payload.cwd) ? payload.cwd : io.cwd;
  const target = resolve(base, pathField);

  let fileText: string | null = null;
  if (options.fileText !== undefined) {
    const read = readTargetFile(resolve(io.cwd, options.fileText));
    if (!read.ok) throw new InputError(`--file-text ${options.fileText} ${read.problem}`);
    fileText = read.text;
  } else if (tool === 'Edit' || tool === 'MultiEdit') {
    fileText = readTargetText(target);
  }
  // Every entry that names no other file belongs to the target (the profile treats it as code).
  const belongs = (entryPath: string | null): boolean => entryPath === null || resolve(base, entryPath) === target;
  const input = changeInputFor(tool, toolInput, pathField, belongs, fileText);
  const profile = input === null ? { ...UNKNOWN_PROFILE } : profileChange(input);
  const questions = questionIdsFor('code', tool === 'Write', profile);
  io.stdout.write(`${JSON.stringify({ ...profile, questions })}\n`);
  return 0;
}
