/**
 * The single executable (dist/jscr-linux-x64) for tests: built by `npm run build:binary`, or here
 * when it is missing or older than what it is built from. Only tools/build-binary.mjs runs here, never
 * tools/build.mjs, so the dist/ bundle other test files are using is never replaced under them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const CHECKOUT = join(import.meta.dirname, '..', '..');
const BINARY = join(CHECKOUT, 'dist', `jscr-${process.platform}-${process.arch}`);

/** The newest modification time of any file below `path` (or of the file itself). */
function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path, { recursive: true }).reduce<number>((latest, name) => {
    const entry = statSync(join(path, String(name)));
    return entry.isFile() ? Math.max(latest, entry.mtimeMs) : latest;
  }, 0);
}

const SOURCES = ['src', 'rules', 'ruleset', 'schema', 'dist/wasm', 'tools/build-binary.mjs', 'package.json', 'package-lock.json'];

/** Build the binary unless an up-to-date one is there; returns its path. */
export function ensureBinary(): string {
  const built = existsSync(BINARY) ? statSync(BINARY).mtimeMs : 0;
  if (built > 0 && SOURCES.every((source) => newest(join(CHECKOUT, source)) < built)) return BINARY;
  const run = spawnSync(process.execPath, ['tools/build-binary.mjs'], { cwd: CHECKOUT, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`tools/build-binary.mjs failed:\n${run.stderr}`);
  return BINARY;
}
