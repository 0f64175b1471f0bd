/** The Go front end: tree-sitter-go 0.20 trees to the flow IR. */
import type { Node } from 'web-tree-sitter';
import type { FlowClass, FlowExpr, FlowFrontEnd, FlowStmt, FlowTarget } from '../ir.js';
import {
  binaryOf,
  unknownTarget,
  access,
  boundedLowering,
  bindFunction,
  callExpr,
  kids,
  literal,
  lowerFile,
  prepareLowering,
  nameExpr,
  numberLiteral,
  pos,
  unknownExpr,
  unknownStmt,
  type LanguageLowerer,
  type LowerContext,
} from './common.js';

const SKIPPED_STATEMENTS = new Set(['package_clause', 'import_declaration', 'type_declaration', 'empty_statement', 'comment', 'const_declaration_type_only']);

/** The bounded lowering every step below goes through for its children. */
const lowering = boundedLowering({ expr: lowerExpr, target: lowerTarget, statement: lowerStatement, blockTypes: new Set(['block']) });
const { expr, target, statement, statements, block } = lowering;

function lowerExpr(node: Node, cx: LowerContext): FlowExpr {
  switch (node.type) {
    case 'identifier':
    case 'field_identifier':
    case 'package_identifier':
    case 'type_identifier':
      return nameExpr(node, cx.text(node));
    case 'int_literal':
    case 'float_literal':
      return numberLiteral(node, cx);
    case 'true':
    case 'false':
      return literal(node, node.type === 'true', node.type);
    case 'nil':
      return literal(node, null, 'nil');
    case 'interpreted_string_literal':
    case 'raw_string_literal':
    case 'rune_literal': {
      const value = cx.text(node).slice(1, -1);
      return literal(node, value, value);
    }
    case 'selector_expression':
      return access(node, 'field', 'operand', 'field', cx, lowering) ?? unknownExpr(node, cx, kids(node).map((k) => expr(k, cx)));
    case 'index_expression':
      return access(node, 'index', 'operand', 'index', cx, lowering) ?? unknownExpr(node, cx, kids(node).map((k) => expr(k, cx)));
    case 'slice_expression': {
      // A sub-slice holds what the slice holds.
      const operand = node.childForFieldName('operand');
      if (!operand) break;
      return { kind: 'index', object: expr(operand, cx), index: unknownExpr(node, cx, []), ...pos(node) };
    }
    case 'call_expression':
      return call(node, cx);
    case 'binary_expression':
      return binaryOf(node, cx, lowering) ?? unknownExpr(node, cx, kids(node).map((k) => expr(k, cx)));
    case 'unary_expression': {
      const operand = node.childForFieldName('operand');
      const operator = node.childForFieldName('operator');
      if (!operand || !operator) break;
      const op = cx.text(operator);
      // `&x` and `*p` name the same value for data flow.
      if (op === '&' || op === '*') return expr(operand, cx);
      return { kind: 'unary', operator: op, operand: expr(operand, cx), ...pos(node) };
    }
    case 'parenthesized_expression': {
      const inner = kids(node)[0];
      return inner ? expr(inner, cx) : unknownExpr(node, cx, []);
    }
    case 'type_assertion_expression':
    case 'type_conversion_expression': {
      const operand = node.childForFieldName('operand');
      const type = node.childForFieldName('type');
      if (!operand) break;
      return { kind: 'cast', type: type ? cx.text(type) : '', value: expr(operand, cx), ...pos(node) };
    }
    case 'composite_literal':
      return composite(node, cx);
    case 'func_literal':
      return cx.functionRef(node) ?? unknownExpr(node, cx, []);
    case 'expression_list': {
      const parts = kids(node);
      const first = parts[0];
      if (parts.length === 1 && first) return expr(first, cx);
      return { kind: 'collection', shape: 'tuple', elements: parts.map((p) => ({ value: expr(p, cx), spread: false })), entries: [], ...pos(node) };
    }
    case 'variadic_argument': {
      const inner = kids(node)[0];
      return inner ? expr(inner, cx) : unknownExpr(node, cx, []);
    }
  }
  return unknownExpr(node, cx, kids(node).map((k) => expr(k, cx)));
}

function call(node: Node, cx: LowerContext): FlowExpr {
  const fn = node.childForFieldName('function');
  const args = node.childForFieldName('arguments');
  if (!fn) return unknownExpr(node, cx, []);
  const positional = (args ? kids(args) : []).map((arg) => ({ value: expr(arg, cx), spread: arg.type === 'variadic_argument' }));
  if (fn.type === 'selector_expression') {
    const operand = fn.childForFieldName('operand');
    const field = fn.childForFieldName('field');
    if (operand && field) return callExpr(node, cx, { callee: cx.text(field), receiver: expr(operand, cx), calleeNode: fn, arguments: positional });
  }
  if (fn.type === 'identifier') return callExpr(node, cx, { callee: cx.text(fn), receiver: null, calleeNode: fn, arguments: positional });
  return callExpr(node, cx, { callee: cx.clip(fn), receiver: expr(fn, cx), calleeNode: fn, arguments: positional });
}

/** `T{A: x}`, `map[K]V{k: v}`, `[]T{a, b}`: struct field keys are names, map keys are values. */
function composite(node: Node, cx: LowerContext): FlowExpr {
  const type = node.childForFieldName('type');
  const body = node.childForFieldName('body');
  const isMap = type?.type === 'map_type';
  const elements: Array<{ value: FlowExpr; spread: boolean }> = [];
  const entries: Array<{ key: FlowExpr | null; value: FlowExpr }> = [];
  for (const element of body ? kids(body) : []) {
    if (element.type === 'keyed_element') {
      const [key, value] = kids(element).map(unwrapElement);
      if (!key || !value) continue;
      entries.push({ key: !isMap && key.type === 'field_identifier' ? literal(key, cx.text(key), cx.text(key)) : !isMap && key.type === 'identifier' ? literal(key, cx.text(key), cx.text(key)) : expr(key, cx), value: expr(value, cx) });
    } else {
      const value = unwrapElement(element);
      elements.push({ value: expr(value, cx), spread: false });
    }
  }
  if (entries.length > 0) return { kind: 'collection', shape: 'map', elements: [], entries, ...pos(node) };
  return { kind: 'collection', shape: 'list', elements, entries: [], ...pos(node) };
}

/** tree-sitter-go wraps composite-literal elements in `literal_element` in some versions. */
function unwrapElement(node: Node): Node {
  return node.type === 'literal_element' ? (kids(node)[0] ?? node) : node;
}

function lowerTarget(node: Node, cx: LowerContext): FlowTarget {
  switch (node.type) {
    case 'identifier':
      return { kind: 'name', name: cx.text(node), ...pos(node) };
    case 'selector_expression':
      return access(node, 'field', 'operand', 'field', cx, lowering) ?? unknownTarget(node, cx);
    case 'index_expression':
      return access(node, 'index', 'operand', 'index', cx, lowering) ?? unknownTarget(node, cx);
    case 'unary_expression':
    case 'parenthesized_expression': {
      const inner = node.childForFieldName('operand') ?? kids(node)[0];
      if (inner) return target(inner, cx);
      break;
    }
  }
  return unknownTarget(node, cx);
}

/**
 * `a, b := f()` destructures one value; `a, b = x, y` assigns pairwise; `a := x` is plain. The blank
 * identifier `_` takes nothing.
 */
function assignLists(node: Node, leftNodes: Node[], rightNodes: Node[], operator: string, cx: LowerContext): FlowStmt[] {
  const at = pos(node);
  const toTarget = (n: Node): FlowTarget | null => (n.type === 'identifier' && cx.text(n) === '_' ? null : target(n, cx));
  const onlyRight = rightNodes[0];
  if (leftNodes.length > 1 && rightNodes.length === 1 && onlyRight) {
    return [{ kind: 'assign', targets: [{ kind: 'destructure', elements: leftNodes.map(toTarget), keys: null, rest: null, ...at }], value: expr(onlyRight, cx), operator, ...at }];
  }
  const out: FlowStmt[] = [];
  leftNodes.forEach((left, i) => {
    const right = rightNodes[i];
    const bound = toTarget(left);
    if (!bound) {
      if (right) out.push({ kind: 'expr', expr: expr(right, cx), ...pos(right) });
      return;
    }
    if (right) out.push({ kind: 'assign', targets: [bound], value: expr(right, cx), operator, ...pos(left) });
  });
  return out;
}

function listOf(node: Node | null): Node[] {
  if (!node) return [];
  return node.type === 'expression_list' ? kids(node) : [node];
}

function lowerStatement(node: Node, cx: LowerContext): FlowStmt[] {
  const at = pos(node);
  switch (node.type) {
    case 'expression_statement':
      return kids(node).map((k) => ({ kind: 'expr' as const, expr: expr(k, cx), ...at }));
    case 'short_var_declaration':
      return assignLists(node, listOf(node.childForFieldName('left')), listOf(node.childForFieldName('right')), '=', cx);
    case 'assignment_statement': {
      const operator = node.childForFieldName('operator');
      return assignLists(node, listOf(node.childForFieldName('left')), listOf(node.childForFieldName('right')), operator ? cx.text(operator) : '=', cx);
    }
    case 'var_declaration':
    case 'const_declaration':
      return kids(node).flatMap((spec) => varSpec(spec, cx));
    case 'inc_statement':
    case 'dec_statement': {
      const operand = kids(node)[0];
      return operand ? [{ kind: 'assign', targets: [target(operand, cx)], value: literal(node, 1, '1'), operator: node.type === 'inc_statement' ? '+=' : '-=', ...at }] : [];
    }
    case 'return_statement': {
      const value = kids(node)[0];
      return [{ kind: 'return', value: value ? expr(value, cx) : null, ...at }];
    }
    case 'if_statement': {
      const initializer = node.childForFieldName('initializer');
      const condition = node.childForFieldName('condition');
      const alternative = node.childForFieldName('alternative');
      const stmt: FlowStmt = { kind: 'if', condition: condition ? expr(condition, cx) : unknownExpr(node, cx, []), then: block(node.childForFieldName('consequence'), cx), otherwise: block(alternative, cx), ...at };
      return [...(initializer ? statement(initializer, cx) : []), stmt];
    }
    case 'for_statement':
      return [forStatement(node, cx)];
    case 'expression_switch_statement':
    case 'type_switch_statement':
      return switchStatement(node, cx);
    case 'select_statement':
      return [unknownStmt(node, cx, []), ...kids(node).flatMap((clause) => statements(kids(clause).filter((k) => k.type.endsWith('statement') || k.type === 'block'), cx))];
    case 'block':
      return block(node, cx);
    case 'labeled_statement':
      return statements(kids(node).filter((k) => k.type !== 'label_name'), cx);
    case 'defer_statement':
    case 'go_statement':
      return kids(node).map((k) => ({ kind: 'expr' as const, expr: expr(k, cx), ...at }));
    case 'break_statement':
      return [{ kind: 'break', ...at }];
    case 'continue_statement':
      return [{ kind: 'continue', ...at }];
    case 'fallthrough_statement':
      return [];
    case 'send_statement': {
      const channel = node.childForFieldName('channel');
      const value = node.childForFieldName('value');
      return channel && value ? [{ kind: 'assign', targets: [{ kind: 'index', object: expr(channel, cx), index: unknownExpr(node, cx, []), ...at }], value: expr(value, cx), operator: '=', ...at }] : [];
    }
    case 'function_declaration':
      return bindFunction(node, node.childForFieldName('name'), cx);
    case 'method_declaration':
      return [];
    default:
      if (SKIPPED_STATEMENTS.has(node.type)) return [];
  }
  return [unknownStmt(node, cx, kids(node).map((k) => expr(k, cx)))];
}

function varSpec(spec: Node, cx: LowerContext): FlowStmt[] {
  if (spec.type !== 'var_spec' && spec.type !== 'const_spec') return [];
  const names = spec.childrenForFieldName('name').filter((n): n is Node => n !== null && n.isNamed);
  const type = spec.childForFieldName('type');
  const value = spec.childForFieldName('value');
  if (!value) return names.map((n) => ({ kind: 'declare' as const, name: cx.text(n), type: type ? cx.text(type) : null, ...pos(n) }));
  return assignLists(spec, names, listOf(value), '=', cx);
}

function forStatement(node: Node, cx: LowerContext): FlowStmt {
  const body = block(node.childForFieldName('body'), cx);
  const at = pos(node);
  const clause = kids(node).find((k) => k.type === 'for_clause' || k.type === 'range_clause');
  if (clause?.type === 'range_clause') {
    // `for k, v := range xs`: `v` binds each element; `k` is bound to an index or map key.
    const left = listOf(clause.childForFieldName('left'));
    const right = clause.childForFieldName('right');
    const iterable = right ? expr(right, cx) : null;
    const [key, value] = left;
    const init: FlowStmt[] = [];
    if (key && value && iterable && cx.text(key) !== '_') init.push({ kind: 'assign', targets: [target(key, cx)], value: callExpr(clause, cx, { callee: 'keys', receiver: null, calleeNode: null, arguments: [{ value: iterable, spread: false }] }), operator: '=', ...pos(key) });
    const bound = value ?? key;
    return { kind: 'loop', target: bound && cx.text(bound) !== '_' ? target(bound, cx) : null, iterable, condition: null, init, update: [], body, ...at };
  }
  if (clause?.type === 'for_clause') {
    const initializer = clause.childForFieldName('initializer');
    const condition = clause.childForFieldName('condition');
    const update = clause.childForFieldName('update');
    return { kind: 'loop', target: null, iterable: null, condition: condition ? expr(condition, cx) : literal(node, true, 'true'), init: initializer ? statement(initializer, cx) : [], update: update ? statement(update, cx) : [], body, ...at };
  }
  const condition = kids(node).find((k) => k.id !== node.childForFieldName('body')?.id);
  return { kind: 'loop', target: null, iterable: null, condition: condition ? expr(condition, cx) : literal(node, true, 'true'), init: [], update: [], body, ...at };
}

function switchStatement(node: Node, cx: LowerContext): FlowStmt[] {
  const initializer = node.childForFieldName('initializer');
  const value = node.childForFieldName('value');
  const alias = node.childForFieldName('alias');
  const cases: Array<{ values: FlowExpr[]; body: FlowStmt[]; fallsThrough: boolean }> = [];
  for (const arm of kids(node)) {
    if (arm.type !== 'expression_case' && arm.type !== 'default_case' && arm.type !== 'type_case') continue;
    const armValue = arm.childForFieldName('value');
    const armTypes = arm.childrenForFieldName('type');
    const bodyNodes = kids(arm).filter((k) => k.id !== armValue?.id && !armTypes.some((t) => t?.id === k.id));
    // Go arms end without `break`; only an explicit `fallthrough` runs into the next.
    const fallsThrough = bodyNodes[bodyNodes.length - 1]?.type === 'fallthrough_statement';
    const values = arm.type === 'expression_case' ? listOf(armValue).map((v) => expr(v, cx)) : arm.type === 'type_case' ? armTypes.filter((t): t is Node => t !== null).map((t) => literal(t, cx.text(t), cx.text(t))) : [];
    cases.push({ values, body: statements(bodyNodes, cx), fallsThrough });
  }
  const before = initializer ? statement(initializer, cx) : [];
  const subject = value ? expr(value, cx) : literal(node, true, 'true');
  // `switch y := v.(type)` binds `y` to `v` in every arm.
  const aliasNode = listOf(alias)[0];
  if (aliasNode) before.push({ kind: 'assign', targets: [target(aliasNode, cx)], value: subject, operator: '=', ...pos(aliasNode) });
  // A type switch's arms test types, not values: none of them can be pruned as a constant.
  const switchSubject = node.type === 'type_switch_statement' ? unknownExpr(node, cx, [subject]) : subject;
  return [...before, { kind: 'switch', subject: switchSubject, cases, ...pos(node) }];
}

function classFields(cls: Node, cx: LowerContext): FlowClass['fields'] {
  const type = cls.childForFieldName('type');
  const list = type?.type === 'struct_type' ? kids(type).find((k) => k.type === 'field_declaration_list') : undefined;
  const fields: FlowClass['fields'] = [];
  for (const declaration of list ? kids(list) : []) {
    if (declaration.type !== 'field_declaration') continue;
    const fieldType = declaration.childForFieldName('type');
    for (const name of declaration.childrenForFieldName('name')) {
      if (name?.isNamed) fields.push({ name: cx.text(name), type: fieldType ? cx.text(fieldType) : null, init: null, isStatic: false, ...pos(name) });
    }
  }
  return fields;
}

export const goLowerer: LanguageLowerer = {
  constructorName: null,
  importTypes: new Set(['import_spec']),

  lowerBody(fn, cx) {
    return block(fn.childForFieldName('body'), cx);
  },

  lowerModule(root, cx) {
    return statements(kids(root), cx);
  },

  // Go parameters have no defaults or patterns, and one declaration can name several parameters.
  parameterNodes: () => [],
  parameterDetails: () => ({ defaultValue: null, pattern: null }),

  returnType(fn, cx) {
    const result = fn.childForFieldName('result');
    return result ? cx.text(result) : null;
  },

  classFields,

  readImports(node, cx, into) {
    const path = node.childForFieldName('path');
    if (!path) return;
    const module = cx.text(path).slice(1, -1);
    const name = node.childForFieldName('name');
    const local = name ? cx.text(name) : module.slice(module.lastIndexOf('/') + 1);
    if (local !== '_' && local !== '.') into[local] = module;
  },
};

export const goFrontEnd: FlowFrontEnd = {
  languages: ['go'],
  lower: (input) => lowerFile(input, goLowerer),
  prepare: (input) => prepareLowering(input, goLowerer),
};
