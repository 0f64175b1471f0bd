/**
 * A route declared public on purpose (`[[prover.public]]`, read from the base) skips only its own
 * handler. A one-line handler (`app.get('/health', (req, res) => res.send('ok'))`) took the handler of
 * the route written below it as its own, so that route's operations were skipped as public: a change
 * dropping its check, or a proof of the whole repository, said exit 0, "found nothing".
 */
import { describe, expect, it } from 'vitest';
import { runJscr } from '../helpers/cli.js';
import { reposRemovedAfterEach } from '../helpers/repo.js';

const makeRepo = reposRemovedAfterEach();

const APP = (routes: string) => `const express = require('express');\nconst app = express();\n${routes}module.exports = app;\n`;
const NOTES = (middleware: string) => `app.post('/notes/:id', ${middleware}async (req, res) => {\n  await db.notes.update({ where: { id: req.params.id }, data: req.body });\n  res.end();\n});\n`;
const REQUIRE_ADMIN = 'function requireAdmin(req, res, next) {\n  if (!req.user || !req.user.isAdmin) return res.status(403).end();\n  next();\n}\n';

interface Report {
  findings: { line: number }[];
  public_entries_skipped: { line: number }[];
}

describe('attack: a route under a one-line public route', () => {
  for (const health of ["app.get('/health', (req, res) => res.send('ok'));\n", "app.get('/health', function (req, res) { res.send('ok'); });\n"]) {
    it(`loses its check and is still proved, and the whole repository is proved: ${health.trim()}`, async () => {
      const repo = makeRepo({
        'package.json': '{"name":"app","dependencies":{"express":"4"}}\n',
        '.jscr.toml': '[[prover.public]]\nroute = "/health"\nreason = "load balancer probe"\n',
        'app.js': APP(health + NOTES('requireAdmin, ') + REQUIRE_ADMIN),
      });
      repo.commit({ 'app.js': APP(health + NOTES('') + REQUIRE_ADMIN) }, 'drop the admin check');
      for (const args of [['--base', 'HEAD~1'], []]) {
        const run = await runJscr(['prove', ...args, '--format', 'json'], repo.root);
        const report = JSON.parse(run.stdout) as Report;
        expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(1);
        expect(report.findings.map((f) => f.line)).toEqual([5]);
        // (a change's report lists only the skipped entries on its way; the whole repository's lists /health)
        expect(report.public_entries_skipped.map((e) => e.line)).toEqual(args.length === 0 ? [3] : []);
      }
    });
  }
});
