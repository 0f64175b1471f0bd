import { readAll, type CommandIO, type ExitCode } from '../io.js';
import { MAX_INPUT_BYTES, runGate } from './gate.js';

/** `jscr gate`: the PreToolUse edit gate. Reads the hook payload on stdin. */
export async function gateCommand(io: CommandIO): Promise<ExitCode> {
  const input = await readAll(io.stdin, MAX_INPUT_BYTES);
  let outcome;
  try {
    outcome = runGate(input, { env: io.env, processCwd: io.cwd, now: Date.now() });
  } catch (error) {
    // A bug in the gate must not lock the agent out: fail open, say so once.
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`jscr gate: internal error, passing this call unchecked: ${message.split('\n')[0] ?? ''}\n`);
    if (input !== 'too_large') io.stdout.write(input);
    return 0;
  }
  for (const line of outcome.stderr) io.stderr.write(`${line}\n`);
  if (outcome.stdout.length > 0) io.stdout.write(outcome.stdout);
  return outcome.exitCode;
}
