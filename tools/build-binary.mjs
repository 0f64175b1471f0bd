// Builds dist/jscr-linux-x64: a Node 20 single executable application (shared/deps.md section 5).
// The CLI is bundled to one CommonJS script (a SEA's main cannot be ESM on Node 20) with TypeScript's
// compiler inside it; the grammars and every data file are embedded as SEA assets, read back through
// src/package-root.ts. Run after tools/build.mjs (it takes the grammars from dist/wasm).
import { build } from 'esbuild';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';
import vm from 'node:vm';

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

// Runs a CommonJS source held in an asset, with the main script's require (built-ins only, all that
// TypeScript's compiler and the CLI bundle need). A code cache asset, made at build time by this same
// Node, spares compiling the source again; V8 ignores a cache that does not fit.
const RUN_ASSET = `
function runAsset(key, cacheKey) {
  const sea = require('node:sea');
  const vm = require('node:vm');
  const source = '(function (exports, require, module, __filename, __dirname) {' + new TextDecoder().decode(sea.getAsset(key)) + '\\n})';
  let cachedData;
  if (cacheKey) cachedData = new Uint8Array(sea.getAsset(cacheKey));
  const compiled = new vm.Script(source, { filename: key, cachedData }).runInThisContext();
  const loaded = { exports: {} };
  compiled.call(loaded.exports, loaded.exports, require, loaded, process.execPath, require('node:path').dirname(process.execPath));
  return loaded.exports;
}
`;
/** The same wrapper as RUN_ASSET's, for making the code cache at build time. */
const wrap = (text) => `(function (exports, require, module, __filename, __dirname) {${text}\n})`;

/** An import of `name` answered by a module whose source is `contents`. */
function virtualModule(name, contents) {
  return {
    name: `virtual-${name}`,
    setup(b) {
      b.onResolve({ filter: new RegExp(`^${name}$`) }, () => ({ path: name, namespace: `jscr-virtual-${name}` }));
      b.onLoad({ filter: /.*/, namespace: `jscr-virtual-${name}` }, () => ({ contents, loader: 'js' }));
    },
  };
}

/** One CommonJS bundle for the executable. */
function bundle(entry, outfile, plugins) {
  return build({
    stdin: { contents: entry, resolveDir: root, sourcefile: 'sea-entry.cjs', loader: 'js' },
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'warning',
    outfile,
    // The CommonJS build of web-tree-sitter: its ESM build does `import("module")`, which fails in a
    // SEA with the code cache on (deps.md T13).
    alias: { 'web-tree-sitter': require.resolve('web-tree-sitter') }, // the "require" export: tree-sitter.cjs
    define: { 'import.meta.url': '__jscrImportMetaUrl' },
    banner: { js: "const __jscrImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    plugins: [
      // debug (under simple-git) tries require('supports-color'); inside a SEA that prints a warning on
      // every run (deps.md T12). It is optional, so an empty module stands in.
      virtualModule('supports-color', 'module.exports = {};'),
      ...plugins,
    ],
  });
}

// The full CLI, an asset run on demand. TypeScript's compiler (9 MB, only for the guard's compile
// check) is another asset, run on the guard's first use.
await bundle("require('./src/bin.ts');", join(work, 'cli.cjs'), [
  virtualModule('typescript', `${RUN_ASSET}\nmodule.exports = runAsset('typescript.js');`),
]);
writeFileSync(join(work, 'cli.cache'), new vm.Script(wrap(readFileSync(join(work, 'cli.cjs'), 'utf8')), { filename: 'cli.cjs' }).createCachedData());
// The main script every start compiles (from the SEA code cache) is only the edit gate and the loader:
// the bare `jscr gate` hook call never compiles the CLI.
await bundle(
  "if (process.argv[2] === 'gate' && process.argv.length === 3) require('./src/gate/main.ts');\nelse require('jscr-cli');",
  join(work, 'jscr.cjs'),
  [virtualModule('jscr-cli', `${RUN_ASSET}\nmodule.exports = runAsset('cli.cjs', 'cli.cache');`)],
);

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
assets['cli.cjs'] = join(work, 'cli.cjs');
assets['cli.cache'] = join(work, 'cli.cache');
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
