// Bundles the CLI into dist/: jscr.mjs (every command) and gate.cjs (the edit-gate hook alone, kept
// small so an agent's every edit pays only for Node's own start-up), plus the tree-sitter grammars.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const out = 'dist';
// Only this script's own outputs: the single executable (tools/build-binary.mjs) is kept, and is
// rebuilt by whoever finds it older than its sources.
for (const name of ['jscr.mjs', 'gate.cjs', 'wasm']) rmSync(join(out, name), { recursive: true, force: true });
mkdirSync(join(out, 'wasm'), { recursive: true });

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  logLevel: 'warning',
  // Bundled CommonJS packages require() Node built-ins; an ESM bundle needs a real require for that.
  banner: { js: "import { createRequire as __jscrCreateRequire } from 'node:module'; const require = __jscrCreateRequire(import.meta.url);" },
  // TypeScript's compiler is only needed by the guard's compile check; loading it from the installed
  // package keeps 9 MB of JavaScript out of every start-up.
  external: ['typescript'],
};

await build({ ...common, entryPoints: ['src/bin.ts'], outfile: join(out, 'jscr.mjs') });
// The gate bundle is CommonJS: loading it skips Node's ES-module loader (about 20 ms per call).
await build({ ...common, format: 'cjs', banner: {}, minify: true, entryPoints: ['src/gate/main.ts'], outfile: join(out, 'gate.cjs') });

const runtimeWasm = require.resolve('web-tree-sitter/tree-sitter.wasm');
copyFileSync(runtimeWasm, join(out, 'wasm', 'tree-sitter.wasm'));
const grammarDir = join(dirname(require.resolve('tree-sitter-wasms/package.json')), 'out');
for (const name of ['python', 'javascript', 'typescript', 'tsx', 'java', 'php', 'go', 'ruby']) {
  copyFileSync(join(grammarDir, `tree-sitter-${name}.wasm`), join(out, 'wasm', `tree-sitter-${name}.wasm`));
}
