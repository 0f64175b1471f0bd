/** The PHP front end: tree-sitter-php 0.22 trees to the flow IR. Variable names keep their `$`. */
import type { Node } from 'web-tree-sitter';
import type { FlowClass, FlowExpr, FlowFrontEnd, FlowStmt, FlowTarget } from '../ir.js';
import {
  binaryOf,
  unknownTarget,
  ifChain,
  boundedLowering,
  bareType,
  bindFunction,
  callExpr,
  endsControl,
  kids,
  literal,
  lowerFile,
  prepareLowering,
  nameExpr,
  numberLiteral,
  pos,
  templateOrLiteral,
  unknownExpr,
  unknownStmt,
  type LanguageLowerer,
  type LowerContext,
} from './common.js';

const PARAMETER_TYPES = new Set(['simple_parameter', 'variadic_parameter', 'property_promotion_parameter']);
const STRING_PARTS = new Set(['string_content', 'string_value', 'escape_sequence']);
const INCLUDES: Record<string, string> = {
  include_expression: 'include',
  include_once_expression: 'include_once',
  require_expression: 'require',
  require_once_expression: 'require_once',
};
const ENDS_REQUEST = new Set(['die', 'exit']);
/** Strings whose `$name[...]` parts are read as variables. */
const INTERPOLATING = new Set(['encapsed_string', 'heredoc_body', 'shell_command_expression']);
const SKIPPED_STATEMENTS = new Set([
  'php_tag',
  'text',
  'text_interpolation',
  'namespace_use_declaration',
  'global_declaration',
  'class_declaration',
  'interface_declaration',
  'trait_declaration',
  'enum_declaration',
  'empty_statement',
  'declare_statement',
  'comment',
]);

/** PHP names are case-insensitive and may be written fully qualified: `\MySQLi_Query` is `mysqli_query`'s callee. */
function functionName(text: string): string {
  return text.replace(/^\\/, '').slice(text.replace(/^\\/, '').lastIndexOf('\\') + 1);
}

/** The bounded lowering every step below goes through for its children. */
const lowering = boundedLowering({ expr: lowerExpr, target: lowerTarget, statement: lowerStatement, blockTypes: new Set(['compound_statement', 'colon_block', 'program', 'declaration_list']) });
const { expr, target, statements, block } = lowering;

function lowerExpr(node: Node, cx: LowerContext): FlowExpr {
  switch (node.type) {
    case 'variable_name':
      return nameExpr(node, cx.text(node));
    case 'name':
    case 'qualified_name': {
      const text = cx.text(node);
      const lower = text.toLowerCase();
      if (lower === 'true' || lower === 'false') return literal(node, lower === 'true', text);
      if (lower === 'null') return literal(node, null, text);
      return nameExpr(node, text.replace(/^\\/, ''));
    }
    case 'integer':
    case 'float':
      return numberLiteral(node, cx);
    case 'boolean':
      return literal(node, cx.text(node).toLowerCase() === 'true', cx.text(node));
    case 'null':
      return literal(node, null, cx.text(node));
    case 'string':
    case 'encapsed_string':
    case 'heredoc':
    case 'nowdoc':
      return stringExpr(node, cx);
    case 'member_access_expression':
    case 'nullsafe_member_access_expression':
    case 'scoped_property_access_expression': {
      const object = node.childForFieldName('object') ?? node.childForFieldName('scope');
      const name = node.childForFieldName('name');
      if (!object || !name) break;
      return { kind: 'field', object: expr(object, cx), field: cx.text(name), ...pos(node) };
    }
    case 'class_constant_access_expression': {
      const [scope, name] = kids(node);
      if (!scope || !name) break;
      return { kind: 'field', object: expr(scope, cx), field: cx.text(name), ...pos(node) };
    }
    case 'subscript_expression': {
      const [object, index] = kids(node);
      if (!object) break;
      // `"$a[key]"` inside a string is the key 'key', written without quotes.
      if (index?.type === 'name' && node.parent !== null && INTERPOLATING.has(node.parent.type)) return { kind: 'index', object: expr(object, cx), index: literal(index, cx.text(index), cx.text(index)), ...pos(node) };
      // `$a[] = x` appends: the index is unknown.
      return { kind: 'index', object: expr(object, cx), index: index ? expr(index, cx) : unknownExpr(node, cx, []), ...pos(node) };
    }
    case 'function_call_expression': {
      const fn = node.childForFieldName('function');
      if (!fn) break;
      const dynamic = fn.type !== 'name' && fn.type !== 'qualified_name';
      return callExpr(node, cx, { callee: dynamic ? cx.clip(fn) : functionName(cx.text(fn)), receiver: dynamic ? expr(fn, cx) : null, calleeNode: fn, ...argumentsOf(node, cx) });
    }
    case 'member_call_expression':
    case 'nullsafe_member_call_expression':
    case 'scoped_call_expression': {
      const object = node.childForFieldName('object') ?? node.childForFieldName('scope');
      const name = node.childForFieldName('name');
      if (!object || !name) break;
      return callExpr(node, cx, { callee: cx.text(name), receiver: expr(object, cx), calleeNode: null, calleeText: calleeText(object, name, cx), ...argumentsOf(node, cx) });
    }
    case 'object_creation_expression': {
      const classNode = kids(node).find((k) => k.type === 'name' || k.type === 'qualified_name' || k.type === 'variable_name');
      if (!classNode) return unknownExpr(node, cx, []); // an anonymous class: its methods are functions of their own
      const constructed = bareType(cx.text(classNode));
      return callExpr(node, cx, { callee: functionName(constructed), receiver: null, calleeNode: classNode, ...argumentsOf(node, cx), constructed });
    }
    case 'binary_expression':
      return binaryOf(node, cx, lowering, (text) => text.toLowerCase()) ?? unknownExpr(node, cx, kids(node).map((k) => expr(k, cx)));
    case 'unary_op_expression': {
      const operand = kids(node)[0];
      const operator = node.childForFieldName('operator') ?? node.child(0);
      if (!operand || !operator) break;
      return { kind: 'unary', operator: cx.text(operator), operand: expr(operand, cx), ...pos(node) };
    }
    case 'update_expression': {
      const argument = node.childForFieldName('argument') ?? kids(node)[0];
      if (!argument) break;
      return { kind: 'assignment', target: target(argument, cx), value: literal(node, 1, '1'), operator: cx.text(node).includes('--') ? '-=' : '+=', ...pos(node) };
    }
    case 'assignment_expression':
    case 'reference_assignment_expression':
    case 'augmented_assignment_expression': {
      const left = node.childForFieldName('left');
      const right = node.childForFieldName('right');
      const operator = node.childForFieldName('operator');
      if (!left || !right) break;
      return { kind: 'assignment', target: target(left, cx), value: expr(right, cx), operator: operator ? cx.text(operator) : '=', ...pos(node) };
    }
    case 'conditional_expression': {
      const condition = node.childForFieldName('condition');
      const body = node.childForFieldName('body');
      const alternative = node.childForFieldName('alternative');
      if (!condition || !alternative) break;
      // `a ?: b` is `a ? a : b`.
      return { kind: 'conditional', condition: expr(condition, cx), then: expr(body ?? condition, cx), otherwise: expr(alternative, cx), ...pos(node) };
    }
    case 'cast_expression': {
      const type = node.childForFieldName('type');
      const value = node.childForFieldName('value');
      if (!value) break;
      return { kind: 'cast', type: type ? cx.text(type).toLowerCase() : '', value: expr(value, cx), ...pos(node) };
    }
    case 'parenthesized_expression':
    case 'error_suppression_expression': {
      const inner = kids(node)[0];
      return inner ? expr(inner, cx) : unknownExpr(node, cx, []);
    }
    case 'array_creation_expression':
      return arrayExpr(node, cx);
    case 'anonymous_function_creation_expression':
    case 'anonymous_function':
    case 'arrow_function':
      return cx.functionRef(node) ?? unknownExpr(node, cx, []);
    case 'print_intrinsic':
      return callExpr(node, cx, { callee: 'print', receiver: null, calleeNode: null, arguments: kids(node).map((k) => ({ value: expr(k, cx), spread: false })) });
    case 'shell_command_expression':
      // Backticks run their text as a shell command, as `shell_exec` would.
      return callExpr(node, cx, { callee: 'shell_exec', receiver: null, calleeNode: null, arguments: [{ value: stringExpr(node, cx), spread: false }] });
    case 'match_expression':
      return matchExpr(node, cx);
    case 'sequence_expression': {
      const parts = kids(node).map((k) => expr(k, cx));
      const last = parts[parts.length - 1];
      return parts.length === 1 && last ? last : unknownExpr(node, cx, parts);
    }
    default: {
      const include = INCLUDES[node.type];
      if (include) return callExpr(node, cx, { callee: include, receiver: null, calleeNode: null, arguments: kids(node).map((k) => ({ value: expr(k, cx), spread: false })) });
    }
  }
  return unknownExpr(node, cx, kids(node).map((k) => expr(k, cx)));
}

/** `$db->query`, `Db::query`, `$a?->b`: the callee as written, without the arguments. */
function calleeText(object: Node, name: Node, cx: LowerContext): string {
  return cx.source.slice(object.startIndex, Math.min(name.endIndex, object.startIndex + 200)).replace(/\s+/g, '');
}

function argumentsOf(node: Node, cx: LowerContext): { arguments: Array<{ value: FlowExpr; spread: boolean }>; named: Array<{ name: string; value: FlowExpr }> } {
  const args = node.childForFieldName('arguments') ?? kids(node).find((k) => k.type === 'arguments') ?? null;
  const positional: Array<{ value: FlowExpr; spread: boolean }> = [];
  const named: Array<{ name: string; value: FlowExpr }> = [];
  for (const arg of args ? kids(args) : []) {
    if (arg.type === 'variadic_unpacking') {
      const inner = kids(arg)[0];
      if (inner) positional.push({ value: expr(inner, cx), spread: true });
      continue;
    }
    const name = arg.childForFieldName('name');
    const parts = kids(arg).filter((k) => k !== name && k.id !== name?.id);
    const valueNode = arg.type === 'argument' ? parts[parts.length - 1] : arg;
    if (!valueNode) continue;
    const spread = valueNode.type === 'variadic_unpacking';
    const value = spread ? kids(valueNode)[0] : valueNode;
    if (!value) continue;
    if (name) named.push({ name: cx.text(name), value: expr(value, cx) });
    else positional.push({ value: expr(value, cx), spread });
  }
  return { arguments: positional, named };
}

/** Single-quoted strings are literals; double-quoted strings and heredocs interpolate (`"a $b {$c->d}"`). */
function stringExpr(node: Node, cx: LowerContext): FlowExpr {
  const parts: FlowExpr[] = [];
  const visit = (container: Node): void => {
    for (const child of kids(container)) {
      if (STRING_PARTS.has(child.type)) {
        const text = cx.text(child);
        parts.push(literal(child, text, text));
      } else if (child.type === 'heredoc_body' || child.type === 'nowdoc_body') visit(child);
      else if (child.type === 'heredoc_start' || child.type === 'heredoc_end') continue;
      else parts.push(expr(child, cx));
    }
  };
  visit(node);
  if (parts.length === 0) return literal(node, '', cx.text(node));
  return templateOrLiteral(node, parts);
}

/** `[k => v, v2, ...$rest]` and `array(...)`. */
function arrayExpr(node: Node, cx: LowerContext): FlowExpr {
  const elements: Array<{ value: FlowExpr; spread: boolean }> = [];
  const entries: Array<{ key: FlowExpr | null; value: FlowExpr }> = [];
  for (const element of kids(node)) {
    if (element.type !== 'array_element_initializer') continue;
    const parts = kids(element);
    const [first, second] = parts;
    if (!first) continue;
    if (first.type === 'variadic_unpacking') {
      const inner = kids(first)[0];
      if (inner) elements.push({ value: expr(inner, cx), spread: true });
    } else if (second) entries.push({ key: expr(first, cx), value: expr(second, cx) });
    else elements.push({ value: expr(first, cx), spread: false });
  }
  // A PHP array with keys is a map; its positional elements take the next integer keys.
  if (entries.length === 0) return { kind: 'collection', shape: 'list', elements, entries: [], ...pos(node) };
  return { kind: 'collection', shape: 'map', elements: [], entries: [...elements.map((e, i) => ({ key: e.spread ? null : literal(node, i, String(i)), value: e.value })), ...entries], ...pos(node) };
}

/** `match ($x) { 1, 2 => a, default => b }` as a chain of conditionals on `$x === value`. */
function matchExpr(node: Node, cx: LowerContext): FlowExpr {
  const subjectNode = node.childForFieldName('condition');
  const body = node.childForFieldName('body');
  if (!subjectNode || !body) return unknownExpr(node, cx, []);
  const subject = expr(subjectNode, cx);
  const arms = kids(body);
  let result: FlowExpr = unknownExpr(node, cx, []);
  for (let i = arms.length - 1; i >= 0; i--) {
    const arm = arms[i];
    const value = arm?.childForFieldName('return_expression');
    if (!arm || !value) continue;
    if (arm.type === 'match_default_expression') {
      result = expr(value, cx);
      continue;
    }
    const conditions = arm.childForFieldName('conditional_expressions');
    const tests = (conditions ? kids(conditions) : []).map((c): FlowExpr => ({ kind: 'binary', operator: '===', left: subject, right: expr(c, cx), ...pos(c) }));
    const first = tests[0];
    if (!first) continue;
    const condition = tests.slice(1).reduce<FlowExpr>((acc, t) => ({ kind: 'binary', operator: '||', left: acc, right: t, ...pos(arm) }), first);
    result = { kind: 'conditional', condition, then: expr(value, cx), otherwise: result, ...pos(arm) };
  }
  return result;
}

function lowerTarget(node: Node, cx: LowerContext): FlowTarget {
  switch (node.type) {
    case 'variable_name':
      return { kind: 'name', name: cx.text(node), ...pos(node) };
    case 'member_access_expression':
    case 'nullsafe_member_access_expression':
    case 'scoped_property_access_expression': {
      const object = node.childForFieldName('object') ?? node.childForFieldName('scope');
      const name = node.childForFieldName('name');
      if (object && name) return { kind: 'field', object: expr(object, cx), field: cx.text(name), ...pos(node) };
      break;
    }
    case 'subscript_expression': {
      const [object, index] = kids(node);
      if (object) return { kind: 'index', object: expr(object, cx), index: index ? expr(index, cx) : unknownExpr(node, cx, []), ...pos(node) };
      break;
    }
    case 'list_literal':
    case 'array_creation_expression':
      return listPattern(node, cx);
    case 'by_ref': {
      const inner = kids(node)[0];
      if (inner) return target(inner, cx);
      break;
    }
  }
  return unknownTarget(node, cx);
}

/** `list($a, $b)`, `[$a, 'k' => $b]`: keys are the literal written before `=>`. */
function listPattern(node: Node, cx: LowerContext): FlowTarget {
  const elements: Array<FlowTarget | null> = [];
  const keys: Array<string | null> = [];
  let keyed = false;
  const add = (key: Node | null, value: Node): void => {
    elements.push(target(value, cx));
    const keyExpr = key ? expr(key, cx) : null;
    keys.push(keyExpr?.kind === 'literal' ? String(keyExpr.value) : null);
    if (key) keyed = true;
  };
  // list_literal puts keys, `=>` and values side by side; array patterns wrap each in an initializer.
  const items = node.type === 'array_creation_expression' ? kids(node).map((k) => kids(k)) : groupByArrow(node);
  for (const item of items) {
    const [first, second] = item;
    if (!first) continue;
    if (second) add(first, second);
    else add(null, first);
  }
  return { kind: 'destructure', elements, keys: keyed ? keys : null, rest: null, ...pos(node) };
}

function groupByArrow(node: Node): Node[][] {
  const groups: Node[][] = [];
  let current: Node[] = [];
  let afterArrow = false;
  for (const child of node.children) {
    if (!child || child.type === 'comment') continue;
    if (child.type === '=>') afterArrow = true;
    else if (child.type === ',') {
      if (current.length > 0) groups.push(current);
      current = [];
      afterArrow = false;
    } else if (child.isNamed) {
      if (!afterArrow && current.length > 0) {
        groups.push(current);
        current = [];
      }
      current.push(child);
    }
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

function lowerStatement(node: Node, cx: LowerContext): FlowStmt[] {
  const at = pos(node);
  switch (node.type) {
    case 'expression_statement':
      return kids(node).flatMap((child) => expressionStatement(child, cx));
    case 'echo_statement': {
      const args = kids(node).flatMap((k) => (k.type === 'sequence_expression' ? kids(k) : [k]));
      return [{ kind: 'expr', expr: callExpr(node, cx, { callee: 'echo', receiver: null, calleeNode: null, arguments: args.map((a) => ({ value: expr(a, cx), spread: false })) }), ...at }];
    }
    case 'exit_statement': {
      // `exit`/`die` end the request: code after them does not run.
      const args = kids(node).map((a) => ({ value: expr(a, cx), spread: false }));
      return [{ kind: 'expr', expr: callExpr(node, cx, { callee: cx.text(node).trim().toLowerCase().startsWith('die') ? 'die' : 'exit', receiver: null, calleeNode: null, arguments: args }), ...at }, { kind: 'return', value: null, ...at }];
    }
    case 'return_statement': {
      const value = kids(node)[0];
      return [{ kind: 'return', value: value ? expr(value, cx) : null, ...at }];
    }
    case 'if_statement':
      return [ifChain(node, 'body', cx, lowering)];
    case 'foreach_statement':
      return [foreachStatement(node, cx)];
    case 'for_statement': {
      const init = node.childrenForFieldName('initialize').filter((n): n is Node => n !== null);
      const condition = node.childrenForFieldName('condition').filter((n): n is Node => n !== null);
      const update = node.childrenForFieldName('update').filter((n): n is Node => n !== null);
      const last = condition[condition.length - 1];
      return [
        {
          kind: 'loop',
          target: null,
          iterable: null,
          condition: last ? expr(last, cx) : literal(node, true, 'true'),
          init: init.flatMap((n) => expressionStatement(n, cx)),
          update: update.flatMap((n) => expressionStatement(n, cx)),
          body: block(node.childForFieldName('body') ?? kids(node).find((k) => k.type === 'compound_statement' || k.type === 'colon_block') ?? null, cx),
          ...at,
        },
      ];
    }
    case 'while_statement':
    case 'do_statement': {
      const condition = node.childForFieldName('condition');
      return [{ kind: 'loop', target: null, iterable: null, condition: condition ? expr(condition, cx) : literal(node, true, 'true'), init: [], update: [], body: block(node.childForFieldName('body'), cx), ...at }];
    }
    case 'switch_statement':
      return [switchStatement(node, cx)];
    case 'try_statement':
      return [tryStatement(node, cx)];
    case 'break_statement':
      return [{ kind: 'break', ...at }];
    case 'continue_statement':
      return [{ kind: 'continue', ...at }];
    case 'compound_statement':
    case 'colon_block':
      return block(node, cx);
    case 'namespace_definition':
      return block(node.childForFieldName('body'), cx);
    case 'function_definition':
      return bindFunction(node, node.childForFieldName('name'), cx);
    case 'unset_statement':
      return kids(node).map((k) => ({ kind: 'assign' as const, targets: [target(k, cx)], value: literal(k, null, 'null'), operator: '=', ...pos(k) }));
    case 'static_variable_declaration':
    case 'const_declaration':
      return kids(node).flatMap((declaration) => {
        const [name, value] = kids(declaration);
        return name && value ? [{ kind: 'assign' as const, targets: [target(name, cx)], value: expr(value, cx), operator: '=', ...pos(declaration) }] : [];
      });
    default:
      if (SKIPPED_STATEMENTS.has(node.type)) return [];
  }
  return [unknownStmt(node, cx, kids(node).map((k) => expr(k, cx)))];
}

function expressionStatement(node: Node, cx: LowerContext): FlowStmt[] {
  const at = pos(node);
  if (node.type === 'assignment_expression' || node.type === 'reference_assignment_expression' || node.type === 'augmented_assignment_expression') {
    const targets: FlowTarget[] = [];
    let current: Node | null = node;
    let operator = '=';
    while (current && (current.type === 'assignment_expression' || current.type === 'reference_assignment_expression' || current === node)) {
      const left: Node | null = current.childForFieldName('left');
      if (left) targets.push(target(left, cx));
      const right: Node | null = current.childForFieldName('right');
      if (current.type === 'augmented_assignment_expression') {
        operator = cx.text(current.childForFieldName('operator') ?? current);
        current = right;
        break;
      }
      current = right;
    }
    const left = node.childForFieldName('left');
    // `$a[] = x` appends to the end of $a: the call `$a.__append(x)`, which a list-add row models.
    if (current && node.type === 'assignment_expression' && targets.length === 1 && left?.type === 'subscript_expression' && kids(left).length === 1) {
      const list = kids(left)[0];
      if (list) return [{ kind: 'expr', expr: callExpr(node, cx, { callee: '__append', receiver: expr(list, cx), calleeNode: null, calleeText: `${cx.clip(list)}[]`, arguments: [{ value: expr(current, cx), spread: false }] }), ...at }];
    }
    if (current) return [{ kind: 'assign', targets, value: expr(current, cx), operator, ...at }];
  }
  if (node.type === 'throw_expression') {
    const value = kids(node)[0];
    return [{ kind: 'throw', value: value ? expr(value, cx) : null, ...at }];
  }
  if (node.type === 'sequence_expression') return kids(node).flatMap((k) => expressionStatement(k, cx));
  const lowered: FlowStmt = { kind: 'expr', expr: expr(node, cx), ...at };
  // `die(...)` written as a call still ends the request, and so does raising a fatal user error.
  if (lowered.expr.kind === 'call' && lowered.expr.receiver === null && (ENDS_REQUEST.has(lowered.expr.callee.toLowerCase()) || isFatalUserError(lowered.expr))) return [lowered, { kind: 'return', value: null, ...at }];
  return [lowered];
}

/** `trigger_error($message, E_USER_ERROR)` stops the script like `die`. */
function isFatalUserError(call: Extract<FlowExpr, { kind: 'call' }>): boolean {
  const level = call.arguments[1]?.value;
  return /^(trigger_error|user_error)$/i.test(call.callee) && level?.kind === 'name' && level.name === 'E_USER_ERROR';
}

/** `foreach ($xs as $v)` and `foreach ($xs as $k => $v)`: the value binds each element (the key is bound too). */
function foreachStatement(node: Node, cx: LowerContext): FlowStmt {
  const parts = kids(node);
  const body = node.childForFieldName('body');
  const [iterable, binding] = parts.filter((p) => p.id !== body?.id);
  let loopTarget: FlowTarget | null = null;
  const init: FlowStmt[] = [];
  if (binding?.type === 'pair') {
    const [key, value] = kids(binding);
    if (value) loopTarget = target(value, cx);
    if (key && iterable) init.push({ kind: 'assign', targets: [target(key, cx)], value: callExpr(binding, cx, { callee: 'array_keys', receiver: null, calleeNode: null, arguments: [{ value: expr(iterable, cx), spread: false }] }), operator: '=', ...pos(key) });
  } else if (binding) loopTarget = target(binding, cx);
  const loop: FlowStmt = { kind: 'loop', target: loopTarget, iterable: iterable ? expr(iterable, cx) : null, condition: null, init, update: [], body: block(body, cx), ...pos(node) };
  return loop;
}

function switchStatement(node: Node, cx: LowerContext): FlowStmt {
  const condition = node.childForFieldName('condition');
  const body = node.childForFieldName('body');
  const cases: Array<{ values: FlowExpr[]; body: FlowStmt[]; fallsThrough: boolean }> = [];
  for (const arm of body ? kids(body) : []) {
    if (arm.type !== 'case_statement' && arm.type !== 'default_statement') continue;
    const value = arm.childForFieldName('value');
    const armBody = statements(kids(arm).filter((k) => k.id !== value?.id), cx);
    cases.push({ values: value ? [expr(value, cx)] : [], body: armBody, fallsThrough: !endsControl(armBody) });
  }
  return { kind: 'switch', subject: condition ? expr(condition, cx) : unknownExpr(node, cx, []), cases, ...pos(node) };
}

function tryStatement(node: Node, cx: LowerContext): FlowStmt {
  const handlers: Array<{ parameter: string | null; types: string[]; body: FlowStmt[] }> = [];
  let finallyBody: FlowStmt[] = [];
  for (const child of kids(node)) {
    if (child.type === 'catch_clause') {
      const type = child.childForFieldName('type');
      const name = child.childForFieldName('name');
      const types = type ? (type.type === 'type_list' ? kids(type) : [type]).map((t) => bareType(cx.text(t))) : [];
      handlers.push({ parameter: name ? cx.text(name) : null, types, body: block(child.childForFieldName('body'), cx) });
    } else if (child.type === 'finally_clause') finallyBody = block(child.childForFieldName('body'), cx);
  }
  return { kind: 'try', body: block(node.childForFieldName('body'), cx), handlers, finally: finallyBody, ...pos(node) };
}

/** The promoted parameters of a constructor, with the field each one sets. */
function promotedParameters(fn: Node, cx: LowerContext): Array<{ node: Node; variable: string; field: string; type: string | null }> {
  const name = fn.childForFieldName('name');
  if (name === null || cx.text(name).toLowerCase() !== '__construct') return [];
  const out: Array<{ node: Node; variable: string; field: string; type: string | null }> = [];
  for (const p of phpLowerer.parameterNodes(fn)) {
    if (p.type !== 'property_promotion_parameter') continue;
    const variable = p.childForFieldName('name');
    const type = p.childForFieldName('type');
    if (variable) out.push({ node: variable, variable: cx.text(variable), field: cx.text(variable).replace(/^\$/, ''), type: type ? cx.text(type) : null });
  }
  return out;
}

function classFields(cls: Node, cx: LowerContext): FlowClass['fields'] {
  const body = cls.childForFieldName('body');
  const fields: FlowClass['fields'] = [];
  for (const member of body ? kids(body) : []) {
    if (member.type === 'const_declaration') {
      // Class constants are read as `self::NAME` / `Class::NAME`: static fields with their values.
      for (const element of kids(member)) {
        const [name, value] = kids(element);
        if (element.type === 'const_element' && name) fields.push({ name: cx.text(name), type: null, init: value ? expr(value, cx) : null, isStatic: true, ...pos(name) });
      }
      continue;
    }
    if (member.type === 'method_declaration') {
      // Constructor property promotion (`__construct(private string $value)`) declares the field too.
      for (const p of promotedParameters(member, cx)) fields.push({ name: p.field, type: p.type, init: null, isStatic: false, ...pos(p.node) });
      continue;
    }
    if (member.type !== 'property_declaration') continue;
    const isStatic = kids(member).some((k) => k.type === 'static_modifier');
    const type = member.childForFieldName('type');
    for (const element of kids(member)) {
      if (element.type !== 'property_element') continue;
      const name = kids(element).find((k) => k.type === 'variable_name');
      const initializer = kids(element).find((k) => k.type === 'property_initializer');
      const value = initializer ? kids(initializer)[0] : undefined;
      // Fields are read as `$this->name`, without the `$` of the declaration.
      if (name) fields.push({ name: cx.text(name).replace(/^\$/, ''), type: type ? cx.text(type) : null, init: value ? expr(value, cx) : null, isStatic, ...pos(name) });
    }
  }
  return fields;
}

export const phpLowerer: LanguageLowerer = {
  constructorName: '__construct',
  importTypes: new Set(['namespace_use_declaration']),

  lowerBody(fn, cx) {
    const body = fn.childForFieldName('body');
    if (!body) return [];
    if (fn.type === 'arrow_function') return [{ kind: 'return', value: expr(body, cx), ...pos(body) }];
    // A promoted parameter is stored in its field before the body runs.
    const promoted: FlowStmt[] = promotedParameters(fn, cx).map((p) => ({
      kind: 'assign',
      targets: [{ kind: 'field', object: { kind: 'name', name: '$this', ...pos(p.node) }, field: p.field, ...pos(p.node) }],
      value: { kind: 'name', name: p.variable, ...pos(p.node) },
      operator: '=',
      ...pos(p.node),
    }));
    return [...promoted, ...block(body, cx)];
  },

  lowerModule(root, cx) {
    return statements(kids(root), cx);
  },

  parameterNodes(fn) {
    const params = fn.childForFieldName('parameters');
    return params ? kids(params).filter((p) => PARAMETER_TYPES.has(p.type)) : [];
  },

  parameterDetails(parameter, cx) {
    const value = parameter.childForFieldName('default_value');
    return { defaultValue: value ? expr(value, cx) : null, pattern: null };
  },

  returnType(fn, cx) {
    const type = fn.childForFieldName('return_type');
    return type ? cx.text(type).replace(/^:\s*/, '') : null;
  },

  classFields,

  readImports(node, cx, into) {
    const group = kids(node).find((k) => k.type === 'namespace_name');
    const prefix = group ? `${cx.text(group)}\\` : '';
    const clauses = kids(node).flatMap((k) => (k.type === 'namespace_use_group' ? kids(k) : [k]));
    for (const clause of clauses) {
      if (clause.type !== 'namespace_use_clause' && clause.type !== 'namespace_use_group_clause') continue;
      const parts = kids(clause);
      const path = parts.find((p) => p.type === 'qualified_name' || p.type === 'namespace_name' || p.type === 'name');
      if (!path) continue;
      const alias = parts.find((p) => p.type === 'namespace_aliasing_clause');
      const module = `${prefix}${cx.text(path).replace(/^\\/, '')}`;
      const local = alias ? cx.text(kids(alias)[0] ?? alias) : module.slice(module.lastIndexOf('\\') + 1);
      into[local] = module;
    }
  },
};

export const phpFrontEnd: FlowFrontEnd = {
  languages: ['php'],
  lower: (input) => lowerFile(input, phpLowerer),
  prepare: (input) => prepareLowering(input, phpLowerer),
};
