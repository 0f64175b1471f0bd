/** IR rules for Java (tree-sitter-java 0.20 node names). */
import type { Node } from 'web-tree-sitter';
import type { ParameterIR } from '../ir-types.js';
import { countArguments, namedKids, withoutTypeArguments, type LanguageRules, type ReadContext } from './rules.js';

const ANNOTATION_TYPES = new Set(['annotation', 'marker_annotation']);

/** Keywords and annotations of a `modifiers` node. */
function readModifiers(node: Node, ctx: ReadContext): { modifiers: string[]; annotations: string[] } {
  const modifiers: string[] = [];
  const annotations: string[] = [];
  for (const child of node.children) {
    if (!child) continue;
    if (ANNOTATION_TYPES.has(child.type)) annotations.push(ctx.text(child).replace(/^@\s*/, '').trim());
    else if (!child.isNamed) modifiers.push(child.type);
  }
  return { modifiers, annotations };
}

function modifiersOf(node: Node, ctx: ReadContext): { modifiers: string[]; annotations: string[] } {
  for (const child of namedKids(node)) if (child.type === 'modifiers') return readModifiers(child, ctx);
  return { modifiers: [], annotations: [] };
}

function parameters(node: Node, ctx: ReadContext): ParameterIR[] {
  const params = node.childForFieldName('parameters');
  if (!params) return [];
  if (params.type === 'identifier') return [{ name: ctx.text(params), type: null, annotations: [] }]; // x -> ...
  const out: ParameterIR[] = [];
  for (const p of namedKids(params)) {
    if (p.type === 'identifier') {
      out.push({ name: ctx.text(p), type: null, annotations: [] }); // inferred lambda parameters
    } else if (p.type === 'formal_parameter') {
      const name = p.childForFieldName('name');
      const type = p.childForFieldName('type');
      const dims = p.childForFieldName('dimensions');
      out.push({
        name: name ? ctx.text(name) : ctx.text(p),
        type: type ? ctx.text(type) + (dims ? ctx.text(dims) : '') : null,
        annotations: modifiersOf(p, ctx).annotations,
      });
    } else if (p.type === 'spread_parameter') {
      let name = '';
      let type: string | null = null;
      for (const part of namedKids(p)) {
        if (part.type === 'variable_declarator') name = ctx.text(part.childForFieldName('name') ?? part);
        else if (part.type !== 'modifiers') type = `${ctx.text(part)}...`;
      }
      out.push({ name, type, annotations: modifiersOf(p, ctx).annotations });
    }
    // receiver_parameter (`Foo this`) is not a real parameter
  }
  return out;
}

function typeList(node: Node | null, ctx: ReadContext): string[] {
  if (!node) return [];
  const list = namedKids(node).find((c) => c.type === 'type_list') ?? node;
  return namedKids(list).map((t) => withoutTypeArguments(ctx.text(t)));
}

const CLASS_KINDS: Record<string, 'class' | 'interface' | 'enum'> = {
  class_declaration: 'class',
  record_declaration: 'class',
  interface_declaration: 'interface',
  annotation_type_declaration: 'interface',
  enum_declaration: 'enum',
};

export const javaRules: LanguageRules = {
  functionTypes: new Set(['method_declaration', 'constructor_declaration', 'compact_constructor_declaration', 'lambda_expression']),
  classTypes: new Set([...Object.keys(CLASS_KINDS), 'object_creation_expression']),
  callTypes: new Set(['method_invocation', 'object_creation_expression', 'explicit_constructor_invocation']),
  importTypes: new Set(['import_declaration']),
  namingTypes: new Set(['variable_declarator', 'assignment_expression']),
  siblingDecoratorType: null,

  readFunction(node, ctx) {
    const name = node.childForFieldName('name');
    const { modifiers, annotations } = modifiersOf(node, ctx);
    return {
      name: name ? ctx.text(name) : null,
      parameters: parameters(node, ctx),
      decorators: annotations,
      modifiers,
      isLambda: node.type === 'lambda_expression',
      body: node.childForFieldName('body'),
    };
  },

  readClass(node, ctx) {
    if (node.type === 'object_creation_expression') {
      // Only `new Foo() { ... }` declares a class.
      if (!namedKids(node).some((c) => c.type === 'class_body')) return null;
      const type = node.childForFieldName('type');
      return { name: null, superclass: type ? withoutTypeArguments(ctx.text(type)) : null, interfaces: [], isAbstract: false, kind: 'anonymous', decorators: [] };
    }
    const name = node.childForFieldName('name');
    const { modifiers, annotations } = modifiersOf(node, ctx);
    const kind = CLASS_KINDS[node.type] ?? 'class';
    const superclassNode = node.childForFieldName('superclass');
    const superType = superclassNode ? namedKids(superclassNode)[0] : undefined;
    const interfaces =
      kind === 'interface'
        ? typeList(namedKids(node).find((c) => c.type === 'extends_interfaces') ?? null, ctx)
        : typeList(node.childForFieldName('interfaces'), ctx);
    return {
      name: name ? ctx.text(name) : null,
      superclass: superType ? withoutTypeArguments(ctx.text(superType)) : null,
      interfaces,
      isAbstract: modifiers.includes('abstract'),
      kind,
      decorators: annotations,
    };
  },

  readCall(node, ctx) {
    if (node.type === 'object_creation_expression') {
      const type = node.childForFieldName('type');
      return { callee: type ? withoutTypeArguments(ctx.clip(type)) : '', receiver: null, arity: countArguments(node.childForFieldName('arguments')), kind: 'new' };
    }
    if (node.type === 'explicit_constructor_invocation') {
      const ctor = node.childForFieldName('constructor');
      const object = node.childForFieldName('object');
      return { callee: ctor ? ctx.text(ctor) : 'this', receiver: object ? ctx.clip(object) : null, arity: countArguments(node.childForFieldName('arguments')), kind: 'call' };
    }
    const name = node.childForFieldName('name');
    const object = node.childForFieldName('object');
    return {
      callee: name ? ctx.text(name) : '',
      receiver: object ? ctx.clip(object) : null,
      arity: countArguments(node.childForFieldName('arguments')),
      kind: 'call',
    };
  },

  readImports(node, ctx) {
    const kids = namedKids(node);
    const path = kids.find((c) => c.type === 'scoped_identifier' || c.type === 'identifier');
    if (!path) return [];
    const wildcard = kids.some((c) => c.type === 'asterisk');
    const module = ctx.text(path) + (wildcard ? '.*' : '');
    const last = module.slice(module.lastIndexOf('.') + 1);
    return [{ module, names: [last], kind: 'import' }];
  },

  readBinding(node, ctx) {
    const target = node.childForFieldName('name') ?? node.childForFieldName('left');
    const value = node.childForFieldName('value') ?? node.childForFieldName('right');
    if (!target || value?.type !== 'lambda_expression') return null;
    const text = ctx.text(target);
    const name = text.slice(text.lastIndexOf('.') + 1);
    return { value, name, names: [name] };
  },
};
