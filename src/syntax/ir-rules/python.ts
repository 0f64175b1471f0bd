/** IR rules for Python (tree-sitter-python 0.21 node names). */
import type { Node } from 'web-tree-sitter';
import type { ParameterIR } from '../ir-types.js';
import { countArguments, namedKids, type ImportFacts, type LanguageRules, type ReadContext } from './rules.js';

/** Decorators that imply a modifier. */
const DECORATOR_MODIFIERS: Record<string, string> = {
  staticmethod: 'static',
  classmethod: 'classmethod',
  abstractmethod: 'abstract',
  'abc.abstractmethod': 'abstract',
  property: 'property',
};

/** Bases that make a class abstract. */
const ABSTRACT_BASES = new Set(['ABC', 'abc.ABC']);
const ABSTRACT_METACLASSES = new Set(['ABCMeta', 'abc.ABCMeta']);

function parameters(params: Node | null, ctx: ReadContext): ParameterIR[] {
  if (!params) return [];
  const out: ParameterIR[] = [];
  for (const p of namedKids(params)) {
    switch (p.type) {
      case 'identifier':
        out.push({ name: ctx.text(p), type: null, annotations: [] });
        break;
      case 'typed_parameter': {
        // The name is the first named child (an identifier or a splat pattern).
        const first = p.namedChild(0);
        const type = p.childForFieldName('type');
        out.push({ name: first ? splatName(first, ctx) : ctx.text(p), type: type ? ctx.text(type) : null, annotations: [] });
        break;
      }
      case 'default_parameter':
      case 'typed_default_parameter': {
        const name = p.childForFieldName('name');
        const type = p.childForFieldName('type');
        out.push({ name: name ? ctx.text(name) : ctx.text(p), type: type ? ctx.text(type) : null, annotations: [] });
        break;
      }
      case 'list_splat_pattern':
      case 'dictionary_splat_pattern':
        out.push({ name: splatName(p, ctx), type: null, annotations: [] });
        break;
      default:
        break; // keyword_separator `*`, positional_separator `/`
    }
  }
  return out;
}

function splatName(node: Node, ctx: ReadContext): string {
  return ctx.text(node).replace(/^\*+/, '');
}

function importNames(node: Node, ctx: ReadContext): string[] {
  if (node.type === 'aliased_import') {
    const alias = node.childForFieldName('alias');
    return alias ? [ctx.text(alias)] : [];
  }
  return [ctx.text(node)];
}

export const pythonRules: LanguageRules = {
  functionTypes: new Set(['function_definition', 'lambda']),
  classTypes: new Set(['class_definition']),
  callTypes: new Set(['call']),
  importTypes: new Set(['import_statement', 'import_from_statement', 'future_import_statement']),
  namingTypes: new Set(['assignment', 'keyword_argument', 'pair']),
  siblingDecoratorType: 'decorator',
  decoratorModifiers: (decorator) => DECORATOR_MODIFIERS[decorator] ?? null,

  readFunction(node, ctx) {
    if (node.type === 'lambda') {
      return { name: null, parameters: parameters(node.childForFieldName('parameters'), ctx), decorators: [], modifiers: [], isLambda: true, body: node.childForFieldName('body') };
    }
    const name = node.childForFieldName('name');
    const modifiers: string[] = [];
    if (node.child(0)?.type === 'async') modifiers.push('async');
    return {
      name: name ? ctx.text(name) : null,
      parameters: parameters(node.childForFieldName('parameters'), ctx),
      decorators: [],
      modifiers,
      isLambda: false,
      body: node.childForFieldName('body'),
    };
  },

  readClass(node, ctx) {
    const name = node.childForFieldName('name');
    const bases: string[] = [];
    let isAbstract = false;
    const supers = node.childForFieldName('superclasses');
    if (supers) {
      for (const base of namedKids(supers)) {
        if (base.type === 'keyword_argument') {
          const key = base.childForFieldName('name');
          const value = base.childForFieldName('value');
          if (key && value && ctx.text(key) === 'metaclass' && ABSTRACT_METACLASSES.has(ctx.text(value))) isAbstract = true;
          continue;
        }
        const text = ctx.text(base);
        if (ABSTRACT_BASES.has(text)) isAbstract = true;
        bases.push(text);
      }
    }
    return {
      name: name ? ctx.text(name) : null,
      superclass: bases[0] ?? null,
      interfaces: bases.slice(1),
      isAbstract,
      kind: 'class',
      decorators: [],
    };
  },

  readCall(node, ctx) {
    const fn = node.childForFieldName('function');
    const args = node.childForFieldName('arguments');
    const arity = args?.type === 'generator_expression' ? 1 : countArguments(args);
    if (fn?.type === 'attribute') {
      const object = fn.childForFieldName('object');
      const attribute = fn.childForFieldName('attribute');
      return { callee: attribute ? ctx.text(attribute) : ctx.clip(fn), receiver: object ? ctx.clip(object) : null, arity, kind: 'call' };
    }
    return { callee: fn ? ctx.clip(fn) : '', receiver: null, arity, kind: 'call' };
  },

  readImports(node, ctx) {
    const out: ImportFacts[] = [];
    if (node.type === 'import_statement') {
      for (const name of node.childrenForFieldName('name')) {
        if (!name) continue;
        const moduleNode = name.type === 'aliased_import' ? name.childForFieldName('name') : name;
        const module = moduleNode ? ctx.text(moduleNode) : ctx.text(name);
        // `import a.b` binds `a`.
        const names = name.type === 'aliased_import' ? importNames(name, ctx) : [module.split('.')[0] ?? module];
        out.push({ module, names, kind: 'import' });
      }
      return out;
    }
    const moduleNode = node.childForFieldName('module_name');
    const module = moduleNode ? ctx.text(moduleNode) : '__future__';
    const names: string[] = [];
    for (const child of namedKids(node)) {
      if (child.type === 'wildcard_import') names.push('*');
    }
    for (const name of node.childrenForFieldName('name')) if (name) names.push(...importNames(name, ctx));
    out.push({ module, names, kind: 'import' });
    return out;
  },

  readBinding(node, ctx) {
    const [left, right] =
      node.type === 'assignment'
        ? [node.childForFieldName('left'), node.childForFieldName('right')]
        : node.type === 'keyword_argument'
          ? [node.childForFieldName('name'), node.childForFieldName('value')]
          : [node.childForFieldName('key'), node.childForFieldName('value')];
    if (!left || right?.type !== 'lambda') return null;
    const name = nameFromTarget(ctx.text(left));
    return { value: right, name, names: [name] };
  },
};

/** `self.handler` → `handler`; `'key'` → `key`. */
function nameFromTarget(text: string): string {
  const dot = text.lastIndexOf('.');
  return (dot >= 0 ? text.slice(dot + 1) : text).replace(/^['"]|['"]$/g, '');
}
