/**
 * `jscr fix` end to end: the CLI's `main` run in-process, a real git repository in a
 * temporary folder made from fixtures/fix/, and the scripted provider server (tests/model/server.ts) on 127.0.0.1.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runJscr, type CliRun } from '../helpers/cli.js';
import { makeRepo, type TestRepo } from '../helpers/repo.js';
import { startServer, type ScriptedProposal, type ScriptedServer } from '../model/server.js';
import { testNeedingAll } from '../helpers/programs.js';

// The guard's compile check (word 13) starts python3; the README promises only Node and git.
const itPython = testNeedingAll(['python3'], 'the tests of Python fixes');

const HERE = dirname(fileURLToPath(import.meta.url));
const FIXTURE = join(HERE, '..', '..', 'fixtures', 'fix', 'python-sql-lookup');

const API_KEY_ENV = 'JSCR_FIX_TEST_KEY';
/** A made-up key with a shape no secret rule would mistake for a real one. */
const API_KEY = 'fixtest-key-0d1e2f3a4b5c6d7e8f90';

const TARGET = 'app/users.py';
const SQL_LINE = 10;
const JS_TARGET = 'src/config.js';
const VULNERABLE = `    cursor.execute("SELECT id, name FROM users WHERE name = '%s'" % name)`;
const FIXED = '    cursor.execute("SELECT id, name FROM users WHERE name = ?", (name,))';

interface Row {
  finding: { rule: string };
  outcome: string;
  stage: string;
  detail: string;
  consultation: { context: { path: string; start_line: number; end_line: number; file_sha256: string }; symbol: string | null; line: number } | null;
  proposal: ScriptedProposal | null;
  checked: { refusal: string | null; result_sha256: string | null } | null;
  verify: { code: number | null } | null;
}

let server: ScriptedServer;
const cleanups: (() => void)[] = [];
beforeEach(async () => {
  server = await startServer();
});
afterEach(async () => {
  await server.close();
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A folder outside any repository, removed after the test. */
function scratch(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Run the CLI with the test key and a state folder of its own. */
function jscr(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return runJscr(args, cwd, { XDG_STATE_HOME: scratch('jscr-fix-state-'), [API_KEY_ENV]: API_KEY, ...env });
}

function configToml(opts: { model?: boolean; egress?: boolean } = {}): string {
  if (opts.model === false) return '[review]\nscope = "changed-files"\n';
  return [
    '[egress]',
    `enabled = ${opts.egress ?? true}`,
    '[net]',
    `connect = ["${server.hostPort}"]`,
    '[model]',
    'provider = "openai"',
    `base_url = "${server.base}/v1"`,
    'name = "test"',
    `api_key_env = "${API_KEY_ENV}"`,
    'timeout_s = 10',
    '',
  ].join('\n');
}

/** A repository whose base holds the configuration and whose HEAD adds the fixture; `fix --commit HEAD` reviews HEAD. */
function fixtureRepo(opts: { model?: boolean; egress?: boolean; extra?: Record<string, string> } = {}): TestRepo {
  const repo = makeRepo({ '.jscr.toml': configToml(opts), ...opts.extra });
  cleanups.push(() => repo.cleanup());
  repo.commit({ [TARGET]: readFileSync(join(FIXTURE, TARGET), 'utf8') }, 'add the user lookup');
  return repo;
}

/** The proposal a careful model would make: the value passed as a parameter. */
function goodProposal(overrides: Partial<ScriptedProposal> = {}): ScriptedProposal {
  return { path: TARGET, start_line: SQL_LINE, end_line: SQL_LINE, symbol: 'find_user', replaces: `${VULNERABLE}\n`, replacement: `${FIXED}\n`, ...overrides };
}

function readRows(folder: string): Row[] {
  return readFileSync(join(folder, 'runs.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as Row);
}

function fileText(repo: TestRepo): string {
  return readFileSync(join(repo.root, TARGET), 'utf8');
}

describe('jscr fix', () => {
  itPython('--accept-model --verify: an accepted proposal is written, verified and recorded; exit 0', async () => {
    const repo = fixtureRepo({ extra: { 'checks/uses_parameters.py': `import sys\nsys.exit(0 if "(name,)" in open("${TARGET}").read() else 1)\n` } });
    server.propose = [{ proposal: goodProposal() }];
    const out = join(scratch('jscr-fix-out-'), 'run');
    const run = await jscr(['fix', '--commit', 'HEAD', '--accept-model', '--verify', 'python3 checks/uses_parameters.py', '--out', out], repo.root);
    expect(run.stderr).not.toMatch(/internal error/);
    expect(run.code).toBe(0);
    expect(fileText(repo).split('\n')[SQL_LINE - 1]).toBe(FIXED);
    const [row] = readRows(out);
    expect(row?.outcome).toBe('applied');
    expect(row?.stage).toBe('verify');
    expect(row?.verify?.code).toBe(0);
    expect(row?.consultation).toMatchObject({ line: SQL_LINE, symbol: 'find_user', context: { path: TARGET, start_line: 8, end_line: 11 } });
    expect(row?.checked?.refusal).toBeNull();
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { outcomes: Record<string, number>; exit_code: number };
    expect(summary).toMatchObject({ outcomes: { applied: 1 }, exit_code: 0 });
    expect(run.stdout).toContain(`applied          ${TARGET}:${SQL_LINE}  jscr/python-sql-formatted-execute`);
    expect(run.stdout).toContain(`run folder: ${out}`);
    // The request asked for the proposal schema and framed the code as data.
    expect(server.requests.map((r) => r.schemaName)).toEqual(['jscr_proposal']);
    expect(server.requests[0]?.raw).toMatch(/<<<BEGIN JSCR-DATA-[0-9a-f]+ path=\\"app\/users.py\\" kind=\\"file-lines\\">>>/);
  });

  itPython('two files, two languages: each finding gets its own question, both are written; exit 0', async () => {
    const repo = fixtureRepo();
    repo.commit({ [JS_TARGET]: readFileSync(join(HERE, '..', '..', 'fixtures', 'fix', 'js-eval-config', JS_TARGET), 'utf8') }, 'add the config reader');
    const jsProposal: ScriptedProposal = {
      path: JS_TARGET,
      start_line: 4,
      end_line: 4,
      symbol: 'parseConfig',
      replaces: "  const settings = eval('(' + text + ')');\n",
      replacement: '  const settings = JSON.parse(text);\n',
    };
    server.propose = [{ proposal: (user) => (user.includes(`path=\"${JS_TARGET}\"`) || user.includes(`path="${JS_TARGET}"`) ? jsProposal : goodProposal()) }];
    const out = join(scratch('jscr-fix-out-'), 'run');
    const run = await jscr(['fix', '--range', 'HEAD~2..HEAD', '--accept-model', '--out', out], repo.root);
    expect(run.code).toBe(0);
    expect(readRows(out).map((r) => [r.consultation?.context.path, r.outcome]).sort()).toEqual([
      [TARGET, 'applied'],
      [JS_TARGET, 'applied'],
    ]);
    expect(readFileSync(join(repo.root, JS_TARGET), 'utf8')).toContain('  const settings = JSON.parse(text);\n');
    expect(fileText(repo)).toContain(FIXED);
    expect(server.requests).toHaveLength(2);
  });

  itPython('a refused proposal is not written: the file keeps its bytes, the row names the word, exit 1', async () => {
    const repo = fixtureRepo();
    const before = readFileSync(join(repo.root, TARGET));
    server.propose = [{ proposal: goodProposal({ replacement: '    import os\n    os.system("rm -rf /")\n' }) }];
    const out = join(scratch('jscr-fix-out-'), 'run');
    const run = await jscr(['fix', '--commit', 'HEAD', '--accept-model', '--out', out], repo.root);
    expect(run.code).toBe(1);
    expect(readFileSync(join(repo.root, TARGET)).equals(before)).toBe(true);
    const [row] = readRows(out);
    expect(row?.outcome).toBe('refused:import_outside_the_target');
    expect(row?.stage).toBe('check');
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { refusals_by_word: Record<string, number> };
    expect(summary.refusals_by_word).toEqual({ import_outside_the_target: 1 });
  });

  itPython('a --verify program that cannot start restores the file and makes the run incomplete (exit 3)', async () => {
    const repo = fixtureRepo();
    const before = readFileSync(join(repo.root, TARGET));
    server.propose = [{ proposal: goodProposal() }];
    const out = join(scratch('jscr-fix-out-'), 'run');
    const run = await jscr(['fix', '--commit', 'HEAD', '--accept-model', '--verify', 'no-such-verifier-program-xyz', '--out', out], repo.root);
    expect(run.code).toBe(3);
    expect(readFileSync(join(repo.root, TARGET)).equals(before)).toBe(true);
    const [row] = readRows(out);
    expect(row?.outcome).toBe('verify_failed');
  });

  itPython('a proposal whose --verify fails is rolled back byte for byte; exit 1', async () => {
    const repo = fixtureRepo();
    const before = readFileSync(join(repo.root, TARGET));
    server.propose = [{ proposal: goodProposal() }];
    const out = join(scratch('jscr-fix-out-'), 'run');
    const run = await jscr(['fix', '--commit', 'HEAD', '--accept-model', '--verify', "python3 -c 'import sys; print(\"first\"); sys.exit(\"check_users: 2 tests failed\")'", '--out', out], repo.root);
    expect(run.code).toBe(1);
    // the user sees why the check failed, not only that it did
    expect(run.stderr).toMatch(/--verify failed after writing .*; restoring it\n {2}\| first\n {2}\| check_users: 2 tests failed\n/);
    expect(readFileSync(join(repo.root, TARGET)).equals(before)).toBe(true);
    const [row] = readRows(out);
    expect(row?.outcome).toBe('verify_failed');
    expect(row?.verify?.code).toBe(1);
    expect(row?.detail).toMatch(/restored byte for byte/);
  });

  it('a file changed on disk while the model answered is refused and left as the user changed it', async () => {
    const repo = fixtureRepo();
    const edited = `${fileText(repo)}# edited by the user meanwhile\n`;
    server.propose = [{ proposal: goodProposal(), before: () => writeFileSync(join(repo.root, TARGET), edited) }];
    const out = join(scratch('jscr-fix-out-'), 'run');
    const run = await jscr(['fix', '--commit', 'HEAD', '--accept-model', '--out', out], repo.root);
    expect(run.code).toBe(1);
    expect(fileText(repo)).toBe(edited);
    expect(readRows(out)[0]?.outcome).toBe('refused:file_changed_since_read');
  });

  itPython('a file changed after the guard accepted and before the write is refused at write time', async () => {
    const repo = fixtureRepo();
    // The guard compiles Python with the python3 on PATH; this one changes the file first, so the
    // change lands after the guard's own hash check (word 4) and before the guarded write.
    const realPython = findOnPath('python3');
    const bin = scratch('jscr-fix-bin-');
    const marker = '# touched between check and write\n';
    writeFileSync(join(bin, 'python3'), `#!/bin/sh\nprintf '${marker.trimEnd()}\\n' >> '${join(repo.root, TARGET)}'\nexec '${realPython}' "$@"\n`);
    chmodSync(join(bin, 'python3'), 0o755);
    server.propose = [{ proposal: goodProposal() }];
    const out = join(scratch('jscr-fix-out-'), 'run');
    const run = await jscr(['fix', '--commit', 'HEAD', '--accept-model', '--out', out], repo.root, { PATH: `${bin}${delimiter}${process.env['PATH'] ?? ''}` });
    expect(run.code).toBe(1);
    const [row] = readRows(out);
    expect(row?.checked?.refusal).toBeNull();
    expect(row).toMatchObject({ outcome: 'refused:file_changed_since_read', stage: 'write' });
    expect(fileText(repo)).toContain(VULNERABLE);
    expect(fileText(repo).endsWith(marker)).toBe(true);
  });

  itPython('without --accept-model nothing is written and the accepted proposal is printed as a diff; exit 1', async () => {
    const repo = fixtureRepo();
    const before = readFileSync(join(repo.root, TARGET));
    server.propose = [{ proposal: goodProposal() }];
    const out = join(scratch('jscr-fix-out-'), 'run');
    const run = await jscr(['fix', '--commit', 'HEAD', '--out', out], repo.root);
    expect(run.code).toBe(1);
    expect(readFileSync(join(repo.root, TARGET)).equals(before)).toBe(true);
    expect(run.stdout).toContain(`--- a/${TARGET}\n+++ b/${TARGET}\n@@ -7,5 +7,5 @@\n`);
    expect(run.stdout).toContain(`\n-${VULNERABLE}\n+${FIXED}\n`);
    expect(readRows(out)[0]?.outcome).toBe('needs_review');
  });

  it('a token in the file name never reaches the model, the output or the run folder: the finding is left for review', async () => {
    // Put together here so that no token-shaped literal sits in this file.
    const token = ['gh', 'p_', 'Rk4Tq9Xw2Lm7Vb3Nz8Hc5Jd1Fs6Gy0Pa2We7Uo'].join('');
    const repo = makeRepo({ '.jscr.toml': configToml() });
    cleanups.push(() => repo.cleanup());
    const path = `app/${token}.py`;
    repo.commit({ [path]: readFileSync(join(FIXTURE, TARGET), 'utf8') }, 'add the user lookup');
    server.propose = [{ proposal: goodProposal({ path }) }];
    const out = join(scratch('jscr-fix-out-'), 'run');
    const run = await jscr(['fix', '--commit', 'HEAD', '--out', out], repo.root);
    // The review's report masks the path, so the finding names a file that cannot be read: it is left for review.
    expect(run.stdout).toContain('needs_review');
    const written = readdirSync(out).map((name) => readFileSync(join(out, name), 'utf8')).join('\n');
    for (const [where, text] of [['model', server.requests.map((r) => r.raw).join('\n')], ['stdout', run.stdout], ['stderr', run.stderr], ['run folder', written]] as const) {
      expect(text, where).not.toContain(token.slice(4, 24));
    }
  });

  it('no model configured: every row is model_failed, nothing is sent, exit 3', async () => {
    const repo = fixtureRepo({ model: false });
    const out = join(scratch('jscr-fix-out-'), 'run');
    const run = await jscr(['fix', '--commit', 'HEAD', '--accept-model', '--out', out], repo.root);
    expect(run.code).toBe(3);
    const rows = readRows(out);
    expect(rows.map((r) => [r.outcome, r.stage])).toEqual([['model_failed', 'model']]);
    expect(server.connections).toBe(0);
  });

  it('a prover finding, whose evidence is the line without its indentation, is matched on disk and goes to the model', async () => {
    const repo = makeRepo({ '.jscr.toml': configToml({ model: false }) });
    cleanups.push(() => repo.cleanup());
    const view = 'from flask import Flask\nfrom app.models import User\napp = Flask(__name__)\n\n@app.route("/users/<int:uid>", methods=["DELETE"])\ndef delete_user(uid):\n    User.query.get(uid).delete()\n    return "ok"\n';
    repo.commit({ 'app/web.py': view }, 'an unguarded deletion');
    const out = join(scratch('jscr-fix-out-'), 'run');
    const run = await jscr(['fix', '--commit', 'HEAD', '--out', out], repo.root);
    expect(run.code).toBe(3);
    const prover = readRows(out).filter((r) => r.finding.rule === 'jscr/prover-unguarded-operation');
    expect(prover.map((r) => [r.outcome, r.stage])).toEqual([['model_failed', 'model']]);
  });

  it('egress not allowing the model host: model_failed and exit 3, zero connections', async () => {
    const repo = fixtureRepo({ egress: false });
    const out = join(scratch('jscr-fix-out-'), 'run');
    const run = await jscr(['fix', '--commit', 'HEAD', '--out', out], repo.root);
    expect(run.code).toBe(3);
    expect(readRows(out)[0]?.detail).toMatch(/egress.enabled = false/);
    expect(server.connections).toBe(0);
  });

  it('--out inside the repository is refused with exit 2 before anything runs', async () => {
    const repo = fixtureRepo();
    const run = await jscr(['fix', '--commit', 'HEAD', '--accept-model', '--out', 'fix-runs'], repo.root);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/inside the repository/);
    expect(existsSync(join(repo.root, 'fix-runs'))).toBe(false);
    expect(server.connections).toBe(0);
  });

  it('an unknown --finding is exit 2; a known id selects that finding', async () => {
    const repo = fixtureRepo();
    const unknown = await jscr(['fix', '--commit', 'HEAD', '--finding', 'deadbeefdead'], repo.root);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--finding deadbeefdead/);
    server.propose = [{ proposal: goodProposal() }];
    const out = join(scratch('jscr-fix-out-'), 'run');
    const first = await jscr(['fix', '--commit', 'HEAD', '--out', out], repo.root);
    const id = /\(([0-9a-f]{12})\)/.exec(first.stdout)?.[1] ?? '';
    expect(id).toMatch(/^[0-9a-f]{12}$/);
    const again = await jscr(['fix', '--commit', 'HEAD', '--finding', id, '--out', join(scratch('jscr-fix-out-'), 'run')], repo.root);
    expect(again.stdout).toContain(`(${id})`);
    expect(again.code).toBe(1);
  });

  it('a --verify command with shell features is refused with exit 2', async () => {
    const repo = fixtureRepo();
    for (const command of ['make test && rm -rf x', 'pytest | tee log', 'echo $HOME', 'ls *.py', 'a; b']) {
      const run = await jscr(['fix', '--commit', 'HEAD', '--accept-model', '--verify', command], repo.root);
      expect(run.code, command).toBe(2);
    }
    expect(server.connections).toBe(0);
  });

  it('the API key appears in no output and in no file of the run folder, even when the model echoes it', async () => {
    const repo = fixtureRepo();
    // A server that echoes the key back in its answer: the answer is recorded, the key is not.
    server.propose = [{ proposal: goodProposal({ replaces: `${VULNERABLE}  # ${API_KEY}\n` }) }];
    const out = join(scratch('jscr-fix-out-'), 'run');
    const run = await jscr(['fix', '--commit', 'HEAD', '--accept-model', '--verify', 'python3 -c pass', '--out', out], repo.root);
    expect(server.requests[0]?.headers['authorization']).toBe(`Bearer ${API_KEY}`);
    expect(run.stdout).not.toContain(API_KEY);
    expect(run.stderr).not.toContain(API_KEY);
    const files = readdirSync(out);
    expect(files.sort()).toEqual(['runs.jsonl', 'summary.json']);
    for (const name of files) expect(readFileSync(join(out, name), 'utf8'), name).not.toContain(API_KEY);
    expect(readFileSync(join(out, 'runs.jsonl'), 'utf8')).toContain('[api key]');
  });
});

function findOnPath(program: string): string {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    const candidate = join(dir, program);
    if (dir !== '' && existsSync(candidate)) return candidate;
  }
  throw new Error(`${program} is not on PATH`);
}
