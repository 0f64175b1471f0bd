import { existsSync, readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runJscr as jscr } from '../helpers/cli.js';
import { reposRemovedAfterEach, type TestRepo } from '../helpers/repo.js';

const makeRepo = reposRemovedAfterEach();
const folders: string[] = [];
afterEach(() => {
  for (const f of folders.splice(0)) rmSync(f, { recursive: true, force: true });
});
function folder(): string {
  const f = mkdtempSync(join(tmpdir(), 'jscr-pool-'));
  folders.push(f);
  return f;
}

const LOOKUP = '    CredentialsProvider.lookupCredentials(C.class, Jenkins.get(), ACL.SYSTEM, null);\n';
const CHECK = '    Jenkins.get().checkPermission(Jenkins.ADMINISTER);\n';

/** A Stapler descriptor whose handlers read credentials; `body` is each handler's lines. */
function descriptor(name: string, handlers: Record<string, string>): string {
  const methods = Object.entries(handlers).map(([method, body]) => `  public FormValidation ${method}(@QueryParameter String id) {\n${body}    return FormValidation.ok();\n  }\n`);
  return `package org.acme;\npublic class ${name} extends Descriptor<Object> {\n${methods.join('')}}\n`;
}

interface Built {
  repo: TestRepo;
  /** Fixes that add the check before the lookup, and after it (a wrong fix: the finding stays). */
  goodFix: string;
  lateFix: string;
  ordinaryQuiet: string;
  ordinaryAlarm: string;
  docsOnly: string;
}

/** A tiny Jenkins plugin: two unguarded handlers, their fixes, and ordinary commits around them. */
function plugin(): Built {
  const repo = makeRepo({
    'src/main/java/org/acme/Hook.java': descriptor('Hook', { doTestConnection: LOOKUP, doValidate: `    int unused = 0;\n${LOOKUP}` }),
    'src/main/java/org/acme/Util.java': 'package org.acme;\npublic class Util {\n  static int twice(int x) { return x * 2; }\n}\n',
  });
  const goodFix = repo.commit({ 'src/main/java/org/acme/Hook.java': descriptor('Hook', { doTestConnection: CHECK + LOOKUP, doValidate: `    int unused = 0;\n${LOOKUP}` }) }, 'check before connecting');
  const lateFix = repo.commit({ 'src/main/java/org/acme/Hook.java': descriptor('Hook', { doTestConnection: CHECK + LOOKUP, doValidate: `    int unused = 0;\n${LOOKUP}${CHECK}` }) }, 'check, too late');
  const ordinaryQuiet = repo.commit({ 'src/main/java/org/acme/Util.java': 'package org.acme;\npublic class Util {\n  static int twice(int x) { return x + x; }\n}\n' }, 'refactor');
  const ordinaryAlarm = repo.commit({ 'src/main/java/org/acme/Other.java': descriptor('Other', { doFetch: LOOKUP }) }, 'new endpoint');
  const docsOnly = repo.commit({ 'README.md': 'a plugin\n' }, 'docs');
  return { repo, goodFix, lateFix, ordinaryQuiet, ordinaryAlarm, docsOnly };
}

function writePool(dir: string, repo: string, changes: unknown[]): string {
  const path = join(dir, 'pool.json');
  writeFileSync(path, JSON.stringify({ schema_version: 1, changes: changes.map((c) => ({ repo, ...(c as object) })) }));
  return path;
}

function records(out: string): Record<string, unknown>[] {
  return readFileSync(join(out, 'records.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('jscr prove --pool', () => {
  it('scores recall on locations, gone-at-fix, false alarms per 100 pushes and seconds, and records every run', async () => {
    const b = plugin();
    const dir = folder();
    const pool = writePool(dir, b.repo.root, [
      { id: 'good', kind: 'fix', fixed: b.goodFix, framework: 'stapler', advisory: 'TEST-1', locations: [{ file: 'src/main/java/org/acme/Hook.java', function: 'Hook.doTestConnection' }] },
      // located by line only (the lookup of doValidate is line 10 at the vulnerable revision), and a location nothing reaches
      { id: 'late', kind: 'fix', fixed: b.lateFix, locations: [{ file: 'src/main/java/org/acme/Hook.java', line: 11 }, { file: 'src/main/java/org/acme/Util.java', function: 'twice' }] },
      { id: 'quiet', kind: 'ordinary', commit: b.ordinaryQuiet },
      { id: 'alarm', kind: 'ordinary', commit: b.ordinaryAlarm },
    ]);
    const out = join(dir, 'out');
    const run = await jscr(['prove', '--pool', pool, '--out', out, '--format', 'json'], dir);
    expect(run.stderr).not.toMatch(/refused|internal/);
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({
      fixes: 2, locations: 3, found: 2, recall: 0.667,
      gone_at_fix: 1, gone_at_fix_share: 0.5,
      ordinary_pushes: 2, false_alarms: 1, pushes_with_false_alarms: 1, false_alarms_per_100_pushes: 50,
      runs: 6, runs_incomplete: 0,
    });
    expect(summary.changes).toEqual(expect.arrayContaining([
      expect.objectContaining({ id: 'good', found: 1, gone_at_fix: 1, findings_vulnerable: 1, findings_fix: 0, advisory: 'TEST-1', framework: 'stapler' }),
      expect.objectContaining({ id: 'late', locations: 2, found: 1, gone_at_fix: 0 }),
      expect.objectContaining({ id: 'alarm', false_alarms: 1 }),
    ]));
    expect(summary.max_seconds as number).toBeGreaterThanOrEqual(summary.median_seconds as number);
    expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'))).toEqual(summary);

    const rows = records(out);
    expect(rows.map((r) => `${String(r.id)}:${String(r.role)}`).sort()).toEqual(['alarm:ordinary', 'good:fix', 'good:vulnerable', 'late:fix', 'late:vulnerable', 'quiet:ordinary']);
    const goodVulnerable = rows.find((r) => r.id === 'good' && r.role === 'vulnerable')!;
    // the vulnerable change is the fix reversed: from the fix back to its parent
    expect(goodVulnerable).toMatchObject({ base: b.goodFix, status: 'complete', reason: null, findings: [{ path: 'src/main/java/org/acme/Hook.java', function: 'Hook.doTestConnection', operation: { kind: 'credential_access' } }] });
    expect(goodVulnerable.files_read as number).toBeGreaterThan(0);
    expect(goodVulnerable.bytes_read as number).toBeGreaterThan(0);
    expect(goodVulnerable.coverage).toMatchObject({ entry_points: 2, operations_discharged: 0 });
    // records keep where a finding runs, never the quoted source line
    expect(JSON.stringify(rows)).not.toContain('lookupCredentials(');

    const text = await jscr(['prove', '--pool', pool, '--out', out], dir);
    expect(text.stdout).toMatch(/recall on locations: 66\.7% \(2 of 3\)/);
    expect(text.stdout).toMatch(/gone at fix: 50% \(1 of 2 found\)/);
    expect(text.stdout).toMatch(/false alarms per 100 ordinary pushes: 50 \(1 on 1 pushes\)/);
  });

  it('resumes: a second start proves nothing again, and a record cut short is proved again', async () => {
    const b = plugin();
    const dir = folder();
    const pool = writePool(dir, b.repo.root, [
      { id: 'good', kind: 'fix', fixed: b.goodFix, locations: [{ file: 'src/main/java/org/acme/Hook.java', function: 'doTestConnection' }] },
      { id: 'quiet', kind: 'ordinary', commit: b.ordinaryQuiet },
    ]);
    const out = join(dir, 'out');
    expect((await jscr(['prove', '--pool', pool, '--out', out], dir)).code).toBe(0);
    const first = readFileSync(join(out, 'records.jsonl'), 'utf8');
    const again = await jscr(['prove', '--pool', pool, '--out', out], dir);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/3 runs, 3 already recorded/);
    expect(readFileSync(join(out, 'records.jsonl'), 'utf8')).toBe(first);

    // killed while writing the last record: that run is done again, the others are kept
    writeFileSync(join(out, 'records.jsonl'), first.slice(0, first.length - 20));
    const resumed = await jscr(['prove', '--pool', pool, '--out', out, '--format', 'json'], dir);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toMatch(/3 runs, 2 already recorded/);
    expect(records(out)).toHaveLength(3);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ found: 1, gone_at_fix: 1, ordinary_pushes: 1 });

    // a record line broken in the middle is no record: one line, exit 2, nothing overwritten
    const lines = readFileSync(join(out, 'records.jsonl'), 'utf8').split('\n');
    lines[0] = '{"not": "a record"}';
    writeFileSync(join(out, 'records.jsonl'), lines.join('\n'));
    const broken = await jscr(['prove', '--pool', pool, '--out', out], dir);
    expect(broken.code).toBe(2);
    expect(broken.stderr.trim().split('\n')).toHaveLength(1);
    expect(broken.stderr).toMatch(/line 1 is not a run record/);
  });

  it('refuses a summary when a run read no file or could not run', async () => {
    const b = plugin();
    const dir = folder();
    const out = join(dir, 'out');
    const docs = writePool(dir, b.repo.root, [
      { id: 'good', kind: 'fix', fixed: b.goodFix, locations: [{ file: 'src/main/java/org/acme/Hook.java', function: 'doTestConnection' }] },
      { id: 'docs', kind: 'ordinary', commit: b.docsOnly },
    ]);
    const refused = await jscr(['prove', '--pool', docs, '--out', out], dir);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/refused: 1 run\(s\) read no file or failed.*first: docs ordinary: no file read/);
    expect(existsSync(join(out, 'summary.json'))).toBe(false);

    // a commit the repository does not have: recorded as an error, refused, and tried again on the next start
    const missing = writePool(dir, b.repo.root, [{ id: 'gone', kind: 'ordinary', commit: 'deadbeefdeadbeef' }]);
    const out2 = join(dir, 'out2');
    const first = await jscr(['prove', '--pool', missing, '--out', out2], dir);
    expect(first.code).toBe(2);
    expect(first.stderr).toMatch(/refused: 1 run\(s\).*first: gone ordinary: /);
    expect(records(out2)).toMatchObject([{ id: 'gone', status: 'error', files_read: 0 }]);
    const second = await jscr(['prove', '--pool', missing, '--out', out2], dir);
    expect(second.stderr).toMatch(/1 runs, 0 already recorded/);
  });

  it('bad pools and bad folders: one line, exit 2, nothing written', async () => {
    const b = plugin();
    const dir = folder();
    const cases: [unknown, RegExp][] = [
      ['not json', /is not JSON/],
      [{ schema_version: 1, changes: [{ id: 'x', kind: 'ordinary', repo: b.repo.root, commit: '--output=/tmp/x' }] }, /does not have the pool shape.*commit id/],
      [{ schema_version: 1, changes: [{ id: 'x', kind: 'fix', repo: b.repo.root, fixed: b.goodFix, locations: [{ file: 'a.java' }] }] }, /names a function or a line/],
      [{ schema_version: 1, changes: [{ id: 'x', kind: 'ordinary', repo: b.repo.root, commit: b.docsOnly }, { id: 'x', kind: 'ordinary', repo: b.repo.root, commit: b.docsOnly }] }, /names the change x twice/],
      [{ schema_version: 1, changes: [{ id: 'x', kind: 'ordinary', repo: 'no-such-clone', commit: b.docsOnly }] }, /repository no-such-clone \(change x\) is not at/],
    ];
    for (const [content, message] of cases) {
      const pool = join(dir, 'bad.json');
      writeFileSync(pool, typeof content === 'string' ? content : JSON.stringify(content));
      const run = await jscr(['prove', '--pool', pool, '--out', join(dir, 'out')], dir);
      expect(run.code, String(message)).toBe(2);
      expect(run.stderr.trim().split('\n'), String(message)).toHaveLength(1);
      expect(run.stderr).toMatch(message);
      expect(existsSync(join(dir, 'out')), String(message)).toBe(false);
    }
    const pool = writePool(dir, b.repo.root, [{ id: 'q', kind: 'ordinary', commit: b.ordinaryQuiet }]);
    const inside = await jscr(['prove', '--pool', pool, '--out', join(b.repo.root, 'scores')], dir);
    expect(inside.code).toBe(2);
    expect(inside.stderr).toMatch(/inside the pool repository/);
    expect(existsSync(join(b.repo.root, 'scores'))).toBe(false);
    const flags = await jscr(['prove', '--pool', pool, '--out', join(dir, 'o'), '--base', 'HEAD~1'], dir);
    expect(flags.code).toBe(2);
    expect(flags.stderr).toMatch(/not --repo, --base/);
    expect((await jscr(['prove', '--pool', pool], dir)).stderr).toMatch(/--pool needs --out/);
  });
});

describe('jscr prove --pool records why a run says less', () => {
  it('writes the not-proven reason into the record, so a pool reader knows why a run found nothing', async () => {
    // a protected operation in a class no supported framework routes to: nothing can be proved
    const lookup = (body: string): string => `package org.acme;\npublic class Job {\n  void run() {\n${body}  }\n}\n`;
    const repo = makeRepo({ 'src/main/java/org/acme/Job.java': lookup(LOOKUP) });
    const changed = repo.commit({ 'src/main/java/org/acme/Job.java': lookup(`    int n = 1;\n${LOOKUP}`) }, 'tidy');
    const dir = folder();
    const pool = writePool(dir, repo.root, [{ id: 'plain', kind: 'ordinary', commit: changed }]);
    const out = join(dir, 'out');
    const run = await jscr(['prove', '--pool', pool, '--out', out, '--format', 'json'], dir);
    expect(run.code).toBe(3);
    const [row] = records(out);
    expect(row).toMatchObject({ id: 'plain', status: 'not_proven' });
    expect(String(row?.reason)).toMatch(/no entry point of a supported web framework/);
  });
});
