/**
 * What the guard reads from tree-sitter trees: the first syntax error, the depth, the imports and the
 * names of a line range. Every walk is iterative (an explicit stack or a cursor), so a deep tree can
 * make a walk long but never overrun the JavaScript stack.
 */
import type { Node, Tree } from 'web-tree-sitter';
import type { GuardLanguage } from './languages.js';

/** A row range (0-based, inclusive) of a tree: the lines a replacement occupies. */
export interface RowRange {
  first: number;
  last: number;
}

/** The first ERROR or MISSING node in document order, as a one-line description, or null. */
export function firstSyntaxError(tree: Tree): string | null {
  if (!tree.rootNode.hasError) return null;
  const cursor = tree.walk();
  try {
    for (;;) {
      const node = cursor.currentNode;
      if (node.isError) return `a syntax error at line ${node.startPosition.row + 1}`;
      if (node.isMissing) return `a missing "${node.type}" at line ${node.startPosition.row + 1}`;
      if (node.hasError && cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return 'a syntax error';
      }
    }
  } finally {
    cursor.delete();
  }
}

/** The depth of the deepest node, stopping as soon as it passes `limit`. */
export function treeDepthExceeds(tree: Tree, limit: number): boolean {
  const cursor = tree.walk();
  let depth = 0;
  try {
    for (;;) {
      if (cursor.gotoFirstChild()) {
        depth++;
        if (depth > limit) return true;
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return false;
        depth--;
      }
    }
  } finally {
    cursor.delete();
  }
}

/** Every node whose first row lies in the range, in document order. */
function nodesInRows(tree: Tree, rows: RowRange): Node[] {
  const found: Node[] = [];
  const stack: Node[] = [tree.rootNode];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!node) break;
    if (node.endPosition.row < rows.first || node.startPosition.row > rows.last) continue;
    if (node.startPosition.row >= rows.first) found.push(node);
    const children = node.children;
    for (let k = children.length - 1; k >= 0; k--) {
      const child = children[k];
      if (child) stack.push(child);
    }
  }
  return found;
}

/** One import found in a tree. */
export interface FoundImport {
  /** The module named, or null when it is not a plain literal name (then it is under nothing). */
  module: string | null;
  /** A relative import (`from . import x`, `./x`) is under nothing. */
  relative: boolean;
  /** For `from m import a, b`: the names, so `m.a` may be what the licence names. */
  names: string[];
  /** The import as written, for the detail line and to compare with the replaced lines. */
  text: string;
}

const PY_MODULE = /^(['"])([A-Za-z_][\w.]*)\1$/;
const JS_MODULE = /^(['"`])([@\w][\w@./:-]*)\1$/;

function literalModule(node: Node | null | undefined, language: GuardLanguage): string | null {
  if (!node) return null;
  const match = (language === 'python' ? PY_MODULE : JS_MODULE).exec(node.text);
  return match?.[2] ?? null;
}

function jsRelative(module: string): boolean {
  return module.startsWith('.') || module.startsWith('/') || module.split('/').some((part) => part === '.' || part === '..' || part === '');
}

function pythonImports(node: Node): FoundImport[] {
  const text = oneLineText(node);
  if (node.type === 'import_statement') {
    return node.namedChildren.flatMap((child) => {
      if (!child) return [];
      const dotted = child.type === 'aliased_import' ? child.childForFieldName('name') : child;
      return dotted ? [{ module: dotted.text, relative: false, names: [], text }] : [];
    });
  }
  if (node.type === 'import_from_statement' || node.type === 'future_import_statement') {
    const moduleNode = node.type === 'future_import_statement' ? null : node.childForFieldName('module_name');
    const names = node.childrenForFieldName('name').flatMap((n) => {
      if (!n) return [];
      const dotted = n.type === 'aliased_import' ? n.childForFieldName('name') : n;
      return dotted ? [dotted.text] : [];
    });
    if (node.namedChildren.some((c) => c?.type === 'wildcard_import')) names.push('*');
    if (moduleNode?.type === 'relative_import') return [{ module: null, relative: true, names, text }];
    return [{ module: moduleNode ? moduleNode.text : '__future__', relative: false, names, text }];
  }
  if (node.type === 'call') {
    const callee = node.childForFieldName('function');
    const name = callee?.type === 'identifier' ? callee.text : callee?.type === 'attribute' ? callee.childForFieldName('attribute')?.text : undefined;
    if (name !== '__import__' && name !== 'import_module') return [];
    const first = node.childForFieldName('arguments')?.namedChildren[0];
    const module = literalModule(first, 'python');
    return [{ module, relative: module?.startsWith('.') ?? false, names: [], text }];
  }
  return [];
}

function javascriptImports(node: Node): FoundImport[] {
  const text = oneLineText(node);
  if (node.type === 'import_statement' || node.type === 'export_statement') {
    const source = node.childForFieldName('source') ?? node.namedChildren.find((c) => c?.type === 'import_require_clause')?.childForFieldName('source');
    if (!source) return [];
    const module = literalModule(source, 'javascript');
    return [{ module, relative: module !== null && jsRelative(module), names: [], text }];
  }
  if (node.type === 'call_expression') {
    const callee = node.childForFieldName('function');
    if (!(callee?.type === 'import' || (callee?.type === 'identifier' && callee.text === 'require'))) return [];
    const first = node.childForFieldName('arguments')?.namedChildren[0];
    const module = literalModule(first, 'javascript');
    return [{ module, relative: module !== null && jsRelative(module), names: [], text }];
  }
  return [];
}

function oneLineText(node: Node): string {
  const flat = node.text.replace(/\s+/g, ' ');
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}

/** The imports whose statement or call starts in the rows. */
export function importsInRows(tree: Tree, rows: RowRange, language: GuardLanguage): FoundImport[] {
  const read = language === 'python' ? pythonImports : javascriptImports;
  return nodesInRows(tree, rows).flatMap(read);
}

/** How a name node is used. */
type NameUse = 'read' | 'binds' | 'attribute' | 'ignored';

const PY_PATTERN_WRAPPERS = new Set(['pattern_list', 'tuple_pattern', 'list_pattern', 'list_splat_pattern', 'dictionary_splat_pattern', 'as_pattern_target', 'parenthesized_expression', 'tuple', 'list']);
const JS_PATTERN_WRAPPERS = new Set(['object_pattern', 'array_pattern', 'rest_pattern', 'pair_pattern', 'assignment_pattern']);

function isField(parent: Node, field: string, child: Node): boolean {
  return parent.childrenForFieldName(field).some((c) => c?.id === child.id);
}

function pythonNameUse(node: Node): NameUse {
  const parent = node.parent;
  if (!parent) return 'read';
  if (parent.type === 'attribute' && isField(parent, 'attribute', node)) return 'attribute';
  if (parent.type === 'keyword_argument' && isField(parent, 'name', node)) return 'ignored';
  if (parent.type === 'dotted_name' || parent.type === 'import_prefix' || parent.type === 'relative_import') return 'binds';
  if (parent.type === 'aliased_import') return 'binds';
  let child: Node = node;
  let context: Node | null = parent;
  while (context && PY_PATTERN_WRAPPERS.has(context.type)) {
    child = context;
    context = context.parent;
  }
  if (!context) return 'read';
  switch (context.type) {
    case 'assignment':
    case 'augmented_assignment':
    case 'for_statement':
    case 'for_in_clause':
      return isField(context, 'left', child) ? 'binds' : 'read';
    case 'function_definition':
    case 'class_definition':
    case 'default_parameter':
    case 'typed_default_parameter':
    case 'named_expression':
      return isField(context, 'name', child) ? 'binds' : 'read';
    case 'parameters':
    case 'lambda_parameters':
      return 'binds';
    case 'typed_parameter':
      return context.namedChildren[0]?.id === child.id ? 'binds' : 'read';
    case 'as_pattern':
      return isField(context, 'alias', child) ? 'binds' : 'read';
    default:
      return 'read';
  }
}

const JS_DECLARING_PARENTS = new Set(['function_declaration', 'function_expression', 'function', 'generator_function_declaration', 'generator_function', 'class_declaration', 'class']);

function javascriptNameUse(node: Node): NameUse {
  if (node.type === 'property_identifier') return 'attribute';
  if (node.type === 'shorthand_property_identifier_pattern') return 'binds';
  if (node.type === 'shorthand_property_identifier') return 'read';
  const parent = node.parent;
  if (!parent) return 'read';
  if ((parent.type === 'jsx_opening_element' || parent.type === 'jsx_closing_element' || parent.type === 'jsx_self_closing_element') && /^[a-z]/.test(node.text)) return 'ignored';
  if (['import_specifier', 'import_clause', 'namespace_import', 'import_require_clause', 'export_specifier'].includes(parent.type)) return 'binds';
  let child: Node = node;
  let context: Node | null = parent;
  while (context && JS_PATTERN_WRAPPERS.has(context.type)) {
    if (context.type === 'pair_pattern' && !isField(context, 'value', child)) return 'ignored';
    if (context.type === 'assignment_pattern' && !isField(context, 'left', child)) return 'read';
    child = context;
    context = context.parent;
  }
  if (!context) return 'read';
  if (context.type === 'variable_declarator') return isField(context, 'name', child) ? 'binds' : 'read';
  if (JS_DECLARING_PARENTS.has(context.type)) return isField(context, 'name', child) ? 'binds' : 'read';
  if (context.type === 'formal_parameters') return 'binds';
  if (context.type === 'required_parameter' || context.type === 'optional_parameter') return isField(context, 'pattern', child) ? 'binds' : 'read';
  if (context.type === 'arrow_function') return isField(context, 'parameter', child) ? 'binds' : 'read';
  if (context.type === 'catch_clause') return isField(context, 'parameter', child) ? 'binds' : 'read';
  if (context.type === 'for_in_statement' && isField(context, 'left', child)) {
    return context.children.some((c) => c?.type === 'const' || c?.type === 'let' || c?.type === 'var') ? 'binds' : 'read';
  }
  return 'read';
}

const NAME_TYPES: Record<GuardLanguage, ReadonlySet<string>> = {
  python: new Set(['identifier']),
  javascript: new Set(['identifier', 'property_identifier', 'shorthand_property_identifier', 'shorthand_property_identifier_pattern']),
  typescript: new Set(['identifier', 'property_identifier', 'shorthand_property_identifier', 'shorthand_property_identifier_pattern']),
};

/** The names in a row range, by how they are used. */
export interface NamesInRows {
  /** Names read (looked up in scope). */
  reads: Map<string, number>;
  /** Names bound here (assignments, parameters, definitions, imports). */
  binds: Set<string>;
  /** Attribute and property names (`x.name`); only checked for dunders. */
  attributes: Map<string, number>;
  /** Every name written in the range, whatever its use. */
  all: Set<string>;
}

/** Classify every name node starting in the rows; the map values are 1-based lines of first use. */
export function namesInRows(tree: Tree, rows: RowRange, language: GuardLanguage): NamesInRows {
  const result: NamesInRows = { reads: new Map(), binds: new Set(), attributes: new Map(), all: new Set() };
  const types = NAME_TYPES[language];
  const use = language === 'python' ? pythonNameUse : javascriptNameUse;
  for (const node of nodesInRows(tree, rows)) {
    if (!types.has(node.type)) continue;
    const name = node.text;
    const line = node.startPosition.row + 1;
    result.all.add(name);
    const how = use(node);
    if (how === 'read' && !result.reads.has(name)) result.reads.set(name, line);
    else if (how === 'binds') result.binds.add(name);
    else if (how === 'attribute' && !result.attributes.has(name)) result.attributes.set(name, line);
  }
  return result;
}
