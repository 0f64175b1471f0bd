import { NotBuiltError } from '../errors.js';
import type { CommandIO, ExitCode } from '../io.js';

/** `jscr gate`: the PreToolUse edit gate. Reads the hook payload on stdin. */
export async function gateCommand(_io: CommandIO): Promise<ExitCode> {
  throw new NotBuiltError('jscr gate');
}
