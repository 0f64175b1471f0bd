/**
 * Property: for random old/new file contents diffed by real git, every parsed line's number points at
 * the same text in the real file (added → new file, deleted → old file, context → both).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readChange } from '../../src/git/change.js';
import { parseUnifiedDiff } from '../../src/git/diff.js';
import { makeRepo, type TestRepo } from './repo.js';

let repo: TestRepo;

beforeAll(async () => {
  repo = await makeRepo();
});
afterAll(() => repo.remove());

/** Lines of a file as git numbers them: split on LF, a final LF ends the last line; CRs stay. */
function fileLines(content: string): string[] {
  if (content === '') return [];
  const lines = content.split('\n');
  if (content.endsWith('\n')) lines.pop();
  return lines;
}

// A small vocabulary so old and new share lines and git produces context, not just rewrites.
const lineText = fc.constantFrom('x = 1', 'y = 2', '', '  return x', 'def f():', 'print("é")', '# note', 'z = x + y', '\t\tindented');
const fileContent = fc
  .record({
    lines: fc.array(lineText, { maxLength: 40 }),
    crlf: fc.boolean(),
    finalNewline: fc.boolean(),
  })
  .map(({ lines, crlf, finalNewline }) => {
    if (lines.length === 0) return '';
    const eol = crlf ? '\r\n' : '\n';
    return lines.join(eol) + (finalNewline ? eol : '');
  });

it('line numbers round-trip against the real old and new files', async () => {
  await fc.assert(
    fc.asyncProperty(fileContent, fileContent, async (oldContent, newContent) => {
      await repo.write('subject.txt', oldContent);
      await repo.commit('old');
      await repo.write('subject.txt', newContent);
      const change = await readChange(repo.root, { kind: 'working-tree' });
      const files = parseUnifiedDiff(change.diffText);
      if (oldContent === newContent) {
        expect(files).toEqual([]);
        return;
      }
      expect(files).toHaveLength(1);
      const [file] = files;
      const oldLines = fileLines(oldContent);
      const newLines = fileLines(newContent);
      let added = 0;
      let deleted = 0;
      for (const hunk of file!.hunks) {
        for (const line of hunk.lines) {
          if (line.kind !== 'add') expect(line.text).toBe(oldLines[line.oldLine! - 1]);
          if (line.kind !== 'del') expect(line.text).toBe(newLines[line.newLine! - 1]);
          if (line.kind === 'add') added += 1;
          if (line.kind === 'del') deleted += 1;
          // Only the very last line of a file can lack its newline.
          if (line.noNewlineAtEnd && line.kind !== 'add') expect(line.oldLine).toBe(oldLines.length);
          if (line.noNewlineAtEnd && line.kind !== 'del') expect(line.newLine).toBe(newLines.length);
        }
      }
      // Every line is accounted for: old lines minus deletions equals new lines minus additions.
      expect(oldLines.length - deleted).toBe(newLines.length - added);
    }),
    { numRuns: 40 },
  );
});
