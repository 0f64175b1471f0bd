/**
 * The spawned tests run the built CLI. `npm test` builds before vitest; a bare `npx vitest run` builds
 * here once, before any test starts, so no test ever rebuilds dist/ under another one's feet.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export default function setup(): void {
  const root = join(import.meta.dirname, '..');
  if (existsSync(join(root, 'dist', 'jscr.mjs')) && existsSync(join(root, 'dist', 'gate.cjs'))) return;
  const build = spawnSync(process.execPath, ['tools/build.mjs'], { cwd: root, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`build failed: ${build.stderr}`);
}
