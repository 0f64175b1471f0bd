import { NotBuiltError } from '../errors.js';
import type { CommandIO, ExitCode } from '../io.js';

export interface ReviewOptions {
  range?: string;
  staged?: boolean;
  commit?: string;
  repo?: string;
  config?: string;
  format: 'text' | 'json' | 'sarif' | 'markdown' | 'github';
  output?: string;
  failOn?: 'critical' | 'high' | 'medium' | 'low';
  model: boolean;
  quiet?: boolean;
}

/** `jscr review`: run the pipeline, render the report, return the exit code. */
export async function reviewCommand(_options: ReviewOptions, _io: CommandIO): Promise<ExitCode> {
  throw new NotBuiltError('jscr review');
}
