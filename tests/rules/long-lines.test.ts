/**
 * Every scanned line is matched whole, however long, and the work on one file is bounded: a line
 * crafted to make regexes slow leaves the file listed as not finished (never silently clean), and a
 * rule reports a bounded number of lines per file.
 */
import { describe, expect, it } from 'vitest';
import { fileKind, loadBuiltinRules, MAX_HITS_PER_RULE_PER_FILE, runRules, type RuleTarget } from '../../src/rules/engine.js';
import { languageForPath } from '../../src/syntax/languages.js';

const rules = await loadBuiltinRules();

function target(path: string, text: string): RuleTarget {
  return { path, language: languageForPath(path), kind: fileKind(path, text), text, scanLines: 'all' };
}

async function rulesOn(path: string, text: string): Promise<string[]> {
  const run = await runRules({ files: [target(path, text)], rules });
  expect(run.unfinished).toEqual([]);
  return run.findings.map((f) => f.rule);
}

describe('a pattern split far apart on a long line is still found', () => {
  // Before: lines over 4,000 characters were tested in 4,000-character windows overlapping by 400,
  // so a match longer than 400 characters across a window edge was lost.
  it.each([
    ['at the start of the line', 0],
    ['across the old first window edge', 3_500],
    ['far along the line', 40_000],
  ])('a sendFile call with the request path 600 spaces later, %s', async (_where, offset) => {
    const line = `${'x'.repeat(offset)};res.sendFile(${' '.repeat(600)}req.params.name);${'y'.repeat(5_000)}`;
    expect(await rulesOn('server/files.js', `${line}\n`)).toContain('jscr/js-sendfile-user-path');
  });

  it('PHP eval with its variable a long string later, on a 6,000-character line', async () => {
    const line = `<?php ${'$a = 1; '.repeat(400)}eval("${'z'.repeat(2_000)}" . $_GET['code']); ${'$b = 2; '.repeat(200)}`;
    expect(line.length).toBeGreaterThan(6_000);
    expect(await rulesOn('web/run.php', `${line}\n`)).toContain('jscr/php-eval-variable');
  });

  it('eval( + 500 spaces + req.query.code) on a 5,000+ character JavaScript line', async () => {
    const line = `${'var a=1;'.repeat(600)}eval(${' '.repeat(500)}req.query.code);`;
    expect(await rulesOn('server/app.js', `${line}\n`)).toContain('jscr/js-eval-dynamic');
  });
});

describe('bounded work per file', () => {
  it('matches a 2 MB single line of ordinary code to the end', async () => {
    const statement = 'function f(a,b){var c=a.k||{n:1};return b.map(function(x){return x+c.n}).join(",")};';
    const line = `${statement.repeat(Math.ceil(2_000_000 / statement.length))}agent=new https.Agent({rejectUnauthorized:false});`;
    expect(await rulesOn('dist/bundle.js', `${line}\n`)).toContain('jscr/js-tls-reject-unauthorized-false');
  });

  it('a line built to make a regex slow leaves the file not finished, not clean', async () => {
    // Each `exec(` starts a match attempt that runs to the end of the line: quadratic in the length.
    const line = `<?php ${'exec('.repeat(400_000)}`;
    const run = await runRules({ files: [target('web/slow.php', `${line}\n`)], rules, limits: { remainingMs: () => 300 } });
    expect(run.unfinished.map((u) => u.path)).toEqual(['web/slow.php']);
    expect(run.unfinished[0]?.reason).toMatch(/pattern rules/);
  });

  it('a file of many shorter near-miss lines also stops at its budget, matched in this thread', async () => {
    // 900-character lines stay below the worker's threshold; each costs the quadratic rules a little.
    const text = `${'curl '.repeat(180)}\n`.repeat(250);
    expect(text.length).toBeLessThan(256 * 1024);
    // 1 ms left: matching the file takes tens of milliseconds on any machine, so it cannot finish in time.
    const run = await runRules({ files: [target('scripts/fetch.sh', text)], rules, limits: { remainingMs: () => 1 } });
    expect(run.unfinished).toEqual([{ path: 'scripts/fetch.sh', reason: 'pattern rules: the review deadline (review.deadline_s) passed' }]);
  });

  it('files after the time left ran out are listed, not passed over', async () => {
    let calls = 0;
    const limits = { remainingMs: () => (calls++ === 0 ? 60_000 : 0) };
    const run = await runRules({
      files: [target('a.py', 'requests.get(u, verify=False)\n'), target('b.py', 'requests.get(u, verify=False)\n')],
      rules,
      limits,
    });
    expect(run.findings.map((f) => f.path)).toEqual(['a.py']);
    expect(run.unfinished).toEqual([{ path: 'b.py', reason: expect.stringMatching(/deadline/) as string }]);
  });

  it(`reports at most ${MAX_HITS_PER_RULE_PER_FILE} lines per rule in a file and says so`, async () => {
    const text = 'requests.get(u, verify=False)\n'.repeat(MAX_HITS_PER_RULE_PER_FILE + 50);
    const run = await runRules({ files: [target('many.py', text)], rules });
    expect(run.findings.filter((f) => f.rule === 'jscr/python-tls-verify-false')).toHaveLength(MAX_HITS_PER_RULE_PER_FILE);
    expect(run.capped).toEqual(['jscr/python-tls-verify-false in many.py']);
    expect(run.unfinished).toEqual([]);
  });
});
