/** The Python front end: tree-sitter-python 0.21 trees to the flow IR. */
import type { Node } from 'web-tree-sitter';
import type { FlowClass, FlowExpr, FlowFrontEnd, FlowStmt, FlowTarget } from '../ir.js';
import { renderExpr } from '../render.js';
import {
  unaryOf,
  binaryOf,
  unknownTarget,
  ifChain,
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
  templateOrLiteral,
  unknownExpr,
  unknownStmt,
  type LanguageLowerer,
  type LowerContext,
} from './common.js';

/** Parameter node types the syntax IR lists (separators `*` and `/` are not parameters). */
const PARAMETER_TYPES = new Set(['identifier', 'typed_parameter', 'default_parameter', 'typed_default_parameter', 'list_splat_pattern', 'dictionary_splat_pattern']);
const COMPREHENSIONS = new Set(['list_comprehension', 'set_comprehension', 'generator_expression', 'dictionary_comprehension']);
const SKIPPED_STATEMENTS = new Set(['pass_statement', 'import_statement', 'import_from_statement', 'future_import_statement', 'global_statement', 'nonlocal_statement', 'type_alias_statement']);

/** The bounded lowering every step below goes through for its children. */
const lowering = boundedLowering({ expr: lowerExpr, target: lowerTarget, statement: lowerStatement, blockTypes: new Set(['block']) });
const { expr, target, statement, statements, block } = lowering;

function lowerExpr(node: Node, cx: LowerContext): FlowExpr {
  switch (node.type) {
    case 'identifier':
      return nameExpr(node, cx.text(node));
    case 'integer':
    case 'float':
      return numberLiteral(node, cx);
    case 'true':
    case 'false':
      return literal(node, node.type === 'true', cx.text(node));
    case 'none':
      return literal(node, null, 'None');
    case 'string':
      return stringExpr(node, cx);
    case 'concatenated_string':
      return templateOrLiteral(node, kids(node).flatMap((part) => templateParts(expr(part, cx))));
    case 'attribute':
      return access(node, 'field', 'object', 'attribute', cx, lowering) ?? unknownExpr(node, cx, kids(node).map((k) => expr(k, cx)));
    case 'subscript': {
      const value = node.childForFieldName('value');
      const indexes = node.childrenForFieldName('subscript').filter((n): n is Node => n !== null);
      if (!value || indexes.length === 0) break;
      const index = indexes.length === 1 && indexes[0] ? expr(indexes[0], cx) : { kind: 'collection' as const, shape: 'tuple' as const, elements: indexes.map((i) => ({ value: expr(i, cx), spread: false })), entries: [], ...pos(node) };
      return { kind: 'index', object: expr(value, cx), index, ...pos(node) };
    }
    case 'slice':
      return unknownExpr(node, cx, kids(node).map((k) => expr(k, cx)));
    case 'call':
      return call(node, cx);
    case 'binary_operator':
      return pathJoin(binaryOf(node, cx, lowering)) ?? unknownExpr(node, cx, kids(node).map((k) => expr(k, cx)));
    case 'boolean_operator':
      return binaryOf(node, cx, lowering) ?? unknownExpr(node, cx, kids(node).map((k) => expr(k, cx)));
    case 'comparison_operator':
      return comparison(node, cx);
    case 'not_operator': {
      const argument = node.childForFieldName('argument');
      if (!argument) break;
      return { kind: 'unary', operator: 'not', operand: expr(argument, cx), ...pos(node) };
    }
    case 'unary_operator':
      return unaryOf(node, 'argument', cx, lowering) ?? unknownExpr(node, cx, kids(node).map((k) => expr(k, cx)));
    case 'conditional_expression': {
      // `then if condition else otherwise`
      const [then, condition, otherwise] = kids(node);
      if (!then || !condition || !otherwise) break;
      return { kind: 'conditional', condition: expr(condition, cx), then: expr(then, cx), otherwise: expr(otherwise, cx), ...pos(node) };
    }
    case 'parenthesized_expression': {
      const inner = kids(node)[0];
      return inner ? expr(inner, cx) : unknownExpr(node, cx, []);
    }
    case 'await': {
      const inner = kids(node)[0];
      return inner ? expr(inner, cx) : unknownExpr(node, cx, []);
    }
    case 'tuple':
    case 'list':
    case 'set':
    case 'expression_list':
    case 'pattern_list':
    case 'tuple_pattern':
    case 'list_pattern':
      return sequence(node, node.type === 'list' || node.type === 'list_pattern' ? 'list' : node.type === 'set' ? 'set' : 'tuple', cx);
    case 'dictionary':
      return dictionary(node, cx);
    case 'lambda':
      return cx.functionRef(node) ?? unknownExpr(node, cx, []);
    case 'named_expression': {
      const name = node.childForFieldName('name');
      const value = node.childForFieldName('value');
      if (!name || !value) break;
      return { kind: 'assignment', target: target(name, cx), value: expr(value, cx), operator: '=', ...pos(node) };
    }
    case 'keyword_argument':
    case 'list_splat':
    case 'dictionary_splat':
    case 'yield':
      break;
    default:
      if (COMPREHENSIONS.has(node.type)) return comprehension(node, cx);
  }
  return unknownExpr(node, cx, kids(node).map((k) => expr(k, cx)));
}

const SIMPLE_ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', '0': '\0', "'": "'", '"': '"', '\\': '\\', a: '\x07', b: '\b', f: '\f', v: '\v' };

const ESCAPE = /\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[^xuU])/g;

/** What an escape sequence of a (non-raw) string stands for: `\'` is an apostrophe; one not known stays as written. */
function unescape(text: string): string {
  const simple = SIMPLE_ESCAPES[text.slice(1)];
  if (text.length === 2 && simple !== undefined) return simple;
  const code = /^\\(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8}))$/.exec(text);
  const hex = code?.[1] ?? code?.[2] ?? code?.[3];
  return hex === undefined ? text : String.fromCodePoint(parseInt(hex, 16));
}

/**
 * `base / name` with no number on either side is pathlib's join (text cannot be divided in Python), so it
 * is lowered as the call it is, `base.__truediv__(name)`: what goes in comes out, as for any call.
 */
function pathJoin(lowered: FlowExpr | null): FlowExpr | null {
  if (lowered?.kind !== 'binary' || lowered.operator !== '/') return lowered;
  const numeric = (e: FlowExpr): boolean => e.kind === 'literal' && typeof e.value === 'number';
  if (numeric(lowered.left) || numeric(lowered.right)) return lowered;
  const { left, right, line, column } = lowered;
  return { kind: 'call', callee: '__truediv__', receiver: left, calleeText: `${renderExpr(left)}.__truediv__`, arguments: [{ value: right, spread: false }], named: [], isNew: false, constructed: null, line, column };
}

/** Parts of a lowered string piece for joining into one template. */
function templateParts(value: FlowExpr): FlowExpr[] {
  return value.kind === 'template' && value.tag === null ? value.parts : [value];
}

/** Plain strings are literals; f-strings are templates whose holes are the interpolated expressions. */
function stringExpr(node: Node, cx: LowerContext): FlowExpr {
  const parts: FlowExpr[] = [];
  // The children are read once: each read crosses into wasm for every child.
  const children = kids(node);
  const start = children.find((k) => k.type === 'string_start');
  const raw = start !== undefined && /[rR]/.test(cx.text(start));
  for (const child of children) {
    if (child.type === 'string_content' || child.type === 'escape_sequence') {
      const text = cx.text(child);
      parts.push(literal(child, raw ? text : text.replace(ESCAPE, unescape), text));
    } else if (child.type === 'interpolation') {
      const inner = child.childForFieldName('expression') ?? kids(child)[0];
      if (inner) parts.push(expr(inner, cx));
    }
  }
  if (parts.length === 0) return literal(node, '', cx.text(node));
  return templateOrLiteral(node, parts);
}

function call(node: Node, cx: LowerContext): FlowExpr {
  const fn = node.childForFieldName('function');
  const args = node.childForFieldName('arguments');
  if (!fn) return unknownExpr(node, cx, []);
  const positional: Array<{ value: FlowExpr; spread: boolean }> = [];
  const named: Array<{ name: string; value: FlowExpr }> = [];
  if (args?.type === 'generator_expression') positional.push({ value: expr(args, cx), spread: false });
  else if (args) {
    for (const arg of kids(args)) {
      if (arg.type === 'keyword_argument') {
        const name = arg.childForFieldName('name');
        const value = arg.childForFieldName('value');
        if (name && value) named.push({ name: cx.text(name), value: expr(value, cx) });
      } else if (arg.type === 'list_splat' || arg.type === 'dictionary_splat') {
        const inner = kids(arg)[0];
        if (inner) positional.push({ value: expr(inner, cx), spread: true });
      } else positional.push({ value: expr(arg, cx), spread: false });
    }
  }
  if (fn.type === 'attribute') {
    const object = fn.childForFieldName('object');
    const attribute = fn.childForFieldName('attribute');
    if (object && attribute) return callExpr(node, cx, { callee: cx.text(attribute), receiver: expr(object, cx), calleeNode: fn, arguments: positional, named });
  }
  if (fn.type === 'identifier') {
    // Calling a class of this file constructs it, as `new` does elsewhere.
    const callee = cx.text(fn);
    return callExpr(node, cx, { callee, receiver: null, calleeNode: fn, arguments: positional, named, constructed: cx.classNames.has(callee) ? callee : null });
  }
  // `f()()`, `(a or b)(x)`: the callee's value is read like any other argument would be.
  return callExpr(node, cx, { callee: cx.clip(fn), receiver: expr(fn, cx), calleeNode: fn, arguments: positional, named });
}

/** `a < b < c` is `a < b and b < c`; a two-operand comparison keeps its operator (`in`, `not in`, `is not`). */
function comparison(node: Node, cx: LowerContext): FlowExpr {
  const operands = kids(node);
  const operators: string[] = [];
  for (const child of node.children) {
    if (child && !child.isNamed) operators.push(cx.text(child));
  }
  // `not in` and `is not` are two tokens each.
  const merged: string[] = [];
  for (const op of operators) {
    const last = merged[merged.length - 1];
    if ((op === 'in' && last === 'not') || (op === 'not' && last === 'is')) merged[merged.length - 1] = `${last} ${op}`;
    else merged.push(op);
  }
  const first = operands[0];
  if (!first || operands.length - 1 !== merged.length) return unknownExpr(node, cx, operands.map((o) => expr(o, cx)));
  let result: FlowExpr | null = null;
  let left = expr(first, cx);
  for (let i = 1; i < operands.length; i++) {
    const operand = operands[i];
    if (!operand) break;
    const right = expr(operand, cx);
    const step: FlowExpr = { kind: 'binary', operator: merged[i - 1] ?? '==', left, right, ...pos(node) };
    result = result === null ? step : { kind: 'binary', operator: 'and', left: result, right: step, ...pos(node) };
    left = right;
  }
  return result ?? left;
}

function sequence(node: Node, shape: 'list' | 'tuple' | 'set', cx: LowerContext): FlowExpr {
  const elements = kids(node).map((child) => {
    if (child.type === 'list_splat' || child.type === 'list_splat_pattern') {
      const inner = kids(child)[0];
      return { value: inner ? expr(inner, cx) : unknownExpr(child, cx, []), spread: true };
    }
    return { value: expr(child, cx), spread: false };
  });
  return { kind: 'collection', shape, elements, entries: [], ...pos(node) };
}

function dictionary(node: Node, cx: LowerContext): FlowExpr {
  const entries: Array<{ key: FlowExpr | null; value: FlowExpr }> = [];
  for (const child of kids(node)) {
    if (child.type === 'pair') {
      const key = child.childForFieldName('key');
      const value = child.childForFieldName('value');
      if (key && value) entries.push({ key: expr(key, cx), value: expr(value, cx) });
    } else if (child.type === 'dictionary_splat') {
      const inner = kids(child)[0];
      if (inner) entries.push({ key: null, value: expr(inner, cx) });
    }
  }
  return { kind: 'collection', shape: 'map', elements: [], entries, ...pos(node) };
}

/**
 * `[body for x in xs if c]`: a collection whose element may carry whatever the iterables and the body
 * carry (the loop variables are not bound outside, so the body alone would lose the flow).
 */
function comprehension(node: Node, cx: LowerContext): FlowExpr {
  const children: FlowExpr[] = [];
  for (const child of kids(node)) {
    if (child.type === 'for_in_clause') {
      const right = child.childForFieldName('right');
      if (right) children.push(expr(right, cx));
    } else if (child.type === 'if_clause') continue;
    else if (child.type === 'pair') {
      for (const part of kids(child)) children.push(expr(part, cx));
    } else children.push(expr(child, cx));
  }
  const element = unknownExpr(node, cx, children);
  if (node.type === 'dictionary_comprehension') return { kind: 'collection', shape: 'map', elements: [], entries: [{ key: null, value: element }], ...pos(node) };
  const shape = node.type === 'set_comprehension' ? 'set' : 'list';
  return { kind: 'collection', shape, elements: [{ value: element, spread: false }], entries: [], ...pos(node) };
}

function lowerTarget(node: Node, cx: LowerContext): FlowTarget {
  switch (node.type) {
    case 'identifier':
      return { kind: 'name', name: cx.text(node), ...pos(node) };
    case 'attribute':
      return access(node, 'field', 'object', 'attribute', cx, lowering) ?? unknownTarget(node, cx);
    case 'subscript':
      return access(node, 'index', 'value', 'subscript', cx, lowering) ?? unknownTarget(node, cx);
    case 'parenthesized_expression': {
      const inner = kids(node)[0];
      if (inner) return target(inner, cx);
      break;
    }
    case 'pattern_list':
    case 'tuple_pattern':
    case 'list_pattern':
    case 'tuple':
    case 'list':
    case 'expression_list': {
      const elements: Array<FlowTarget | null> = [];
      let rest: FlowTarget | null = null;
      for (const child of kids(node)) {
        if (child.type === 'list_splat_pattern' || child.type === 'list_splat') {
          const inner = kids(child)[0];
          if (inner) rest = target(inner, cx);
        } else elements.push(target(child, cx));
      }
      return { kind: 'destructure', elements, keys: null, rest, ...pos(node) };
    }
    case 'list_splat_pattern': {
      const inner = kids(node)[0];
      if (inner) return target(inner, cx);
      break;
    }
  }
  // An odd target still binds something: the text keeps it from matching a real name.
  return unknownTarget(node, cx);
}

function lowerStatement(node: Node, cx: LowerContext): FlowStmt[] {
  const at = pos(node);
  switch (node.type) {
    case 'expression_statement':
      return kids(node).flatMap((child) => expressionStatement(child, cx));
    case 'return_statement': {
      const value = kids(node)[0];
      return [{ kind: 'return', value: value ? expr(value, cx) : null, ...at }];
    }
    case 'raise_statement': {
      const value = kids(node)[0];
      return [{ kind: 'throw', value: value ? expr(value, cx) : null, ...at }];
    }
    case 'if_statement':
      return [ifChain(node, 'consequence', cx, lowering)];
    case 'for_statement': {
      const left = node.childForFieldName('left');
      const right = node.childForFieldName('right');
      const loop: FlowStmt = {
        kind: 'loop',
        target: left ? target(left, cx) : null,
        iterable: right ? expr(right, cx) : null,
        condition: null,
        init: [],
        update: [],
        body: block(node.childForFieldName('body'), cx),
        ...at,
      };
      return [loop, ...elseOf(node, cx)];
    }
    case 'while_statement': {
      const condition = node.childForFieldName('condition');
      const loop: FlowStmt = { kind: 'loop', target: null, iterable: null, condition: condition ? expr(condition, cx) : literal(node, true, 'True'), init: [], update: [], body: block(node.childForFieldName('body'), cx), ...at };
      return [loop, ...elseOf(node, cx)];
    }
    case 'try_statement':
      return [tryStatement(node, cx)];
    case 'with_statement':
      return [withStatement(node, cx)];
    case 'match_statement':
      return [matchStatement(node, cx)];
    case 'break_statement':
      return [{ kind: 'break', ...at }];
    case 'continue_statement':
      return [{ kind: 'continue', ...at }];
    case 'assert_statement': {
      // `assert c` stops the function unless `c` holds, like an `if not c: raise` would.
      const [condition] = kids(node);
      if (!condition) return [];
      return [{ kind: 'if', condition: expr(condition, cx), then: [], otherwise: [{ kind: 'throw', value: null, ...at }], ...at }];
    }
    case 'function_definition':
      return bindFunction(node, node.childForFieldName('name'), cx);
    case 'decorated_definition': {
      const definition = node.childForFieldName('definition');
      return definition ? statement(definition, cx) : [];
    }
    case 'class_definition':
      return classBodyStatements(node, cx);
    case 'delete_statement':
    case 'comment':
      return [];
    case 'block':
      return block(node, cx);
    default:
      if (SKIPPED_STATEMENTS.has(node.type)) return [];
  }
  return [unknownStmt(node, cx, kids(node).map((k) => expr(k, cx)))];
}

function expressionStatement(node: Node, cx: LowerContext): FlowStmt[] {
  const at = pos(node);
  if (node.type === 'assignment') {
    // `a = b = value`: the right side nests; every left side is a target of the last value.
    const targets: FlowTarget[] = [];
    let current: Node | null = node;
    let annotationOnly = false;
    while (current?.type === 'assignment') {
      const left = current.childForFieldName('left');
      if (left) targets.push(target(left, cx));
      const right: Node | null = current.childForFieldName('right');
      if (!right) {
        annotationOnly = true;
        break;
      }
      current = right;
    }
    if (annotationOnly || !current) {
      const first = targets[0];
      const type = node.childForFieldName('type');
      return first?.kind === 'name' ? [{ kind: 'declare', name: first.name, type: type ? cx.text(type) : null, ...at }] : [];
    }
    return [{ kind: 'assign', targets, value: expr(current, cx), operator: '=', ...at }];
  }
  if (node.type === 'augmented_assignment') {
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    const operator = node.childForFieldName('operator');
    if (left && right) return [{ kind: 'assign', targets: [target(left, cx)], value: expr(right, cx), operator: operator ? cx.text(operator) : '+=', ...at }];
  }
  return [{ kind: 'expr', expr: expr(node, cx), ...at }];
}

/** A loop's `else:` runs after the loop ends without `break`. */
function elseOf(node: Node, cx: LowerContext): FlowStmt[] {
  const alternative = node.childForFieldName('alternative');
  return alternative ? block(alternative.childForFieldName('body'), cx) : [];
}

function tryStatement(node: Node, cx: LowerContext): FlowStmt {
  const body = block(node.childForFieldName('body'), cx);
  const handlers: Array<{ parameter: string | null; types: string[]; body: FlowStmt[] }> = [];
  let finallyBody: FlowStmt[] = [];
  for (const child of kids(node)) {
    if (child.type === 'except_clause' || child.type === 'except_group_clause') {
      let parameter: string | null = null;
      const types: string[] = [];
      let handlerBody: FlowStmt[] = [];
      for (const part of kids(child)) {
        if (part.type === 'block') handlerBody = block(part, cx);
        else if (part.type === 'as_pattern') {
          const [typeNode] = kids(part);
          const alias = part.childForFieldName('alias');
          if (typeNode) types.push(...typeNames(typeNode, cx));
          if (alias) parameter = cx.text(alias);
        } else types.push(...typeNames(part, cx));
      }
      handlers.push({ parameter, types, body: handlerBody });
    } else if (child.type === 'else_clause') body.push(...block(child.childForFieldName('body'), cx));
    else if (child.type === 'finally_clause') finallyBody = block(kids(child).find((k) => k.type === 'block') ?? null, cx);
  }
  return { kind: 'try', body, handlers, finally: finallyBody, ...pos(node) };
}

function typeNames(node: Node, cx: LowerContext): string[] {
  if (node.type === 'tuple' || node.type === 'parenthesized_expression') return kids(node).flatMap((k) => typeNames(k, cx));
  return [cx.clip(node)];
}

function withStatement(node: Node, cx: LowerContext): FlowStmt {
  const resources: Array<{ target: FlowTarget | null; value: FlowExpr }> = [];
  const clause = kids(node).find((k) => k.type === 'with_clause');
  for (const item of clause ? kids(clause) : []) {
    const value = item.childForFieldName('value') ?? kids(item)[0];
    if (!value) continue;
    if (value.type === 'as_pattern') {
      const [inner] = kids(value);
      const alias = value.childForFieldName('alias');
      const aliasTarget = alias ? kids(alias)[0] ?? alias : null;
      if (inner) resources.push({ target: aliasTarget ? target(aliasTarget, cx) : null, value: expr(inner, cx) });
    } else resources.push({ target: null, value: expr(value, cx) });
  }
  return { kind: 'with', resources, body: block(node.childForFieldName('body'), cx), ...pos(node) };
}

/** `match`: literal patterns are the arm's values; `case _` is the default; captures keep the arm reachable. */
function matchStatement(node: Node, cx: LowerContext): FlowStmt {
  const subject = node.childForFieldName('subject');
  const cases: Array<{ values: FlowExpr[]; body: FlowStmt[]; fallsThrough: boolean }> = [];
  const body = node.childForFieldName('body');
  for (const clause of body ? kids(body) : []) {
    if (clause.type !== 'case_clause') continue;
    const values: FlowExpr[] = [];
    let isDefault = false;
    for (const pattern of kids(clause)) {
      if (pattern.type !== 'case_pattern') continue;
      const inner = kids(pattern)[0];
      if (!inner || (inner.type === 'identifier' && !clause.childForFieldName('guard'))) isDefault = true;
      else if (inner.type === 'union_pattern') values.push(...kids(inner).map((k) => expr(k, cx)));
      else values.push(expr(inner, cx));
    }
    cases.push({ values: isDefault ? [] : values, body: block(clause.childForFieldName('consequence'), cx), fallsThrough: false });
  }
  return { kind: 'switch', subject: subject ? expr(subject, cx) : unknownExpr(node, cx, []), cases, ...pos(node) };
}

/**
 * A class body's own statements, where a function's code would see them: the methods are lowered on
 * their own and plain attribute assignments are the class's fields, so only other code is kept.
 */
function classBodyStatements(node: Node, cx: LowerContext): FlowStmt[] {
  const body = node.childForFieldName('body');
  const out: FlowStmt[] = [];
  for (const child of body ? kids(body) : []) {
    if (child.type === 'function_definition' || child.type === 'decorated_definition' || isFieldStatement(child)) continue;
    out.push(...statement(child, cx));
  }
  return out;
}

function isFieldStatement(node: Node): boolean {
  if (node.type !== 'expression_statement') return false;
  const inner = kids(node)[0];
  return inner?.type === 'assignment' && inner.childForFieldName('left')?.type === 'identifier';
}

function classFields(cls: Node, cx: LowerContext): FlowClass['fields'] {
  const body = cls.childForFieldName('body');
  const fields: FlowClass['fields'] = [];
  for (const child of body ? kids(body) : []) {
    if (!isFieldStatement(child)) continue;
    const assignment = kids(child)[0];
    const left = assignment?.childForFieldName('left');
    if (!assignment || !left) continue;
    const right = assignment.childForFieldName('right');
    const type = assignment.childForFieldName('type');
    fields.push({ name: cx.text(left), type: type ? cx.text(type) : null, init: right ? expr(right, cx) : null, isStatic: false, ...pos(left) });
  }
  return fields;
}

function parameterNodes(fn: Node): Node[] {
  const params = fn.childForFieldName('parameters');
  return params ? kids(params).filter((p) => PARAMETER_TYPES.has(p.type)) : [];
}

export const pythonLowerer: LanguageLowerer = {
  constructorName: '__init__',
  importTypes: new Set(['import_statement', 'import_from_statement']),

  lowerBody(fn, cx) {
    const body = fn.childForFieldName('body');
    if (!body) return [];
    if (fn.type === 'lambda') return [{ kind: 'return', value: expr(body, cx), ...pos(body) }];
    return block(body, cx);
  },

  lowerModule(root, cx) {
    return statements(kids(root), cx);
  },

  parameterNodes,

  parameterDetails(parameter, cx) {
    const value = parameter.childForFieldName('value');
    return { defaultValue: value && (parameter.type === 'default_parameter' || parameter.type === 'typed_default_parameter') ? expr(value, cx) : null, pattern: null };
  },

  returnType(fn, cx) {
    const type = fn.childForFieldName('return_type');
    return type ? cx.text(type) : null;
  },

  classFields,

  readImports(node, cx, into) {
    if (node.type === 'import_statement') {
      for (const name of node.childrenForFieldName('name')) {
        if (!name) continue;
        if (name.type === 'aliased_import') {
          const module = name.childForFieldName('name');
          const alias = name.childForFieldName('alias');
          if (module && alias) into[cx.text(alias)] = cx.text(module);
        } else {
          // `import a.b` binds `a`.
          const module = cx.text(name);
          const first = module.split('.')[0] ?? module;
          into[first] = first;
        }
      }
      return;
    }
    const moduleNode = node.childForFieldName('module_name');
    const module = moduleNode ? cx.text(moduleNode) : '';
    const join = (name: string): string => (module.endsWith('.') ? `${module}${name}` : `${module}.${name}`);
    for (const name of node.childrenForFieldName('name')) {
      if (!name) continue;
      if (name.type === 'aliased_import') {
        const original = name.childForFieldName('name');
        const alias = name.childForFieldName('alias');
        if (original && alias) into[cx.text(alias)] = join(cx.text(original));
      } else into[cx.text(name)] = join(cx.text(name));
    }
  },
};

export const pythonFrontEnd: FlowFrontEnd = {
  languages: ['python'],
  lower: (input) => lowerFile(input, pythonLowerer),
  prepare: (input) => prepareLowering(input, pythonLowerer),
};
