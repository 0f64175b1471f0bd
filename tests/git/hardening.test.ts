/**
 * No program named by the reviewed repository's git configuration, attributes or hooks ever runs, in
 * any change mode, and a review never writes under .git (ADR 0009). Each mechanism gets a real
 * repository whose configuration names a script that leaves a marker file; a control run of plain git
 * on a copy proves the mechanism is live (the marker appears), then jscr runs in every mode and the
 * marker must not appear, and .git must be byte for byte and mtime for mtime what it was.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runJscr } from '../helpers/cli.js';
import { makeRepo, type TestRepo } from '../helpers/repo.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const GIT_ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: tmpdir(), GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid' };

/** A script that appends to `marker` when run; `passThrough` makes it copy stdin to stdout, as a filter would. */
function markerScript(dir: string, name: string, passThrough = true): { script: string; marker: string } {
  const marker = join(dir, `${name}.ran`);
  const script = join(dir, `${name}.sh`);
  writeFileSync(script, `#!/bin/sh\necho "$0 $*" >> '${marker}'\n${passThrough ? 'cat' : 'exit 0'}\n`);
  chmodSync(script, 0o755);
  return { script, marker };
}

/**
 * Base commit, head commit (with `headFiles`), a staged edit and a further working-tree edit; the edited
 * file and an unchanged one are stat-dirty, so git reads them and refreshes the index.
 */
// A page handing request data to a query helper of another file: data flow looks the helper up with
// git grep (src/flow/repository.ts), in every mode, so that search runs under the hostile config too.
const LIB_PHP = '<?php\nfunction run_query($sql) { global $db; return mysqli_query($db, $sql); }\n';
const PAGE_PHP = (line: string): string => `<?php\nrequire_once "lib.php";\n${line}\n`;
const QUERY_LINE = `run_query("SELECT * FROM t WHERE n = '" . $_GET["q"] . "'");`;

function changeInEveryMode(headFiles: Record<string, string> = {}): TestRepo {
  const repo = makeRepo({ 'app.py': 'import os\n\ndef run(y):\n    return y\n', 'tool.sh': 'echo hi\n', 'README.md': 'notes\n', 'lib.php': LIB_PHP, 'page.php': PAGE_PHP('echo "ok";') });
  made.push(repo.root);
  repo.commit({ 'app.py': 'import os\n\ndef run(y):\n    os.system("rm -rf " + y)\n', 'tool.sh': 'echo $1\n', 'page.php': PAGE_PHP(QUERY_LINE), ...headFiles }, 'head');
  repo.write({ 'app.py': 'import os\n\ndef run(y):\n    os.system("rm -rf " + y)\n    return 2\n' });
  repo.git('add', 'app.py');
  repo.write({ 'app.py': 'import os\n\ndef run(y):\n    os.system("rm -rf " + y)\n    os.system("curl " + y)\n    return 3\n', 'tool.sh': 'echo $2\n', 'page.php': PAGE_PHP(QUERY_LINE.replace('"q"', '"r"')) });
  const old = new Date('2020-01-01T00:00:00Z');
  for (const file of ['app.py', 'README.md']) utimesSync(join(repo.root, file), old, old);
  return repo;
}

interface GitSnapshot {
  [path: string]: string;
}

/** Every entry under .git with its kind, size, mtime and content hash. */
function snapshotGitDir(root: string): GitSnapshot {
  const out: GitSnapshot = {};
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const info = lstatSync(path);
      const rel = relative(root, path);
      if (info.isDirectory()) {
        out[rel] = `dir ${info.mtimeMs}`;
        walk(path);
      } else {
        const hash = info.isFile() ? createHash('sha256').update(readFileSync(path)).digest('hex') : 'special';
        out[rel] = `${info.size} ${info.mtimeMs} ${hash}`;
      }
    }
  };
  walk(join(root, '.git'));
  return out;
}

/** The jscr runs every mechanism is tried with: each change mode of review, prove and fix. */
const RUNS: readonly string[][] = [
  ['review', '--no-model', '--format', 'json'],
  ['review', '--no-model', '--format', 'json', '--staged'],
  ['review', '--no-model', '--format', 'json', '--commit', 'HEAD'],
  ['review', '--no-model', '--format', 'json', '--range', 'HEAD~1..HEAD'],
  ['prove', '--base', 'HEAD~1', '--head', 'HEAD'],
  // fix reviews the working tree first; without --accept-model it writes only its run folder under HOME.
  ['fix'],
];

interface Mechanism {
  name: string;
  /** Make the repository name the marker program; returns the markers that must never appear. */
  arm(repo: TestRepo, dir: string): string[];
  /** Files the head commit adds (a committed .gitattributes). */
  headFiles?: Record<string, string>;
  /** Plain git (or a command running git) that runs the program on a copy, proving the mechanism is live. */
  control: string[];
  controlInput?: string;
  /** Environment for both the control and jscr. */
  env?: (dir: string) => NodeJS.ProcessEnv;
}

/** An `arm` that sets each of `keys` to a marker script, optionally with attributes in .git/info/attributes and a `required` key. */
function configured(name: string, keys: string[], opts: { attributes?: string; required?: string; passThrough?: boolean } = {}): Mechanism['arm'] {
  return (repo, dir) => {
    const { script, marker } = markerScript(dir, name, opts.passThrough ?? true);
    if (opts.attributes !== undefined) writeFileSync(join(repo.root, '.git', 'info', 'attributes'), opts.attributes);
    for (const key of keys) repo.git('config', key, script);
    if (opts.required !== undefined) repo.git('config', opts.required, 'true');
    return [marker];
  };
}

const MECHANISMS: Mechanism[] = [
  {
    name: 'core.fsmonitor',
    arm: configured('fsmonitor', ['core.fsmonitor'], { passThrough: false }),
    control: ['diff', 'HEAD'],
  },
  {
    name: 'filter.<driver>.clean and .smudge, required',
    arm: configured('filter-clean', ['filter.hostile.clean', 'filter.hostile.smudge'], { attributes: '*.py filter=hostile\n', required: 'filter.hostile.required' }),
    control: ['diff', 'HEAD'],
  },
  {
    // With `git -c` such a name would split at its first "="; jscr passes keys apart from values.
    name: 'a filter driver whose name holds "=" and dots',
    arm: configured('filter-odd-name', ['filter.odd=x.y.clean'], { attributes: '*.py filter=odd=x.y\n*.md filter=odd=x.y\n', required: 'filter.odd=x.y.required' }),
    control: ['diff', 'HEAD'],
  },
  {
    name: 'filter.<driver>.process, named by a committed .gitattributes',
    headFiles: { '.gitattributes': '*.py filter=longrunning\n*.md filter=longrunning\n' },
    arm: configured('filter-process', ['filter.longrunning.process'], { required: 'filter.longrunning.required' }),
    control: ['diff', 'HEAD'],
  },
  {
    name: 'diff.external in the config',
    arm: configured('diff-external', ['diff.external'], { passThrough: false }),
    control: ['diff', 'HEAD~1', 'HEAD'],
  },
  {
    name: 'GIT_EXTERNAL_DIFF in the environment',
    arm: (_repo, dir) => [markerScript(dir, 'env-external', false).marker],
    env: (dir) => ({ GIT_EXTERNAL_DIFF: join(dir, 'env-external.sh') }),
    control: ['diff', 'HEAD~1', 'HEAD'],
  },
  {
    name: 'diff.<driver>.textconv',
    arm: configured('textconv', ['diff.conv.textconv'], { attributes: '*.py diff=conv\n*.sh diff=conv\n' }),
    control: ['diff', 'HEAD~1', 'HEAD'],
  },
  {
    name: 'diff.<driver>.command',
    arm: configured('diff-command', ['diff.tool.command'], { attributes: '*.py diff=tool\n', passThrough: false }),
    control: ['diff', 'HEAD~1', 'HEAD'],
  },
  {
    name: 'core.pager, pager.diff, GIT_PAGER and PAGER',
    arm: (repo, dir) => [...configured('pager-config', ['core.pager', 'pager.diff', 'pager.grep'])(repo, dir), markerScript(dir, 'pager-env').marker],
    env: (dir) => ({ GIT_PAGER: join(dir, 'pager-env.sh'), PAGER: join(dir, 'pager-env.sh') }),
    // git starts a pager only on a terminal; `script` gives the control one.
    control: ['script', '-qc', 'git -p diff HEAD~1 HEAD', '/dev/null'],
  },
  {
    name: 'hooks: .git/hooks and core.hooksPath (post-index-change)',
    arm: (repo, dir) => {
      const inGitDir = markerScript(dir, 'hook-default', false);
      cpSync(inGitDir.script, join(repo.root, '.git', 'hooks', 'post-index-change'));
      const hooks = join(dir, 'hooks');
      mkdirSync(hooks);
      const viaPath = markerScript(dir, 'hook-path', false);
      for (const hook of ['post-index-change', 'reference-transaction', 'pre-commit']) cpSync(viaPath.script, join(hooks, hook));
      repo.git('config', 'core.hooksPath', hooks);
      return [inGitDir.marker, viaPath.marker];
    },
    control: ['diff', 'HEAD'],
  },
  {
    name: 'an included config file (include.path and includeIf gitdir)',
    arm: (repo, dir) => {
      const { script, marker } = markerScript(dir, 'included', false);
      const included = join(dir, 'included.gitconfig');
      writeFileSync(included, `[core]\n\tfsmonitor = ${script}\n[filter "inc"]\n\tclean = ${script}\n`);
      writeFileSync(join(repo.root, '.git', 'info', 'attributes'), '*.py filter=inc\n');
      repo.git('config', `includeIf.gitdir:${repo.root}/.git.path`, included);
      repo.git('config', 'include.path', included);
      return [marker];
    },
    control: ['diff', 'HEAD'],
  },
  {
    name: 'worktree config (extensions.worktreeConfig)',
    arm: (repo, dir) => {
      const { script, marker } = markerScript(dir, 'worktree-config', false);
      repo.git('config', 'extensions.worktreeConfig', 'true');
      repo.git('config', '--worktree', 'core.fsmonitor', script);
      return [marker];
    },
    control: ['diff', 'HEAD'],
  },
  {
    name: 'GIT_CONFIG_COUNT and GIT_CONFIG_PARAMETERS in the environment',
    arm: (_repo, dir) => [markerScript(dir, 'env-config', false).marker],
    env: (dir) => ({
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'core.fsmonitor',
      GIT_CONFIG_VALUE_0: join(dir, 'env-config.sh'),
      GIT_CONFIG_PARAMETERS: `'diff.external'='${join(dir, 'env-config.sh')}'`,
    }),
    control: ['diff', 'HEAD'],
  },
  {
    name: 'a submodule with its own hostile config and a dirty work tree',
    arm: (repo, dir) => {
      const { script, marker } = markerScript(dir, 'submodule-filter');
      const inner = makeRepo({ 'lib.py': 'x = 1\n', '.gitattributes': '*.py filter=inner\n' });
      made.push(inner.root);
      execFileSync('git', ['-c', 'protocol.file.allow=always', 'submodule', '-q', 'add', inner.root, 'vendor/lib'], { cwd: repo.root, env: GIT_ENV });
      repo.git('commit', '-q', '-m', 'submodule');
      const sub = join(repo.root, 'vendor', 'lib');
      execFileSync('git', ['config', 'filter.inner.clean', script], { cwd: sub, env: GIT_ENV });
      execFileSync('git', ['config', 'core.fsmonitor', script], { cwd: sub, env: GIT_ENV });
      writeFileSync(join(sub, 'lib.py'), 'x = 2\n');
      const old = new Date('2020-01-01T00:00:00Z');
      utimesSync(join(sub, 'lib.py'), old, old);
      return [marker];
    },
    control: ['diff', '--ignore-submodules=none', 'HEAD'],
  },
  {
    name: 'credential, askpass, ssh and signing programs',
    arm: configured('helpers', ['credential.helper', 'core.askPass', 'core.sshCommand', 'gpg.program', 'gpg.ssh.program', 'core.alternateRefsCommand', 'uploadpack.packObjectsHook', 'core.editor', 'sequence.editor'], { passThrough: false }),
    env: (dir) => ({ GIT_ASKPASS: join(dir, 'helpers.sh'), SSH_ASKPASS: join(dir, 'helpers.sh'), GIT_SSH_COMMAND: join(dir, 'helpers.sh') }),
    control: ['git', 'credential', 'fill'],
    controlInput: 'protocol=https\nhost=example.invalid\n\n',
  },
];

describe('no program from the reviewed repository ever runs', () => {
  it.each(MECHANISMS.map((m) => [m.name, m] as const))('%s', async (_name, mechanism) => {
    const repo = changeInEveryMode(mechanism.headFiles);
    const dir = mkdtempSync(join(tmpdir(), 'jscr-hostile-'));
    made.push(dir);
    const markers = mechanism.arm(repo, dir);
    const env = mechanism.env?.(dir) ?? {};

    // The control: plain git on a copy runs the program, so the mechanism is real.
    const copy = join(dir, 'control-copy');
    cpSync(repo.root, copy, { recursive: true });
    try {
      const [program, ...args] = mechanism.control[0] === 'git' || mechanism.control[0] === 'script' ? mechanism.control : ['git', ...mechanism.control];
      execFileSync(program as string, args, { cwd: copy, env: { ...GIT_ENV, ...env }, input: mechanism.controlInput ?? '', stdio: ['pipe', 'ignore', 'ignore'], timeout: 10_000 });
    } catch {
      // a hostile program may well make git fail; what matters is that it ran
    }
    expect(markers.some((m) => existsSync(m))).toBe(true);
    for (const m of markers) rmSync(m, { force: true });

    const before = snapshotGitDir(repo.root);
    const results = await Promise.all(RUNS.map((args) => runJscr(args, repo.root, { ...env, HOME: tmpdir(), GIT_CONFIG_NOSYSTEM: '1' })));
    for (const [i, result] of results.entries()) {
      // Every run ends with a report or a clear error: never a crash, never a hostile program.
      expect(result.stderr, RUNS[i]?.join(' ')).not.toMatch(/internal error|at .*\.js:\d+/);
      expect([0, 1, 2, 3]).toContain(result.code);
    }
    for (const m of markers) expect(existsSync(m), `${m} after jscr`).toBe(false);
    expect(snapshotGitDir(repo.root)).toEqual(before);
    // The change was really reviewed in the working-tree mode: the finding on the changed line is there.
    const worktree = JSON.parse(results[0]?.stdout ?? '{}') as { findings?: { path: string; flow?: { text: string }[] }[] };
    expect(worktree.findings?.some((f) => f.path === 'app.py')).toBe(true);
    // ...and the helper of the other file was looked up (git grep ran, with no hostile program).
    expect(worktree.findings?.some((f) => f.path === 'page.php' && f.flow?.some((step) => step.text.includes('lib.php')) === true)).toBe(true);
  }, 120_000);
});

describe('a program-naming key jscr cannot override', () => {
  it('stops before git runs at all: a filter driver whose name is not UTF-8', async () => {
    const repo = changeInEveryMode();
    const dir = mkdtempSync(join(tmpdir(), 'jscr-hostile-'));
    made.push(dir);
    const { script, marker } = markerScript(dir, 'latin1-driver');
    // An environment variable cannot carry the byte 0xE9, so no override could name this driver.
    const config = Buffer.concat([Buffer.from('[filter "caf'), Buffer.from([0xe9]), Buffer.from(`"]\n\tclean = ${script}\n\trequired = true\n`)]);
    writeFileSync(join(repo.root, '.git', 'config'), Buffer.concat([readFileSync(join(repo.root, '.git', 'config')), config]));
    writeFileSync(join(repo.root, '.git', 'info', 'attributes'), Buffer.concat([Buffer.from('*.py filter=caf'), Buffer.from([0xe9]), Buffer.from('\n')]));
    const copy = join(dir, 'control-copy');
    cpSync(repo.root, copy, { recursive: true });
    try {
      execFileSync('git', ['diff', 'HEAD'], { cwd: copy, env: GIT_ENV, stdio: 'ignore' });
    } catch {
      // the control only has to start the program
    }
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);
    for (const args of RUNS) {
      const result = await runJscr(args, repo.root, { HOME: tmpdir(), GIT_CONFIG_NOSYSTEM: '1' });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^jscr: the repository's git configuration names a program under a key that is not UTF-8/);
    }
    expect(existsSync(marker)).toBe(false);
  }, 120_000);
});

describe('a partial clone never fetches on jscr behalf', () => {
  /** A blob-less clone of a repository whose HEAD holds hostile code, configured by `configure`. */
  function partialClone(configure: (clone: string, dir: string) => string): { clone: string; marker: string } {
    const dir = mkdtempSync(join(tmpdir(), 'jscr-partial-'));
    made.push(dir);
    const server = makeRepo({ 'app.py': 'x = 1\n' });
    made.push(server.root);
    server.commit({ 'app.py': 'import os\nos.system("rm -rf " + y)\n' }, 'head');
    server.git('config', 'uploadpack.allowFilter', 'true');
    const clone = join(dir, 'clone');
    execFileSync('git', ['clone', '-q', '--filter=blob:none', '--no-checkout', `file://${server.root}`, clone], { env: GIT_ENV });
    const marker = configure(clone, dir);
    // Control: plain git lazily fetches the blob through the configured program.
    try {
      execFileSync('git', ['cat-file', '-p', 'HEAD:app.py'], { cwd: clone, env: GIT_ENV, stdio: 'ignore', timeout: 10_000 });
    } catch {
      // the planted program speaks no protocol
    }
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);
    return { clone, marker };
  }

  it('does not start the remote upload-pack program for a missing blob', async () => {
    const { clone, marker } = partialClone((cloned, dir) => {
      const { script, marker: made } = markerScript(dir, 'upload-pack', false);
      execFileSync('git', ['config', 'remote.origin.uploadpack', script], { cwd: cloned, env: GIT_ENV });
      return made;
    });
    const result = await runJscr(['review', '--no-model', '--commit', 'HEAD'], clone, { HOME: tmpdir(), GIT_CONFIG_NOSYSTEM: '1' });
    expect(existsSync(marker)).toBe(false);
    // The blob could not be read: never a clean review.
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^jscr: git .* failed: an object is missing from this partial clone, and jscr never fetches/);
  }, 60_000);

  it('does not run an ext:: transport that a per-protocol policy allows (it beats protocol.allow)', async () => {
    const { clone, marker } = partialClone((cloned, dir) => {
      const made = join(dir, 'ext-ran');
      // ext:: runs its command through no shell
      execFileSync('git', ['config', 'remote.origin.url', `ext::touch ${made}`], { cwd: cloned, env: GIT_ENV });
      execFileSync('git', ['config', 'protocol.ext.allow', 'always'], { cwd: cloned, env: GIT_ENV });
      return made;
    });
    const result = await runJscr(['review', '--no-model', '--commit', 'HEAD'], clone, { HOME: tmpdir(), GIT_CONFIG_NOSYSTEM: '1' });
    expect(existsSync(marker)).toBe(false);
    expect(result.code).toBe(2);
  }, 60_000);
});
