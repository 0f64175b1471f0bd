/**
 * linguist marks read from a revision's .gitattributes files in git's objects, with git's matching rules
 * (checked against `git check-attr` on the same tree, so our reading and git's agree).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readLinguistMarks } from '../../src/git/attributes.js';
import { createSourceReader } from '../../src/git/sources.js';
import { openBoundary } from '../../src/policy/paths.js';
import { makeRepo, type FileMap, type TestRepo } from '../helpers/repo.js';

const repos: TestRepo[] = [];
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup();
});

async function marksAt(files: FileMap) {
  const r = makeRepo(files);
  repos.push(r);
  const boundary = await openBoundary(r.root, { followSymlinks: false });
  const reader = createSourceReader({ root: r.root, boundary, source: { kind: 'revision', rev: r.git('rev-parse', 'HEAD').trim() }, maxFileBytes: 1 << 20, followSymlinks: false });
  return { r, marks: await readLinguistMarks(reader) };
}

/** What git itself says for the path (`set`, `unset`, `unspecified` or a value). */
function gitSays(r: TestRepo, mark: string, path: string): string {
  return r.git('check-attr', mark, '--', path).trim().split(': ').pop() ?? '';
}

describe('linguist marks of a revision', () => {
  const tree: FileMap = {
    '.gitattributes': 'vendor/** linguist-vendored\n*.pb.go linguist-generated=true\nvendor/keep/** -linguist-vendored\ndocs/ linguist-vendored\n"with space/*" linguist-vendored\n' +
      // Braces and extglobs are literal to git's wildmatch, never alternatives.
      '*.{gen,pb}.py linguist-generated\n@(gen)/** linguist-vendored\n+(lib)/*.js linguist-vendored\n',
    'web/.gitattributes': 'dist/** linguist-generated\n*.js linguist-vendored=false\n',
    'a.py': 'x = 1\n',
  };
  const paths = [
    'vendor/lib/a.py',
    'vendor/keep/b.py',
    'src/api/x.pb.go',
    'docs/guide.md',
    'with space/c.py',
    'web/dist/app.js',
    'web/dist/app.css',
    'dist/app.js',
    'web/src/vendor/d.js',
    'a.py',
    'x.gen.py',
    'a.{gen,pb}.py',
    'gen/y.py',
    'lib/z.js',
  ];

  it.each(paths)('%s: the same verdict as git check-attr', async (path) => {
    const { r, marks } = await marksAt(tree);
    const mark = marks.markOf(path);
    const vendored = gitSays(r, 'linguist-vendored', path);
    const generated = gitSays(r, 'linguist-generated', path);
    const expected = ['set', 'true'].includes(vendored) ? 'linguist-vendored' : ['set', 'true'].includes(generated) ? 'linguist-generated' : null;
    expect(mark?.mark ?? null).toBe(expected);
  });

  it('names the attributes file that set the mark, and there are marks to find at all', async () => {
    const { marks } = await marksAt(tree);
    expect(marks.markOf('web/dist/app.css')).toEqual({ mark: 'linguist-generated', file: 'web/.gitattributes' });
    expect(marks.markOf('vendor/lib/a.py')).toEqual({ mark: 'linguist-vendored', file: '.gitattributes' });
  });
});
