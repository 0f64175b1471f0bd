/**
 * The context bundle: deterministic expansion from the changed lines (imports, tests, schemas) under
 * hard limits, read only through the source reader of the reviewed revision.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { buildContext, changedSpans, importCandidates, schemaReferences, testCandidates, type ChangedSource } from '../../src/review/context-bundle.js';
import { createSourceReader } from '../../src/git/sources.js';
import { openBoundary } from '../../src/policy/paths.js';
import { buildIR } from '../../src/syntax/ir.js';
import { languageForPath } from '../../src/syntax/languages.js';
import { makeRepo, type TestRepo } from '../helpers/repo.js';

const repos: TestRepo[] = [];
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup();
});

async function changed(path: string, text: string, lines: number[]): Promise<ChangedSource> {
  const language = languageForPath(path);
  return { path, text, changedLines: new Set(lines), ir: language ? await buildIR(path, language, text) : null, trivial: false };
}

async function bundleFor(files: Record<string, string>, change: { path: string; lines: number[] }[], limits = { maxFiles: 40, maxTotalBytes: 262144, maxExpansionRounds: 2 }) {
  const repo = makeRepo(files);
  repos.push(repo);
  const head = repo.git('rev-parse', 'HEAD').trim();
  const boundary = await openBoundary(repo.root, { followSymlinks: false });
  const reader = createSourceReader({ root: repo.root, boundary, source: { kind: 'revision', rev: head }, maxFileBytes: 1 << 20, followSymlinks: false });
  const sources = await Promise.all(change.map((c) => changed(c.path, files[c.path] as string, c.lines)));
  return buildContext({ changed: sources, reader, limits });
}

describe('import resolution per language', () => {
  const files = new Set([
    'web/api.ts',
    'web/util/index.ts',
    'web/db.js',
    'pkg/service.py',
    'pkg/models.py',
    'pkg/sub/__init__.py',
    'src/main/java/com/acme/Repo.java',
    'app/Models/User.php',
    'lib/helper.rb',
  ]);
  it.each([
    ['web/api.ts', './util', 'typescript', ['web/util/index.ts']],
    ['web/api.ts', './db.js', 'typescript', ['web/db.js']],
    ['web/api.ts', 'express', 'typescript', []],
    ['pkg/service.py', '.models', 'python', ['pkg/models.py']],
    ['pkg/service.py', '.sub', 'python', ['pkg/sub/__init__.py']],
    ['pkg/service.py', 'pkg.models', 'python', ['pkg/models.py']],
    ['pkg/service.py', 'os', 'python', []],
    ['src/main/java/com/acme/Api.java', 'com.acme.Repo', 'java', ['src/main/java/com/acme/Repo.java']],
    ['src/main/java/com/acme/Api.java', 'java.util.List', 'java', []],
    ['app/Http/Controllers/UserController.php', 'App\\Models\\User', 'php', ['app/Models/User.php']],
    ['lib/main.rb', './helper', 'ruby', ['lib/helper.rb']],
  ] as const)('%s imports %s', (from, module, language, expected) => {
    expect(importCandidates(from, module, language, files)).toEqual(expected);
  });
});

describe('tests and schemas by naming convention', () => {
  const files = ['pkg/users.py', 'tests/test_users.py', 'web/api.ts', 'web/api.test.ts', 'web/__tests__/api.spec.ts', 'src/Repo.java', 'src/test/RepoTest.java', 'db/schema.sql', 'api/openapi.yaml', 'go/store.go', 'go/store_test.go'];
  it.each([
    ['pkg/users.py', ['tests/test_users.py']],
    ['web/api.ts', ['web/__tests__/api.spec.ts', 'web/api.test.ts']],
    ['src/Repo.java', ['src/test/RepoTest.java']],
    ['go/store.go', ['go/store_test.go']],
    ['tests/test_users.py', []],
  ])('%s has tests %j', (path, expected) => {
    expect(testCandidates(path, files)).toEqual(expected);
  });
  it('finds schema files named in the text', () => {
    expect(schemaReferences('cursor.execute(open("db/schema.sql").read())\nspec = load("openapi.yaml")', files)).toEqual(['api/openapi.yaml', 'db/schema.sql']);
  });
});

describe('spans of the changed lines', () => {
  it('takes the enclosing function, and a margin at top level', async () => {
    const text = 'import os\n\ndef a():\n    x = 1\n    return x\n\nY = 2\nZ = 3\nW = 4\nV = 5\nU = 6\nT = 7\n';
    const source = await changed('m.py', text, [4, 12]);
    expect(changedSpans(source)).toEqual([
      { start: 3, end: 5 },
      { start: 9, end: 12 },
    ]);
  });
});

describe('buildContext', () => {
  const files = {
    'app/views.py': 'from .models import User\nfrom .auth import check\n\ndef delete(req):\n    User.delete(req.id)\n',
    'app/models.py': 'from .db import conn\nclass User:\n    pass\n',
    'app/auth.py': 'def check():\n    return True\n',
    'app/db.py': 'import sqlite3\nconn = None\n',
    'tests/test_views.py': 'def test_delete():\n    pass\n',
  };

  it('expands to imports and tests in deterministic order, round by round', async () => {
    const bundle = await bundleFor(files, [{ path: 'app/views.py', lines: [5] }]);
    expect(bundle.files.map((f) => [f.path, f.reason, f.round])).toEqual([
      ['app/views.py', 'changed', 0],
      ['app/auth.py', 'import', 1],
      ['app/models.py', 'import', 1],
      ['tests/test_views.py', 'test', 1],
      ['app/db.py', 'import', 2],
    ]);
    expect(bundle.limitsReached).toEqual([]);
  });

  it('stops at max_expansion_rounds and says what was left out', async () => {
    const bundle = await bundleFor(files, [{ path: 'app/views.py', lines: [5] }], { maxFiles: 40, maxTotalBytes: 262144, maxExpansionRounds: 1 });
    expect(bundle.files.map((f) => f.path)).not.toContain('app/db.py');
    expect(bundle.limitsReached).toEqual(['context.max_expansion_rounds']);
    expect(bundle.leftOut).toContainEqual({ path: 'app/db.py', reason: 'context.max_expansion_rounds' });
  });

  it('stops at max_files', async () => {
    const bundle = await bundleFor(files, [{ path: 'app/views.py', lines: [5] }], { maxFiles: 2, maxTotalBytes: 262144, maxExpansionRounds: 2 });
    expect(bundle.files).toHaveLength(2);
    expect(bundle.limitsReached).toEqual(['context.max_files']);
  });

  it('stops at max_total_bytes', async () => {
    const bundle = await bundleFor(files, [{ path: 'app/views.py', lines: [5] }], { maxFiles: 40, maxTotalBytes: 150, maxExpansionRounds: 2 });
    expect(bundle.totalBytes).toBeLessThanOrEqual(150);
    expect(bundle.limitsReached).toEqual(['context.max_total_bytes']);
  });

  it('never reads a symlink out of the root, and says why it was left out', async () => {
    const repo = makeRepo({ 'web/api.ts': "import { x } from './leak';\nexport const y = x;\n", 'web/leak.ts': { symlink: '/etc/passwd' } as never });
    repos.push(repo);
    const boundary = await openBoundary(repo.root, { followSymlinks: true });
    const head = repo.git('rev-parse', 'HEAD').trim();
    const reader = createSourceReader({ root: repo.root, boundary, source: { kind: 'revision', rev: head }, maxFileBytes: 1 << 20, followSymlinks: true });
    const text = "import { x } from './leak';\nexport const y = x;\n";
    const bundle = await buildContext({ changed: [await changed('web/api.ts', text, [2])], reader, limits: { maxFiles: 40, maxTotalBytes: 262144, maxExpansionRounds: 2 } });
    expect(bundle.files.map((f) => f.path)).toEqual(['web/api.ts']);
    expect(bundle.leftOut[0]?.reason).toMatch(/symlink_outside_root/);
  });

  it('does not expand a trivial change', async () => {
    const repo = makeRepo(files);
    repos.push(repo);
    const boundary = await openBoundary(repo.root, { followSymlinks: false });
    const reader = createSourceReader({ root: repo.root, boundary, source: { kind: 'worktree' }, maxFileBytes: 1 << 20, followSymlinks: false });
    const source = { ...(await changed('app/views.py', files['app/views.py'], [5])), trivial: true };
    const bundle = await buildContext({ changed: [source], reader, limits: { maxFiles: 40, maxTotalBytes: 262144, maxExpansionRounds: 2 } });
    expect(bundle.files.map((f) => f.path)).toEqual(['app/views.py']);
  });
});
