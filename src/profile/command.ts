import { NotBuiltError } from '../errors.js';
import type { CommandIO, ExitCode } from '../io.js';

export interface ProfileOptions {
  fileText?: string;
}

/** `jscr profile`: the change profile of a PreToolUse payload on stdin, as JSON. */
export async function profileCommand(_options: ProfileOptions, _io: CommandIO): Promise<ExitCode> {
  throw new NotBuiltError('jscr profile');
}
