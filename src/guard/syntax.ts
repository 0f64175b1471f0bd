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

/**
 * A name as the language resolves it: Python folds identifiers with NFKC (`__ｃlass__` is `__class__`),
 * JavaScript decodes `\u0065`-style escapes in identifiers (`requir\u0065` is `require`). Every
 * comparison of names (imports, licences, dunders) is made on this form, never on the text as written.
 */
export function resolvedName(text: string, language: GuardLanguage): string {
  if (language === 'python') return text.normalize('NFKC');
  return decodeJsEscapes(text);
}

/** Decode the escapes JavaScript allows in identifiers and strings (`\uXXXX`, `\u{X}`, `\xHH`, `\c`). */
function decodeJsEscapes(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(/\\(?:u\{([0-9a-fA-F]+)\}|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|([\s\S]))/g, (_all, braced?: string, four?: string, two?: string, other?: string) => {
    const hex = braced ?? four ?? two;
    if (hex !== undefined) {
      const code = Number.parseInt(hex, 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return other === undefined ? '' : (SIMPLE_ESCAPES[other] ?? other);
  });
}

const SIMPLE_ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', v: '\v', '0': '\0', '\n': '' };

/** The value of a JavaScript string or template literal without substitutions, or null. */
export function jsLiteralValue(node: Node): string | null {
  if (node.type === 'string') return decodeJsEscapes(node.text.slice(1, -1));
  if (node.type === 'template_string' && !node.namedChildren.some((c) => c?.type === 'template_substitution')) return decodeJsEscapes(node.text.slice(1, -1));
  return null;
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
export function nodesInRows(tree: Tree, rows: RowRange): Node[] {
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
  /** The names it binds in the file and the module each stands for (`import subprocess as sp`: `sp` is `subprocess`). */
  binds: ModuleBinding[];
}

/** A name that stands for a module (or a module's member, `from os import path`: `path` is `os.path`). */
export interface ModuleBinding {
  name: string;
  module: string;
}

/** A module name without Node's `node:` scheme. */
function plainModule(module: string): string {
  return module.startsWith('node:') ? module.slice(5) : module;
}

const PY_MODULE = /^(['"])([A-Za-z_][\w.]*)\1$/;
const JS_MODULE = /^(['"`])([@\w][\w@./:-]*)\1$/;

export function literalModule(node: Node | null | undefined, language: GuardLanguage): string | null {
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
      const aliased = child.type === 'aliased_import';
      const dotted = aliased ? child.childForFieldName('name') : child;
      if (!dotted) return [];
      // `import os.path` binds `os`; `import os.path as p` binds `p` to `os.path`.
      const alias = aliased ? child.childForFieldName('alias') : null;
      const first = dotted.namedChildren[0];
      const binds = alias ? [{ name: resolvedName(alias.text, 'python'), module: dotted.text }]
        : first ? [{ name: resolvedName(first.text, 'python'), module: first.text }] : [];
      return [{ module: dotted.text, relative: false, names: [], text, binds }];
    });
  }
  if (node.type === 'import_from_statement' || node.type === 'future_import_statement') {
    const moduleNode = node.type === 'future_import_statement' ? null : node.childForFieldName('module_name');
    const names: string[] = [];
    const bound: Array<{ alias: string; name: string }> = [];
    for (const n of node.childrenForFieldName('name')) {
      if (!n) continue;
      const dotted = n.type === 'aliased_import' ? n.childForFieldName('name') : n;
      const alias = n.type === 'aliased_import' ? n.childForFieldName('alias') : n;
      if (!dotted) continue;
      names.push(dotted.text);
      if (alias) bound.push({ alias: alias.text, name: dotted.text });
    }
    if (node.namedChildren.some((c) => c?.type === 'wildcard_import')) names.push('*');
    if (moduleNode?.type === 'relative_import') return [{ module: null, relative: true, names, text, binds: [] }];
    const module = moduleNode ? moduleNode.text : '__future__';
    // `from os import path` makes `path` stand for `os.path`, not for `os`.
    const binds = moduleNode ? bound.map(({ alias, name }) => ({ name: resolvedName(alias, 'python'), module: `${module}.${name}` })) : [];
    return [{ module, relative: false, names, text, binds }];
  }
  if (node.type === 'call') {
    const callee = node.childForFieldName('function');
    const written = callee?.type === 'identifier' ? callee.text : callee?.type === 'attribute' ? callee.childForFieldName('attribute')?.text : undefined;
    const name = written === undefined ? undefined : resolvedName(written, 'python');
    if (name !== '__import__' && name !== 'import_module') return [];
    const first = node.childForFieldName('arguments')?.namedChildren[0];
    const module = literalModule(first, 'python');
    // `sp = __import__('subprocess')` makes `sp` stand for the module, as `import subprocess as sp` would.
    const holder = node.parent;
    const target = holder?.type === 'assignment' && isField(holder, 'right', node) ? holder.childForFieldName('left') : null;
    const binds = module !== null && target?.type === 'identifier' ? [{ name: resolvedName(target.text, 'python'), module }] : [];
    return [{ module, relative: module?.startsWith('.') ?? false, names: [], text, binds }];
  }
  if (node.type === 'identifier' && PY_IMPORT_FUNCTIONS.has(resolvedName(node.text, 'python')) && !isPythonCallee(node) && !insidePythonImport(node)) {
    // `load = importlib.import_module` then `load(name)`: an import whose module no one can read here.
    return [{ module: null, relative: false, names: [], text: oneLineText(node.parent ?? node), binds: [] }];
  }
  return [];
}

const PY_IMPORT_FUNCTIONS = new Set(['__import__', 'import_module']);

/** The name is what a call calls: `f(...)` or `obj.f(...)`. */
function isPythonCallee(node: Node): boolean {
  const parent = node.parent;
  if (!parent) return false;
  if (parent.type === 'call') return isField(parent, 'function', node);
  if (parent.type === 'attribute' && isField(parent, 'attribute', node)) {
    const call = parent.parent;
    return call?.type === 'call' && isField(call, 'function', parent);
  }
  return false;
}

/** The name is part of an import statement (`from importlib import import_module`), which is read as one. */
function insidePythonImport(node: Node): boolean {
  for (let at: Node | null = node.parent; at; at = at.parent) {
    if (at.type === 'import_statement' || at.type === 'import_from_statement') return true;
    if (at.type.endsWith('statement') || at.type === 'module') return false;
  }
  return false;
}

function javascriptImports(node: Node): FoundImport[] {
  const text = oneLineText(node);
  if (node.type === 'import_statement' || node.type === 'export_statement') {
    const source = node.childForFieldName('source') ?? node.namedChildren.find((c) => c?.type === 'import_require_clause')?.childForFieldName('source');
    if (!source) return [];
    const module = literalModule(source, 'javascript');
    const binds = node.type === 'import_statement' && module !== null ? importedNames(node).map((name) => ({ name, module: plainModule(module) })) : [];
    return [{ module, relative: module !== null && jsRelative(module), names: [], text, binds }];
  }
  if (node.type === 'call_expression') {
    const callee = node.childForFieldName('function');
    if (!(callee?.type === 'import' || (callee && isRequire(callee)))) return [];
    const first = node.childForFieldName('arguments')?.namedChildren[0];
    const module = literalModule(first, 'javascript');
    const binds = module !== null ? storedInto(node).map((name) => ({ name, module: plainModule(module) })) : [];
    return [{ module, relative: module !== null && jsRelative(module), names: [], text, binds }];
  }
  if (isRequire(node)) {
    const parent = node.parent;
    // `require.call(null, m)`, `const load = require`: an import whose module no one can read here.
    if (!(parent?.type === 'call_expression' && isField(parent, 'function', node))) return [{ module: null, relative: false, names: [], text: oneLineText(parent ?? node), binds: [] }];
  }
  return [];
}

/**
 * The local names an `import` statement binds: the default, a namespace, each specifier (its alias when
 * it has one), TypeScript's `import cp = require(m)`.
 */
function importedNames(statement: Node): string[] {
  return statement.descendantsOfType('identifier').flatMap((inner) => {
    const parent = inner?.parent;
    if (!inner || !parent || !['import_clause', 'namespace_import', 'import_specifier', 'import_require_clause'].includes(parent.type)) return [];
    if (parent.type === 'import_specifier' && parent.childForFieldName('alias') && !isField(parent, 'alias', inner)) return [];
    return [resolvedName(inner.text, 'javascript')];
  });
}

/**
 * The names a `require(m)` or `import(m)` call is stored in: `const cp = require(m)`,
 * `const { exec } = require(m)`, `cp = require(m)`, `const cp = await import(m)`.
 */
function storedInto(call: Node): string[] {
  const value = call.parent?.type === 'await_expression' ? call.parent : call;
  const holder = value.parent;
  if (!holder) return [];
  const declarator = holder.type === 'variable_declarator';
  if (!declarator && holder.type !== 'assignment_expression') return [];
  if (!isField(holder, declarator ? 'value' : 'right', value)) return [];
  const left = holder.childForFieldName(declarator ? 'name' : 'left');
  if (!left) return [];
  const names = left.type === 'identifier' ? [left] : left.descendantsOfType(['identifier', 'shorthand_property_identifier_pattern']);
  return names.flatMap((n) => (n ? [resolvedName(n.text, 'javascript')] : []));
}

/** `require`, however its name is spelled (`requir\u0065`). */
export function isRequire(node: Node): boolean {
  return node.type === 'identifier' && resolvedName(node.text, 'javascript') === 'require';
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

export function isField(parent: Node, field: string, child: Node): boolean {
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
  // A method's own name (`constructor() {}`) is a definition, not a reach into an object.
  if (node.type === 'property_identifier' && node.parent?.type === 'method_definition' && isField(node.parent, 'name', node)) return 'binds';
  if (node.type === 'property_identifier') return 'attribute';
  if (node.type === 'shorthand_property_identifier_pattern') return 'binds';
  if (node.type === 'shorthand_property_identifier') return 'read';
  const parent = node.parent;
  if (!parent) return 'read';
  // The callee of `require(...)` is the import check's to judge (word 16), not a name the licence must bind.
  if (parent.type === 'call_expression' && isField(parent, 'function', node) && isRequire(node)) return 'ignored';
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
  /** JavaScript calls of a property whose key is computed (`x[a + b](...)`), by text; the key could name anything. */
  computedCalls: Map<string, number>;
  /**
   * JavaScript reads of a property whose key is computed and not provably a number (`x[k]`, a
   * `{ [k]: v } = x` pattern), by text, with the names the key reads: the key could be `constructor`.
   */
  computedReads: Map<string, { line: number; keyNames: string[] }>;
  /** JavaScript names written by an assignment or an update (`k = ...`, `k += ...`, `k++`), which can change what a key names. */
  assigned: Set<string>;
  /** Calls whose shell switch is on (`shell=True`, `{ shell: true }`): a model must not be the one to turn it on. */
  shellCalls: ShellCall[];
}

/** A call whose shell switch is on. */
export interface ShellCall {
  /** The callee as the language resolves it (`subprocess.run`, `cp.spawn`). */
  callee: string;
  /** 1-based line of the call. */
  line: number;
  /** The literal pieces of the command it hands the shell (strings' text, numbers), as written. */
  literals: string[];
}

/** The values that leave a shell switch off; anything else (a variable, `1`, `'/bin/sh'`) turns it on. */
const SHELL_OFF: Record<GuardLanguage, ReadonlySet<string>> = {
  python: new Set(['False', 'None', '0']),
  javascript: new Set(['false', 'undefined', 'null', '0', "''", '""', '``']),
  typescript: new Set(['false', 'undefined', 'null', '0', "''", '""', '``']),
};

/** Whether a shell switch's value, as written, is off. Fails closed: only the plain falsy literals are off. */
function switchedOff(valueText: string, language: GuardLanguage): boolean {
  return SHELL_OFF[language].has(valueText.trim());
}

/** The value nodes a call passes as its `shell` switch: Python keywords (also `**{'shell': ...}`), JavaScript option objects. */
function shellSwitchValues(call: Node, language: GuardLanguage): Node[] {
  const args = call.childForFieldName('arguments');
  if (!args) return [];
  const values: Node[] = [];
  for (const arg of args.namedChildren) {
    if (!arg) continue;
    if (language === 'python') {
      if (arg.type === 'keyword_argument' && resolvedName(arg.childForFieldName('name')?.text ?? '', language) === 'shell') {
        const value = arg.childForFieldName('value');
        if (value) values.push(value);
      }
      const splatted = arg.type === 'dictionary_splat' ? arg.namedChildren[0] : null;
      if (splatted?.type === 'dictionary') values.push(...pairValuesNamedShell(splatted, language));
    } else if (arg.type === 'object') {
      values.push(...pairValuesNamedShell(arg, language));
    }
  }
  return values;
}

/**
 * The values of a dictionary's or object's entries keyed `shell` (a shorthand `{ shell }` is its own
 * value). A key no one can read here (`[k]: true`, an escaped Python string) could be `shell`: it counts.
 */
function pairValuesNamedShell(container: Node, language: GuardLanguage): Node[] {
  const values: Node[] = [];
  for (const entry of container.namedChildren) {
    if (!entry) continue;
    if (entry.type === 'shorthand_property_identifier' && resolvedName(entry.text, language) === 'shell') values.push(entry);
    if (entry.type !== 'pair') continue;
    const value = entry.childForFieldName('value');
    const key = propertyKeyName(entry.childForFieldName('key'), language);
    if (value && (key === null || key === 'shell')) values.push(value);
  }
  return values;
}

/** A key as a name: `shell`, `'shell'`, `["shell"]`; null when it cannot be read here. */
function propertyKeyName(key: Node | null, language: GuardLanguage): string | null {
  if (!key) return null;
  if (key.type === 'property_identifier' || key.type === 'identifier' || key.type === 'number') return resolvedName(key.text, language);
  const literal = key.type === 'computed_property_name' ? key.namedChildren[0] : key;
  if (!literal) return null;
  if (language !== 'python') return jsLiteralValue(literal);
  if (literal.type !== 'string' || literal.namedChildren.some((c) => c?.type === 'interpolation' || c?.type === 'escape_sequence')) return null;
  return literal.namedChildren.flatMap((c) => (c?.type === 'string_content' ? [c.text] : [])).join('');
}

/** The leaves of a command that are literal: what a model could change to give a shell another command. */
const LITERAL_LEAVES: Record<GuardLanguage, ReadonlySet<string>> = {
  python: new Set(['string_content', 'escape_sequence', 'integer', 'float']),
  javascript: new Set(['string_fragment', 'escape_sequence', 'number', 'regex_pattern']),
  typescript: new Set(['string_fragment', 'escape_sequence', 'number', 'regex_pattern']),
};

/**
 * The arguments that make up a shell call's command: every positional argument and Python's `args=`;
 * not the keywords or option objects around it (a new `cwd` or `timeout` is no new command).
 */
function commandArguments(call: Node, language: GuardLanguage): Node[] {
  const args = call.childForFieldName('arguments')?.namedChildren ?? [];
  return args.flatMap((arg) => {
    if (!arg || arg.type === 'comment') return [];
    if (language === 'python' && arg.type === 'keyword_argument') {
      const value = arg.childForFieldName('value');
      return value && resolvedName(arg.childForFieldName('name')?.text ?? '', language) === 'args' ? [value] : [];
    }
    if (language === 'python' && arg.type === 'dictionary_splat') return [];
    return language !== 'python' && arg.type === 'object' ? [] : [arg];
  });
}

/** The literal leaves inside the nodes, as written (an explicit stack: a command can nest deeply). */
function literalsIn(nodes: Node[], language: GuardLanguage): string[] {
  const literals: string[] = [];
  const stack = [...nodes];
  while (stack.length > 0) {
    const at = stack.pop();
    if (!at) break;
    if (LITERAL_LEAVES[language].has(at.type)) literals.push(at.text);
    for (const child of at.children) if (child) stack.push(child);
  }
  return literals;
}

/** A call whose shell switch is on, with its callee as the language resolves it, or null. */
function shellSwitchCall(node: Node, language: GuardLanguage): ShellCall | null {
  const isCall = language === 'python' ? node.type === 'call' : node.type === 'call_expression' || node.type === 'new_expression';
  if (!isCall) return null;
  if (!shellSwitchValues(node, language).some((value) => !switchedOff(value.text, language))) return null;
  const callee = node.childForFieldName(node.type === 'new_expression' ? 'constructor' : 'function');
  return { callee: resolvedName(oneLineText(callee ?? node), language), line: node.startPosition.row + 1, literals: literalsIn(commandArguments(node, language), language) };
}

const NUMERIC_OPERATORS = new Set(['-', '*', '/', '%', '**', '&', '|', '^', '<<', '>>', '>>>', '~']);

/**
 * Whether a JavaScript key expression always yields a number, so it can never name `constructor`:
 * a number, `.length`, arithmetic and bitwise operators (not `+`, which also joins strings), `i++`.
 */
function isNumericKey(node: Node): boolean {
  switch (node.type) {
    case 'number':
    case 'update_expression':
      return true;
    case 'parenthesized_expression':
      return node.namedChildren.length === 1 && node.namedChildren[0] !== null && node.namedChildren[0] !== undefined && isNumericKey(node.namedChildren[0]);
    case 'member_expression':
      return node.childForFieldName('property')?.text === 'length';
    case 'unary_expression':
    case 'binary_expression':
      return NUMERIC_OPERATORS.has(node.childForFieldName('operator')?.type ?? '') || (node.type === 'unary_expression' && node.childForFieldName('operator')?.type === '+');
    default:
      return false;
  }
}

/** The key node of a computed property read (`x[key]`, or `[key]` in a destructuring pattern), or null. */
function computedKeyRead(node: Node): { key: Node; read: Node } | null {
  if (node.type === 'subscript_expression') {
    const key = node.childForFieldName('index');
    return key ? { key, read: node } : null;
  }
  if (node.type === 'computed_property_name' && node.parent?.type === 'pair_pattern') {
    const key = node.namedChildren[0];
    return key ? { key, read: node.parent } : null;
  }
  return null;
}

/** The identifiers inside a node (an explicit stack: a key can be nested deeply). */
function identifiersIn(node: Node, language: GuardLanguage): string[] {
  const names: string[] = [];
  const stack: Node[] = [node];
  while (stack.length > 0) {
    const at = stack.pop();
    if (!at) break;
    if (at.type === 'identifier') names.push(resolvedName(at.text, language));
    for (const child of at.namedChildren) if (child) stack.push(child);
  }
  return names;
}

const JS_ASSIGNMENTS = new Set(['assignment_expression', 'augmented_assignment_expression']);

/** Classify every name node starting in the rows; the map values are 1-based lines of first use. */
export function namesInRows(tree: Tree, rows: RowRange, language: GuardLanguage): NamesInRows {
  const result: NamesInRows = { reads: new Map(), binds: new Set(), attributes: new Map(), computedCalls: new Map(), computedReads: new Map(), assigned: new Set(), shellCalls: [] };
  const types = NAME_TYPES[language];
  const use = language === 'python' ? pythonNameUse : javascriptNameUse;
  for (const node of nodesInRows(tree, rows)) {
    const shellCall = shellSwitchCall(node, language);
    if (shellCall !== null) result.shellCalls.push(shellCall);
    if (language !== 'python' && node.parent?.type === 'subscript_expression' && isField(node.parent, 'index', node)) {
      // `x['constructor']` is a property access spelled as a string; a computed key stays unread.
      const key = jsLiteralValue(node);
      if (key !== null && !result.attributes.has(key)) result.attributes.set(key, node.startPosition.row + 1);
    }
    if (language !== 'python' && (node.type === 'call_expression' || node.type === 'new_expression')) {
      const callee = node.childForFieldName(node.type === 'call_expression' ? 'function' : 'constructor');
      const index = callee?.type === 'subscript_expression' ? callee.childForFieldName('index') : null;
      if (index && index.type !== 'number' && jsLiteralValue(index) === null) result.computedCalls.set(oneLineText(callee ?? node), node.startPosition.row + 1);
    }
    if (language !== 'python') {
      const computed = computedKeyRead(node);
      if (computed && jsLiteralValue(computed.key) === null && !isNumericKey(computed.key)) {
        result.computedReads.set(oneLineText(computed.read), { line: node.startPosition.row + 1, keyNames: identifiersIn(computed.key, language) });
      }
      if (JS_ASSIGNMENTS.has(node.type)) {
        const left = node.childForFieldName('left');
        if (left) for (const name of identifiersIn(left, language)) result.assigned.add(name);
      }
      if (node.type === 'update_expression') for (const name of identifiersIn(node, language)) result.assigned.add(name);
    }
    if (!types.has(node.type)) continue;
    const name = resolvedName(node.text, language);
    const line = node.startPosition.row + 1;
    const how = use(node);
    if (how === 'read' && !result.reads.has(name)) result.reads.set(name, line);
    else if (how === 'binds') result.binds.add(name);
    else if (how === 'attribute' && !result.attributes.has(name)) result.attributes.set(name, line);
  }
  return result;
}
