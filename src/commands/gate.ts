import { readAll, type CommandIO, type ExitCode } from '../io.js';
import { decideGate } from '../gate/decide.js';
import { MAX_INPUT_BYTES } from '../gate/gate.js';

/** `jscr gate`: the PreToolUse edit gate. Reads the hook payload on stdin. */
export async function gateCommand(io: CommandIO): Promise<ExitCode> {
  const outcome = decideGate(await readAll(io.stdin, MAX_INPUT_BYTES), io.env, io.cwd);
  for (const line of outcome.stderr) io.stderr.write(`${line}\n`);
  if (outcome.stdout.length > 0) io.stdout.write(outcome.stdout);
  return outcome.exitCode;
}
