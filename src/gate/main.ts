/**
 * The gate's own entry point (dist/gate.cjs): no commander, no engine, no tree-sitter, and CommonJS so
 * that an agent's every edit does not pay for Node's ES-module loader (see docs/adr/0001).
 */
import { reportError } from '../errors.js';
import { processIO } from '../io.js';
import { gateCommand } from './command.js';

gateCommand(processIO()).then(
  (code) => process.stdout.write('', () => process.exit(code)),
  (error: unknown) => {
    const code = reportError(error, process.stderr);
    process.stdout.write('', () => process.exit(code));
  },
);
