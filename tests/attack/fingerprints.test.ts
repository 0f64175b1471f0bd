/**
 * Attacks on per-occurrence fingerprints with version 1 still accepted (src/review/suppress.ts,
 * fingerprint-index.ts): a suppression written as a version 1 value (shared by every copy of a line)
 * must keep covering the one copy it was written for, never a copy the hostile change adds.
 */
import { describe, expect, it } from 'vitest';
import { builtinRuleAliases } from '../../src/rules/aliases.js';
import { reposRemovedAfterEach, runJscr } from '../helpers/repo.js';

const repo = reposRemovedAfterEach();

interface Finding {
  rule: string;
  path: string;
  line: number;
  fingerprint_v1: string;
}

const VULNERABLE = '  eval(req.query.code);';
const handler = (name: string) => `export function ${name}(req) {\n${VULNERABLE}\n}\n`;

async function findings(root: string, range: string): Promise<{ code: number; list: Finding[] }> {
  const run = await runJscr(['review', '--range', range, '--no-model', '--format', 'json'], { cwd: root });
  if (run.code === 2) throw new Error(`review could not run: ${run.stderr}`);
  return { code: run.code, list: (JSON.parse(run.stdout) as { findings: Finding[] }).findings.filter((f) => builtinRuleAliases().names('jscr/js-eval-dynamic', f.rule)) };
}

/** A repository whose base suppresses its one eval finding by that finding's version 1 fingerprint. */
async function suppressedBase(): Promise<ReturnType<typeof repo>> {
  const r = repo({ 'README.md': '# app\n' });
  r.commit({ 'src/debug.js': handler('first') });
  const [original] = (await findings(r.root, 'HEAD~1..HEAD')).list;
  expect(original?.line).toBe(2);
  r.commit({ '.jscr.toml': `[[suppress]]\nrule = "jscr/js-eval-dynamic"\nfingerprint = "${original!.fingerprint_v1}"\nreason = "debug console, admin only"\n` });
  return r;
}

describe('attack: a version 1 suppression stretched over a second copy', () => {
  it('a copy of the suppressed line in a new function of the same file is reported', async () => {
    const r = await suppressedBase();
    r.commit({ 'src/debug.js': handler('first') + handler('second') });
    const out = await findings(r.root, 'HEAD~1..HEAD');
    expect(out.list.map((f) => f.line)).toEqual([5]);
    expect(out.code).toBe(1);
  });

  it('a copy placed above the original (so it becomes the first copy by line) is reported, the original stays covered', async () => {
    const r = await suppressedBase();
    r.commit({ 'src/debug.js': handler('zeroth') + handler('first') });
    const out = await findings(r.root, 'HEAD~1..HEAD');
    expect(out.list.map((f) => f.line)).toEqual([2]);
    expect(out.code).toBe(1);
  });

  it('the suppressed file copied whole to a new path: the copy is reported', async () => {
    const r = await suppressedBase();
    r.commit({ 'src/console.js': handler('first') });
    const out = await findings(r.root, 'HEAD~1..HEAD');
    expect(out.list.map((f) => `${f.path}:${f.line}`)).toEqual(['src/console.js:2']);
  });
});
