/**
 * The data-flow library's entry points: lower a parsed file with its language's front end, and analyse
 * a lowered file. A front end that throws on a hostile tree costs that file its flow analysis (named in
 * the result), never the review.
 */
import type { Node } from 'web-tree-sitter';
import type { FlowFile, FlowFrontEnd } from './ir.js';
import { frontEndFor } from './lower/index.js';
import { parse } from '../syntax/parser.js';
import type { Language } from '../syntax/languages.js';
import type { TreeVisitor } from '../syntax/ir.js';

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
    return failed(path, error);
  }
}

/**
 * Lowering that shares the walk of the syntax IR (src/syntax/ir.ts): pass `visitor` to that walk,
 * then call `finish` with the same tree's root while it is alive. A front end without a visitor
 * (Java's reads the tree top-down) lowers in `finish`. A visitor that throws stops visiting and
 * costs that file its flow analysis, never the walk. Null when no front end covers the language.
 */
export function prepareLowering(path: string, language: Language, source: string): { visitor: TreeVisitor | null; finish: (root: Node) => Lowered } | null {
  const frontEnd = frontEndFor(language);
  if (frontEnd === null) return null;
  if (frontEnd.prepare === undefined) return { visitor: null, finish: (root) => lowerTree(path, language, source, root) ?? failed(path, 'no front end') };
  let prepared: ReturnType<NonNullable<FlowFrontEnd['prepare']>>;
  try {
    prepared = frontEnd.prepare({ path, language, source });
  } catch (error) {
    return { visitor: null, finish: () => failed(path, error) };
  }
  let broken: { error: unknown } | null = null;
  const visitor: TreeVisitor = {
    visit: (cursor, depth, typeId, read) => {
      if (broken !== null) return;
      try {
        prepared.visitor.visit(cursor, depth, typeId, read);
      } catch (error) {
        broken = { error };
      }
    },
  };
  const finish = (root: Node): Lowered => {
    if (broken !== null) return failed(path, broken.error);
    try {
      return { ok: true, file: prepared.lower(root) };
    } catch (error) {
      return failed(path, error);
    }
  };
  return { visitor, finish };
}

function failed(path: string, error: unknown): Lowered {
  return { ok: false, reason: `lowering ${path} for data flow failed: ${error instanceof Error ? error.message : String(error)}` };
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
