/**
 * Each copy of a line is its own finding, end to end (docs/adr/0020): a second copy of a vulnerable line
 * is reported, a version 1 suppression from before keeps covering the copy it was written for and says
 * how to re-pin it, and a version 2 suppression covers its own copy only.
 */
import { describe, expect, it } from 'vitest';
import { fingerprintV1 } from '../../src/report/fingerprint.js';
import { reposRemovedAfterEach, runJscr, type TestRepo } from '../helpers/repo.js';

const repo = reposRemovedAfterEach();

interface Report {
  findings: { rule: string; path: string; line: number; fingerprint: string; fingerprint_v1: string; evidence: string; id: string }[];
  suppressed: { rule: string; fingerprint: string; by: string }[];
  suppression_notes?: string[];
  exit_code: number;
}

const RULE = 'jscr/python-subprocess-shell-true';
const CALL = '    subprocess.run("tar -czf " + name, shell=True)';
const ONE_COPY = ['import subprocess', '', '', 'def pack(name):', CALL, '    return name', ''].join('\n');
const TWO_COPIES = ['import subprocess', '', '', 'def pack(name):', CALL, '    print(name)', CALL, '    return name', ''].join('\n');

async function review(r: TestRepo, format = 'json'): Promise<{ code: number; stdout: string }> {
  return runJscr(['review', '--commit', 'HEAD', '--no-model', '--format', format], { cwd: r.root });
}

function shellFindings(report: Report): Report['findings'] {
  return report.findings.filter((f) => f.rule === RULE);
}

describe('per-occurrence fingerprints', () => {
  it('two copies of a vulnerable line in one function are two findings, with one v1 fingerprint between them', async () => {
    const r = repo({ 'tools/pack.py': '' });
    r.commit({ 'tools/pack.py': TWO_COPIES });
    const report = JSON.parse((await review(r)).stdout) as Report;
    const found = shellFindings(report);
    expect(found.map((f) => f.line)).toEqual([5, 7]);
    expect(new Set(found.map((f) => f.fingerprint)).size).toBe(2);
    expect(new Set(found.map((f) => f.id)).size).toBe(2);
    expect(found[0]?.fingerprint_v1).toBe(found[1]?.fingerprint_v1);
    expect(found[0]?.fingerprint_v1).toBe(fingerprintV1(RULE, 'tools/pack.py', CALL));
  });

  it('a v1 suppression written before covers the first copy; the pasted copy is reported, with a note to re-pin', async () => {
    const v1 = fingerprintV1(RULE, 'tools/pack.py', CALL);
    const r = repo({
      'tools/pack.py': ONE_COPY,
      // changed-files: both copies are in scope, whichever one git's diff calls the added one
      '.jscr.toml': `[review]\nscope = "changed-files"\n\n[[suppress]]\nrule = "${RULE}"\nfingerprint = "${v1}"\nreason = "name is a fixed build label"\n`,
    });
    r.commit({ 'tools/pack.py': TWO_COPIES });
    const out = await review(r);
    const report = JSON.parse(out.stdout) as Report;
    // git's diff says lines 5-6 were added: the copy on line 7 is the one the entry was written for
    expect(shellFindings(report).map((f) => f.line)).toEqual([5]);
    expect(report.suppressed.filter((s) => s.rule === RULE)).toHaveLength(1);
    expect(report.suppression_notes).toHaveLength(1);
    const note = report.suppression_notes?.[0] ?? '';
    expect(note).toMatch(/version 1 value that 2 findings/);
    const firstV2 = report.suppressed.find((s) => s.rule === RULE)?.fingerprint ?? '';
    expect(note).toContain(`fingerprint = "${firstV2}"`);
    expect(out.code).toBe(1);
    // the text report says it too
    expect((await review(r, 'text')).stdout).toContain(`fingerprint = "${firstV2}"`);
  });

  it('a v2 suppression covers its own copy only, wherever the copies move', async () => {
    const r = repo({ 'tools/pack.py': '' });
    r.commit({ 'tools/pack.py': TWO_COPIES });
    const second = shellFindings(JSON.parse((await review(r)).stdout) as Report)[1];
    r.commit({ '.jscr.toml': `[[suppress]]\nrule = "${RULE}"\nfingerprint = "${second?.fingerprint ?? ''}"\nreason = "reviewed: name is checked above"\n` });
    // both copies re-spaced (so both are on changed lines; the evidence, whitespace folded, is the same), moved down by an import
    r.commit({ 'tools/pack.py': `import os\n${TWO_COPIES.replaceAll('" + name', '"  +  name')}` });
    const report = JSON.parse((await review(r)).stdout) as Report;
    expect(shellFindings(report).map((f) => f.line)).toEqual([6]);
    expect(report.suppressed.filter((s) => s.rule === RULE).map((s) => s.fingerprint)).toEqual([second?.fingerprint]);
  });
});
