/**
 * Minified and bundled code is build output (src/prover/source.ts): a theme's bundle is not proved and
 * is named in the degradations, unless other code names it, so minifying a served module hides nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runJscr as jscr } from '../helpers/cli.js';
import { makeRepo, type TestRepo } from '../helpers/repo.js';

const routes = `import express from 'express';
import { db } from './db';
const router = express.Router();
router.delete('/users/:id', async (req, res) => {
  await db.user.delete({ where: { id: req.params.id } });
  res.sendStatus(204);
});
export default router;
`;

/** The same module inside a webpack bundle: tool-written by its runtime's calls, whatever its lines look like. */
const bundled = `${Array.from({ length: 60 }, (_, i) => `/******/ var m${i} = __webpack_require__(${i}); // runtime helper ${'x'.repeat(10)}`).join('\n')}\n${routes}`;

interface Proved {
  findings: { path: string }[];
  degradations?: string[];
}

describe('jscr prove leaves minified code out', () => {
  let repo: TestRepo | null = null;
  afterEach(() => {
    repo?.cleanup();
    repo = null;
  });

  it('an unguarded deletion is a finding in a source file and none in a bundle no file names', async () => {
    repo = makeRepo({ 'src/users.js': routes, 'src/db.js': 'export const db = {};\n' });
    const served = await jscr(['prove', '--format', 'json'], repo.root);
    expect(served.code).toBe(1);
    expect((JSON.parse(served.stdout) as Proved).findings.map((f) => f.path)).toContain('src/users.js');

    repo.cleanup();
    repo = makeRepo({ 'static/assets/users-Xy12.js': bundled, 'src/db.js': 'export const db = {};\n' });
    const unnamed = await jscr(['prove', '--format', 'json'], repo.root);
    expect(unnamed.code).toBe(0);
    expect(unnamed.stdout).toContain('skipped_minified static/assets/users-Xy12.js');
  });

  it('a minified module the served code requires is proved like any other', async () => {
    repo = makeRepo({
      'lib/users-bundle.js': bundled,
      'src/db.js': 'export const db = {};\n',
      'src/server.js': "import express from 'express';\nimport users from '../lib/users-bundle';\nconst app = express();\napp.use(users);\n",
    });
    const proved = await jscr(['prove', '--format', 'json'], repo.root);
    expect(proved.code).toBe(1);
    expect((JSON.parse(proved.stdout) as Proved).findings.map((f) => f.path)).toContain('lib/users-bundle.js');
  });
});
