/** Lowering a snippet with a real parse, and looking things up in the flow IR it gives. */
import type { FlowExpr, FlowFile, FlowFunction, FlowStmt } from '../../src/flow/ir.js';
import { goFrontEnd } from '../../src/flow/lower/go.js';
import { javascriptFrontEnd } from '../../src/flow/lower/javascript.js';
import { phpFrontEnd } from '../../src/flow/lower/php.js';
import { pythonFrontEnd } from '../../src/flow/lower/python.js';
import type { Language } from '../../src/syntax/languages.js';
import { parse } from '../../src/syntax/parser.js';

const FRONT_ENDS = { python: pythonFrontEnd, javascript: javascriptFrontEnd, typescript: javascriptFrontEnd, tsx: javascriptFrontEnd, php: phpFrontEnd, go: goFrontEnd } as const;
export type LoweredLanguage = keyof typeof FRONT_ENDS;

export async function lower(language: LoweredLanguage, source: string): Promise<FlowFile> {
  const tree = await parse(language as Language, source);
  try {
    return FRONT_ENDS[language].lower({ path: `case.${language}`, language, source, root: tree.rootNode });
  } finally {
    tree.delete();
  }
}

export function fn(file: FlowFile, qualifiedName: string): FlowFunction {
  const found = file.functions.find((f) => f.qualifiedName === qualifiedName);
  if (!found) throw new Error(`no function ${qualifiedName} in ${file.functions.map((f) => f.qualifiedName).join(', ')}`);
  return found;
}

type Node = FlowExpr | FlowStmt;

/** Every statement and expression node under `root`, depth first. */
export function nodes(root: unknown): Node[] {
  const out: Node[] = [];
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const item = stack.pop();
    if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push(item[i]);
    } else if (item !== null && typeof item === 'object') {
      if ('kind' in item && typeof item.kind === 'string' && 'line' in item) out.push(item as Node);
      for (const value of Object.values(item).reverse()) if (value !== null && typeof value === 'object') stack.push(value);
    }
  }
  return out;
}

/** The first node of `kind` under `root` that satisfies `test`. */
export function first<K extends Node['kind']>(root: unknown, kind: K, test: (node: Extract<Node, { kind: K }>) => boolean = () => true): Extract<Node, { kind: K }> {
  for (const node of nodes(root)) {
    if (node.kind === kind && test(node as Extract<Node, { kind: K }>)) return node as Extract<Node, { kind: K }>;
  }
  throw new Error(`no ${kind} node found`);
}

export function call(root: unknown, callee: string): Extract<FlowExpr, { kind: 'call' }> {
  return first(root, 'call', (c) => c.callee === callee) as Extract<FlowExpr, { kind: 'call' }>;
}

/** A compact reading of an expression for assertions: `name:x`, `lit:"a"`, `field(name:req).query`... */
export function show(expr: FlowExpr | null | undefined): string {
  if (!expr) return 'null';
  switch (expr.kind) {
    case 'literal':
      return `lit:${JSON.stringify(expr.value)}`;
    case 'name':
      return `name:${expr.name}`;
    case 'field':
      return `${show(expr.object)}.${expr.field}`;
    case 'index':
      return `${show(expr.object)}[${show(expr.index)}]`;
    case 'call':
      return `${expr.isNew ? 'new ' : ''}${expr.receiver ? `${show(expr.receiver)}.` : ''}${expr.callee}(${[...expr.arguments.map((a) => (a.spread ? '...' : '') + show(a.value)), ...expr.named.map((n) => `${n.name}=${show(n.value)}`)].join(', ')})`;
    case 'binary':
      return `(${show(expr.left)} ${expr.operator} ${show(expr.right)})`;
    case 'unary':
      return `${expr.operator}${show(expr.operand)}`;
    case 'conditional':
      return `(${show(expr.condition)} ? ${show(expr.then)} : ${show(expr.otherwise)})`;
    case 'template':
      return `tpl${expr.tag ? `<${show(expr.tag)}>` : ''}[${expr.parts.map(show).join(', ')}]`;
    case 'collection':
      return `${expr.shape}{${[...expr.elements.map((e) => (e.spread ? '...' : '') + show(e.value)), ...expr.entries.map((e) => `${e.key ? show(e.key) : '...'}: ${show(e.value)}`)].join(', ')}}`;
    case 'function':
      return `fn:${expr.qualifiedName}`;
    case 'cast':
      return `(${expr.type})${show(expr.value)}`;
    case 'assignment':
      return `(${expr.target.kind === 'name' ? expr.target.name : expr.target.kind} ${expr.operator} ${show(expr.value)})`;
    case 'unknown':
      return `unknown[${expr.children.map(show).join(', ')}]`;
  }
}

/** Qualified names with the flow IR's extra precision removed (lambda columns, redefinition suffixes). */
export function comparableName(qualifiedName: string): string {
  return qualifiedName.replace(/<lambda@L(\d+):\d+>/g, '<lambda@L$1>').replace(/@L\d+:\d+/g, '');
}
