/**
 * The Java front end: lowers a tree-sitter-java tree to the flow IR (src/flow/ir.ts). Methods,
 * constructors, lambdas and the methods of anonymous and nested classes each become a FlowFunction;
 * what is not understood becomes `unknown` with its sub-expressions, never dropped.
 */
import type { Node } from 'web-tree-sitter';
import { moduleFunctionOf } from './common.js';
import type { FlowClass, FlowExpr, FlowFile, FlowFrontEnd, FlowFunction, FlowParameter, FlowStmt, FlowTarget, Position } from '../ir.js';

/** Deeper nesting than this is lowered as `unknown` (and named in degradations), so a hostile file cannot exhaust the stack. */
const MAX_DEPTH = 400;

const ANNOTATIONS = new Set(['annotation', 'marker_annotation']);
const FUNCTION_NODES = new Set(['method_declaration', 'constructor_declaration', 'compact_constructor_declaration']);
const BLOCKS = new Set(['block', 'constructor_body', 'switch_block_statement_group']);
const CLASS_NODES = new Set(['class_declaration', 'interface_declaration', 'enum_declaration', 'record_declaration', 'annotation_type_declaration']);

function at(node: Node): Position {
  return { line: node.startPosition.row + 1, column: node.startPosition.column };
}

const COMMENTS = new Set(['comment', 'line_comment', 'block_comment']);

/** Named children that are not comments (a node's type costs a call into the parser: read once). */
function named(node: Node): Node[] {
  return node.namedChildren.filter((c): c is Node => c !== null && !COMMENTS.has(c.type));
}

function field(node: Node, name: string): Node | null {
  return node.childForFieldName(name);
}

/** A Java string or char literal's value: escapes decoded, quotes (and text-block fences) removed. */
function literalText(text: string): string {
  const body = text.startsWith('"""') ? text.slice(3, -3).replace(/^[^\n]*\n/, '') : text.slice(1, -1);
  return body.replace(/\\(u+[0-9a-fA-F]{4}|[0-7]{1,3}|.)/g, (_, escape: string) => {
    if (escape.startsWith('u')) return String.fromCharCode(parseInt(escape.replace(/^u+/, ''), 16));
    if (/^[0-7]/.test(escape)) return String.fromCharCode(parseInt(escape, 8));
    const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', s: ' ', '0': '\0' };
    return simple[escape] ?? escape;
  });
}

function numberValue(text: string): number | null {
  // A hex literal's F and D are digits; only a decimal one takes the float/double suffixes.
  const clean = text.replace(/_/g, '').replace(/^0[xX]/.test(text) ? /[lL]$/ : /[lLfFdD]$/, '');
  const value = /^0[xX]/.test(clean) ? parseInt(clean.slice(2), 16) : /^0[bB]/.test(clean) ? parseInt(clean.slice(2), 2) : /^0[0-7]+$/.test(clean) ? parseInt(clean, 8) : Number(clean);
  return Number.isFinite(value) ? value : null;
}

/** `java.util.List<String>` to `java.util.List<String>` as written; the engine reduces it to `List`. */
function typeText(node: Node | null): string | null {
  return node === null ? null : node.text;
}

class JavaLowering {
  readonly functions: FlowFunction[] = [];
  readonly classes: FlowClass[] = [];
  readonly imports: Record<string, string> = {};
  readonly degradations: string[] = [];
  private depth = 0;

  constructor(private readonly root: Node) {}

  run(): void {
    const module = moduleFunctionOf(this.root);
    this.functions.push(module);
    for (const child of named(this.root)) {
      if (child.type === 'import_declaration') this.importOf(child);
      else if (CLASS_NODES.has(child.type)) this.classOf(child, null, null);
    }
  }

  private importOf(node: Node): void {
    const path = named(node).find((c) => c.type === 'scoped_identifier' || c.type === 'identifier');
    if (!path) return;
    const full = path.text;
    if (named(node).some((c) => c.type === 'asterisk')) return;
    const simple = full.split('.').pop() ?? full;
    this.imports[simple] = full;
  }

  private modifiers(node: Node): { modifiers: string[]; annotations: string[] } {
    const modifiers: string[] = [];
    const annotations: string[] = [];
    const list = named(node).find((c) => c.type === 'modifiers');
    if (!list) return { modifiers, annotations };
    for (const child of list.children) {
      if (!child) continue;
      if (ANNOTATIONS.has(child.type)) annotations.push(child.text.replace(/^@\s*/, '').trim());
      else if (!child.isNamed) modifiers.push(child.type);
    }
    return { modifiers, annotations };
  }

  /** A class (named, nested or anonymous) with its fields and methods. */
  private classOf(node: Node, outer: string | null, enclosingFunction: string | null, anonymousName?: string): void {
    const nameNode = field(node, 'name');
    const name = anonymousName ?? (outer === null ? '' : `${outer}.`) + (nameNode?.text ?? '<class>');
    const superclassNode = field(node, 'superclass');
    const interfacesNode = field(node, 'interfaces');
    const superclass = superclassNode ? (named(superclassNode)[0]?.text ?? null) : null;
    const interfaces = interfacesNode ? named(named(interfacesNode)[0] ?? interfacesNode).map((t) => t.text) : [];
    const flowClass: FlowClass = { name, superclass, interfaces, fields: [], methods: [], decorators: this.modifiers(node).annotations };
    this.classes.push(flowClass);
    const body = field(node, 'body') ?? named(node).find((c) => c.type === 'class_body');
    if (!body) return;
    if (node.type === 'record_declaration') {
      const params = field(node, 'parameters');
      for (const p of params ? named(params) : []) {
        const pName = field(p, 'name');
        if (pName) flowClass.fields.push({ name: pName.text, type: typeText(field(p, 'type')), init: null, isStatic: false, ...at(p) });
      }
    }
    for (const member of named(body)) {
      if (member.type === 'field_declaration' || member.type === 'constant_declaration') {
        const isStatic = this.modifiers(member).modifiers.includes('static') || node.type === 'interface_declaration';
        const type = typeText(field(member, 'type'));
        for (const declarator of named(member).filter((c) => c.type === 'variable_declarator')) {
          const fieldName = field(declarator, 'name')?.text ?? declarator.text;
          const value = field(declarator, 'value');
          flowClass.fields.push({ name: fieldName, type, init: value ? this.expr(value, name) : null, isStatic, ...at(declarator) });
        }
      } else if (FUNCTION_NODES.has(member.type)) {
        flowClass.methods.push(this.functionOf(member, name, enclosingFunction).qualifiedName);
      } else if (CLASS_NODES.has(member.type)) {
        this.classOf(member, name, enclosingFunction);
      } else if (member.type === 'static_initializer' || member.type === 'block') {
        const block = member.type === 'block' ? member : named(member).find((c) => c.type === 'block');
        if (block) flowClass.methods.push(this.syntheticFunction(`${name}.<init-block@L${member.startPosition.row + 1}>`, name, block, enclosingFunction).qualifiedName);
      } else if (member.type === 'enum_body_declarations') {
        for (const inner of named(member)) if (FUNCTION_NODES.has(inner.type)) flowClass.methods.push(this.functionOf(inner, name, enclosingFunction).qualifiedName);
      }
    }
  }

  private syntheticFunction(qualifiedName: string, className: string, block: Node, enclosingFunction: string | null): FlowFunction {
    const fn: FlowFunction = { name: qualifiedName.split('.').pop() ?? qualifiedName, qualifiedName, className, parameters: [], decorators: [], modifiers: [], returnType: null, body: [], endLine: block.endPosition.row + 1, enclosingFunction, ...at(block) };
    this.functions.push(fn);
    fn.body = this.block(block, qualifiedName);
    return fn;
  }

  private uniqueName(base: string): string {
    let name = base;
    for (let n = 2; this.functions.some((f) => f.qualifiedName === name); n++) name = `${base}#${n}`;
    return name;
  }

  private functionOf(node: Node, className: string, enclosingFunction: string | null): FlowFunction {
    const isConstructor = node.type !== 'method_declaration';
    const name = isConstructor ? '<init>' : (field(node, 'name')?.text ?? '<method>');
    const { modifiers, annotations } = this.modifiers(node);
    const fn: FlowFunction = {
      name,
      qualifiedName: this.uniqueName(`${className}.${name}`),
      className,
      parameters: this.parameters(field(node, 'parameters')),
      decorators: annotations,
      modifiers,
      returnType: typeText(field(node, 'type')),
      body: [],
      endLine: node.endPosition.row + 1,
      enclosingFunction,
      ...at(node),
    };
    this.functions.push(fn);
    const body = field(node, 'body');
    if (body) fn.body = this.block(body, fn.qualifiedName);
    return fn;
  }

  private parameters(node: Node | null): FlowParameter[] {
    if (node === null) return [];
    if (node.type === 'identifier') return [{ name: node.text, index: 0, type: null, annotations: [], defaultValue: null, pattern: null }];
    const out: FlowParameter[] = [];
    for (const p of named(node)) {
      const index = out.length;
      if (p.type === 'identifier') out.push({ name: p.text, index, type: null, annotations: [], defaultValue: null, pattern: null });
      else if (p.type === 'formal_parameter') {
        const dims = field(p, 'dimensions');
        const type = field(p, 'type');
        out.push({ name: field(p, 'name')?.text ?? p.text, index, type: type ? type.text + (dims ? dims.text : '') : null, annotations: this.modifiers(p).annotations, defaultValue: null, pattern: null });
      } else if (p.type === 'spread_parameter') {
        const declarator = named(p).find((c) => c.type === 'variable_declarator');
        const type = named(p).find((c) => c.type !== 'modifiers' && c.type !== 'variable_declarator');
        out.push({ name: declarator ? (field(declarator, 'name')?.text ?? declarator.text) : '', index, type: type ? `${type.text}...` : null, annotations: this.modifiers(p).annotations, defaultValue: null, pattern: null });
      } else if (p.type === 'inferred_parameters') {
        for (const id of named(p)) out.push({ name: id.text, index: out.length, type: null, annotations: [], defaultValue: null, pattern: null });
      }
    }
    return out;
  }

  private block(node: Node, owner: string): FlowStmt[] {
    if (!BLOCKS.has(node.type)) return this.stmt(node, owner);
    return named(node).flatMap((s) => this.stmt(s, owner));
  }

  private deeper<T>(node: Node, lower: () => T, fallback: () => T): T {
    if (this.depth >= MAX_DEPTH) {
      this.degradations.push(`nesting deeper than ${MAX_DEPTH} at line ${node.startPosition.row + 1}`);
      return fallback();
    }
    this.depth++;
    try {
      return lower();
    } finally {
      this.depth--;
    }
  }

  private stmt(node: Node, owner: string): FlowStmt[] {
    return this.deeper(node, () => this.stmtInner(node, owner), () => [{ kind: 'unknown', text: node.text.slice(0, 200), expressions: [], ...at(node) }]);
  }

  private stmtInner(node: Node, owner: string): FlowStmt[] {
    const pos = at(node);
    switch (node.type) {
      case 'block':
      case 'constructor_body':
        return this.block(node, owner);
      case 'local_variable_declaration': {
        const type = typeText(field(node, 'type'));
        // A declaration with a value is `declare` (which carries the type) followed by `assign`.
        return named(node)
          .filter((c) => c.type === 'variable_declarator')
          .flatMap((declarator): FlowStmt[] => {
            const name = field(declarator, 'name')?.text ?? declarator.text;
            const dims = field(declarator, 'dimensions');
            const value = field(declarator, 'value');
            const declared: FlowStmt = { kind: 'declare', name, type: type === null ? null : type + (dims ? dims.text : ''), ...at(declarator) };
            if (!value) return [declared];
            return [declared, { kind: 'assign', targets: [{ kind: 'name', name, ...at(declarator) }], value: this.expr(value, owner), operator: '=', ...at(declarator) }];
          });
      }
      case 'expression_statement': {
        const inner = named(node)[0];
        if (!inner) return [];
        if (inner.type === 'assignment_expression') return [this.assignStmt(inner, owner)];
        return [{ kind: 'expr', expr: this.expr(inner, owner), ...pos }];
      }
      case 'explicit_constructor_invocation': {
        const args = field(node, 'arguments');
        const ctor = named(node)[0];
        return [{ kind: 'expr', expr: { kind: 'call', callee: ctor?.text ?? 'super', receiver: null, calleeText: ctor?.text ?? 'super', arguments: this.args(args, owner), named: [], isNew: false, constructed: null, ...pos }, ...pos }];
      }
      case 'return_statement':
      case 'yield_statement': {
        const value = named(node)[0];
        return [{ kind: 'return', value: value ? this.expr(value, owner) : null, ...pos }];
      }
      case 'throw_statement': {
        const value = named(node)[0];
        return [{ kind: 'throw', value: value ? this.expr(value, owner) : null, ...pos }];
      }
      case 'if_statement': {
        const condition = field(node, 'condition');
        const consequence = field(node, 'consequence');
        const alternative = field(node, 'alternative');
        return [
          {
            kind: 'if',
            condition: condition ? this.expr(condition, owner) : { kind: 'literal', value: true, text: 'true', ...pos },
            then: consequence ? this.block(consequence, owner) : [],
            otherwise: alternative ? this.block(alternative, owner) : [],
            ...pos,
          },
        ];
      }
      case 'switch_expression':
      case 'switch_statement':
        return [this.switchStmt(node, owner)];
      case 'while_statement': {
        const condition = field(node, 'condition');
        const body = field(node, 'body');
        return [{ kind: 'loop', target: null, iterable: null, condition: condition ? this.expr(condition, owner) : null, init: [], update: [], body: body ? this.block(body, owner) : [], ...pos }];
      }
      case 'do_statement': {
        // The body runs once before the condition: lower as the body, then a loop.
        const condition = field(node, 'condition');
        const body = field(node, 'body');
        const lowered = body ? this.block(body, owner) : [];
        return [...lowered, { kind: 'loop', target: null, iterable: null, condition: condition ? this.expr(condition, owner) : null, init: [], update: [], body: body ? this.block(body, owner) : [], ...pos }];
      }
      case 'for_statement': {
        const init = node.childrenForFieldName('init').filter((c): c is Node => c !== null);
        const update = node.childrenForFieldName('update').filter((c): c is Node => c !== null);
        const condition = field(node, 'condition');
        const body = field(node, 'body');
        return [
          {
            kind: 'loop',
            target: null,
            iterable: null,
            condition: condition ? this.expr(condition, owner) : null,
            init: init.flatMap((i) => (i.type === 'local_variable_declaration' ? this.stmt(i, owner) : [this.exprStmt(i, owner)])),
            update: update.map((u) => this.exprStmt(u, owner)),
            body: body ? this.block(body, owner) : [],
            ...pos,
          },
        ];
      }
      case 'enhanced_for_statement': {
        const name = field(node, 'name');
        const value = field(node, 'value');
        const body = field(node, 'body');
        const target: FlowTarget | null = name ? { kind: 'name', name: name.text, ...at(name) } : null;
        const declared: FlowStmt[] = name ? [{ kind: 'declare', name: name.text, type: typeText(field(node, 'type')), ...at(name) }] : [];
        return [...declared, { kind: 'loop', target, iterable: value ? this.expr(value, owner) : null, condition: null, init: [], update: [], body: body ? this.block(body, owner) : [], ...pos }];
      }
      case 'try_statement':
      case 'try_with_resources_statement': {
        const body = field(node, 'body');
        const handlers = named(node)
          .filter((c) => c.type === 'catch_clause')
          .map((clause) => {
            const parameter = named(clause).find((c) => c.type === 'catch_formal_parameter');
            const types = parameter ? named(named(parameter).find((c) => c.type === 'catch_type') ?? parameter).map((t) => t.text) : [];
            const handlerBody = field(clause, 'body');
            return { parameter: parameter ? (field(parameter, 'name')?.text ?? null) : null, types, body: handlerBody ? this.block(handlerBody, owner) : [] };
          });
        const finallyClause = named(node).find((c) => c.type === 'finally_clause');
        const finallyBlock = finallyClause ? named(finallyClause).find((c) => c.type === 'block') : undefined;
        const tryBody = body ? this.block(body, owner) : [];
        const resources = field(node, 'resources');
        const lowered: FlowStmt = { kind: 'try', body: tryBody, handlers, finally: finallyBlock ? this.block(finallyBlock, owner) : [], ...pos };
        if (!resources) return [lowered];
        const declared: FlowStmt[] = [];
        const bound = named(resources).map((resource) => {
          const name = field(resource, 'name');
          const value = field(resource, 'value');
          if (name) declared.push({ kind: 'declare', name: name.text, type: typeText(field(resource, 'type')), ...at(resource) });
          const target: FlowTarget | null = name ? { kind: 'name', name: name.text, ...at(name) } : null;
          return { target, value: this.expr(value ?? resource, owner) };
        });
        return [...declared, { kind: 'with', resources: bound, body: [lowered], ...pos }];
      }
      case 'break_statement':
        return [{ kind: 'break', ...pos }];
      case 'continue_statement':
        return [{ kind: 'continue', ...pos }];
      case 'labeled_statement':
      case 'synchronized_statement': {
        const body = named(node).find((c) => c.type === 'block' || c.type.endsWith('_statement'));
        const lock = node.type === 'synchronized_statement' ? named(node).find((c) => c.type === 'parenthesized_expression') : undefined;
        return [...(lock ? [{ kind: 'expr', expr: this.expr(lock, owner), ...pos } as FlowStmt] : []), ...(body ? this.block(body, owner) : [])];
      }
      case 'local_class_declaration':
      case 'class_declaration':
      case 'record_declaration':
      case 'enum_declaration':
      case 'interface_declaration':
        this.classOf(node, owner, owner);
        return [];
      case 'assert_statement':
      case 'empty_statement':
        return [];
      default: {
        const expressions = named(node).map((c) => this.expr(c, owner));
        return [{ kind: 'unknown', text: node.text.slice(0, 200), expressions, ...pos }];
      }
    }
  }

  private exprStmt(node: Node, owner: string): FlowStmt {
    if (node.type === 'assignment_expression') return this.assignStmt(node, owner);
    return { kind: 'expr', expr: this.expr(node, owner), ...at(node) };
  }

  private assignStmt(node: Node, owner: string): FlowStmt {
    const left = field(node, 'left');
    const right = field(node, 'right');
    const operator = field(node, 'operator')?.text ?? '=';
    return { kind: 'assign', targets: [this.target(left ?? node, owner)], value: this.expr(right ?? node, owner), operator, ...at(node) };
  }

  private switchStmt(node: Node, owner: string): FlowStmt {
    const condition = field(node, 'condition');
    const body = field(node, 'body');
    const cases: Array<{ values: FlowExpr[]; body: FlowStmt[]; fallsThrough: boolean }> = [];
    for (const group of body ? named(body) : []) {
      if (group.type !== 'switch_block_statement_group' && group.type !== 'switch_rule') continue;
      const labels = named(group).filter((c) => c.type === 'switch_label');
      const values = labels.flatMap((label) => named(label).map((v) => this.expr(v, owner)));
      const statements = named(group).filter((c) => c.type !== 'switch_label');
      // A rule arm (`case 'A' -> expr;`) may hold a bare expression rather than a statement.
      const isStatement = (s: Node) => s.type.endsWith('statement') || s.type === 'block' || s.type === 'local_variable_declaration';
      const lowered: FlowStmt[] = statements.flatMap((s): FlowStmt[] => (isStatement(s) ? this.stmt(s, owner) : [{ kind: 'expr', expr: this.expr(s, owner), ...at(s) }]));
      const last = lowered[lowered.length - 1];
      const ends = last !== undefined && (last.kind === 'break' || last.kind === 'return' || last.kind === 'throw' || last.kind === 'continue');
      const isDefault = labels.some((label) => label.text.startsWith('default'));
      cases.push({ values: isDefault ? [] : values, body: lowered, fallsThrough: group.type === 'switch_block_statement_group' && !ends });
    }
    return { kind: 'switch', subject: condition ? this.expr(condition, owner) : { kind: 'literal', value: null, text: '', ...at(node) }, cases, ...at(node) };
  }

  private target(node: Node, owner: string): FlowTarget {
    const pos = at(node);
    if (node.type === 'identifier') return { kind: 'name', name: node.text, ...pos };
    if (node.type === 'field_access') {
      const object = field(node, 'object');
      return { kind: 'field', object: object ? this.expr(object, owner) : { kind: 'name', name: 'this', ...pos }, field: field(node, 'field')?.text ?? '', ...pos };
    }
    if (node.type === 'array_access') {
      const array = field(node, 'array');
      const index = field(node, 'index');
      return { kind: 'index', object: this.expr(array ?? node, owner), index: this.expr(index ?? node, owner), ...pos };
    }
    if (node.type === 'parenthesized_expression') {
      const inner = named(node)[0];
      if (inner) return this.target(inner, owner);
    }
    return { kind: 'name', name: node.text, ...pos };
  }

  private args(node: Node | null, owner: string): Array<{ value: FlowExpr; spread: boolean }> {
    return node ? named(node).map((a) => ({ value: this.expr(a, owner), spread: false })) : [];
  }

  expr(node: Node, owner: string): FlowExpr {
    return this.deeper(node, () => this.exprInner(node, owner), () => ({ kind: 'unknown', text: node.text.slice(0, 200), children: [], ...at(node) }));
  }

  private exprInner(node: Node, owner: string): FlowExpr {
    const pos = at(node);
    switch (node.type) {
      case 'identifier':
        return { kind: 'name', name: node.text, ...pos };
      case 'this':
      case 'super':
        return { kind: 'name', name: node.type, ...pos };
      case 'string_literal':
      case 'text_block':
        return { kind: 'literal', value: literalText(node.text), text: node.text, ...pos };
      case 'character_literal':
        return { kind: 'literal', value: literalText(node.text), text: node.text, ...pos };
      case 'decimal_integer_literal':
      case 'hex_integer_literal':
      case 'octal_integer_literal':
      case 'binary_integer_literal':
      case 'decimal_floating_point_literal':
      case 'hex_floating_point_literal':
        return { kind: 'literal', value: numberValue(node.text), text: node.text, ...pos };
      case 'true':
      case 'false':
        return { kind: 'literal', value: node.type === 'true', text: node.text, ...pos };
      case 'null_literal':
        return { kind: 'literal', value: null, text: 'null', ...pos };
      case 'parenthesized_expression':
      case 'condition': {
        const inner = named(node)[0];
        return inner ? this.expr(inner, owner) : { kind: 'unknown', text: node.text, children: [], ...pos };
      }
      case 'field_access': {
        const object = field(node, 'object');
        return { kind: 'field', object: object ? this.expr(object, owner) : { kind: 'name', name: 'this', ...pos }, field: field(node, 'field')?.text ?? '', ...pos };
      }
      case 'scoped_identifier': {
        const scope = field(node, 'scope');
        return { kind: 'field', object: scope ? this.expr(scope, owner) : { kind: 'name', name: '', ...pos }, field: field(node, 'name')?.text ?? '', ...pos };
      }
      case 'array_access': {
        const array = field(node, 'array');
        const index = field(node, 'index');
        return { kind: 'index', object: this.expr(array ?? node, owner), index: index ? this.expr(index, owner) : { kind: 'literal', value: null, text: '', ...pos }, ...pos };
      }
      case 'method_invocation': {
        const object = field(node, 'object');
        const name = field(node, 'name')?.text ?? '';
        return {
          kind: 'call',
          callee: name,
          receiver: object ? this.expr(object, owner) : null,
          calleeText: object ? `${object.text}.${name}` : name,
          arguments: this.args(field(node, 'arguments'), owner),
          named: [],
          isNew: false,
          constructed: null,
          ...pos,
        };
      }
      case 'object_creation_expression': {
        const type = field(node, 'type');
        const constructed = (type?.text ?? '').replace(/<.*$/s, '');
        const simple = constructed.split('.').pop() ?? constructed;
        const outer = named(node).find((c) => c.type !== 'class_body' && c !== type && c.type !== 'argument_list' && c.type !== 'type_arguments');
        const classBody = named(node).find((c) => c.type === 'class_body');
        if (classBody) this.anonymousClass(classBody, simple, owner);
        return {
          kind: 'call',
          callee: simple,
          receiver: outer && outer.startIndex < (type?.startIndex ?? 0) ? this.expr(outer, owner) : null,
          calleeText: `new ${constructed}`,
          arguments: this.args(field(node, 'arguments'), owner),
          named: [],
          isNew: true,
          constructed,
          ...pos,
        };
      }
      case 'array_creation_expression': {
        const value = field(node, 'value');
        if (value) return this.expr(value, owner);
        return { kind: 'collection', shape: 'list', elements: [], entries: [], ...pos };
      }
      case 'array_initializer':
        return { kind: 'collection', shape: 'list', elements: named(node).map((e) => ({ value: this.expr(e, owner), spread: false })), entries: [], ...pos };
      case 'binary_expression': {
        const left = field(node, 'left');
        const right = field(node, 'right');
        return { kind: 'binary', operator: field(node, 'operator')?.text ?? '?', left: this.expr(left ?? node, owner), right: this.expr(right ?? node, owner), ...pos };
      }
      case 'instanceof_expression': {
        const left = field(node, 'left');
        return { kind: 'binary', operator: 'instanceof', left: this.expr(left ?? node, owner), right: { kind: 'literal', value: field(node, 'right')?.text ?? '', text: '', ...pos }, ...pos };
      }
      case 'unary_expression': {
        const operand = field(node, 'operand');
        return { kind: 'unary', operator: field(node, 'operator')?.text ?? '?', operand: this.expr(operand ?? node, owner), ...pos };
      }
      case 'update_expression': {
        const operand = named(node)[0];
        const operator = node.text.includes('++') ? '++' : '--';
        if (operand === undefined) return { kind: 'unknown', text: node.text, children: [], ...pos };
        return { kind: 'assignment', target: this.target(operand, owner), value: { kind: 'binary', operator: operator === '++' ? '+' : '-', left: this.expr(operand, owner), right: { kind: 'literal', value: 1, text: '1', ...pos }, ...pos }, operator: '=', ...pos };
      }
      case 'ternary_expression': {
        const condition = field(node, 'condition');
        const consequence = field(node, 'consequence');
        const alternative = field(node, 'alternative');
        return { kind: 'conditional', condition: this.expr(condition ?? node, owner), then: this.expr(consequence ?? node, owner), otherwise: this.expr(alternative ?? node, owner), ...pos };
      }
      case 'cast_expression': {
        const value = field(node, 'value');
        return { kind: 'cast', type: field(node, 'type')?.text ?? '', value: this.expr(value ?? node, owner), ...pos };
      }
      case 'assignment_expression': {
        const left = field(node, 'left');
        const right = field(node, 'right');
        return { kind: 'assignment', target: this.target(left ?? node, owner), value: this.expr(right ?? node, owner), operator: field(node, 'operator')?.text ?? '=', ...pos };
      }
      case 'lambda_expression':
        return { kind: 'function', qualifiedName: this.lambda(node, owner).qualifiedName, ...pos };
      case 'method_reference': {
        const parts = named(node);
        const receiver = parts[0];
        const name = parts[parts.length - 1]?.text ?? '';
        return { kind: 'unknown', text: node.text, children: receiver && parts.length > 1 ? [{ kind: 'field', object: this.expr(receiver, owner), field: name, ...pos }] : [], ...pos };
      }
      case 'class_literal':
        return { kind: 'literal', value: node.text, text: node.text, ...pos };
      case 'switch_expression': {
        const lowered = this.switchStmt(node, owner);
        const values = lowered.kind === 'switch' ? lowered.cases.flatMap((c) => c.body.flatMap((s) => (s.kind === 'expr' ? [s.expr] : s.kind === 'return' && s.value ? [s.value] : []))) : [];
        const subject = lowered.kind === 'switch' ? [lowered.subject] : [];
        return { kind: 'unknown', text: node.text.slice(0, 200), children: [...subject, ...values], ...pos };
      }
      default:
        return { kind: 'unknown', text: node.text.slice(0, 200), children: named(node).map((c) => this.expr(c, owner)), ...pos };
    }
  }

  private anonymousClass(body: Node, base: string, owner: string): void {
    const name = this.uniqueName(`${owner}.<anonymous ${base}@L${body.startPosition.row + 1}>`);
    const flowClass: FlowClass = { name, superclass: base, interfaces: [], fields: [], methods: [], decorators: [] };
    this.classes.push(flowClass);
    for (const member of named(body)) if (FUNCTION_NODES.has(member.type)) flowClass.methods.push(this.functionOf(member, name, owner).qualifiedName);
  }

  private lambda(node: Node, owner: string): FlowFunction {
    const qualifiedName = this.uniqueName(`<lambda@L${node.startPosition.row + 1}:${node.startPosition.column}>`);
    const body = field(node, 'body');
    const fn: FlowFunction = {
      name: qualifiedName,
      qualifiedName,
      className: this.functions.find((f) => f.qualifiedName === owner)?.className ?? null,
      parameters: this.parameters(field(node, 'parameters')),
      decorators: [],
      modifiers: [],
      returnType: null,
      body: [],
      endLine: node.endPosition.row + 1,
      enclosingFunction: owner,
      ...at(node),
    };
    this.functions.push(fn);
    if (body) fn.body = body.type === 'block' ? this.block(body, qualifiedName) : [{ kind: 'return', value: this.expr(body, qualifiedName), ...at(body) }];
    return fn;
  }
}

export const javaFrontEnd: FlowFrontEnd = {
  languages: ['java'],
  lower({ path, language, root }): FlowFile {
    const lowering = new JavaLowering(root);
    lowering.run();
    return { path, language, functions: lowering.functions, classes: lowering.classes, imports: lowering.imports, degradations: [...new Set(lowering.degradations)] };
  },
};
