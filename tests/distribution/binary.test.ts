/**
 * The single executable, copied alone into an empty folder and run with nothing but /usr/bin and /bin
 * on PATH (`env -i`): review, prove, guard, gate and rules list give what `node bin/jscr` gives, and
 * the npm-installed scanners are found on PATH or reported not run.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consult, propose } from '../guard/helpers.js';
import { CHECKOUT, ensureBinary } from '../helpers/binary.js';
import { makeRepo, type TestRepo } from '../helpers/repo.js';

const CLEAN_PATH = '/usr/bin:/bin';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

let temp: string;
let binary: string;
let repo: TestRepo;
let base: string;

/** `env -i PATH=… HOME=…` then the command: no other variable of this process reaches jscr. */
function clean(command: string[], cwd: string, home: string, input = '', path = CLEAN_PATH): Run {
  const run = spawnSync('/usr/bin/env', ['-i', `PATH=${path}`, `HOME=${home}`, ...command], { cwd, input, encoding: 'utf8', timeout: 120_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** The same jscr call through the binary and through `node bin/jscr`, each with a HOME of its own. */
function both(args: string[], cwd: string, input = ''): { binary: Run; node: Run } {
  return {
    binary: clean([binary, ...args], cwd, join(temp, 'home-binary'), input),
    node: clean([process.execPath, join(CHECKOUT, 'bin', 'jscr'), ...args], cwd, join(temp, 'home-node'), input),
  };
}

/** A report without what differs between two runs by nature (step timings). */
function stable(json: string): unknown {
  return JSON.parse(json, (key, value: unknown) => (key === 'duration_ms' ? undefined : value));
}

const UNGUARDED_JAVA = `package org.acme;
public class Hook extends Descriptor<Object> {
  public FormValidation doTestConnection(@QueryParameter String id) {
    return CredentialsProvider.lookupCredentials(C.class, Jenkins.get(), ACL.SYSTEM, null).isEmpty() ? FormValidation.ok() : FormValidation.error("x");
  }
}
`;
const SHELL_RUN_TS = `import { execFile } from 'node:child_process';

export function run(user: string, done: () => void): void {
  const command = 'id ' + user;
  execFile('/bin/sh', ['-c', command], done);
}
`;

beforeAll(() => {
  temp = realpathSync(mkdtempSync(join(tmpdir(), 'jscr-binary-')));
  for (const dir of ['empty', 'bin', 'home-binary', 'home-node']) mkdirSync(join(temp, dir));
  // The binary alone, away from the checkout: nothing of the package is beside it.
  binary = join(temp, 'bin', 'jscr');
  copyFileSync(ensureBinary(), binary);
  repo = makeRepo({ 'svc/report.py': 'import os\n\ndef report(name):\n    return name\n', 'src/run.ts': SHELL_RUN_TS });
  base = repo.git('rev-parse', 'HEAD').trim();
  repo.commit({
    'svc/report.py': 'import os\nimport subprocess\n\ndef report(name):\n    subprocess.call("report " + name, shell=True)\n    return eval(name)\n',
    'src/main/java/org/acme/Hook.java': UNGUARDED_JAVA,
  });
}, 300_000);

afterAll(() => {
  repo.cleanup();
  rmSync(temp, { recursive: true, force: true });
});

describe('the single executable, alone, under env -i', () => {
  it('prints the version and lists the rules from its embedded data', () => {
    const version = both(['--version'], join(temp, 'empty'));
    expect(version.binary).toEqual(version.node);
    expect(version.binary.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const rules = both(['rules', 'list'], join(temp, 'empty'));
    expect(rules.binary.code).toBe(0);
    expect(rules.binary.stdout).toContain('jscr/python-subprocess-shell-true');
    expect(rules.binary).toEqual(rules.node);
  });

  it('reviews a range with the built-in rules and grammars: the same JSON report as node bin/jscr', () => {
    const runs = both(['review', '--range', `${base}..HEAD`, '--format', 'json'], repo.root);
    expect(runs.binary.code, runs.binary.stderr).toBe(1);
    const report = stable(runs.binary.stdout) as { findings: { rule: string }[] };
    expect(report.findings.map((f) => f.rule)).toEqual(expect.arrayContaining(['jscr/python-subprocess-shell-true', 'jscr/python-eval-non-literal']));
    expect(report).toEqual(stable(runs.node.stdout));
    expect(runs.binary.stderr).toBe(runs.node.stderr);
  });

  it('proves the repository with the embedded facts: the same JSON as node bin/jscr', () => {
    const runs = both(['prove', '--format', 'json'], repo.root);
    expect(runs.binary.code, runs.binary.stderr).toBe(1);
    const report = stable(runs.binary.stdout) as { findings: { operation: { id: string } }[] };
    expect(report.findings.map((f) => f.operation.id)).toEqual(['jenkins.credentials-lookup']);
    expect(report).toEqual(stable(runs.node.stdout));
  });

  it('guards a TypeScript edit with the embedded TypeScript compiler, accepted and refused alike', () => {
    const asked = consult(repo.root, 'src/run.ts', { start: 3, end: 6, line: 4, symbol: 'run' });
    writeFileSync(join(temp, 'consultation.json'), JSON.stringify(asked));
    const verdicts = ["  const command = ['id', user].join(' ');\n", '  const command = ;\n'].map((replacement) => {
      writeFileSync(join(temp, 'proposal.json'), JSON.stringify(propose(asked, 4, 4, replacement)));
      return both(['guard', '--repo', repo.root, '--consultation', join(temp, 'consultation.json'), '--proposal', join(temp, 'proposal.json')], join(temp, 'empty'));
    });
    const [accepted, refused] = verdicts;
    expect(accepted?.binary.code, accepted?.binary.stderr).toBe(0);
    expect(JSON.parse(accepted?.binary.stdout ?? '')).toMatchObject({ refusal: null });
    expect(refused?.binary.code, refused?.binary.stderr).toBe(1);
    for (const run of verdicts) expect(run?.binary).toEqual(run?.node);
  });

  it('gates an agent edit like node bin/jscr: the bare hook call and the full CLI path', () => {
    const payload = JSON.stringify({
      session_id: 'binary-1',
      cwd: repo.root,
      hook_event_name: 'PreToolUse',
      tool_name: 'Edit',
      tool_input: { file_path: 'svc/report.py', old_string: '    return eval(name)', new_string: '    return name' },
    });
    const first = both(['gate'], repo.root, payload);
    expect(first.binary.code).toBe(0);
    expect(JSON.parse(first.binary.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    expect(first.binary).toEqual(first.node);
    const help = both(['gate', '--help'], repo.root);
    expect(help.binary.code).toBe(0);
    expect(help.binary).toEqual(help.node);
  });
});

describe('jscr init from the single executable', () => {
  it('writes an agent hook and a pre-push hook that run the executable alone, and both work', () => {
    const target = makeRepo({ 'svc/app.py': 'def run(name):\n    return name\n' });
    try {
      target.git('checkout', '-q', '-b', 'feature');
      target.commit({ 'svc/app.py': 'import os\n\ndef run(name):\n    os.system("report " + name)\n' });
      const home = join(temp, 'home-binary');
      const init = clean([binary, 'init', '--claude', '--pre-push', '--write'], target.root, home);
      expect(init.code, init.stderr).toBe(0);
      const settings = JSON.parse(readFileSync(join(target.root, '.claude', 'settings.local.json'), 'utf8')) as { hooks: { PreToolUse: { hooks: { command: string }[] }[] } };
      const command = settings.hooks.PreToolUse[0]?.hooks[0]?.command ?? '';
      // argv[1] of a single executable is the executable again: it must not be passed as an argument.
      expect(command).toBe(`'${binary}' gate`);
      const payload = JSON.stringify({ session_id: 'binary-init', cwd: target.root, hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: 'svc/app.py', old_string: 'name', new_string: 'who' } });
      const gate = clean(['/bin/sh', '-c', command], target.root, home, payload);
      expect(gate.code, gate.stderr).toBe(0);
      expect(JSON.parse(gate.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
      // No upstream yet: the hook reviews the branch against main and stops the push on the finding.
      const push = clean(['/bin/sh', join(target.root, '.git', 'hooks', 'pre-push'), 'origin', 'unused'], target.root, home);
      expect(push.code, push.stderr).toBe(1);
      expect(push.stdout).toContain('jscr/python-os-system-non-literal');
    } finally {
      target.cleanup();
    }
  });
});

describe('npm-installed scanners from the single executable', () => {
  let scanned: TestRepo;
  const token = `ghp_${'wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO'}${'0pINUx'}`; // built here: no token-shaped string is committed

  beforeAll(() => {
    scanned = makeRepo({ '.jscr.toml': '[scanners]\nenabled = ["eslint", "secretlint"]\n', 'README.md': 'x\n' });
    scanned.commit({ 'api/handler.js': `const client = { token: "${token}" };\nexports.handle = (req) => eval(req.body.expression);\n` });
  });
  afterAll(() => scanned.cleanup());

  it('reports them not run, exit 3, when they are not on PATH', () => {
    const run = clean([binary, 'review', '--range', 'HEAD~1..HEAD', '--format', 'json'], scanned.root, join(temp, 'home-binary'));
    expect(run.code, run.stderr).toBe(3);
    const report = JSON.parse(run.stdout) as { scanners: { name: string; status: string; detail: string }[] };
    for (const name of ['eslint', 'secretlint']) {
      expect(report.scanners.find((s) => s.name === name)).toMatchObject({ status: 'not_run', detail: expect.stringMatching(/not installed/) });
    }
  });

  it('runs them when they are on PATH, eslint with the plugin installed beside it', () => {
    const path = `${join(CHECKOUT, 'node_modules', '.bin')}:${CLEAN_PATH}`;
    const run = clean([binary, 'review', '--range', 'HEAD~1..HEAD', '--format', 'json'], scanned.root, join(temp, 'home-binary'), '', path);
    const report = JSON.parse(run.stdout) as { scanners: { name: string; status: string; detail: string }[]; findings: { rule: string; merged?: { rule: string }[] }[] };
    expect(report.scanners.filter((s) => s.status !== 'ran')).toEqual([]);
    // eslint's eval finding is reported, on its own or folded into jscr's finding of that line and CWE
    expect(report.findings.some((f) => f.rule === 'eslint/security/detect-eval-with-expression' || (f.merged ?? []).some((m) => m.rule === 'eslint/security/detect-eval-with-expression'))).toBe(true);
    // secretlint's finding on the token line folds into jscr's own secret finding; its count shows it ran for real.
    expect(report.scanners.find((s) => s.name === 'secretlint')?.detail).toMatch(/^1 finding/);
    expect(run.stdout).not.toContain(token);
  });
});
