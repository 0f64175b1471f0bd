/**
 * `jscr init` end to end, in real temporary repositories: what it shows, what it writes with --write,
 * what it refuses (conflicts, links out of the repository, hooks directories outside it), and that a
 * second run has nothing to do. The written pre-push hook is run by a real `git push`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/index.js';
import { configReference } from '../../src/config/reference.js';
import { ACTION_REF } from '../../src/distribution.js';
import { planInit } from '../../src/init/init.js';
import { JSCR_BIN } from '../helpers/cli.js';
import { makeRepo, runJscr, runJscrBinarySync, type CliResult, type FileMap, type TestRepo } from '../helpers/repo.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function repo(files?: FileMap): TestRepo {
  const r = makeRepo(files);
  made.push(r.root);
  return r;
}

function outsideDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'jscr-init-outside-')));
  made.push(dir);
  return dir;
}

/** Every file under `dir` with its bytes, `.git/objects` and the index left out (git's own bookkeeping). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, rel: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (path === '.git/objects' || path === '.git/index' || path === '.git/logs') continue;
      const abs = join(d, entry.name);
      if (entry.isSymbolicLink()) out[path] = `link:${path}`;
      else if (entry.isDirectory()) walk(abs, path);
      else out[path] = readFileSync(abs, 'base64');
    }
  };
  walk(dir, '');
  return out;
}

const init = (r: TestRepo, ...flags: string[]): Promise<CliResult> => runJscr(['init', ...flags], { cwd: r.root });
/** The command `jscr init` writes runs the program that ran it: tests of that command run the binary. */
const initByBinary = (r: TestRepo, ...flags: string[]): CliResult => runJscrBinarySync(['init', ...flags], { cwd: r.root });

const VENDORED: FileMap = {
  'src/app.js': 'export const answer = 42;\n',
  'vendor/lib/jquery.js': 'window.$ = 1;\n',
  'web/node_modules/left-pad/index.js': 'module.exports = 1;\n',
  'public/build/app.js': 'console.log(1);\n',
  'packages/ui/dist/index.js': 'export {};\n',
  'static/app.min.js': 'x=1;\n',
  'static/app.js.map': '{}\n',
  '.gitattributes': 'generated/** linguist-generated\n*.pb.go linguist-generated=true\nlegacy/** -linguist-vendored\nthird/** linguist-vendored=false\n',
  'api/.gitattributes': 'client.ts linguist-generated\n',
};

describe('jscr init: the starter .jscr.toml', () => {
  it('shows the file and writes nothing without --write', async () => {
    const r = repo(VENDORED);
    const before = snapshot(r.root);
    const out = await init(r);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('would write');
    expect(out.stdout).toContain('--- .jscr.toml (create)');
    expect(snapshot(r.root)).toEqual(before);
  });

  it('writes a file the loader accepts, with excludes for what the repository holds and every key commented', async () => {
    const r = repo(VENDORED);
    const out = await init(r, '--write');
    expect(out.code).toBe(0);
    const text = readFileSync(join(r.root, '.jscr.toml'), 'utf8');
    const config = parseConfigText(text, '.jscr.toml');
    expect(config.review.exclude).toEqual([
      'packages/ui/dist/**',
      'public/build/**',
      'vendor/**',
      'web/node_modules/**',
      '**/*.js.map',
      '**/*.min.js',
      'generated/**',
      '**/*.pb.go',
      'api/**/client.ts',
    ]);
    // everything else stays at its default
    expect({ ...config, review: { ...config.review, exclude: [] } }).toEqual(parseConfigText('', 'empty'));
    for (const section of configReference()) {
      expect(text).toContain(section.repeated ? `# [[${section.name}]]` : `[${section.name}]`);
      for (const key of section.keys) expect(text).toMatch(new RegExp(`^(# )?${key.name} =`, 'm'));
    }
  });

  it('suggests nothing for a repository with no vendored or generated paths, and the file still loads', async () => {
    const r = repo({ 'src/app.py': 'print(1)\n' });
    expect((await init(r, '--write')).code).toBe(0);
    const text = readFileSync(join(r.root, '.jscr.toml'), 'utf8');
    expect(parseConfigText(text, '.jscr.toml').review.exclude).toEqual([]);
    expect(text).toMatch(/^# exclude = \[\]$/m);
  });

  it('proposes a bundler output folder by its content-hashed names, with the evidence, and never a folder with hand-written code (#13)', async () => {
    const r = repo({
      'app/themes/admin/templates/base.html': '<html></html>\n',
      'app/themes/admin/static/assets/index-Bf3kQ9aZ.js': 'x\n',
      'app/themes/admin/static/assets/vendor-CZ8OEr5k.css': 'x\n',
      'app/themes/admin/static/assets/pages/users-Ll_d0V3v.js': 'x\n',
      'app/themes/admin/static/assets/main-css-CoszOyzj.css': 'x\n',
      'web/dist-like/main.4f5e6a7b.js': 'x\n',
      'web/dist-like/chunk.0a1b2c3d.js': 'x\n',
      'web/dist-like/other.9f8e7d6c5b.js': 'x\n',
      'web/dist-like/settings.js': 'x\n',
      'src/components/user-settings.js': 'x\n',
      'src/components/app-controls.js': 'x\n',
      'src/components/nav-navigate.js': 'x\n',
    });
    const out = await init(r, '--write');
    expect(out.code).toBe(0);
    const text = readFileSync(join(r.root, '.jscr.toml'), 'utf8');
    expect(parseConfigText(text, '.jscr.toml').review.exclude).toEqual(['app/themes/admin/static/**']);
    expect(text).toContain('content-hashed names such as assets/');
  });

  it("does not propose a Laravel application's published views (resources/views/vendor) (#13)", async () => {
    const r = repo({
      'resources/views/vendor/pagination/default.blade.php': '<nav>{{ $x }}</nav>\n',
      'templates/vendor/mail.html.twig': '{{ x }}\n',
      'vendor/autoload.php': '<?php\n',
    });
    expect((await init(r, '--write')).code).toBe(0);
    expect(parseConfigText(readFileSync(join(r.root, '.jscr.toml'), 'utf8'), '.jscr.toml').review.exclude).toEqual(['vendor/**']);
  });

  it('keeps hostile path names and attribute text inside TOML strings and comments', async () => {
    const r = repo({
      'a"b\\c/vendor/x.js': '1\n',
      'we[ir]d/dist/y.js': '1\n',
      '.gitattributes': 'x"\\y/** linguist-generated\n"quoted path" linguist-generated\n[attr]mine linguist-generated\n',
    });
    // a directory name with a newline is a legal git path
    r.commit({ 'evil\nexclude = ["**"]\n#/vendor/z.js': '1\n' });
    expect((await init(r, '--write')).code).toBe(0);
    const exclude = parseConfigText(readFileSync(join(r.root, '.jscr.toml'), 'utf8'), '.jscr.toml').review.exclude;
    expect(exclude).toEqual(['a"b\\\\c/vendor/**', 'evil\nexclude = \\["\\*\\*"\\]\n#/vendor/**', 'we\\[ir\\]d/dist/**', 'x"\\y/**']);
    expect(exclude).not.toContain('**');
  });

  it('reads no .gitattributes through a link out of the repository', async () => {
    const outside = outsideDir();
    writeFileSync(join(outside, 'attributes'), 'secret/** linguist-generated\n');
    const r = repo({ 'a.py': '1\n', '.gitattributes': { symlink: join(outside, 'attributes') } });
    expect((await init(r, '--write')).code).toBe(0);
    expect(parseConfigText(readFileSync(join(r.root, '.jscr.toml'), 'utf8'), '.jscr.toml').review.exclude).toEqual([]);
  });

  it('has nothing to do the second time, and keeps a .jscr.toml of the user unless --force', async () => {
    const r = repo(VENDORED);
    expect((await init(r, '--write')).code).toBe(0);
    const again = await init(r, '--write');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('nothing to do');
    writeFileSync(join(r.root, '.jscr.toml'), '[review]\nfail_on = "high"\n');
    const kept = await init(r, '--write');
    expect(kept.code).toBe(0);
    expect(kept.stdout).toMatch(/kept\s+\.jscr\.toml/);
    expect(readFileSync(join(r.root, '.jscr.toml'), 'utf8')).toBe('[review]\nfail_on = "high"\n');
    expect((await init(r, '--write', '--force')).code).toBe(0);
    expect(readFileSync(join(r.root, '.jscr.toml'), 'utf8')).toContain('# fail_on = "low"');
  });

  it('refuses a .jscr.toml that is a link out of the repository, even with --force', async () => {
    const outside = outsideDir();
    writeFileSync(join(outside, 'target'), 'theirs\n');
    const r = repo({ 'a.py': '1\n' });
    symlinkSync(join(outside, 'target'), join(r.root, '.jscr.toml'));
    const out = await init(r, '--write', '--force');
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/^jscr: \.jscr\.toml is a symbolic link\n$/);
    expect(readFileSync(join(outside, 'target'), 'utf8')).toBe('theirs\n');
  });

  it("is exit 2 with jscr's line and git's outside a repository, and --repo points it elsewhere", async () => {
    const dir = outsideDir();
    const out = await runJscr(['init'], { cwd: dir });
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/^jscr: not a git repository: .*\ngit: fatal: not a git repository.*\n$/);
    const r = repo({ 'a.py': '1\n' });
    expect((await runJscr(['init', '--repo', r.root, '--write'], { cwd: dir })).code).toBe(0);
    expect(existsSync(join(r.root, '.jscr.toml'))).toBe(true);
  });
});

describe('jscr init --github', () => {
  it('writes the workflow with the pinned Action; a different workflow is a conflict and nothing is written', async () => {
    const r = repo({ 'a.py': '1\n' });
    expect((await init(r, '--github', '--write')).code).toBe(0);
    const workflow = readFileSync(join(r.root, '.github/workflows/jscr.yml'), 'utf8');
    expect(workflow).toContain(`uses: ${ACTION_REF}`);
    expect(workflow).toContain('persist-credentials: false');
    // The Action's defaults hold: .jscr.toml decides fail_on, and SARIF upload stays auto, which skips
    // it on a fork's read-only token (sarif: true would make that upload fail instead).
    expect(workflow).not.toMatch(/^\s+(sarif|fail-on):/m);

    const other = repo({ 'a.py': '1\n', '.github/workflows/jscr.yml': 'name: mine\n' });
    const before = snapshot(other.root);
    const out = await init(other, '--github', '--write');
    expect(out.code).toBe(2);
    expect(out.stderr).toBe('jscr: .github/workflows/jscr.yml exists with other content; --force replaces it\n');
    // not even the starter config, which had no conflict of its own
    expect(snapshot(other.root)).toEqual(before);
    expect((await init(other, '--github', '--write', '--force')).code).toBe(0);
    expect(readFileSync(join(other.root, '.github/workflows/jscr.yml'), 'utf8')).toBe(workflow);
  });

  it('refuses a .github that links out of the repository', async () => {
    const outside = outsideDir();
    const r = repo({ 'a.py': '1\n' });
    symlinkSync(outside, join(r.root, '.github'));
    const out = await init(r, '--github', '--write');
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('goes through .github, which is a symbolic link');
    expect(readdirSync(outside)).toEqual([]);
    expect(existsSync(join(r.root, '.jscr.toml'))).toBe(false);
  });
});

describe('jscr init --claude', () => {
  const settingsPath = (r: TestRepo): string => join(r.root, '.claude/settings.local.json');
  const gateCommand = `'${process.execPath}' '${realpathSync(JSCR_BIN)}' gate`;

  it('creates the settings with the PreToolUse entry that runs this jscr gate', async () => {
    const r = repo({ 'a.py': '1\n' });
    expect((initByBinary(r, '--claude', '--write')).code).toBe(0);
    const settings = JSON.parse(readFileSync(settingsPath(r), 'utf8'));
    expect(settings).toEqual({
      hooks: { PreToolUse: [{ matcher: 'Edit|MultiEdit|Write|NotebookEdit', hooks: [{ type: 'command', command: gateCommand, timeout: 5 }] }] },
    });
  });

  it("writes this machine's jscr path only into the personal settings, never the committed .claude/settings.json (#13)", async () => {
    const shared = '{\n  "permissions": { "allow": ["Bash(npm test)"] }\n}\n';
    const r = repo({ 'a.py': '1\n', '.claude/settings.json': shared });
    const out = initByBinary(r, '--claude', '--write');
    expect(out.code).toBe(0);
    expect(readFileSync(join(r.root, '.claude/settings.json'), 'utf8')).toBe(shared);
    expect(readFileSync(settingsPath(r), 'utf8')).toContain(realpathSync(JSCR_BIN));
    expect(out.stdout).toContain('keep it out of commits');
  });

  it('merges into existing settings without losing anything, and only once', async () => {
    const existing = {
      permissions: { allow: ['Bash(npm test)'] },
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'audit-bash' }] }],
        PostToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'prettier --write' }] }],
      },
      env: { FOO: '1' },
    };
    const r = repo({ 'a.py': '1\n', '.claude/settings.local.json': JSON.stringify(existing) });
    const out = initByBinary(r, '--claude', '--write');
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/update\s+\.claude\/settings\.local\.json/);
    const merged = JSON.parse(readFileSync(settingsPath(r), 'utf8'));
    expect(merged.permissions).toEqual(existing.permissions);
    expect(merged.env).toEqual(existing.env);
    expect(merged.hooks.PostToolUse).toEqual(existing.hooks.PostToolUse);
    expect(merged.hooks.PreToolUse[0]).toEqual(existing.hooks.PreToolUse[0]);
    expect(merged.hooks.PreToolUse).toHaveLength(2);
    expect(merged.hooks.PreToolUse[1].hooks[0].command).toBe(gateCommand);

    const text = readFileSync(settingsPath(r), 'utf8');
    const again = initByBinary(r, '--claude', '--write');
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/unchanged\s+\.claude\/settings\.local\.json/);
    expect(readFileSync(settingsPath(r), 'utf8')).toBe(text);
  });

  it('treats a gate hook that runs another jscr as a conflict, and repoints it with --force', async () => {
    const theirs = {
      hooks: { PreToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: "'/home/someone/jscr/bin/jscr' gate", timeout: 9 }] }, { matcher: 'Bash', hooks: [{ type: 'command', command: 'audit' }] }] },
    };
    const r = repo({ 'a.py': '1\n', '.claude/settings.local.json': JSON.stringify(theirs) });
    const out = initByBinary(r, '--claude', '--write');
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("already runs another jscr gate ('/home/someone/jscr/bin/jscr' gate); --force points it at this jscr");
    expect(JSON.parse(readFileSync(settingsPath(r), 'utf8'))).toEqual(theirs);
    expect((initByBinary(r, '--claude', '--write', '--force')).code).toBe(0);
    const repointed = JSON.parse(readFileSync(settingsPath(r), 'utf8'));
    expect(repointed.hooks.PreToolUse).toEqual([
      { matcher: 'Edit|Write', hooks: [{ type: 'command', command: gateCommand, timeout: 9 }] },
      { matcher: 'Bash', hooks: [{ type: 'command', command: 'audit' }] },
    ]);
  });

  it.each([
    ['invalid JSON', '{"hooks": {'],
    ['not an object', '[1, 2]'],
    ['hooks not an object', '{"hooks": []}'],
    ['PreToolUse not a list', '{"hooks": {"PreToolUse": {"matcher": "Edit"}}}'],
  ])('leaves settings with %s untouched, even with --force (exit 2)', async (_name, text) => {
    const r = repo({ 'a.py': '1\n', '.claude/settings.local.json': text });
    const out = await init(r, '--claude', '--write', '--force');
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/^jscr: \.claude\/settings\.local\.json .*; not changed\n$/);
    expect(readFileSync(settingsPath(r), 'utf8')).toBe(text);
    expect(existsSync(join(r.root, '.jscr.toml'))).toBe(false);
  });

  it('refuses a settings file that is a link to a file outside the repository', async () => {
    const outside = outsideDir();
    writeFileSync(join(outside, 'settings.json'), '{}');
    const r = repo({ 'a.py': '1\n' });
    mkdirSync(join(r.root, '.claude'));
    symlinkSync(join(outside, 'settings.json'), settingsPath(r));
    expect((await init(r, '--claude', '--write')).code).toBe(2);
    expect(readFileSync(join(outside, 'settings.json'), 'utf8')).toBe('{}');
  });
});

describe('jscr init --pre-push', () => {
  const hookOf = (dir: string): string => join(dir, 'pre-push');

  it('writes an executable hook into .git/hooks that runs this jscr by absolute path', async () => {
    const r = repo({ 'a.py': '1\n' });
    expect((initByBinary(r, '--pre-push', '--write')).code).toBe(0);
    const hook = hookOf(join(r.root, '.git/hooks'));
    expect(statSync(hook).mode & 0o777).toBe(0o755);
    const text = readFileSync(hook, 'utf8');
    expect(text).toContain(`'${process.execPath}' '${realpathSync(JSCR_BIN)}' review --range "$range"`);
    expect(text).toContain("range='@{push}..HEAD'");
    expect(text).not.toMatch(/npx|node_modules/);
  });

  it('never overwrites a hook of the user without --force', async () => {
    const r = repo({ 'a.py': '1\n' });
    writeFileSync(hookOf(join(r.root, '.git/hooks')), '#!/bin/sh\nmy-linter\n');
    const out = await init(r, '--pre-push', '--write');
    expect(out.code).toBe(2);
    expect(out.stderr).toBe('jscr: .git/hooks/pre-push exists with other content; --force replaces it\n');
    expect(readFileSync(hookOf(join(r.root, '.git/hooks')), 'utf8')).toBe('#!/bin/sh\nmy-linter\n');
    expect((await init(r, '--pre-push', '--write', '--force')).code).toBe(0);
    expect(readFileSync(hookOf(join(r.root, '.git/hooks')), 'utf8')).toContain('jscr pre-push hook');
    expect((await init(r, '--pre-push', '--write')).stdout).toMatch(/unchanged\s+\.git\/hooks\/pre-push/);
  });

  it('refuses a pre-push hook that is a link, even with --force', async () => {
    const outside = outsideDir();
    writeFileSync(join(outside, 'their-hook'), '#!/bin/sh\n');
    const r = repo({ 'a.py': '1\n' });
    symlinkSync(join(outside, 'their-hook'), hookOf(join(r.root, '.git/hooks')));
    const out = await init(r, '--pre-push', '--write', '--force');
    expect(out.code).toBe(2);
    expect(out.stderr).toBe('jscr: .git/hooks/pre-push is a symbolic link\n');
    expect(readFileSync(join(outside, 'their-hook'), 'utf8')).toBe('#!/bin/sh\n');
  });

  it('honours core.hooksPath inside the repository', async () => {
    const r = repo({ 'a.py': '1\n' });
    r.git('config', 'core.hooksPath', '.githooks');
    expect((await init(r, '--pre-push', '--write')).code).toBe(0);
    expect(existsSync(hookOf(join(r.root, '.githooks')))).toBe(true);
    expect(existsSync(hookOf(join(r.root, '.git/hooks')))).toBe(false);
  });

  it.each([
    ['outside the repository', (r: TestRepo, outside: string) => r.git('config', 'core.hooksPath', outside), /is outside the repository \(core\.hooksPath/],
    ['inside .git but not its hooks', (r: TestRepo) => r.git('config', 'core.hooksPath', '.git/objects'), /inside \.git but not its hooks directory/],
    [
      'a link out of the repository',
      (r: TestRepo, outside: string) => {
        symlinkSync(outside, join(r.root, 'hooks'));
        r.git('config', 'core.hooksPath', 'hooks');
      },
      /goes through hooks, which is a symbolic link/,
    ],
  ])('refuses a core.hooksPath %s (exit 2, nothing written)', async (_name, arrange, message) => {
    const outside = outsideDir();
    const r = repo({ 'a.py': '1\n' });
    arrange(r, outside);
    const out = await init(r, '--pre-push', '--write');
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(message);
    expect(readdirSync(outside)).toEqual([]);
    expect(existsSync(join(r.root, '.git/objects/pre-push'))).toBe(false);
    expect(existsSync(join(r.root, '.jscr.toml'))).toBe(false);
  });

  it('never starts a program the repository configuration names (core.fsmonitor)', async () => {
    const outside = outsideDir();
    const marker = join(outside, 'ran');
    const program = join(outside, 'fsmonitor.sh');
    writeFileSync(program, `#!/bin/sh\ntouch '${marker}'\n`);
    chmodSync(program, 0o755);
    const r = repo(VENDORED);
    r.git('config', 'core.fsmonitor', program);
    expect((await init(r, '--pre-push', '--github', '--claude', '--write')).code).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });

  it('the hook reviews what is pushed and stops a push with findings', async () => {
    const remote = outsideDir();
    execFileSync('git', ['init', '-q', '--bare', remote]);
    const r = repo({ 'a.py': 'print(1)\n' });
    r.git('remote', 'add', 'origin', remote);
    expect((initByBinary(r, '--pre-push', '--write')).code).toBe(0);
    const push = (): ReturnType<typeof spawnSync> => spawnSync('git', ['push', '-q', '-u', 'origin', 'main'], { cwd: r.root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    // the first push has no upstream: main against main, an empty change
    expect(push().status).toBe(0);
    r.commit({ 'run.py': 'import subprocess\nsubprocess.run(cmd, shell=True)\n' });
    const refused = push();
    expect(refused.status).not.toBe(0);
    expect(String(refused.stdout)).toContain('subprocess');
    expect(String(refused.stderr)).toContain('jscr pre-push: the review of @{push}..HEAD ended with exit code 1');
    expect(lstatSync(join(r.root, '.git/hooks/pre-push')).isFile()).toBe(true);
  });

  it('writes the hook of a linked worktree into the repository git directory', async () => {
    const r = repo({ 'a.py': '1\n' });
    const linked = join(outsideDir(), 'linked');
    r.git('worktree', 'add', '-q', '-b', 'side', linked);
    const out = await runJscr(['init', '--pre-push', '--write'], { cwd: linked });
    expect(out.code).toBe(0);
    expect(readFileSync(join(r.root, '.git/hooks/pre-push'), 'utf8')).toContain('jscr pre-push hook');
    expect(existsSync(join(linked, '.jscr.toml'))).toBe(true);
  });
});

describe('jscr init: the jscr the hooks run', () => {
  it('refuses to make hooks run a jscr inside the repository (its lockfile chooses it) unless --force', async () => {
    const r = repo({ 'a.py': '1\n' });
    const jscr = [process.execPath, join(r.root, 'node_modules', '@jscr', 'cli', 'bin', 'jscr')];
    const plan = await planInit({ repoDir: r.root, github: false, claude: true, prePush: true, force: false, jscr });
    const byName = new Map(plan.files.map((f) => [f.shown, f]));
    expect(byName.get('.claude/settings.local.json')?.action).toBe('conflict');
    expect(byName.get('.git/hooks/pre-push')?.action).toBe('conflict');
    expect(byName.get('.git/hooks/pre-push')?.note).toMatch(/inside this repository .*lockfile/);
    expect(byName.get('.jscr.toml')?.action).toBe('create');
    const forced = await planInit({ repoDir: r.root, github: false, claude: true, prePush: true, force: true, jscr });
    expect(forced.files.every((f) => f.action === 'create')).toBe(true);
  });

  it('refuses a jscr path that is not a plain absolute path', async () => {
    const r = repo({ 'a.py': '1\n' });
    await expect(planInit({ repoDir: r.root, github: false, claude: true, prePush: false, force: false, jscr: ['/usr/bin/node', '/opt/jscr\n/bin/jscr'] })).rejects.toThrow(/not a plain absolute path/);
    await expect(planInit({ repoDir: r.root, github: false, claude: false, prePush: true, force: false, jscr: ['node', 'jscr'] })).rejects.toThrow(/not a plain absolute path/);
  });
});
