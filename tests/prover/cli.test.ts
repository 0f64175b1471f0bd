import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runJscr as jscr } from '../helpers/cli.js';
import { makeRepo, type TestRepo } from '../helpers/repo.js';

const unguarded = `package org.acme;
public class Hook extends Descriptor<Object> {
  public FormValidation doTestConnection(@QueryParameter String id) {
    return CredentialsProvider.lookupCredentials(C.class, Jenkins.get(), ACL.SYSTEM, null).isEmpty() ? FormValidation.ok() : FormValidation.error("x");
  }
}
`;
const guarded = unguarded.replace('  public FormValidation doTestConnection(@QueryParameter String id) {\n', '  public FormValidation doTestConnection(@QueryParameter String id) {\n    Jenkins.get().checkPermission(Jenkins.ADMINISTER);\n');

describe('jscr prove', () => {
  let repo: TestRepo | null = null;
  afterEach(() => {
    repo?.cleanup();
    repo = null;
  });

  it('whole repository: exit 1 with one sentence per finding, and JSON in the issue shape', async () => {
    repo = makeRepo({ 'src/main/java/org/acme/Hook.java': unguarded, 'README.md': 'x\n' });
    const text = await jscr(['prove'], repo.root);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/1 unguarded operation in the repository at HEAD/);
    expect(text.stdout).toMatch(/The stapler entry Hook\.doTestConnection \(src\/main\/java\/org\/acme\/Hook\.java:3;.*reaches credential access.*no permission or role check before it: such a check before the operation, on every path from the entry, would settle it\./);
    expect(text.stdout).not.toMatch(/path_guard|unguarded_path|authn_only/);
    const json = JSON.parse((await jscr(['prove', '--format', 'json'], repo.root)).stdout) as Record<string, unknown>;
    expect(json).toMatchObject({ schema_version: 1, mode: 'repository', exit_code: 1 });
    const finding = (json.findings as Record<string, unknown>[])[0]!;
    expect(Object.keys(finding)).toEqual(expect.arrayContaining(['id', 'rule', 'label', 'path', 'line', 'function', 'entry', 'hops', 'operation', 'missing']));
    expect(finding.operation).toMatchObject({ id: 'jenkins.credentials-lookup', kind: 'credential_access', line: 4 });
    // a missing permission check is CWE-862 whatever the operation (not the operation's own CWE)
    expect(finding.cwe).toBe('CWE-862');
    expect(json.coverage).toMatchObject({ entry_points: 1, frameworks_recognised: { stapler: 1 }, files_by_language: { java: 1 } });
  });

  it('change mode reads base..head from git objects, even with a different working tree', async () => {
    repo = makeRepo({ 'src/Hook.java': guarded, 'src/Other.java': 'public class Other {\n  void idle() { }\n}\n' });
    const base = repo.git('rev-parse', 'HEAD').trim();
    repo.commit({ 'src/Hook.java': unguarded }, 'drop the permission check');
    // The working tree holds something else entirely: the prover must read the commits.
    repo.write({ 'src/Hook.java': 'garbage {{{' });
    const change = await jscr(['prove', '--base', base, '--format', 'json'], repo.root);
    expect(change.code).toBe(1);
    expect(JSON.parse(change.stdout)).toMatchObject({ mode: 'change', findings: [{ function: 'Hook.doTestConnection' }] });
    // A change touching only an unrelated file reports nothing, and says so without claiming safety.
    const head = repo.commit({ 'src/Hook.java': unguarded, 'src/Other.java': 'public class Other {\n  void idle() { int x = 1; }\n}\n' }, 'unrelated');
    const unrelated = await jscr(['prove', '--base', `${head}~1`, '--head', head], repo.root);
    expect(unrelated.code).toBe(0);
    expect(unrelated.stdout).toMatch(/these access-control checks, on the change .*, found nothing/);
  });

  it('change mode: a change that makes git show the file as binary (-diff in its .gitattributes) is still proved', async () => {
    repo = makeRepo({ 'src/Hook.java': guarded });
    const base = repo.git('rev-parse', 'HEAD').trim();
    repo.commit({ '.gitattributes': '*.java -diff\n', 'src/Hook.java': unguarded }, 'hide the diff, drop the check');
    expect(repo.git('diff', base, 'HEAD', '--', 'src/Hook.java')).toMatch(/Binary files/);
    const change = await jscr(['prove', '--base', base, '--format', 'json'], repo.root);
    expect(change.code).toBe(1);
    expect(JSON.parse(change.stdout)).toMatchObject({ mode: 'change', findings: [{ function: 'Hook.doTestConnection' }] });
  });

  it('exit 0 when every operation is guarded; SARIF 2.1.0 output', async () => {
    repo = makeRepo({ 'src/Hook.java': guarded });
    expect((await jscr(['prove'], repo.root)).code).toBe(0);
    repo.commit({ 'src/Hook.java': unguarded });
    const sarif = await jscr(['prove', '--format', 'sarif'], repo.root);
    expect(sarif.code).toBe(1);
    const log = JSON.parse(sarif.stdout) as { version: string; runs: { results: { ruleId: string; locations: { physicalLocation: { region: { startLine: number } } }[] }[] }[] };
    expect(log.version).toBe('2.1.0');
    expect(log.runs[0]?.results[0]?.ruleId).toBe('jscr/prover-unguarded-operation');
    expect(log.runs[0]?.results[0]?.locations[0]?.physicalLocation.region.startLine).toBe(4);
  });

  it('not proven, exit 3, when there are protected operations but no supported framework was recognised', async () => {
    // a file deletion reached from no entry point jscr knows: "found nothing" would be a false clean
    repo = makeRepo({ 'src/Maintenance.java': 'public class Maintenance {\n  public void wipe() { Files.delete(root); }\n}\n' });
    const text = await jscr(['prove'], repo.root);
    expect(text.code).toBe(3);
    expect(text.stdout).toMatch(/not proven: 1 protected operation found, but no entry point of a supported web framework was recognised \(jscr knows Jenkins\/Stapler, .*\), so none could be checked/);
    expect(text.stdout).not.toMatch(/found nothing/);
    expect(text.stderr).toMatch(/^jscr prove: incomplete: not proven: /m);
    const json = JSON.parse((await jscr(['prove', '--format', 'json'], repo.root)).stdout) as Record<string, unknown>;
    expect(json).toMatchObject({ exit_code: 3, findings: [], not_proven: expect.stringMatching(/^not proven: 1 protected operation/) as unknown });
    const sarif = JSON.parse((await jscr(['prove', '--format', 'sarif'], repo.root)).stdout) as { runs: { invocations: { executionSuccessful: boolean }[] }[] };
    expect(sarif.runs[0]?.invocations[0]?.executionSuccessful).toBe(false);
    // a repository with nothing to protect is still a plain "found nothing", exit 0
    const plain = makeRepo({ 'src/Util.java': 'public class Util {\n  int add(int a, int b) { return a + b; }\n}\n' });
    try {
      const quiet = await jscr(['prove'], plain.root);
      expect(quiet.code).toBe(0);
      expect(quiet.stdout).toMatch(/found nothing/);
      expect((JSON.parse((await jscr(['prove', '--format', 'json'], plain.root)).stdout) as Record<string, unknown>).not_proven).toBeNull();
    } finally {
      plain.cleanup();
    }
  });

  it('entry points that reach no operation it knows: "found nothing" says none was checked', async () => {
    // A write through a wrapper no row names (`this.store.persist`): the entry is seen, the write is not.
    const blind = unguarded.replace('doTestConnection', 'doRemember').replace(/return CredentialsProvider[^\n]*/, 'this.store.persist(id);\n    return FormValidation.ok();');
    repo = makeRepo({ 'src/main/java/org/acme/Hook.java': blind });
    const text = await jscr(['prove'], repo.root);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/found nothing: none of the 1 entry points reaches an operation the prover knows, so none was checked/);
    expect(text.stdout).toMatch(/1 entry points .*; 0 operations checked/);
    // With an operation checked and discharged, the plain sentence stands.
    repo.commit({ 'src/main/java/org/acme/Hook.java': guarded });
    const checked = await jscr(['prove'], repo.root);
    expect(checked.stdout).toMatch(/found nothing\.\n/);
  });

  it('exit 2 for a bad revision, a directory that is not a repository, and a bad --max-depth', async () => {
    repo = makeRepo({ 'src/Hook.java': guarded });
    expect((await jscr(['prove', '--base', 'no-such-rev'], repo.root)).code).toBe(2);
    expect((await jscr(['prove', '--head', 'no-such-rev'], repo.root)).code).toBe(2);
    const plain = mkdtempSync(join(tmpdir(), 'jscr-not-repo-'));
    try {
      const result = await jscr(['prove', '--repo', plain], plain);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/not a git repository/);
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
    expect((await jscr(['prove', '--max-depth', 'x'], repo.root)).code).toBe(2);
  });

  it('--max-depth bounds how far from the entry an operation is reached', async () => {
    repo = makeRepo({
      'src/Hook.java': `public class Hook extends Descriptor<Object> {
  public FormValidation doCheckName(@QueryParameter String v) { a(); return null; }
  void a() { b(); }
  void b() { CredentialsProvider.lookupCredentials(C.class, Jenkins.get(), ACL.SYSTEM, null); }
}
`,
    });
    expect((await jscr(['prove', '--max-depth', '2'], repo.root)).code).toBe(1);
    const shallow = await jscr(['prove', '--max-depth', '1', '--format', 'json'], repo.root);
    expect(shallow.code).toBe(0);
    expect(JSON.parse(shallow.stdout).coverage.unreached).toBe(1);
  });
});
