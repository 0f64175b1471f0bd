/** IR rules for Go (tree-sitter-go 0.20 node names). Structs are classes; methods attach by receiver type. */
import type { Node } from 'web-tree-sitter';
import type { ParameterIR } from '../ir-types.js';
import { countArguments, namedKids, unquote, type LanguageRules, type ReadContext } from './rules.js';

function parameters(list: Node | null, ctx: ReadContext): ParameterIR[] {
  if (!list) return [];
  const out: ParameterIR[] = [];
  for (const p of namedKids(list)) {
    if (p.type !== 'parameter_declaration' && p.type !== 'variadic_parameter_declaration') continue;
    const typeNode = p.childForFieldName('type');
    const type = typeNode ? (p.type === 'variadic_parameter_declaration' ? '...' : '') + ctx.text(typeNode) : null;
    const names = p.childrenForFieldName('name').filter((n): n is Node => n !== null);
    if (names.length === 0) out.push({ name: '_', type, annotations: [] }); // unnamed parameter
    for (const name of names) out.push({ name: ctx.text(name), type, annotations: [] });
  }
  return out;
}

/** `(s *Server)` → `Server`; generic receivers `(l *List[T])` → `List`. */
function receiverType(receiver: Node | null, ctx: ReadContext): string | undefined {
  const decl = receiver ? namedKids(receiver)[0] : undefined;
  const type = decl?.childForFieldName('type');
  if (!type) return undefined;
  return ctx.text(type).replace(/^\*/, '').replace(/\[.*$/, '').trim();
}

export const goRules: LanguageRules = {
  functionTypes: new Set(['function_declaration', 'method_declaration', 'func_literal']),
  classTypes: new Set(['type_spec']),
  callTypes: new Set(['call_expression']),
  importTypes: new Set(['import_spec']),
  namingTypes: new Set(['short_var_declaration', 'assignment_statement', 'var_spec', 'keyed_element']),
  siblingDecoratorType: null,

  readFunction(node, ctx) {
    const name = node.childForFieldName('name');
    const owner = node.type === 'method_declaration' ? receiverType(node.childForFieldName('receiver'), ctx) : undefined;
    return {
      name: name ? ctx.text(name) : null,
      parameters: parameters(node.childForFieldName('parameters'), ctx),
      decorators: [],
      modifiers: [],
      isLambda: node.type === 'func_literal',
      body: node.childForFieldName('body'),
      ...(owner === undefined ? {} : { ownerClass: owner }),
    };
  },

  readClass(node, ctx) {
    const type = node.childForFieldName('type');
    if (type?.type !== 'struct_type' && type?.type !== 'interface_type') return null;
    const name = node.childForFieldName('name');
    // Embedded interfaces / structs are Go's nearest thing to inheritance.
    const embedded: string[] = [];
    if (type.type === 'interface_type') {
      for (const child of namedKids(type)) {
        if (child.type === 'type_identifier' || child.type === 'qualified_type' || child.type === 'constraint_elem') embedded.push(ctx.text(child));
      }
    }
    return { name: name ? ctx.text(name) : null, superclass: null, interfaces: embedded, isAbstract: false, kind: type.type === 'interface_type' ? 'interface' : 'class', decorators: [] };
  },

  readCall(node, ctx) {
    const fn = node.childForFieldName('function');
    const arity = countArguments(node.childForFieldName('arguments'));
    if (fn?.type === 'selector_expression') {
      const operand = fn.childForFieldName('operand');
      const field = fn.childForFieldName('field');
      return { callee: field ? ctx.text(field) : ctx.clip(fn), receiver: operand ? ctx.clip(operand) : null, arity, kind: 'call' };
    }
    return { callee: fn ? ctx.clip(fn) : '', receiver: null, arity, kind: 'call' };
  },

  readImports(node, ctx) {
    const path = node.childForFieldName('path');
    if (!path) return [];
    const module = unquote(ctx.text(path));
    const alias = node.childForFieldName('name');
    const local = alias ? ctx.text(alias) : module.slice(module.lastIndexOf('/') + 1);
    return [{ module, names: [local], kind: 'import' }];
  },

  readBinding(node, ctx) {
    let left: Node | null | undefined;
    let right: Node | null | undefined;
    if (node.type === 'var_spec') {
      left = node.childForFieldName('name');
      right = node.childForFieldName('value');
    } else if (node.type === 'keyed_element') {
      [left, right] = namedKids(node);
    } else {
      left = node.childForFieldName('left');
      right = node.childForFieldName('right');
    }
    // Single-value forms only: `f := func() {}`.
    if (left?.type === 'expression_list') left = namedKids(left)[0];
    if (right?.type === 'expression_list' || right?.type === 'literal_value') right = namedKids(right)[0];
    if (!left || right?.type !== 'func_literal') return null;
    const text = unquote(ctx.text(left));
    const name = text.slice(text.lastIndexOf('.') + 1);
    return { value: right, name, names: [name] };
  },
};
