/**
 * Every changed file is reviewed in full, excluded by the base revision's configuration, or not
 * reviewed (exit 3): never skipped into a clean review. Each test builds the hostile repository an
 * attacker would push, with a file holding code a rule finds, and requires exit 1 or 3, never 0.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { builtinRuleAliases } from '../../src/rules/aliases.js';
import { describe, expect, it } from 'vitest';
import { reposRemovedAfterEach, runJscr, type FileMap, type TestRepo } from '../helpers/repo.js';

const repo = reposRemovedAfterEach();

interface Report {
  exit_code: number;
  complete: boolean;
  incomplete_reasons: string[];
  findings: { rule: string; path: string; line: number }[];
  skipped_files: { path: string; class: string; kind?: string; reason: string }[];
  suppressed: { rule: string; path: string }[];
}

async function review(r: TestRepo, args: string[]): Promise<{ code: number; report: Report; stdout: string }> {
  const out = await runJscr(['review', ...args, '--format', 'json'], { cwd: r.root, timeoutMs: 120_000 });
  return { code: out.code, report: JSON.parse(out.stdout) as Report, stdout: out.stdout };
}

const SAFE_PY = 'def add(a, b):\n    return a + b\n';
const HOSTILE_PY = 'import os\n\ndef wipe(y):\n    os.system("rm -rf " + y)\n';
const OS_SYSTEM = 'jscr/python-os-system-non-literal';
const EVAL_JS = 'eval(req.query.code);';
const JS_EVAL = 'jscr/js-eval-dynamic';

type Mode = 'range' | 'staged' | 'working-tree';
const MODES: Mode[] = ['range', 'staged', 'working-tree'];

/** Put the hostile change in place as `mode` reviews it: committed, staged, or left in the working tree. */
function change(r: TestRepo, files: FileMap, mode: Mode): string[] {
  if (mode === 'range') {
    r.commit(files);
    return ['--range', 'HEAD~1..HEAD'];
  }
  r.write(files);
  if (mode === 'staged') {
    r.git('add', '-A');
    return ['--staged'];
  }
  return [];
}

/** A finding of `rule`, or of the data-flow rule that reports it now and answers to its id. */
const hasFinding = (report: Report, rule: string, path: string): boolean => report.findings.some((f) => builtinRuleAliases().names(rule, f.rule) && f.path === path);

describe('git settings and attributes never decide what is reviewed', () => {
  const mechanisms: [string, (r: TestRepo) => FileMap][] = [
    ['`*.py -diff` in the change\'s .gitattributes', () => ({ '.gitattributes': '*.py -diff\n' })],
    ['`*.py binary` in the change\'s .gitattributes', () => ({ '.gitattributes': '*.py binary\n' })],
    [
      '`-diff` in .git/info/attributes',
      (r) => {
        mkdirSync(join(r.root, '.git', 'info'), { recursive: true });
        writeFileSync(join(r.root, '.git', 'info', 'attributes'), '*.py -diff\n');
        return {};
      },
    ],
    [
      'core.bigFileThreshold below the file size',
      (r) => {
        r.git('config', 'core.bigFileThreshold', '16');
        return {};
      },
    ],
    [
      'a diff driver configured as binary',
      (r) => {
        r.git('config', 'diff.hide.binary', 'true');
        return { '.gitattributes': '*.py diff=hide\n' };
      },
    ],
  ];
  const cases = mechanisms.flatMap(([name, setup]) => MODES.map((mode) => [name, mode, setup] as const));
  it.each(cases)('%s (%s): the text file is reviewed and its finding reported, exit 1', async (_name, mode, setup) => {
    const r = repo({ 'app.py': SAFE_PY });
    const extra = setup(r);
    const args = change(r, { ...extra, 'app.py': HOSTILE_PY }, mode);
    const { code, report } = await review(r, args);
    expect(code).toBe(1);
    expect(hasFinding(report, OS_SYSTEM, 'app.py')).toBe(true);
    expect(report.skipped_files.find((s) => s.path === 'app.py')).toBeUndefined();
  });
});

describe('a renamed file git shows as binary', () => {
  it('is diffed again as text with its rename, and the added lines are reviewed (exit 1)', async () => {
    const r = repo({ '.gitattributes': '*.py -diff\n', 'app.py': `import os\n\n${SAFE_PY}\n${SAFE_PY.replace('add', 'plus')}` });
    r.git('mv', 'app.py', 'moved.py');
    r.commit({ 'moved.py': `import os\n\n${SAFE_PY}\n${SAFE_PY.replace('add', 'plus')}\ndef wipe(y):\n    os.system("rm -rf " + y)\n` });
    const { code, report } = await review(r, ['--range', 'HEAD~1..HEAD']);
    expect(code).toBe(1);
    expect(report.findings.find((f) => f.rule === OS_SYSTEM)).toMatchObject({ path: 'moved.py', line: 10 });
  });
});

describe('binary is git\'s content rule (a NUL in the first 8,000 bytes), applied by jscr', () => {
  it('a NUL byte at offset 8100 leaves the file text: it is reviewed, exit 1', async () => {
    const r = repo({ 'app.py': SAFE_PY });
    const padding = `# ${'x'.repeat(70)}\n`.repeat(Math.ceil(8100 / 73));
    const body = Buffer.concat([Buffer.from(HOSTILE_PY + padding.slice(0, 8100 - HOSTILE_PY.length)), Buffer.from([0]), Buffer.from('\n# tail\n')]);
    expect(body.indexOf(0)).toBe(8100);
    r.commit({ 'app.py': body });
    const { code, report } = await review(r, ['--range', 'HEAD~1..HEAD']);
    expect(code).toBe(1);
    expect(hasFinding(report, OS_SYSTEM, 'app.py')).toBe(true);
  });

  it('a NUL byte early in a source file: not reviewed (exit 3), never data', async () => {
    const r = repo({ 'app.py': SAFE_PY });
    r.commit({ 'app.py': Buffer.concat([Buffer.from('#\0\n'), Buffer.from(HOSTILE_PY)]) });
    const { code, report } = await review(r, ['--range', 'HEAD~1..HEAD']);
    expect(code).toBe(3);
    expect(report.skipped_files.find((s) => s.path === 'app.py')).toMatchObject({ class: 'not_reviewed' });
    expect(report.incomplete_reasons.join(' ')).toMatch(/app\.py \(binary/);
  });

  it('a script with a #! line and a NUL byte is not reviewed, whatever its name (exit 3)', async () => {
    const r = repo({ 'app.py': SAFE_PY });
    r.commit({ 'bin/deploy': Buffer.from('#!/bin/sh\nrm -rf "$1"\n# \0\n') });
    const { code, report } = await review(r, ['--range', 'HEAD~1..HEAD']);
    expect(code).toBe(3);
    expect(report.skipped_files).toEqual([expect.objectContaining({ path: 'bin/deploy', class: 'not_reviewed' })]);
  });

  it('binary data (an image) is listed as data with its kind and does not make the review incomplete', async () => {
    const r = repo({ 'app.py': SAFE_PY });
    r.commit({ 'logo.png': Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]), Buffer.alloc(64, 7)]) });
    const { code, report } = await review(r, ['--range', 'HEAD~1..HEAD']);
    expect(code).toBe(0);
    expect(report.skipped_files).toEqual([{ path: 'logo.png', class: 'data', kind: 'image', reason: expect.stringMatching(/PNG/) as unknown as string }]);
  });
});

describe('no input is silently cut', () => {
  it('a 64 MiB lock file before another file: the lock file is data, the next file is read whole (exit 1)', async () => {
    const r = repo({ 'app.py': SAFE_PY });
    const entry = '    "node_modules/some-package-with-a-long-name": { "version": "1.0.0", "resolved": "https://registry.example/x.tgz" },\n';
    const count = Math.ceil((64 * 1024 * 1024) / entry.length);
    const lock = `{\n  "name": "app",\n  "lockfileVersion": 3,\n  "packages": {\n${entry.repeat(count)}    "": {}\n  }\n}\n`;
    expect(lock.length).toBeGreaterThan(64 * 1024 * 1024);
    // The code after the lock file in the object order, with its finding on its last line.
    const server = `${'x = 1\n'.repeat(2000)}${HOSTILE_PY}`;
    r.commit({ 'a/package-lock.json': lock, 'b/server.py': server });
    const { code, report } = await review(r, ['--range', 'HEAD~1..HEAD']);
    expect(code).toBe(1);
    expect(report.findings.find((f) => f.path === 'b/server.py')?.line).toBe(2004);
    expect(report.skipped_files).toEqual([expect.objectContaining({ path: 'a/package-lock.json', class: 'data', kind: 'lock file' })]);
  }, 120_000);

  it('a file named like a lock file but not shaped like one is no data: over the size limit it is not reviewed (exit 3)', async () => {
    const r = repo({ 'app.js': '1;\n' });
    r.commit({ 'package-lock.json': `${'var a = 1;\n'.repeat(220_000)}${EVAL_JS}\n` });
    const { code, report } = await review(r, ['--range', 'HEAD~1..HEAD']);
    expect(code).toBe(3);
    expect(report.skipped_files[0]).toMatchObject({ path: 'package-lock.json', class: 'not_reviewed' });
  });

  it('a source map that is not one is reviewed as the code it is', async () => {
    const r = repo({ 'app.js': '1;\n' });
    r.commit({ 'dist/app.js.map': `${EVAL_JS}\n`, 'real.js.map': '{"version":3,"sources":["a.js"],"mappings":"AAAA"}\n' });
    const { report } = await review(r, ['--range', 'HEAD~1..HEAD']);
    expect(report.skipped_files).toEqual([expect.objectContaining({ path: 'real.js.map', class: 'data', kind: 'source map' })]);
  });
});

describe('tool-written code and large files are not reviewed unless the base excludes them', () => {
  const bigMinified = (): string => {
    const chunk = 'function a(b){return b+1}var c=a(2);';
    return `${chunk.repeat(Math.ceil(2_200_000 / chunk.length))}${EVAL_JS}\n`;
  };

  it('a 2.2 MB app.min.js is not reviewed (exit 3), and the message says how to exclude vendored paths', async () => {
    const r = repo({ 'app.js': '1;\n' });
    r.commit({ 'public/build/app.min.js': bigMinified() });
    const { code, report } = await review(r, ['--range', 'HEAD~1..HEAD']);
    expect(code).toBe(3);
    expect(report.skipped_files).toEqual([expect.objectContaining({ path: 'public/build/app.min.js', class: 'not_reviewed' })]);
    expect(report.incomplete_reasons.join(' ')).toMatch(/too_large.*review\.exclude = \["public\/build\/\*\*"\]/);
    const text = await runJscr(['review', '--range', 'HEAD~1..HEAD'], { cwd: r.root });
    expect(text.code).toBe(3);
    expect(text.stdout).toContain('Not reviewed: public/build/app.min.js (too_large');
  });

  it("the hint to exclude names the file's own folder, quoted for TOML", async () => {
    const r = repo({ 'app.js': '1;\n' });
    r.commit({ 'assets/vendor "x"/lib.min.js': bigMinified() });
    const { code, report } = await review(r, ['--range', 'HEAD~1..HEAD']);
    expect(code).toBe(3);
    expect(report.incomplete_reasons.join(' ')).toContain('review.exclude = ["assets/vendor \\"x\\"/**"]');
  });

  it('review.exclude of the base configuration excludes it (listed, exit 0); the same key added by the change does not', async () => {
    const r = repo({ 'app.js': '1;\n', '.jscr.toml': '[review]\nexclude = ["public/build/**"]\n' });
    r.commit({ 'public/build/app.min.js': bigMinified() });
    const excluded = await review(r, ['--range', 'HEAD~1..HEAD']);
    expect(excluded.code).toBe(0);
    expect(excluded.report.skipped_files).toEqual([expect.objectContaining({ path: 'public/build/app.min.js', class: 'excluded', reason: expect.stringContaining('public/build/**') as unknown })]);

    const other = repo({ 'app.js': '1;\n' });
    other.commit({ '.jscr.toml': '[review]\nexclude = ["public/build/**"]\n', 'public/build/app.min.js': bigMinified() });
    const own = await review(other, ['--range', 'HEAD~1..HEAD']);
    expect(own.code).toBe(3);
    expect(own.report.skipped_files.find((s) => s.path === 'public/build/app.min.js')?.class).toBe('not_reviewed');
  });

  it('review.max_file_bytes of the base configuration sets the size limit', async () => {
    const r = repo({ 'app.py': SAFE_PY, '.jscr.toml': '[review]\nmax_file_bytes = 100\n' });
    r.commit({ 'app.py': `${SAFE_PY}${'# padding\n'.repeat(20)}` });
    const { code, report } = await review(r, ['--range', 'HEAD~1..HEAD']);
    expect(code).toBe(3);
    expect(report.incomplete_reasons.join(' ')).toMatch(/app\.py \(too_large: \d+ bytes, over review\.max_file_bytes \(100\)/);
  });

  it.each([
    ['one long line', (): string => `var x=1;${'function q(a){return a*2}'.repeat(200)}${EVAL_JS}\n`],
    ['a webpack bundle', (): string => `/******/ (() => {\n/******/ var __webpack_modules__ = {};\n/******/ function __webpack_require__(id) {}\n/******/ __webpack_require__(1);\n/******/ })();\n${'var a = 1;\n'.repeat(300)}${EVAL_JS}\n`],
  ])('minified or bundled code under a plain name (%s) is not reviewed (exit 3)', async (_name, content) => {
    const r = repo({ 'src/util.js': '1;\n' });
    r.commit({ 'src/util.js': content() });
    const { code, report } = await review(r, ['--range', 'HEAD~1..HEAD']);
    expect(code).toBe(3);
    expect(report.skipped_files).toEqual([expect.objectContaining({ path: 'src/util.js', class: 'not_reviewed', reason: expect.stringMatching(/^(minified|bundled)/) as unknown })]);
  });

  it('ordinary code with long lines is still reviewed', async () => {
    const r = repo({ 'src/app.js': '1;\n' });
    r.commit({ 'src/app.js': `${'const value = compute(1, 2, 3);\n'.repeat(100)}const table = "${'ab'.repeat(300)}";\n${EVAL_JS}\n` });
    const { code, report } = await review(r, ['--range', 'HEAD~1..HEAD']);
    expect(code).toBe(1);
    expect(hasFinding(report, JS_EVAL, 'src/app.js')).toBe(true);
  });
});

describe('linguist marks of the base revision are configuration', () => {
  it('linguist-vendored in a subfolder .gitattributes of the base excludes the path (listed with the reason)', async () => {
    const r = repo({ 'app.py': SAFE_PY, 'third_party/.gitattributes': 'lib/** linguist-vendored\n*.gen.py linguist-generated=true\n' });
    r.commit({ 'third_party/lib/x.py': HOSTILE_PY, 'third_party/deep/y.gen.py': HOSTILE_PY, 'lib/z.py': HOSTILE_PY });
    const { code, report } = await review(r, ['--range', 'HEAD~1..HEAD']);
    // lib/z.py is outside third_party/: the pattern is anchored to the attributes file's folder.
    expect(code).toBe(1);
    expect(hasFinding(report, OS_SYSTEM, 'lib/z.py')).toBe(true);
    expect(report.skipped_files.sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      expect.objectContaining({ path: 'third_party/deep/y.gen.py', class: 'excluded', reason: expect.stringContaining('linguist-generated') as unknown }),
      expect.objectContaining({ path: 'third_party/lib/x.py', class: 'excluded', reason: expect.stringContaining('linguist-vendored in the base revision\'s third_party/.gitattributes') as unknown }),
    ]);
  });

  it.each(MODES)('marks the change adds exclude nothing in its own review (%s)', async (mode) => {
    const r = repo({ 'app.py': SAFE_PY });
    const args = change(r, { '.gitattributes': '*.py linguist-vendored\napp.py linguist-generated\n', 'app.py': HOSTILE_PY }, mode);
    const { code, report } = await review(r, args);
    expect(code).toBe(1);
    expect(hasFinding(report, OS_SYSTEM, 'app.py')).toBe(true);
  });

  it('a later -linguist-vendored line takes the mark off again', async () => {
    const r = repo({ 'app.py': SAFE_PY, '.gitattributes': 'vendor/** linguist-vendored\nvendor/ours/** -linguist-vendored\n' });
    r.commit({ 'vendor/ours/app.py': HOSTILE_PY });
    expect((await review(r, ['--range', 'HEAD~1..HEAD'])).code).toBe(1);
  });
});

describe('a suppression covers only what it covered in the base', () => {
  it('a standalone jscr-ignore above a line the change rewrote does not cover it (exit 1)', async () => {
    const r = repo({ 'app.py': `import os\n\ndef wipe(y):\n    # jscr-ignore: ${OS_SYSTEM} the argument is a fixed folder name\n    os.system("rm -rf /tmp/cache")\n` });
    r.commit({ 'app.py': `import os\n\ndef wipe(y):\n    # jscr-ignore: ${OS_SYSTEM} the argument is a fixed folder name\n    os.system("rm -rf " + y)\n` });
    const { code, report } = await review(r, ['--range', 'HEAD~1..HEAD']);
    expect(code).toBe(1);
    expect(hasFinding(report, OS_SYSTEM, 'app.py')).toBe(true);
    expect(report.suppressed).toEqual([]);
  });

  const fingerprintOf = async (r: TestRepo): Promise<string> => {
    const { report } = await review(r, ['--commit', 'HEAD']);
    const found = report.findings.find((f) => f.rule === OS_SYSTEM) as unknown as { fingerprint: string } | undefined;
    if (found === undefined) throw new Error('the base finding was not found');
    return found.fingerprint;
  };

  it('a [[suppress]] fingerprint does not cover a line rewritten past the part its evidence quotes', async () => {
    const r = repo({ 'app.py': SAFE_PY });
    const line = (tail: string): string => `import os\n\ndef wipe(y):\n    os.system("rm -rf " + y + "/${'a'.repeat(420)}" + ${tail})\n`;
    r.commit({ 'app.py': line('""') });
    const fingerprint = await fingerprintOf(r);
    r.commit({ '.jscr.toml': `[[suppress]]\nrule = "${OS_SYSTEM}"\nfingerprint = "${fingerprint}"\nreason = "y is a fixed folder"\n` });
    r.commit({ 'app.py': line('os.environ["EXTRA"]') });
    const { code, report } = await review(r, ['--range', 'HEAD~1..HEAD']);
    expect(code).toBe(1);
    // The same fingerprint (the evidence stops before the rewrite), and still not suppressed.
    expect((report.findings.find((f) => f.rule === OS_SYSTEM) as unknown as { fingerprint: string }).fingerprint).toBe(fingerprint);
    expect(report.suppressed).toEqual([]);
  });

  it('a [[suppress]] fingerprint does not cover a second copy of the line, but still covers the line moved', async () => {
    const r = repo({ 'app.py': SAFE_PY });
    r.commit({ 'app.py': HOSTILE_PY });
    const entry = `[[suppress]]\nrule = "${OS_SYSTEM}"\nfingerprint = "${await fingerprintOf(r)}"\nreason = "y is a fixed folder"\n`;
    r.commit({ '.jscr.toml': entry });

    r.commit({ 'app.py': `${HOSTILE_PY}\ndef again(y):\n    os.system("rm -rf " + y)\n` });
    expect((await review(r, ['--range', 'HEAD~1..HEAD'])).code).toBe(1);
    r.git('reset', '-q', '--hard', 'HEAD~1');

    // The maintainer's choice still holds for the same line re-indented into a class: it existed at the base.
    r.commit({ 'app.py': 'import os\n\nclass Cleaner:\n    def wipe(y):\n        os.system("rm -rf " + y)\n' });
    const moved = await review(r, ['--range', 'HEAD~1..HEAD']);
    expect(moved.code).toBe(0);
    expect(moved.report.suppressed.map((s) => s.rule)).toEqual([OS_SYSTEM]);
  });
});
