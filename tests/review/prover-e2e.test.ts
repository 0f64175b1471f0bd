/**
 * The prover inside review: a change that drops a permission check from a Jenkins web method is a
 * finding with source "prover"; `prover.enabled = false` skips the step and says so.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makeRepo, runJscr, type TestRepo } from '../helpers/repo.js';

const repos: TestRepo[] = [];
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup();
});

const GUARDED = `package org.acme;
public class Hook extends Descriptor<Object> {
  public FormValidation doTestConnection(@QueryParameter String id) {
    Jenkins.get().checkPermission(Jenkins.ADMINISTER);
    return CredentialsProvider.lookupCredentials(C.class, Jenkins.get(), ACL.SYSTEM, null).isEmpty() ? FormValidation.ok() : FormValidation.error("x");
  }
}
`;
const UNGUARDED = GUARDED.replace('    Jenkins.get().checkPermission(Jenkins.ADMINISTER);\n', '');

interface Report {
  findings: { rule: string; source: string; path: string; line: number; message: string }[];
  steps: { name: string; status: string; detail: string }[];
  exit_code: number;
}

describe('the prover as a review scanner', () => {
  it('reports an operation the change leaves unguarded', async () => {
    const r = makeRepo({ 'src/main/java/org/acme/Hook.java': GUARDED });
    repos.push(r);
    r.commit({ 'src/main/java/org/acme/Hook.java': UNGUARDED }, 'simplify');
    const out = await runJscr(['review', '--range', 'HEAD~1..HEAD', '--format', 'json'], { cwd: r.root });
    const report = JSON.parse(out.stdout) as Report;
    const finding = report.findings.find((f) => f.source === 'prover');
    expect(finding).toMatchObject({ rule: 'jscr/prover-unguarded-operation', path: 'src/main/java/org/acme/Hook.java', line: 4 });
    expect(finding?.message).toMatch(/doTestConnection/);
    expect(report.exit_code).toBe(1);
    expect(report.steps.find((s) => s.name === 'prover')?.status).toBe('ran');
  });

  it('says nothing when the check stays in place, and skips when disabled', async () => {
    const r = makeRepo({ 'src/main/java/org/acme/Hook.java': GUARDED, '.jscr.toml': '[prover]\nenabled = false\n' });
    repos.push(r);
    r.commit({ 'src/main/java/org/acme/Hook.java': GUARDED.replace('"x"', '"no credentials"') }, 'wording');
    const out = await runJscr(['review', '--range', 'HEAD~1..HEAD', '--format', 'json'], { cwd: r.root });
    const report = JSON.parse(out.stdout) as Report;
    expect(report.steps.find((s) => s.name === 'prover')).toMatchObject({ status: 'skipped' });
    const enabled = makeRepo({ 'src/main/java/org/acme/Hook.java': GUARDED });
    repos.push(enabled);
    enabled.commit({ 'src/main/java/org/acme/Hook.java': GUARDED.replace('"x"', '"no credentials"') }, 'wording');
    const again = JSON.parse((await runJscr(['review', '--range', 'HEAD~1..HEAD', '--format', 'json'], { cwd: enabled.root })).stdout) as Report;
    expect(again.findings.filter((f) => f.source === 'prover')).toEqual([]);
    expect(again.steps.find((s) => s.name === 'prover')?.status).toBe('ran');
  });
});
