/** IR rules for PHP (tree-sitter-php 0.22 node names). */
import type { Node } from 'web-tree-sitter';
import type { ParameterIR } from '../ir-types.js';
import { namedKids, unquote, type ImportFacts, type LanguageRules, type ReadContext } from './rules.js';

const MODIFIER_TYPES = new Set(['visibility_modifier', 'static_modifier', 'abstract_modifier', 'final_modifier', 'readonly_modifier', 'var_modifier']);
const PARAMETER_TYPES = new Set(['simple_parameter', 'variadic_parameter', 'property_promotion_parameter']);

/** `#[A, B(1)] #[C]` → ['A', 'B(1)', 'C']. */
function attributes(node: Node, ctx: ReadContext): string[] {
  const list = node.childForFieldName('attributes') ?? namedKids(node).find((c) => c.type === 'attribute_list');
  if (!list) return [];
  const out: string[] = [];
  for (const group of namedKids(list)) {
    for (const attribute of namedKids(group)) if (attribute.type === 'attribute') out.push(ctx.text(attribute));
  }
  return out;
}

function modifiers(node: Node, ctx: ReadContext): string[] {
  const out: string[] = [];
  for (const child of namedKids(node)) if (MODIFIER_TYPES.has(child.type)) out.push(ctx.text(child).toLowerCase());
  return out;
}

function parameters(node: Node, ctx: ReadContext): ParameterIR[] {
  const params = node.childForFieldName('parameters');
  if (!params) return [];
  const out: ParameterIR[] = [];
  for (const p of namedKids(params)) {
    if (!PARAMETER_TYPES.has(p.type)) continue;
    const name = p.childForFieldName('name');
    const type = p.childForFieldName('type');
    out.push({ name: name ? ctx.text(name) : ctx.text(p), type: type ? ctx.text(type) : null, annotations: attributes(p, ctx) });
  }
  return out;
}

/** Number of `argument` nodes in an `arguments` node. */
function arity(args: Node | null | undefined): number {
  if (!args) return 0;
  let n = 0;
  for (const child of args.namedChildren) if (child && child.type !== 'comment') n++;
  return n;
}

function argumentsOf(node: Node): Node | null {
  return node.childForFieldName('arguments') ?? namedKids(node).find((c) => c.type === 'arguments') ?? null;
}

function names(nodes: Node[], ctx: ReadContext): string[] {
  return nodes.map((n) => ctx.text(n));
}

/** Last segment of a namespace path: `App\Models\User` → `User`. */
function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf('\\') + 1);
}

function useClauseImports(node: Node, prefix: string, ctx: ReadContext): ImportFacts[] {
  const out: ImportFacts[] = [];
  for (const clause of namedKids(node)) {
    if (clause.type !== 'namespace_use_clause' && clause.type !== 'namespace_use_group_clause') continue;
    const parts = namedKids(clause);
    const path = parts.find((p) => p.type === 'qualified_name' || p.type === 'namespace_name' || p.type === 'name');
    if (!path) continue;
    const alias = parts.find((p) => p.type === 'namespace_aliasing_clause') ?? null;
    // Older grammar versions put the alias name directly in the clause after the path.
    const bareAlias = parts.length > 1 && parts[1]?.type === 'name' ? parts[1] : null;
    const module = (prefix ? `${prefix}\\` : '') + ctx.text(path).replace(/^\\/, '');
    const local = alias ? ctx.text(alias.namedChild(0) ?? alias) : bareAlias ? ctx.text(bareAlias) : lastSegment(module);
    out.push({ module, names: [local], kind: 'use' });
  }
  return out;
}

export const phpRules: LanguageRules = {
  functionTypes: new Set(['function_definition', 'method_declaration', 'arrow_function', 'anonymous_function_creation_expression', 'anonymous_function']),
  classTypes: new Set(['class_declaration', 'interface_declaration', 'trait_declaration', 'enum_declaration', 'object_creation_expression']),
  callTypes: new Set(['function_call_expression', 'member_call_expression', 'nullsafe_member_call_expression', 'scoped_call_expression', 'object_creation_expression']),
  importTypes: new Set(['namespace_use_declaration', 'include_expression', 'include_once_expression', 'require_expression', 'require_once_expression']),
  namingTypes: new Set(['assignment_expression']),
  siblingDecoratorType: null,

  readFunction(node, ctx) {
    const name = node.childForFieldName('name');
    const mods = modifiers(node, ctx);
    if (node.type === 'arrow_function' || node.type.startsWith('anonymous_function')) {
      // `static fn() => ...` / `static function () {}`
      if (node.child(0)?.type === 'static' || namedKids(node).some((c) => c.type === 'static_modifier')) mods.push('static');
    }
    return {
      name: name ? ctx.text(name) : null,
      parameters: parameters(node, ctx),
      decorators: attributes(node, ctx),
      modifiers: mods,
      isLambda: !name,
      body: node.childForFieldName('body'),
    };
  },

  readClass(node, ctx) {
    const kids = namedKids(node);
    if (node.type === 'object_creation_expression') {
      const body = kids.find((c) => c.type === 'declaration_list');
      if (!body) return null; // plain `new X()`
      const base = kids.find((c) => c.type === 'base_clause');
      const implemented = kids.find((c) => c.type === 'class_interface_clause');
      return {
        name: null,
        superclass: base ? (names(namedKids(base), ctx)[0] ?? null) : null,
        interfaces: implemented ? names(namedKids(implemented), ctx) : [],
        isAbstract: false,
        kind: 'anonymous',
        decorators: attributes(node, ctx),
      };
    }
    const name = node.childForFieldName('name');
    const base = kids.find((c) => c.type === 'base_clause');
    const implemented = kids.find((c) => c.type === 'class_interface_clause');
    const baseNames = base ? names(namedKids(base), ctx) : [];
    const kind = node.type === 'interface_declaration' ? 'interface' : node.type === 'trait_declaration' ? 'trait' : node.type === 'enum_declaration' ? 'enum' : 'class';
    return {
      name: name ? ctx.text(name) : null,
      // An interface's `extends` lists interfaces, not a superclass.
      superclass: kind === 'interface' ? null : (baseNames[0] ?? null),
      interfaces: kind === 'interface' ? baseNames : implemented ? names(namedKids(implemented), ctx) : [],
      isAbstract: kids.some((c) => c.type === 'abstract_modifier'),
      kind,
      decorators: attributes(node, ctx),
    };
  },

  readCall(node, ctx) {
    switch (node.type) {
      case 'object_creation_expression': {
        const cls = namedKids(node).find((c) => c.type === 'name' || c.type === 'qualified_name' || c.type === 'variable_name');
        return { callee: cls ? ctx.clip(cls) : 'class', receiver: null, arity: arity(argumentsOf(node)), kind: 'new' };
      }
      case 'function_call_expression': {
        const fn = node.childForFieldName('function');
        return { callee: fn ? ctx.clip(fn) : '', receiver: null, arity: arity(argumentsOf(node)), kind: 'call' };
      }
      case 'scoped_call_expression': {
        const scope = node.childForFieldName('scope');
        const name = node.childForFieldName('name');
        return { callee: name ? ctx.clip(name) : '', receiver: scope ? ctx.clip(scope) : null, arity: arity(argumentsOf(node)), kind: 'call' };
      }
      default: {
        const object = node.childForFieldName('object');
        const name = node.childForFieldName('name');
        return { callee: name ? ctx.clip(name) : '', receiver: object ? ctx.clip(object) : null, arity: arity(argumentsOf(node)), kind: 'call' };
      }
    }
  },

  readImports(node, ctx) {
    if (node.type === 'namespace_use_declaration') {
      const group = namedKids(node).find((c) => c.type === 'namespace_use_group');
      if (group) {
        const prefixNode = namedKids(node).find((c) => c.type === 'namespace_name');
        return useClauseImports(group, prefixNode ? ctx.text(prefixNode).replace(/^\\/, '') : '', ctx);
      }
      return useClauseImports(node, '', ctx);
    }
    const target = node.namedChild(0);
    const module = target ? (target.type === 'string' || target.type === 'encapsed_string' ? unquote(ctx.text(target)) : ctx.clip(target)) : '';
    const kind = node.type.startsWith('require') ? 'require' : 'include';
    return [{ module, names: [], kind }];
  },

  readBinding(node, ctx) {
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    if (!left || !right) return null;
    if (right.type !== 'arrow_function' && !right.type.startsWith('anonymous_function')) return null;
    const name = ctx.text(left);
    return { value: right, name, names: [name] };
  },
};
