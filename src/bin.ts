/**
 * The process entry point: runs the CLI on this process's arguments and streams, then exits with its
 * code. Kept apart from `src/cli.ts` so tests can import `main` and call it in-process.
 */
import { main } from './cli.js';
import { processIO } from './io.js';

// No top-level await: the single executable bundles this module as CommonJS, which cannot hold one.
void main(process.argv.slice(2), processIO()).then((code) => {
  // Let stdout drain before exiting (a large JSON report piped to another program).
  process.stdout.write('', () => process.exit(code));
});
