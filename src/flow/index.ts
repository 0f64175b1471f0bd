/**
 * The data-flow library's entry points: lower a parsed file with its language's front end, and analyse
 * a lowered file. A front end that throws on a hostile tree costs that file its flow analysis (named in
 * the result), never the review.
 */
import type { Node } from 'web-tree-sitter';
import type { FlowFile } from './ir.js';
import { frontEndFor } from './lower/index.js';
import { parse } from '../syntax/parser.js';
import type { Language } from '../syntax/languages.js';

export { analyseFile, DEFAULT_BUDGET, SINK_ORIGINS, type FileAnalysis, type FlowFinding, type FlowBudget, type SinkEvidence, type SinkOrigin } from './engine.js';
export type { PathStep } from './value.js';
export { flowLanguages } from './lower/index.js';

export type Lowered = { ok: true; file: FlowFile } | { ok: false; reason: string };

/** Lower a tree the caller owns; null when no front end covers the language. */
export function lowerTree(path: string, language: Language, source: string, root: Node): Lowered | null {
  const frontEnd = frontEndFor(language);
  if (frontEnd === null) return null;
  try {
    return { ok: true, file: frontEnd.lower({ path, language, source, root }) };
  } catch (error) {
    return { ok: false, reason: `lowering ${path} for data flow failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** Parse and lower a text (the base revision of a file), deleting the tree after. */
export async function lowerText(path: string, language: Language, source: string, stopAt: number): Promise<Lowered | null> {
  if (frontEndFor(language) === null) return null;
  let tree;
  try {
    tree = await parse(language, source, { stopAt });
  } catch (error) {
    return { ok: false, reason: `parsing ${path} for data flow failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  try {
    return lowerTree(path, language, source, tree.rootNode);
  } finally {
    tree.delete();
  }
}
