/**
 * IR rules for JavaScript, TypeScript and TSX (tree-sitter-javascript 0.20 / -typescript 0.20 node
 * names; in these versions method decorators are siblings before the method in the class body).
 */
import type { Node } from 'web-tree-sitter';
import type { ParameterIR } from '../ir-types.js';
import { countArguments, namedKids, unquote, withoutTypeArguments, type ImportFacts, type LanguageRules, type ReadContext } from './rules.js';

const MODIFIER_KEYWORDS = new Set(['static', 'async', 'get', 'set', 'abstract', 'readonly', 'override', 'declare', 'public', 'private', 'protected']);
const LAMBDA_TYPES = new Set(['arrow_function', 'function_expression', 'function', 'generator_function']);

function decoratorsIn(node: Node, ctx: ReadContext): string[] {
  const out: string[] = [];
  for (const child of namedKids(node)) {
    if (child.type === 'decorator') out.push(ctx.text(child).replace(/^@\s*/, '').trim());
  }
  return out;
}

function typeText(node: Node | null, ctx: ReadContext): string | null {
  if (!node) return null;
  return ctx.text(node).replace(/^:\s*/, '').trim();
}

function parameter(p: Node, ctx: ReadContext): ParameterIR | null {
  switch (p.type) {
    case 'identifier':
      return { name: ctx.text(p), type: null, annotations: [] };
    case 'assignment_pattern': {
      const left = p.childForFieldName('left');
      return { name: ctx.text(left ?? p), type: null, annotations: [] };
    }
    case 'rest_pattern':
      return { name: ctx.text(p).replace(/^\.\.\./, ''), type: null, annotations: [] };
    case 'required_parameter':
    case 'optional_parameter': {
      const pattern = p.childForFieldName('pattern');
      const name = pattern ? ctx.text(pattern).replace(/^\.\.\./, '') : ctx.text(p);
      return { name, type: typeText(p.childForFieldName('type'), ctx), annotations: decoratorsIn(p, ctx) };
    }
    case 'object_pattern':
    case 'array_pattern':
      return { name: ctx.text(p), type: null, annotations: [] };
    default:
      return null; // comments, `this` parameter types
  }
}

function parameters(node: Node, ctx: ReadContext): ParameterIR[] {
  const single = node.childForFieldName('parameter');
  if (single) return [{ name: ctx.text(single), type: null, annotations: [] }];
  const params = node.childForFieldName('parameters');
  if (!params) return [];
  const out: ParameterIR[] = [];
  for (const p of namedKids(params)) {
    const read = parameter(p, ctx);
    if (read) out.push(read);
  }
  return out;
}

function modifiers(node: Node): string[] {
  const out: string[] = [];
  for (const child of node.children) {
    if (!child) continue;
    if (child.type === 'accessibility_modifier') out.push(child.text);
    else if (!child.isNamed && MODIFIER_KEYWORDS.has(child.type)) out.push(child.type);
    else if (child.type === 'override_modifier') out.push('override');
    if (child.type === 'formal_parameters' || child.type === 'statement_block') break; // keywords come first
  }
  return out;
}

/** The last segment of an assignment target: `exports.handler` → `handler`. */
function lastSegment(node: Node, ctx: ReadContext): string {
  if (node.type === 'member_expression') {
    const property = node.childForFieldName('property');
    if (property) return ctx.text(property);
  }
  if (node.type === 'string') return unquote(ctx.text(node));
  return ctx.text(node);
}

function heritage(node: Node, ctx: ReadContext): { superclass: string | null; interfaces: string[] } {
  let superclass: string | null = null;
  const interfaces: string[] = [];
  for (const child of namedKids(node)) {
    if (child.type === 'class_heritage') {
      for (const part of namedKids(child)) {
        if (part.type === 'extends_clause') {
          const value = part.childForFieldName('value') ?? part.namedChild(0);
          if (value) superclass = withoutTypeArguments(ctx.text(value));
        } else if (part.type === 'implements_clause') {
          for (const t of namedKids(part)) interfaces.push(withoutTypeArguments(ctx.text(t)));
        } else {
          superclass = withoutTypeArguments(ctx.text(part)); // JavaScript: `extends <expression>`
        }
      }
    } else if (child.type === 'extends_type_clause') {
      for (const t of namedKids(child)) interfaces.push(withoutTypeArguments(ctx.text(t)));
    }
  }
  return { superclass, interfaces };
}

function stringModule(node: Node | null | undefined, ctx: ReadContext): string {
  if (!node) return '';
  return node.type === 'string' || node.type === 'template_string' ? unquote(ctx.text(node)) : ctx.clip(node);
}

/** Local names bound by `const x = require(...)` / `const {a, b: c} = require(...)`. */
function boundNames(pattern: Node, ctx: ReadContext): string[] {
  if (pattern.type === 'identifier') return [ctx.text(pattern)];
  const out: string[] = [];
  for (const child of namedKids(pattern)) {
    if (child.type === 'shorthand_property_identifier_pattern') out.push(ctx.text(child));
    else if (child.type === 'pair_pattern') {
      const value = child.childForFieldName('value');
      if (value) out.push(ctx.text(value));
    }
  }
  return out;
}

export const javascriptRules: LanguageRules = {
  functionTypes: new Set([
    'function_declaration',
    'generator_function_declaration',
    'function_expression',
    'function',
    'generator_function',
    'arrow_function',
    'method_definition',
    'abstract_method_signature',
    'method_signature',
  ]),
  classTypes: new Set(['class_declaration', 'abstract_class_declaration', 'class', 'interface_declaration', 'enum_declaration']),
  callTypes: new Set(['call_expression', 'new_expression']),
  importTypes: new Set(['import_statement', 'call_expression']),
  namingTypes: new Set(['variable_declarator', 'assignment_expression', 'pair', 'public_field_definition', 'field_definition']),
  siblingDecoratorType: 'decorator',

  readFunction(node, ctx) {
    const isLambda = LAMBDA_TYPES.has(node.type);
    const name = node.childForFieldName('name');
    return {
      name: name ? ctx.text(name) : null,
      parameters: parameters(node, ctx),
      decorators: [],
      modifiers: modifiers(node),
      isLambda,
      body: node.childForFieldName('body'),
    };
  },

  readClass(node, ctx) {
    const name = node.childForFieldName('name');
    const kind = node.type === 'interface_declaration' ? 'interface' : node.type === 'enum_declaration' ? 'enum' : 'class';
    const { superclass, interfaces } = heritage(node, ctx);
    return {
      name: name ? ctx.text(name) : null,
      superclass,
      interfaces,
      isAbstract: node.type === 'abstract_class_declaration',
      kind,
      decorators: decoratorsIn(node, ctx),
    };
  },

  readCall(node, ctx) {
    if (node.type === 'new_expression') {
      const ctor = node.childForFieldName('constructor');
      return { callee: ctor ? withoutTypeArguments(ctx.clip(ctor)) : '', receiver: null, arity: countArguments(node.childForFieldName('arguments')), kind: 'new' };
    }
    const fn = node.childForFieldName('function');
    const args = node.childForFieldName('arguments');
    // Tagged templates (tag`...`) have a template_string as arguments: one argument.
    const arity = args?.type === 'template_string' ? 1 : countArguments(args);
    if (fn?.type === 'member_expression') {
      const object = fn.childForFieldName('object');
      const property = fn.childForFieldName('property');
      return { callee: property ? ctx.text(property) : ctx.clip(fn), receiver: object ? ctx.clip(object) : null, arity, kind: 'call' };
    }
    return { callee: fn ? ctx.clip(fn) : '', receiver: null, arity, kind: 'call' };
  },

  readImports(node, ctx) {
    if (node.type === 'import_statement') {
      const source = node.childForFieldName('source');
      const names: string[] = [];
      for (const clause of namedKids(node)) {
        if (clause.type !== 'import_clause') continue;
        for (const part of namedKids(clause)) {
          if (part.type === 'identifier') names.push(ctx.text(part));
          else if (part.type === 'namespace_import') names.push(...namedKids(part).map((n) => ctx.text(n)));
          else if (part.type === 'named_imports') {
            for (const spec of namedKids(part)) {
              const local = spec.childForFieldName('alias') ?? spec.childForFieldName('name');
              if (local) names.push(ctx.text(local));
            }
          }
        }
      }
      return [{ module: stringModule(source, ctx), names, kind: 'import' }];
    }
    // call_expression: require('x') or import('x')
    const fn = node.childForFieldName('function');
    if (!fn) return [];
    const isDynamic = fn.type === 'import';
    if (!isDynamic && !(fn.type === 'identifier' && ctx.text(fn) === 'require')) return [];
    const first = node.childForFieldName('arguments')?.namedChild(0);
    const facts: ImportFacts = { module: stringModule(first, ctx), names: [], kind: isDynamic ? 'dynamic' : 'require' };
    return [facts];
  },

  readBinding(node, ctx) {
    let target: Node | null;
    let value: Node | null;
    if (node.type === 'variable_declarator') {
      target = node.childForFieldName('name');
      value = node.childForFieldName('value');
    } else if (node.type === 'assignment_expression') {
      target = node.childForFieldName('left');
      value = node.childForFieldName('right');
    } else if (node.type === 'pair') {
      target = node.childForFieldName('key');
      value = node.childForFieldName('value');
    } else {
      target = node.childForFieldName('name') ?? node.childForFieldName('property');
      value = node.childForFieldName('value');
    }
    if (value?.type === 'await_expression') value = value.namedChild(0);
    if (!target || !value) return null;
    if (!LAMBDA_TYPES.has(value.type) && value.type !== 'class' && value.type !== 'call_expression') return null;
    return { value, name: lastSegment(target, ctx), names: boundNames(target, ctx) };
  },
};
