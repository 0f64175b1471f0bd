// Builds dist/jscr-linux-x64: a Node 20 single executable application (shared/deps.md section 5).
// The CLI is bundled to one CommonJS script (a SEA's main cannot be ESM on Node 20) with TypeScript's
// compiler inside it; the grammars and every data file are embedded as SEA assets, read back through
// src/package-root.ts. Run after tools/build.mjs (it takes the grammars from dist/wasm).
import { build } from 'esbuild';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';

const require = createRequire(import.meta.url);
const root = join(import.meta.dirname, '..');
const work = join(root, 'dist', 'sea');
const output = join(root, 'dist', `jscr-${process.platform}-${process.arch}`);
const ASSET_MANIFEST = 'jscr-assets.json'; // the same name as in src/package-root.ts

if (!existsSync(join(root, 'dist', 'wasm', 'tree-sitter.wasm'))) {
  process.stderr.write('build-binary: dist/wasm is missing; run `node tools/build.mjs` first\n');
  process.exit(2);
}
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });

// The edit-gate hook keeps its own light path inside the binary too: the full CLI is only initialised
// when the call is not the bare hook (esbuild turns these require() calls into lazy module inits).
const entry = [
  "if (process.argv[2] === 'gate' && process.argv.length === 3) require('./src/gate/main.ts');",
  "else require('./src/cli.ts');",
].join('\n');

// Runs typescript.js as CommonJS with the main script's require (built-ins only, all it needs).
const TYPESCRIPT_LOADER = `
const source = new TextDecoder().decode(require('node:sea').getAsset('typescript.js'));
const compiled = require('node:vm').runInThisContext('(function (exports, require, module, __filename, __dirname) {' + source + '\\n})', { filename: 'typescript.js' });
const loaded = { exports: {} };
compiled.call(loaded.exports, loaded.exports, require, loaded, 'typescript.js', '.');
module.exports = loaded.exports;
`;

await build({
  stdin: { contents: entry, resolveDir: root, sourcefile: 'sea-entry.cjs', loader: 'js' },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  logLevel: 'warning',
  outfile: join(work, 'jscr.cjs'),
  // The CommonJS build of web-tree-sitter: its ESM build does `import("module")`, which fails in a SEA
  // with the code cache on (deps.md T13).
  alias: { 'web-tree-sitter': require.resolve('web-tree-sitter') }, // the "require" export: tree-sitter.cjs
  define: { 'import.meta.url': '__jscrImportMetaUrl' },
  banner: { js: "const __jscrImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  plugins: [
    {
      // TypeScript's compiler (9 MB, only for the guard's compile check) is an asset evaluated on first
      // use, not part of the main script every start-up compiles.
      name: 'typescript-from-asset',
      setup(b) {
        b.onResolve({ filter: /^typescript$/ }, () => ({ path: 'typescript', namespace: 'jscr-typescript' }));
        b.onLoad({ filter: /.*/, namespace: 'jscr-typescript' }, () => ({ contents: TYPESCRIPT_LOADER, loader: 'js' }));
      },
    },
    {
      // debug (under simple-git) tries require('supports-color'); inside a SEA that prints a warning on
      // every run (deps.md T12). It is optional, so an empty module stands in.
      name: 'empty-supports-color',
      setup(b) {
        b.onResolve({ filter: /^supports-color$/ }, () => ({ path: 'supports-color', namespace: 'jscr-empty' }));
        b.onLoad({ filter: /.*/, namespace: 'jscr-empty' }, () => ({ contents: 'module.exports = {};', loader: 'js' }));
      },
    },
  ],
});

/** Every file below `dir`, as `/`-joined paths relative to `base`. */
function filesBelow(dir, base) {
  return readdirSync(dir, { recursive: true })
    .map((name) => join(dir, String(name)))
    .filter((path) => statSync(path).isFile())
    .map((path) => relative(base, path).split(sep).join('/'))
    .sort();
}

const assets = {};
for (const folder of ['rules', 'ruleset', 'schema']) {
  for (const key of filesBelow(join(root, folder), root)) assets[key] = join(root, key);
}
for (const key of filesBelow(join(root, 'dist', 'wasm'), join(root, 'dist'))) assets[key] = join(root, 'dist', key);
assets['typescript.js'] = require.resolve('typescript'); // lib/typescript.js, the CommonJS compiler
const manifest = join(work, ASSET_MANIFEST);
writeFileSync(manifest, JSON.stringify(Object.keys(assets)));
assets[ASSET_MANIFEST] = manifest;

const config = join(work, 'sea-config.json');
const blob = join(work, 'sea-prep.blob');
writeFileSync(
  config,
  JSON.stringify({ main: join(work, 'jscr.cjs'), output: blob, disableExperimentalSEAWarning: true, useCodeCache: true, assets }, null, 2),
);
execFileSync(process.execPath, ['--experimental-sea-config', config], { stdio: 'inherit' });

rmSync(output, { force: true });
copyFileSync(process.execPath, output);
chmodSync(output, 0o755);
const inject = spawnSync(
  process.execPath,
  [require.resolve('postject/dist/cli.js'), output, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2'],
  { encoding: 'utf8' },
);
// postject's "Can't find string offset for section name '.note…'" warnings are harmless (deps.md T15).
const said = inject.stderr.split('\n').filter((line) => line.trim() !== '' && !/Can't find string offset for section name/.test(line));
if (said.length > 0) process.stderr.write(`${said.join('\n')}\n`);
if (inject.status !== 0) {
  process.stderr.write(`build-binary: postject failed (exit ${inject.status})\n`);
  process.exit(2);
}
process.stdout.write(`built ${relative(root, output)} (${(statSync(output).size / 1024 / 1024).toFixed(1)} MiB)\n`);
