import { NotBuiltError } from '../errors.js';
import type { CommandIO, ExitCode } from '../io.js';

/** `jscr rules list`: the built-in rules with id, severity and CWE. */
export async function rulesListCommand(_io: CommandIO): Promise<ExitCode> {
  throw new NotBuiltError('jscr rules list');
}
