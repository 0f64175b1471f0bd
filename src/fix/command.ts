import { NotBuiltError } from '../errors.js';
import type { CommandIO, ExitCode } from '../io.js';

export interface FixOptions {
  range?: string;
  staged?: boolean;
  commit?: string;
  repo?: string;
  config?: string;
  finding: string[];
  acceptModel?: boolean;
  verify?: string;
  out?: string;
}

/** `jscr fix`: model proposals for findings, checked by the guard, written only when accepted. */
export async function fixCommand(_options: FixOptions, _io: CommandIO): Promise<ExitCode> {
  throw new NotBuiltError('jscr fix');
}
