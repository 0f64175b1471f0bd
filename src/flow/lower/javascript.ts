/**
 * The JavaScript, TypeScript and TSX front end (tree-sitter-javascript 0.20 / -typescript 0.20 trees
 * to the flow IR). The grammars share their expression and statement node names; TypeScript only adds
 * type wrappers (`as`, `!`, `<T>x`, `satisfies`), which are casts here.
 */
import type { Node } from 'web-tree-sitter';
import type { FlowClass, FlowExpr, FlowFrontEnd, FlowStmt, FlowTarget } from '../ir.js';
import {
  unaryOf,
  binaryOf,
  unknownTarget,
  access,
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
  splitTemplate,
  templateOrLiteral,
  unknownExpr,
  unknownStmt,
  type LanguageLowerer,
  type LowerContext,
} from './common.js';

/** Parameter node types the syntax IR lists. */
const PARAMETER_TYPES = new Set(['identifier', 'assignment_pattern', 'rest_pattern', 'required_parameter', 'optional_parameter', 'object_pattern', 'array_pattern']);
const CAST_TYPES = new Set(['as_expression', 'satisfies_expression', 'type_assertion']);
/** Declarations that carry no data flow. */
const SKIPPED_STATEMENTS = new Set([
  'empty_statement',
  'import_statement',
  'debugger_statement',
  'type_alias_declaration',
  'interface_declaration',
  'enum_declaration',
  'abstract_class_declaration_signature',
  'ambient_declaration',
  'module',
  'internal_module',
  'function_signature',
  'comment',
  'hash_bang_line',
]);

/** The bounded lowering every step below goes through for its children. */
const lowering = boundedLowering({ expr: lowerExpr, target: lowerTarget, statement: lowerStatement, blockTypes: new Set(['statement_block', 'class_body', 'program']) });
const { expr, target, statement, statements, block } = lowering;

function lowerExpr(node: Node, cx: LowerContext): FlowExpr {
  switch (node.type) {
    case 'identifier':
    case 'shorthand_property_identifier':
      return node.type === 'identifier' && cx.text(node) === 'undefined' ? literal(node, null, 'undefined') : nameExpr(node, cx.text(node));
    case 'this':
    case 'super':
      return nameExpr(node, node.type);
    case 'number':
      return numberLiteral(node, cx);
    case 'true':
    case 'false':
      return literal(node, node.type === 'true', node.type);
    case 'null':
    case 'undefined':
      return literal(node, null, node.type);
    case 'string': {
      const text = cx.text(node);
      const value = text.slice(1, -1);
      return literal(node, value, value);
    }
    case 'template_string':
      return template(node, null, cx);
    case 'member_expression':
      return access(node, 'field', 'object', 'property', cx, lowering) ?? unknownExpr(node, cx, kids(node).map((k) => expr(k, cx)));
    case 'subscript_expression':
      return access(node, 'index', 'object', 'index', cx, lowering) ?? unknownExpr(node, cx, kids(node).map((k) => expr(k, cx)));
    case 'call_expression':
      return call(node, cx);
    case 'new_expression': {
      const ctor = node.childForFieldName('constructor');
      const name = ctor ? bareType(cx.clip(ctor)) : '';
      const callee = name.slice(name.lastIndexOf('.') + 1);
      const receiver = ctor?.type === 'member_expression' ? ctor.childForFieldName('object') : null;
      return callExpr(node, cx, { callee, receiver: receiver ? expr(receiver, cx) : null, calleeNode: ctor, arguments: argumentList(node.childForFieldName('arguments'), cx), constructed: name });
    }
    case 'binary_expression':
      return binaryOf(node, cx, lowering) ?? unknownExpr(node, cx, kids(node).map((k) => expr(k, cx)));
    case 'unary_expression':
      return unaryOf(node, 'argument', cx, lowering) ?? unknownExpr(node, cx, kids(node).map((k) => expr(k, cx)));
    case 'update_expression': {
      const argument = node.childForFieldName('argument');
      const operator = node.childForFieldName('operator');
      if (!argument || !operator) break;
      return { kind: 'assignment', target: target(argument, cx), value: literal(node, 1, '1'), operator: operator.type === '++' ? '+=' : '-=', ...pos(node) };
    }
    case 'assignment_expression':
    case 'augmented_assignment_expression': {
      const left = node.childForFieldName('left');
      const right = node.childForFieldName('right');
      const operator = node.childForFieldName('operator');
      if (!left || !right) break;
      return { kind: 'assignment', target: target(left, cx), value: expr(right, cx), operator: operator ? cx.text(operator) : '=', ...pos(node) };
    }
    case 'ternary_expression': {
      const condition = node.childForFieldName('condition');
      const then = node.childForFieldName('consequence');
      const otherwise = node.childForFieldName('alternative');
      if (!condition || !then || !otherwise) break;
      return { kind: 'conditional', condition: expr(condition, cx), then: expr(then, cx), otherwise: expr(otherwise, cx), ...pos(node) };
    }
    case 'parenthesized_expression':
    case 'await_expression':
    case 'non_null_expression': {
      const inner = kids(node)[0];
      return inner ? expr(inner, cx) : unknownExpr(node, cx, []);
    }
    case 'array':
      return {
        kind: 'collection',
        shape: 'list',
        elements: kids(node).map((child) => (child.type === 'spread_element' ? { value: spreadValue(child, cx), spread: true } : { value: expr(child, cx), spread: false })),
        entries: [],
        ...pos(node),
      };
    case 'object':
      return object(node, cx);
    case 'arrow_function':
    case 'function':
    case 'function_expression':
    case 'generator_function':
      return cx.functionRef(node) ?? unknownExpr(node, cx, []);
    case 'sequence_expression': {
      // `(a, b)` is worth its last operand; the others still run.
      const parts = kids(node).map((k) => expr(k, cx));
      const last = parts[parts.length - 1];
      return parts.length === 1 && last ? last : unknownExpr(node, cx, parts);
    }
    case 'regex':
      return literal(node, cx.text(node), cx.text(node));
    case 'class':
      // Its methods are functions of their own; the class value carries nothing of the caller's.
      return unknownExpr(node, cx, []);
    default:
      if (CAST_TYPES.has(node.type)) return cast(node, cx);
  }
  return unknownExpr(node, cx, kids(node).map((k) => expr(k, cx)));
}

/** `x as T`, `x satisfies T`, `<T>x`: the value with its written type. */
function cast(node: Node, cx: LowerContext): FlowExpr {
  const parts = kids(node);
  const value = node.type === 'type_assertion' ? parts[parts.length - 1] : parts[0];
  const type = node.type === 'type_assertion' ? parts[0] : parts[1];
  if (!value) return unknownExpr(node, cx, []);
  return { kind: 'cast', type: type ? cx.text(type).replace(/^<|>$/g, '') : '', value: expr(value, cx), ...pos(node) };
}

function spreadValue(node: Node, cx: LowerContext): FlowExpr {
  const inner = kids(node)[0];
  return inner ? expr(inner, cx) : unknownExpr(node, cx, []);
}

function template(node: Node, tag: FlowExpr | null, cx: LowerContext): FlowExpr {
  const holes = kids(node).filter((k) => k.type === 'template_substitution');
  const parts = splitTemplate(node, cx, node.startIndex + 1, node.endIndex - 1, holes, (hole) => {
    const inner = kids(hole)[0];
    return inner ? expr(inner, cx) : unknownExpr(hole, cx, []);
  });
  return templateOrLiteral(node, parts, tag);
}

function argumentList(args: Node | null, cx: LowerContext): Array<{ value: FlowExpr; spread: boolean }> {
  if (!args) return [];
  return kids(args).map((arg) => (arg.type === 'spread_element' ? { value: spreadValue(arg, cx), spread: true } : { value: expr(arg, cx), spread: false }));
}

function call(node: Node, cx: LowerContext): FlowExpr {
  const fn = node.childForFieldName('function');
  const args = node.childForFieldName('arguments');
  if (!fn) return unknownExpr(node, cx, []);
  // A tagged template is a call of its tag with the text (the tag sees the strings and the values), so
  // an escaping tag (ldap-escape's filter`...`) is a sanitiser like any escaping call.
  const positional = args?.type === 'template_string' ? [{ value: template(args, null, cx), spread: false }] : argumentList(args, cx);
  if (fn.type === 'member_expression') {
    const object = fn.childForFieldName('object');
    const property = fn.childForFieldName('property');
    if (object && property) return callExpr(node, cx, { callee: cx.text(property), receiver: expr(object, cx), calleeNode: fn, arguments: positional });
  }
  if (fn.type === 'identifier' || fn.type === 'import' || fn.type === 'super') return callExpr(node, cx, { callee: cx.text(fn), receiver: null, calleeNode: fn, arguments: positional });
  return callExpr(node, cx, { callee: cx.clip(fn), receiver: expr(fn, cx), calleeNode: fn, arguments: positional });
}

function object(node: Node, cx: LowerContext): FlowExpr {
  const entries: Array<{ key: FlowExpr | null; value: FlowExpr }> = [];
  for (const child of kids(node)) {
    if (child.type === 'pair') {
      const key = child.childForFieldName('key');
      const value = child.childForFieldName('value');
      if (key && value) entries.push({ key: propertyKey(key, cx), value: expr(value, cx) });
    } else if (child.type === 'shorthand_property_identifier') {
      entries.push({ key: literal(child, cx.text(child), cx.text(child)), value: nameExpr(child, cx.text(child)) });
    } else if (child.type === 'spread_element') {
      entries.push({ key: null, value: spreadValue(child, cx) });
    } else if (child.type === 'method_definition') {
      const name = child.childForFieldName('name');
      const ref = cx.functionRef(child);
      if (name && ref) entries.push({ key: propertyKey(name, cx), value: ref });
    }
  }
  return { kind: 'collection', shape: 'map', elements: [], entries, ...pos(node) };
}

/** An object key: a plain name or string is a literal key; `[expr]` is the expression. */
function propertyKey(key: Node, cx: LowerContext): FlowExpr {
  if (key.type === 'computed_property_name') {
    const inner = kids(key)[0];
    return inner ? expr(inner, cx) : unknownExpr(key, cx, []);
  }
  if (key.type === 'string') return expr(key, cx);
  if (key.type === 'number') return numberLiteral(key, cx);
  return literal(key, cx.text(key), cx.text(key));
}

function lowerTarget(node: Node, cx: LowerContext): FlowTarget {
  switch (node.type) {
    case 'identifier':
    case 'shorthand_property_identifier_pattern':
      return { kind: 'name', name: cx.text(node), ...pos(node) };
    case 'member_expression':
      return access(node, 'field', 'object', 'property', cx, lowering) ?? unknownTarget(node, cx);
    case 'subscript_expression':
      return access(node, 'index', 'object', 'index', cx, lowering) ?? unknownTarget(node, cx);
    case 'assignment_pattern':
    case 'object_assignment_pattern': {
      // A default only applies when the value is missing; the bound name is the left side.
      const left = node.childForFieldName('left');
      if (left) return target(left, cx);
      break;
    }
    case 'parenthesized_expression':
    case 'non_null_expression': {
      const inner = kids(node)[0];
      if (inner) return target(inner, cx);
      break;
    }
    case 'array_pattern':
    case 'array':
      return arrayPattern(node, cx);
    case 'object_pattern':
    case 'object':
      return objectPattern(node, cx);
    case 'rest_pattern': {
      const inner = kids(node)[0];
      if (inner) return target(inner, cx);
      break;
    }
  }
  return unknownTarget(node, cx);
}

/** `[a, , b, ...rest]`: holes keep their position. */
function arrayPattern(node: Node, cx: LowerContext): FlowTarget {
  const elements: Array<FlowTarget | null> = [];
  let rest: FlowTarget | null = null;
  let pendingHole = true;
  for (const child of node.children) {
    if (!child || child.type.endsWith('comment')) continue;
    if (child.type === ',') {
      if (pendingHole) elements.push(null);
      pendingHole = true;
    } else if (child.type === 'rest_pattern' || child.type === 'spread_element') {
      const inner = kids(child)[0];
      if (inner) rest = target(inner, cx);
      pendingHole = false;
    } else if (child.isNamed) {
      elements.push(target(child, cx));
      pendingHole = false;
    }
  }
  return { kind: 'destructure', elements, keys: null, rest, ...pos(node) };
}

function objectPattern(node: Node, cx: LowerContext): FlowTarget {
  const elements: Array<FlowTarget | null> = [];
  const keys: Array<string | null> = [];
  let rest: FlowTarget | null = null;
  for (const child of kids(node)) {
    if (child.type === 'shorthand_property_identifier_pattern' || child.type === 'shorthand_property_identifier') {
      elements.push(target(child, cx));
      keys.push(cx.text(child));
    } else if (child.type === 'object_assignment_pattern') {
      const left = child.childForFieldName('left');
      elements.push(target(child, cx));
      keys.push(left ? cx.text(left) : null);
    } else if (child.type === 'pair_pattern' || child.type === 'pair') {
      const key = child.childForFieldName('key');
      const value = child.childForFieldName('value');
      if (!value) continue;
      elements.push(target(value, cx));
      const keyExpr = key ? propertyKey(key, cx) : null;
      keys.push(keyExpr?.kind === 'literal' ? String(keyExpr.value) : null);
    } else if (child.type === 'rest_pattern' || child.type === 'spread_element') {
      const inner = kids(child)[0];
      if (inner) rest = target(inner, cx);
    }
  }
  return { kind: 'destructure', elements, keys, rest, ...pos(node) };
}

function lowerStatement(node: Node, cx: LowerContext): FlowStmt[] {
  const at = pos(node);
  switch (node.type) {
    case 'expression_statement':
      return kids(node).flatMap((child) => expressionStatement(child, cx));
    case 'lexical_declaration':
    case 'variable_declaration':
      return declarations(node, cx);
    case 'return_statement': {
      const value = kids(node)[0];
      return [{ kind: 'return', value: value ? expr(value, cx) : null, ...at }];
    }
    case 'throw_statement': {
      const value = kids(node)[0];
      return [{ kind: 'throw', value: value ? expr(value, cx) : null, ...at }];
    }
    case 'if_statement': {
      const condition = node.childForFieldName('condition');
      const alternative = node.childForFieldName('alternative');
      const otherwise = alternative ? statements(kids(alternative), cx) : [];
      return [{ kind: 'if', condition: condition ? expr(condition, cx) : unknownExpr(node, cx, []), then: block(node.childForFieldName('consequence'), cx), otherwise, ...at }];
    }
    case 'for_statement':
      return [forStatement(node, cx)];
    case 'for_in_statement': {
      const left = node.childForFieldName('left');
      const right = node.childForFieldName('right');
      const operator = node.childForFieldName('operator');
      const iterable = right ? expr(right, cx) : null;
      // `for (k in o)` binds the keys of `o`, which are outside data when `o` is.
      const iterated = iterable && operator?.type === 'in' ? callExpr(node, cx, { callee: 'keys', receiver: nameExpr(node, 'Object'), calleeNode: null, arguments: [{ value: iterable, spread: false }] }) : iterable;
      return [{ kind: 'loop', target: left ? target(left, cx) : null, iterable: iterated, condition: null, init: [], update: [], body: block(node.childForFieldName('body'), cx), ...at }];
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
    case 'statement_block':
      return block(node, cx);
    case 'labeled_statement':
      return block(node.childForFieldName('body'), cx);
    case 'function_declaration':
    case 'generator_function_declaration':
      return bindFunction(node, node.childForFieldName('name'), cx);
    case 'class_declaration':
    case 'abstract_class_declaration':
      return [];
    case 'export_statement': {
      const declaration = node.childForFieldName('declaration');
      if (declaration) return statement(declaration, cx);
      const value = node.childForFieldName('value');
      return value ? [{ kind: 'expr', expr: expr(value, cx), ...at }] : [];
    }
    case 'with_statement': {
      const object = node.childForFieldName('object');
      return [{ kind: 'with', resources: object ? [{ target: null, value: expr(object, cx) }] : [], body: block(node.childForFieldName('body'), cx), ...at }];
    }
    default:
      if (SKIPPED_STATEMENTS.has(node.type)) return [];
  }
  return [unknownStmt(node, cx, kids(node).map((k) => expr(k, cx)))];
}

function expressionStatement(node: Node, cx: LowerContext): FlowStmt[] {
  const at = pos(node);
  if (node.type === 'assignment_expression' || node.type === 'augmented_assignment_expression') {
    // `a = b = value`: every left side takes the last value.
    const targets: FlowTarget[] = [];
    let current: Node | null = node;
    let operator = '=';
    while (current?.type === 'assignment_expression' || (current === node && node.type === 'augmented_assignment_expression')) {
      const left: Node | null = current.childForFieldName('left');
      if (left) targets.push(target(left, cx));
      if (current.type === 'augmented_assignment_expression') {
        operator = cx.text(current.childForFieldName('operator') ?? current);
        current = current.childForFieldName('right');
        break;
      }
      current = current.childForFieldName('right');
    }
    if (current) return [{ kind: 'assign', targets, value: expr(current, cx), operator, ...at }];
  }
  if (node.type === 'sequence_expression') return kids(node).flatMap((k) => expressionStatement(k, cx));
  return [{ kind: 'expr', expr: expr(node, cx), ...at }];
}

function declarations(node: Node, cx: LowerContext): FlowStmt[] {
  const out: FlowStmt[] = [];
  for (const declarator of kids(node)) {
    if (declarator.type !== 'variable_declarator') continue;
    const name = declarator.childForFieldName('name');
    const value = declarator.childForFieldName('value');
    const type = declarator.childForFieldName('type');
    if (!name) continue;
    if (value) out.push({ kind: 'assign', targets: [target(name, cx)], value: expr(value, cx), operator: '=', ...pos(declarator) });
    else if (name.type === 'identifier') out.push({ kind: 'declare', name: cx.text(name), type: type ? cx.text(type).replace(/^:\s*/, '') : null, ...pos(declarator) });
  }
  return out;
}

function forStatement(node: Node, cx: LowerContext): FlowStmt {
  const initializer = node.childForFieldName('initializer');
  const condition = node.childForFieldName('condition');
  const increment = node.childForFieldName('increment');
  const conditionExpr = condition && condition.type !== 'empty_statement' ? kids(condition)[0] ?? condition : null;
  return {
    kind: 'loop',
    target: null,
    iterable: null,
    condition: conditionExpr ? expr(conditionExpr, cx) : literal(node, true, 'true'),
    init: initializer ? statement(initializer, cx) : [],
    update: increment ? expressionStatement(increment, cx) : [],
    body: block(node.childForFieldName('body'), cx),
    ...pos(node),
  };
}

function switchStatement(node: Node, cx: LowerContext): FlowStmt {
  const value = node.childForFieldName('value');
  const body = node.childForFieldName('body');
  const cases: Array<{ values: FlowExpr[]; body: FlowStmt[]; fallsThrough: boolean }> = [];
  for (const arm of body ? kids(body) : []) {
    if (arm.type !== 'switch_case' && arm.type !== 'switch_default') continue;
    const caseValue = arm.childForFieldName('value');
    const armBody = statements(arm.childrenForFieldName('body').filter((n): n is Node => n !== null), cx);
    cases.push({ values: caseValue ? [expr(caseValue, cx)] : [], body: armBody, fallsThrough: !endsControl(armBody) });
  }
  return { kind: 'switch', subject: value ? expr(value, cx) : unknownExpr(node, cx, []), cases, ...pos(node) };
}

function tryStatement(node: Node, cx: LowerContext): FlowStmt {
  const handler = node.childForFieldName('handler');
  const finalizer = node.childForFieldName('finalizer');
  const handlers: Array<{ parameter: string | null; types: string[]; body: FlowStmt[] }> = [];
  if (handler) {
    const parameter = handler.childForFieldName('parameter');
    const type = handler.childForFieldName('type');
    handlers.push({ parameter: parameter ? cx.text(parameter) : null, types: type ? [cx.text(type).replace(/^:\s*/, '')] : [], body: block(handler.childForFieldName('body'), cx) });
  }
  return { kind: 'try', body: block(node.childForFieldName('body'), cx), handlers, finally: finalizer ? block(finalizer.childForFieldName('body'), cx) : [], ...pos(node) };
}

function classFields(cls: Node, cx: LowerContext): FlowClass['fields'] {
  const body = cls.childForFieldName('body');
  const fields: FlowClass['fields'] = [];
  for (const member of body ? kids(body) : []) {
    if (member.type !== 'public_field_definition' && member.type !== 'field_definition') continue;
    const name = member.childForFieldName('name') ?? member.childForFieldName('property');
    if (!name) continue;
    const value = member.childForFieldName('value');
    const type = member.childForFieldName('type');
    const isStatic = member.children.some((c) => c?.type === 'static');
    fields.push({ name: cx.text(name), type: type ? cx.text(type).replace(/^:\s*/, '') : null, init: value ? expr(value, cx) : null, isStatic, ...pos(name) });
  }
  return fields;
}

function parameterNodes(fn: Node): Node[] {
  const single = fn.childForFieldName('parameter');
  if (single) return [single];
  const params = fn.childForFieldName('parameters');
  return params ? kids(params).filter((p) => PARAMETER_TYPES.has(p.type)) : [];
}

/** The module a `require('m')` call names, or null. */
function requiredModule(node: Node | null, cx: LowerContext): string | null {
  while (node?.type === 'await_expression' || node?.type === 'parenthesized_expression') node = kids(node)[0] ?? null;
  if (node?.type !== 'call_expression') return null;
  const fn = node.childForFieldName('function');
  if (!fn || (cx.text(fn) !== 'require' && fn.type !== 'import')) return null;
  const first = node.childForFieldName('arguments')?.namedChild(0);
  return first?.type === 'string' ? cx.text(first).slice(1, -1) : null;
}

export const javascriptLowerer: LanguageLowerer = {
  constructorName: 'constructor',
  importTypes: new Set(['import_statement', 'variable_declarator']),

  lowerBody(fn, cx) {
    const body = fn.childForFieldName('body');
    if (!body) return [];
    if (body.type !== 'statement_block') return [{ kind: 'return', value: expr(body, cx), ...pos(body) }];
    return block(body, cx);
  },

  lowerModule(root, cx) {
    return statements(kids(root), cx);
  },

  parameterNodes,

  parameterDetails(parameter, cx) {
    let pattern = parameter;
    let defaultValue: FlowExpr | null = null;
    if (parameter.type === 'required_parameter' || parameter.type === 'optional_parameter') {
      pattern = parameter.childForFieldName('pattern') ?? parameter;
      const value = parameter.childForFieldName('value');
      if (value) defaultValue = expr(value, cx);
    }
    if (pattern.type === 'assignment_pattern') {
      const right = pattern.childForFieldName('right');
      if (right) defaultValue = expr(right, cx);
      pattern = pattern.childForFieldName('left') ?? pattern;
    }
    const isPattern = pattern.type === 'object_pattern' || pattern.type === 'array_pattern';
    return { defaultValue, pattern: isPattern ? target(pattern, cx) : null };
  },

  returnType(fn, cx) {
    const type = fn.childForFieldName('return_type');
    return type ? cx.text(type).replace(/^:\s*/, '') : null;
  },

  classFields,

  readImports(node, cx, into) {
    if (node.type === 'variable_declarator') {
      const module = requiredModule(node.childForFieldName('value'), cx);
      const name = node.childForFieldName('name');
      if (module === null || !name) return;
      if (name.type === 'identifier') into[cx.text(name)] = module;
      else if (name.type === 'object_pattern') {
        const pattern = objectPattern(name, cx);
        if (pattern.kind !== 'destructure') return;
        pattern.elements.forEach((element, i) => {
          const key = pattern.keys?.[i];
          if (element?.kind === 'name' && key) into[element.name] = `${module}.${key}`;
        });
      }
      return;
    }
    const source = node.childForFieldName('source');
    if (!source) return;
    const module = cx.text(source).slice(1, -1);
    for (const clause of kids(node)) {
      if (clause.type !== 'import_clause') continue;
      for (const part of kids(clause)) {
        if (part.type === 'identifier') into[cx.text(part)] = module;
        else if (part.type === 'namespace_import') for (const n of kids(part)) into[cx.text(n)] = module;
        else if (part.type === 'named_imports') {
          for (const spec of kids(part)) {
            const original = spec.childForFieldName('name');
            const local = spec.childForFieldName('alias') ?? original;
            if (original && local) into[cx.text(local)] = `${module}.${cx.text(original)}`;
          }
        }
      }
    }
  },
};

export const javascriptFrontEnd: FlowFrontEnd = {
  languages: ['javascript', 'typescript', 'tsx'],
  lower: (input) => lowerFile(input, javascriptLowerer),
  prepare: (input) => prepareLowering(input, javascriptLowerer),
};
