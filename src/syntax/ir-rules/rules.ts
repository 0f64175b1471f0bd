/**
 * What a language contributes to the IR walk: which node types matter, and how to read facts from
 * one node. The walk itself (scopes, names, lines, depth limit) is language-neutral (../ir.ts).
 */
import type { Node } from 'web-tree-sitter';
import type { CallIR, ClassIR, ImportIR, ParameterIR } from '../ir-types.js';

/** What a language reads from a function node; the walk adds names, scopes and lines. */
export interface FunctionFacts {
  /** Null for an unnamed lambda (the walk names it from an assignment or synthetically). */
  name: string | null;
  parameters: ParameterIR[];
  decorators: string[];
  modifiers: string[];
  isLambda: boolean;
  body: Node | null;
  /** For Go methods: the receiver type, which stands in for the enclosing class. */
  ownerClass?: string;
}

/** What a language reads from a class node. */
export type ClassFacts = Omit<ClassIR, 'name' | 'startLine' | 'endLine' | 'methods' | 'enclosingClass'> & {
  name: string | null;
};

/** What a language reads from a call node. */
type CallFacts = Pick<CallIR, 'callee' | 'receiver' | 'arity' | 'kind'>;

/** Where an import was found; the walk adds the line. */
export type ImportFacts = Omit<ImportIR, 'line'>;

/** Helpers the walk hands to the rules. */
export interface ReadContext {
  /** Source text of a node (callers clip large nodes with `clip`). */
  text(node: Node): string;
  /** Source text cut to `max` characters, without materialising the whole node text. */
  clip(node: Node, max?: number): string;
  /** Type of the parent of the node being read (only valid for that node), or null at the root. */
  parentType(): string | null;
}

/** A value bound to a name by an assignment. */
export interface Binding {
  value: Node;
  /** The name a lambda or class takes (`exports.handler = ...` gives `handler`). */
  name: string;
  /** The local names bound (destructuring gives several). */
  names: string[];
}

/** One language's contribution to the IR. */
export interface LanguageRules {
  functionTypes: ReadonlySet<string>;
  classTypes: ReadonlySet<string>;
  callTypes: ReadonlySet<string>;
  importTypes: ReadonlySet<string>;
  /** Nodes that may give a lambda its name (`x = lambda ...`, `const f = () => ...`). */
  namingTypes: ReadonlySet<string>;
  /** Node type of decorators written as siblings before the declaration (Python, TypeScript), or null. */
  siblingDecoratorType: string | null;
  /** A modifier a decorator implies (Python `@staticmethod` → `static`), or null. */
  decoratorModifiers?: (decorator: string) => string | null;
  /** Null when the node is not really a function (e.g. a Ruby block handled elsewhere). */
  readFunction(node: Node, ctx: ReadContext): FunctionFacts | null;
  /** Null when the node is not really a class (e.g. a Go type alias). */
  readClass(node: Node, ctx: ReadContext): ClassFacts | null;
  readCall(node: Node, ctx: ReadContext): CallFacts | null;
  readImports(node: Node, ctx: ReadContext): ImportFacts[];
  /**
   * For a naming node (an assignment or declarator): the value node and the names it is bound to, or
   * null. The walk uses `name` for lambdas and anonymous classes and `names` for require/import calls.
   */
  readBinding(node: Node, ctx: ReadContext): Binding | null;
}

/** Named children, skipping comments and holes. */
export function namedKids(node: Node): Node[] {
  const out: Node[] = [];
  for (const child of node.namedChildren) if (child && child.type !== 'comment') out.push(child);
  return out;
}

/** Text of a string literal without its quotes (content children when the grammar has them). */
export function unquote(text: string): string {
  const first = text[0];
  if (text.length >= 2 && (first === '"' || first === "'" || first === '`') && text.endsWith(first)) {
    return text.slice(1, -1);
  }
  return text;
}

/** A type name without generic arguments: `Bar<T>` → `Bar`. */
export function withoutTypeArguments(text: string): string {
  const angle = text.indexOf('<');
  return (angle < 0 ? text : text.slice(0, angle)).trim();
}

/** Count named argument nodes (comments excluded). */
export function countArguments(args: Node | null): number {
  if (!args) return 0;
  let n = 0;
  for (const child of args.namedChildren) if (child && child.type !== 'comment') n++;
  return n;
}
