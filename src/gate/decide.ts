import { runGate, type GateOutcome } from './gate.js';

/**
 * The gate's decision for one payload, failing open: a bug in the gate must not lock the agent out,
 * so an internal error passes the call through unchanged and says so once on stderr. Shared by the
 * gate bundle's entry (src/gate/main.ts) and `jscr gate` (src/commands/gate.ts).
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
