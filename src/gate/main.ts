/** The gate's own entry point (dist/gate.mjs): no commander, no engine, no tree-sitter. */
import { reportError } from '../errors.js';
import { processIO } from '../io.js';
import { gateCommand } from './command.js';

let code: number;
try {
  code = await gateCommand(processIO());
} catch (error) {
  code = reportError(error, process.stderr);
}
process.stdout.write('', () => process.exit(code));
