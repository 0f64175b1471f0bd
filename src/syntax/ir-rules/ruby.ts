/** IR rules for Ruby (tree-sitter-ruby 0.20 node names). Modules are reported as kind 'trait'. */
import type { Node } from 'web-tree-sitter';
import type { ParameterIR } from '../ir-types.js';
import { countArguments, namedKids, unquote, type LanguageRules, type ReadContext } from './rules.js';

const REQUIRE_METHODS = new Set(['require', 'require_relative', 'load']);
const MIXIN_METHODS = new Set(['include', 'extend', 'prepend']);

function parameters(list: Node | null, ctx: ReadContext): ParameterIR[] {
  if (!list) return [];
  const out: ParameterIR[] = [];
  for (const p of namedKids(list)) {
    const name = p.type === 'identifier' ? p : p.childForFieldName('name');
    if (name) out.push({ name: ctx.text(name), type: null, annotations: [] });
  }
  return out;
}

export const rubyRules: LanguageRules = {
  functionTypes: new Set(['method', 'singleton_method', 'lambda', 'block', 'do_block']),
  classTypes: new Set(['class', 'module']),
  callTypes: new Set(['call']),
  importTypes: new Set(['call']),
  namingTypes: new Set(['assignment']),
  siblingDecoratorType: null,

  readFunction(node, ctx) {
    if (node.type === 'block' && ctx.parentType() === 'lambda') return null; // the body of `-> { }`
    const name = node.childForFieldName('name');
    const isMethod = node.type === 'method' || node.type === 'singleton_method';
    return {
      name: isMethod && name ? ctx.text(name) : null,
      parameters: parameters(node.childForFieldName('parameters'), ctx),
      decorators: [],
      modifiers: node.type === 'singleton_method' ? ['static'] : [],
      isLambda: !isMethod,
      body: node.childForFieldName('body'),
    };
  },

  readClass(node, ctx) {
    const name = node.childForFieldName('name');
    const superclass = node.childForFieldName('superclass');
    const superType = superclass ? namedKids(superclass)[0] : undefined;
    // `include Foo` directly in the body: mixins stand in for interfaces.
    const interfaces: string[] = [];
    const body = node.childForFieldName('body') ?? namedKids(node).find((c) => c.type === 'body_statement');
    for (const statement of body ? namedKids(body) : []) {
      if (statement.type !== 'call' || statement.childForFieldName('receiver')) continue;
      const method = statement.childForFieldName('method');
      if (!method || !MIXIN_METHODS.has(ctx.text(method))) continue;
      for (const arg of namedKids(statement.childForFieldName('arguments') ?? statement)) {
        if (arg.type === 'constant' || arg.type === 'scope_resolution') interfaces.push(ctx.text(arg));
      }
    }
    return {
      name: name ? ctx.text(name) : null,
      superclass: superType ? ctx.text(superType) : null,
      interfaces,
      isAbstract: false,
      kind: node.type === 'module' ? 'trait' : 'class',
      decorators: [],
    };
  },

  readCall(node, ctx) {
    const method = node.childForFieldName('method');
    const receiver = node.childForFieldName('receiver');
    const args = node.childForFieldName('arguments');
    return { callee: method ? ctx.text(method) : 'call', receiver: receiver ? ctx.clip(receiver) : null, arity: countArguments(args), kind: 'call' };
  },

  readImports(node, ctx) {
    if (node.childForFieldName('receiver')) return [];
    const method = node.childForFieldName('method');
    if (!method || !REQUIRE_METHODS.has(ctx.text(method))) return [];
    const first = node.childForFieldName('arguments')?.namedChild(0);
    if (!first) return [];
    return [{ module: first.type === 'string' ? unquote(ctx.text(first)) : ctx.clip(first), names: [], kind: 'require' }];
  },

  readBinding(node, ctx) {
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    if (!left || right?.type !== 'lambda') return null;
    const name = ctx.text(left);
    return { value: right, name, names: [name] };
  },
};
