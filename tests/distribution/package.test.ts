/**
 * The npm package as a user gets it: `npm pack`, then installed globally into a temporary prefix and
 * as a project's dev dependency (from the npm cache where it can), then run from other folders with a
 * bare PATH. The scanners jscr adapts come with it and run.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKOUT } from '../helpers/binary.js';
import { makeRepo, type TestRepo } from '../helpers/repo.js';

let temp: string;
let tarball: string;
let packed: string[];
let repo: TestRepo;

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', [...args, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd, encoding: 'utf8', timeout: 240_000 });
}

/** An installed `jscr` run in `cwd` with only /usr/bin and /bin on PATH. */
function jscr(program: string, args: string[], cwd: string): { code: number | null; stdout: string; stderr: string } {
  const run = spawnSync(program, args, { cwd, encoding: 'utf8', env: { PATH: '/usr/bin:/bin', HOME: join(temp, 'home') }, timeout: 120_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

interface Report {
  findings: { rule: string; merged?: { rule: string }[] }[];
  scanners: { name: string; status: string; detail: string }[];
}

beforeAll(() => {
  temp = realpathSync(mkdtempSync(join(tmpdir(), 'jscr-package-')));
  mkdirSync(join(temp, 'home'));
  // --ignore-scripts: `prepare` would rebuild dist/ under the other test files using it; the global
  // setup has built it already.
  const [info] = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', temp], CHECKOUT)) as { filename: string; files: { path: string }[] }[];
  tarball = join(temp, info?.filename ?? '');
  packed = (info?.files ?? []).map((f) => f.path);
  repo = makeRepo({ '.jscr.toml': '[scanners]\nenabled = ["eslint", "secretlint"]\n', 'README.md': 'x\n' });
  repo.commit({ 'api/handler.js': 'exports.handle = (req) => eval(req.body.expression);\n', 'svc/run.py': 'import subprocess\n\ndef run(name):\n    subprocess.call("go " + name, shell=True)\n' });
}, 300_000);

afterAll(() => {
  repo.cleanup();
  rmSync(temp, { recursive: true, force: true });
});

function expectFullReview(run: { code: number | null; stdout: string; stderr: string }): void {
  expect(run.code, run.stderr).toBe(1);
  const report = JSON.parse(run.stdout) as Report;
  expect(report.scanners.map((s) => [s.name, s.status])).toEqual([
    ['eslint', 'ran'],
    ['secretlint', 'ran'],
  ]);
  expect(report.findings.map((f) => f.rule)).toContain('jscr/python-subprocess-shell-true');
  // eslint's eval finding is reported, on its own or folded into jscr's finding of that line and CWE
  expect(report.findings.some((f) => f.rule === 'eslint/security/detect-eval-with-expression' || (f.merged ?? []).some((m) => m.rule === 'eslint/security/detect-eval-with-expression'))).toBe(true);
}

describe('the npm package', () => {
  it('is @jscr/cli, ships the bundle and the data files, and nothing else', () => {
    expect(tarball).toMatch(/jscr-cli-\d+\.\d+\.\d+\.tgz$/);
    expect(packed).toEqual(expect.arrayContaining(['bin/jscr', 'dist/jscr.mjs', 'dist/gate.cjs', 'dist/wasm/tree-sitter-python.wasm', 'rules/python.toml', 'ruleset/secrets.toml', 'ruleset/obligations/java.toml', 'schema/jscr-config.schema.json', 'package.json', 'README.md']));
    expect(packed.filter((path) => /^(src|tests|tools|fixtures|node_modules)\/|^dist\/(sea\/|jscr-linux)/.test(path))).toEqual([]);
    // The README and the .jscr.toml that init writes send readers to docs/: those pages ship too.
    const named = new Set([...readFileSync(join(CHECKOUT, 'README.md'), 'utf8').matchAll(/\bdocs\/[\w/-]+\.md\b/g)].map((match) => match[0]));
    expect(named.has('docs/configuration.md') && named.has('docs/rules.md')).toBe(true);
    expect([...named].filter((path) => !packed.includes(path))).toEqual([]);
  });

  it('installs globally into a prefix and reviews a repository from another folder, scanners included', () => {
    const prefix = join(temp, 'prefix');
    npm(['install', '--global', '--prefix', prefix, tarball], temp);
    const installed = join(prefix, 'lib', 'node_modules', '@jscr', 'cli');
    // `prepare` finds no build script in the installed package and does nothing (it must never fail there).
    expect(spawnSync('npm', ['run', 'prepare', '--silent'], { cwd: installed, encoding: 'utf8' }).status).toBe(0);
    expect(readdirSync(join(installed, 'dist')).sort()).toEqual(['gate.cjs', 'jscr.mjs', 'wasm']);
    expectFullReview(jscr(join(prefix, 'bin', 'jscr'), ['review', '--range', 'HEAD~1..HEAD', '--format', 'json'], repo.root));
  }, 300_000);

  it('installs as a project dev dependency and finds its hoisted scanners', () => {
    const project = join(temp, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'some-project', version: '1.0.0', private: true }));
    npm(['install', '--save-dev', tarball], project);
    // npm hoists jscr's dependencies beside it: the scanners are not under jscr's own folder.
    expect(existsSync(join(project, 'node_modules', '@jscr', 'cli', 'node_modules', '.bin', 'eslint'))).toBe(false);
    expectFullReview(jscr(join(project, 'node_modules', '.bin', 'jscr'), ['review', '--range', 'HEAD~1..HEAD', '--format', 'json'], repo.root));
  }, 300_000);
});
