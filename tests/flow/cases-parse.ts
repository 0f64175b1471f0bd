/** Shared by the corpus and held-out tests: the cases whose file its language's parser reads with an error. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { CorpusCase } from '../../bench/flow-score.js';
import { parse } from '../../src/syntax/parser.js';
import { languageForPath } from '../../src/syntax/languages.js';

export async function casesWithSyntaxErrors(root: string, cases: readonly CorpusCase[]): Promise<string[]> {
  const broken: string[] = [];
  for (const c of cases) {
    const language = languageForPath(c.path);
    expect(language, c.path).not.toBeNull();
    const tree = await parse(language!, readFileSync(join(root, c.path), 'utf8'));
    if (tree.rootNode.hasError) broken.push(c.path);
    tree.delete();
  }
  return broken;
}
