import { NotBuiltError } from '../errors.js';
import type { CommandIO, ExitCode } from '../io.js';

export interface GuardOptions {
  repo: string;
  consultation: string;
  proposal: string;
}

/** `jscr guard`: check one proposal against one consultation and print the Checked (SPEC 6). */
export async function guardCommand(_options: GuardOptions, _io: CommandIO): Promise<ExitCode> {
  throw new NotBuiltError('jscr guard');
}
