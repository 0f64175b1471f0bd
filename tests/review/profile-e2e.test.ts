/**
 * The change profile inside review: a comment-only change is not expanded or sent (and the rules still
 * scan it); a change to a file's public surface brings the files that import it into the context.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makeRepo, runJscr, type TestRepo } from '../helpers/repo.js';
import { fakes } from '../redact/fakes.js';

const repos: TestRepo[] = [];
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup();
});

interface Report {
  findings: { rule: string; path: string }[];
  trivial_files: string[];
  context: { files: { path: string; reason: string; via: string | null }[] };
  steps: { name: string; status: string; detail: string }[];
}

async function review(r: TestRepo): Promise<Report> {
  const out = await runJscr(['review', '--range', 'HEAD~1..HEAD', '--format', 'json'], { cwd: r.root });
  return JSON.parse(out.stdout) as Report;
}

const UTIL = 'def slugify(text):\n    return text.lower()\n';
const VIEWS = 'from .util import slugify\n\ndef show(name):\n    return slugify(name)\n';

describe('the change profile in review', () => {
  it('a comment-only change is trivial: not expanded, still scanned by the rules', async () => {
    const r = makeRepo({ 'app/util.py': UTIL, 'app/views.py': VIEWS, 'tests/test_util.py': 'def test_x():\n    pass\n' });
    repos.push(r);
    r.commit({ 'app/util.py': `# helpers for names\n# token ${fakes.githubClassic}\n${UTIL}` });
    const report = await review(r);
    expect(report.trivial_files).toEqual(['app/util.py']);
    expect(report.context.files.map((f) => f.path)).toEqual(['app/util.py']);
    expect(report.findings.some((f) => f.rule === 'jscr/hardcoded-secret' && f.path === 'app/util.py')).toBe(true);
  });

  it('a code change is not trivial and expands to its tests', async () => {
    const r = makeRepo({ 'app/util.py': UTIL, 'tests/test_util.py': 'def test_x():\n    pass\n' });
    repos.push(r);
    r.commit({ 'app/util.py': 'def slugify(text):\n    return text.strip().lower()\n' });
    const report = await review(r);
    expect(report.trivial_files).toEqual([]);
    expect(report.context.files.map((f) => [f.path, f.reason])).toContainEqual(['tests/test_util.py', 'test']);
  });

  it('a change to public surface brings in the files that import it', async () => {
    const r = makeRepo({ 'app/util.py': UTIL, 'app/views.py': VIEWS, 'app/other.py': 'SLUGIFY_DOC = "slugify is elsewhere"\n' });
    repos.push(r);
    r.commit({ 'app/util.py': 'def slugify(text, sep="-"):\n    return text.lower().replace(" ", sep)\n' });
    const report = await review(r);
    const importers = report.context.files.filter((f) => f.reason === 'importer');
    expect(importers).toEqual([{ path: 'app/views.py', reason: 'importer', via: 'app/util.py' }]);
  });
});
