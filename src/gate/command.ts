import { readAll, type CommandIO, type ExitCode } from '../io.js';
import { MAX_INPUT_BYTES, runGate, type GateOutcome } from './gate.js';

/**
 * The gate's decision for one payload, failing open: a bug in the gate must not lock the agent out,
 * so an internal error passes the call through unchanged and says so once on stderr.
 */
export function decideGate(input: Buffer | 'too_large', env: NodeJS.ProcessEnv, cwd: string): GateOutcome {
  try {
    return runGate(input, { env, processCwd: cwd, now: Date.now() });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      stdout: '',
      stderr: [`jscr gate: internal error, passing this call unchecked: ${message.split('\n')[0] ?? ''}`],
      exitCode: 0,
    };
  }
}

/** `jscr gate`: the PreToolUse edit gate. Reads the hook payload on stdin. */
export async function gateCommand(io: CommandIO): Promise<ExitCode> {
  const outcome = decideGate(await readAll(io.stdin, MAX_INPUT_BYTES), io.env, io.cwd);
  for (const line of outcome.stderr) io.stderr.write(`${line}\n`);
  if (outcome.stdout.length > 0) io.stdout.write(outcome.stdout);
  return outcome.exitCode;
}
