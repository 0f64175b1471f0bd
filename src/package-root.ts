/**
 * Where jscr's own files are. From source (vitest) and from the bundle in dist/, that is the directory
 * holding its package.json (name "@jscr/cli"), found by walking up from this module. Inside the single
 * executable there is no package around jscr: the data files (rules/, ruleset/, schema/) and the
 * grammars are the executable's embedded assets, listed by the `jscr-assets.json` manifest asset
 * (Node 20 cannot list a SEA's assets itself). Every read of jscr's own data goes through this module.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_NAME } from './distribution.js';
import { InternalError } from './errors.js';

/** The embedded asset listing every other asset's key (a `/`-joined path such as `rules/python.toml`). */
const ASSET_MANIFEST = 'jscr-assets.json';

let found: string | null | undefined;

/** The package root, or null when jscr runs without its package around it (the single executable). */
export function jscrPackageRoot(): string | null {
  if (found !== undefined) return found;
  if (embeddedAssets() !== null) return (found = null);
  let dir: string;
  try {
    dir = dirname(fileURLToPath(import.meta.url));
  } catch {
    return (found = null); // a bundle format without import.meta.url
  }
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === PACKAGE_NAME) return (found = dir);
      } catch {
        // an unreadable manifest is not ours; keep walking
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return (found = null);
    dir = parent;
  }
}

/** A path inside the package (e.g. `packagePath('rules')`); an installation without its package is a bug. */
export function packagePath(...segments: string[]): string {
  const root = jscrPackageRoot();
  if (root === null) throw new InternalError(`cannot find the jscr package root (package.json named "${PACKAGE_NAME}")`);
  return join(root, ...segments);
}

interface SeaModule {
  isSea(): boolean;
  getAsset(key: string): ArrayBuffer;
}

interface EmbeddedAssets {
  sea: SeaModule;
  keys: ReadonlySet<string>;
}

let embedded: EmbeddedAssets | null | undefined;

/** The single executable's assets, or null when jscr runs as a script (or on a Node without node:sea). */
function embeddedAssets(): EmbeddedAssets | null {
  if (embedded !== undefined) return embedded;
  let sea: SeaModule;
  try {
    // Loaded by name, not imported: node:sea exists only from Node 20.12, and only matters in the binary.
    sea = createRequire(import.meta.url)('node:sea') as SeaModule;
    if (!sea.isSea()) return (embedded = null);
  } catch {
    return (embedded = null);
  }
  const keys = JSON.parse(new TextDecoder().decode(sea.getAsset(ASSET_MANIFEST))) as string[];
  return (embedded = { sea, keys: new Set(keys) });
}

/** True inside the single executable. */
export function runsEmbedded(): boolean {
  return embeddedAssets() !== null;
}

/** The bytes of one of jscr's own files, e.g. `packageFileBytes('wasm', 'tree-sitter-python.wasm')`. */
export function packageFileBytes(...segments: string[]): Uint8Array {
  const assets = embeddedAssets();
  if (assets === null) return readFileSync(packagePath(...segments));
  const key = segments.join('/');
  if (!assets.keys.has(key)) throw new InternalError(`${key} is not embedded in this executable`);
  return new Uint8Array(assets.sea.getAsset(key));
}

/** The text (UTF-8) of one of jscr's own data files, e.g. `packageFileText('ruleset', 'secrets.toml')`. */
export function packageFileText(...segments: string[]): string {
  return new TextDecoder().decode(packageFileBytes(...segments));
}

/** The file names directly inside one of jscr's own directories, e.g. `packageDirectoryFiles('rules')`. */
export function packageDirectoryFiles(...segments: string[]): string[] {
  const assets = embeddedAssets();
  if (assets === null) return readdirSync(packagePath(...segments));
  const prefix = `${segments.join('/')}/`;
  return [...assets.keys].filter((key) => key.startsWith(prefix) && !key.slice(prefix.length).includes('/')).map((key) => key.slice(prefix.length));
}

/** Whether one of jscr's own files exists in this installation. */
export function packageFileExists(...segments: string[]): boolean {
  const assets = embeddedAssets();
  if (assets !== null) return assets.keys.has(segments.join('/'));
  const root = jscrPackageRoot();
  return root !== null && existsSync(join(root, ...segments));
}
