import { NotBuiltError } from '../errors.js';
import type { CommandIO, ExitCode } from '../io.js';

export interface ProveOptions {
  repo?: string;
  base?: string;
  head?: string;
  format: 'text' | 'json' | 'sarif';
  maxDepth?: number;
}

/** `jscr prove`: the access-control prover over a change or the whole repository. */
export async function proveCommand(_options: ProveOptions, _io: CommandIO): Promise<ExitCode> {
  throw new NotBuiltError('jscr prove');
}
