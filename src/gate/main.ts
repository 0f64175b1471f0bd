/** The gate's own entry point (dist/gate.mjs): no commander, no engine, no tree-sitter. */
import { reportError } from '../errors.js';
import { gateCommand } from './command.js';

let code: number;
try {
  code = await gateCommand({
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    stderrIsTTY: Boolean(process.stderr.isTTY),
  });
} catch (error) {
  code = reportError(error, process.stderr);
}
process.stdout.write('', () => process.exit(code));
