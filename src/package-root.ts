/**
 * Where jscr's own files are: the directory holding its package.json (name "jscr"), found by walking up
 * from this module. The same walk works from src/ under vitest and from the bundle in dist/, because
 * both sit below the package root. The data files (rules/, ruleset/) and the npm-installed scanners
 * are found from here.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InternalError } from './errors.js';

let found: string | null | undefined;

/** The package root, or null when jscr runs without its package around it (a bundle copied alone). */
export function jscrPackageRoot(): string | null {
  if (found !== undefined) return found;
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
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'jscr') return (found = dir);
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
  if (root === null) throw new InternalError('cannot find the jscr package root (package.json named "jscr")');
  return join(root, ...segments);
}
