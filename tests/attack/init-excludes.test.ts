/**
 * Attacks on the excludes `jscr init` proposes (src/init/excludes.ts): hand-written code named like a
 * bundler's content-hashed output, so that a maintainer who accepts the proposal stops reviewing it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/index.js';
import { reposRemovedAfterEach, runJscr } from '../helpers/repo.js';

const repo = reposRemovedAfterEach();

async function proposedExcludes(files: Record<string, string>): Promise<string[]> {
  const r = repo(files);
  const out = await runJscr(['init', '--write'], { cwd: r.root });
  expect(out.code).toBe(0);
  return parseConfigText(readFileSync(join(r.root, '.jscr.toml'), 'utf8'), '.jscr.toml').review.exclude;
}

const handler = "export function handle(req, res) { res.send(eval(req.query.q)); }\n";

describe('attack: hand-written code named like hashed bundle output', () => {
  it('route handlers with hex or mixed-case suffixes in a source folder are not proposed', async () => {
    expect(
      await proposedExcludes({
        'src/api/users-1a2b3c4d.js': handler,
        'src/api/admin-5e6f7a8b.js': handler,
        'src/api/billing-9c0d1e2f.js': handler,
        'server/routes/login.Bf3kQ9aZ.js': handler,
        'server/routes/reset.CZ8OEr5k.js': handler,
        'server/routes/signup.Ll_d0V3v.js': handler,
      }),
    ).toEqual([]);
  });

  it('a real output folder of hashed bundles is still proposed', async () => {
    expect(
      await proposedExcludes({
        'src/main.js': handler,
        'public/build/assets/index-Bf3kQ9aZ.js': 'x\n',
        'public/build/assets/vendor-CZ8OEr5k.js': 'x\n',
        'public/build/assets/users-Ll_d0V3v.js': 'x\n',
      }),
    ).toContain('public/build/**');
  });
});
