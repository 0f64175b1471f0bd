/**
 * Whether a sink's value (a query rule's `@value` capture) can carry outside data. A value is inert
 * when it is built only from literals, from known-safe producers (the rule's `safe_producers`: escapers
 * and sanitisers), from the element's own markup, or from names bound in the file only to such
 * values (or imported from the application's own static assets, `safe_imports`). Anything else, a
 * parameter, a call of an unknown function, a property read, is not inert and the rule fires.
 *
 * This is deliberately local: one file, no calls followed. The data-flow library decides the rest.
 */
import type { Node } from 'web-tree-sitter';
import type { Language } from '../syntax/languages.js';
import type { SafeValueData } from './rule.js';

/** How deep a value's parts and names are followed; deeper is "not known to be inert". */
const MAX_DEPTH = 6;

/** What the check needs to know about the sink. */
export interface SinkContext {
  language: Language;
  safe: SafeValueData;
}

/** The grammar facts the check reads, per family. */
interface GrammarFacts {
  /** Node types that are literal values whatever their text. */
  literals: ReadonlySet<string>;
  /** Node types whose named children are all part of the value (a string with holes, parentheses). */
  composite: ReadonlySet<string>;
  /** Node types of a hole in a string (`${...}`, f-string `{...}`): their expression is part of the value. */
  holes: ReadonlySet<string>;
  binary: string;
  call: string;
  identifier: string;
}

const JS_FACTS: GrammarFacts = {
  literals: new Set(['string', 'number', 'true', 'false', 'null', 'undefined', 'regex', 'string_fragment', 'escape_sequence']),
  composite: new Set(['template_string', 'parenthesized_expression', 'as_expression', 'satisfies_expression', 'non_null_expression']),
  holes: new Set(['template_substitution']),
  binary: 'binary_expression',
  call: 'call_expression',
  identifier: 'identifier',
};

const PYTHON_FACTS: GrammarFacts = {
  literals: new Set(['integer', 'float', 'true', 'false', 'none', 'string_content', 'string_start', 'string_end', 'escape_sequence']),
  composite: new Set(['string', 'concatenated_string', 'parenthesized_expression']),
  holes: new Set(['interpolation']),
  binary: 'binary_operator',
  call: 'call',
  identifier: 'identifier',
};

const FACTS: Partial<Record<Language, GrammarFacts>> = {
  javascript: JS_FACTS,
  typescript: JS_FACTS,
  tsx: JS_FACTS,
  python: PYTHON_FACTS,
};

const JS_FAMILY = new Set<Language>(['javascript', 'typescript', 'tsx']);
const OWN_MARKUP = /^(innerHTML|outerHTML)$/;
const REPLACE_METHODS = /^(replace|replaceAll)$/;

/** True when `value` cannot carry outside data (see the module comment). */
export function isInertValue(value: Node, context: SinkContext): boolean {
  const facts = FACTS[context.language];
  if (facts === undefined) return false;
  return inert(value, context, facts, 0, new Set());
}

function inert(node: Node, context: SinkContext, facts: GrammarFacts, depth: number, visiting: Set<number>): boolean {
  if (depth > MAX_DEPTH) return false;
  const next = (child: Node | null): boolean => child !== null && inert(child, context, facts, depth + 1, visiting);
  const type = node.type;
  if (facts.literals.has(type)) return true;
  if (type === 'comment') return true;
  if (facts.composite.has(type)) return node.namedChildren.every((child) => child !== null && next(child));
  if (facts.holes.has(type)) {
    // A hole's expression; Python's format spec and conversion are part of the literal.
    return node.namedChildren.every((child) => child === null || child.type === 'format_specifier' || child.type === 'type_conversion' || next(child));
  }
  if (type === facts.binary) return next(node.childForFieldName('left')) && next(node.childForFieldName('right'));
  if (type === 'ternary_expression') return next(node.childForFieldName('consequence')) && next(node.childForFieldName('alternative'));
  if (type === 'conditional_expression') {
    // Python: `a if cond else b`; the condition is not part of the value.
    const [whenTrue, , whenFalse] = node.namedChildren;
    return next(whenTrue ?? null) && next(whenFalse ?? null);
  }
  if (type === facts.call) return inertCall(node, context, facts, next);
  if (JS_FAMILY.has(context.language)) {
    if (type === 'member_expression') return isPageMarkup(node);
    if (type === facts.identifier) return inertName(node, context, facts, depth, visiting);
  }
  return false;
}

/**
 * `code.innerHTML` read back: markup already in the page, serialised with its text escaped, so writing
 * it again adds nothing from outside (the pieces a rewrite puts in are judged on their own).
 */
function isPageMarkup(node: Node): boolean {
  const property = node.childForFieldName('property');
  if (property === null || !OWN_MARKUP.test(property.text)) return false;
  // An `innerHTML` field of parsed JSON or of an object the file builds is data, not the page's markup.
  let root: Node | null = node.childForFieldName('object');
  while (root !== null && (root.type === 'member_expression' || root.type === 'subscript_expression' || WRAPPERS.has(root.type))) {
    root = root.childForFieldName('object') ?? root.childForFieldName('expression') ?? root.namedChildren[0] ?? null;
  }
  if (root === null || root.type !== 'identifier') return root !== null && root.type === 'this';
  return bindingsOf(programOf(node), root.text).every((binding) => binding.value === null || isElementLookup(binding.value));
}

/** Wrappers that do not change a value (TypeScript's casts, parentheses). */
const WRAPPERS = new Set(['parenthesized_expression', 'as_expression', 'satisfies_expression', 'non_null_expression']);
/** DOM calls that return elements of the page. */
const ELEMENT_LOOKUP = /(^|\.)(querySelector|getElementById|closest|createElement|cloneNode|firstElementChild|lastElementChild|parentElement|item|getElementsByClassName|getElementsByTagName)$/;

/** A value the file binds a name to that is an element of the page (document.querySelector(...), el.closest(...)). */
function isElementLookup(value: Node): boolean {
  let part: Node | null = value;
  while (part !== null && WRAPPERS.has(part.type)) part = part.namedChildren[0] ?? null;
  if (part === null) return false;
  if (part.type === 'call_expression') return ELEMENT_LOOKUP.test(part.childForFieldName('function')?.text ?? '');
  if (part.type === 'subscript_expression') return isElementLookup(part.childForFieldName('object') ?? part);
  return part.type === 'member_expression' && /^(document\.(body|documentElement|head)|\w+\.(parentElement|firstElementChild|lastElementChild|nextElementSibling|previousElementSibling))$/.test(part.text);
}

function inertCall(node: Node, context: SinkContext, facts: GrammarFacts, next: (child: Node | null) => boolean): boolean {
  const callee = node.childForFieldName('function');
  if (callee === null) return false;
  const trusted = (names: readonly RegExp[]): boolean => names.some((name) => name.test(callee.text)) && !definedInFile(callee, context.language);
  if (trusted(context.safe.producers)) return true;
  const args = node.childForFieldName('arguments')?.namedChildren ?? [];
  if (trusted(context.safe.wrappers)) return args.every((arg) => arg !== null && next(arg));
  // A translation-free rewrite of inert markup: `x.replace(pattern, replacement)` where x and every
  // replacement are inert (the element's own markup with escaped or literal pieces put in).
  if (!JS_FAMILY.has(context.language) || callee.type !== 'member_expression') return false;
  const method = callee.childForFieldName('property');
  if (method === null || !REPLACE_METHODS.test(method.text) || !next(callee.childForFieldName('object'))) return false;
  return args.slice(1).every((arg) => arg !== null && (isClosedCallback(arg, facts) || next(arg)));
}

/**
 * A replacement function that uses nothing but its own parameters (and names it calls on them): what it
 * puts in comes from the matched markup itself. `this`, `super` and a call given none of the matched
 * pieces bring data of their own.
 */
function isClosedCallback(node: Node, facts: GrammarFacts): boolean {
  if (node.type !== 'arrow_function' && node.type !== 'function_expression') return false;
  const params = new Set<string>();
  const single = node.childForFieldName('parameter');
  if (single !== null) params.add(single.text);
  for (const param of node.childForFieldName('parameters')?.descendantsOfType(facts.identifier) ?? []) if (param) params.add(param.text);
  const body = node.childForFieldName('body');
  if (body === null) return false;
  if (body.descendantsOfType(['this', 'super']).length > 0) return false;
  const usesParam = (part: Node): boolean => part.descendantsOfType(facts.identifier).some((id) => id !== null && params.has(id.text));
  return body.descendantsOfType(facts.identifier).every((id) => {
    if (id === null) return true;
    if (params.has(id.text)) return true;
    // A name it calls on the matched pieces (link(url)).
    const parent = id.parent;
    if (parent === null || parent.type !== facts.call || parent.childForFieldName('function')?.id !== id.id) return false;
    const args = parent.childForFieldName('arguments');
    return args !== null && usesParam(args);
  });
}

const FUNCTION_SCOPES = new Set(['function_declaration', 'function_expression', 'arrow_function', 'method_definition', 'generator_function_declaration', 'generator_function']);
const BLOCK_SCOPES = new Set(['statement_block', 'program', 'class_body']);

/** A name is inert when every value the file gives it in its scope is inert. */
function inertName(id: Node, context: SinkContext, facts: GrammarFacts, depth: number, visiting: Set<number>): boolean {
  const name = id.text;
  for (let scope = id.parent; scope !== null; scope = scope.parent) {
    if (FUNCTION_SCOPES.has(scope.type)) {
      const params = scope.childForFieldName('parameters') ?? scope.childForFieldName('parameter');
      if (params !== null && params.descendantsOfType('identifier').some((param) => param?.text === name)) return false;
      continue;
    }
    if (!BLOCK_SCOPES.has(scope.type)) continue;
    const declared = declarationIn(scope, name, context);
    if (declared === 'none') continue;
    if (declared === 'unknown') return false;
    // One binding in the whole file, or a nested one (a case clause, a loop head, a hoisted var, a
    // catch) may be the one this name reads.
    const bindings = bindingsOf(programOf(id), name);
    if (bindings.length !== 1 || rewrittenAsGlobal(programOf(id), name, bindings[0])) return false;
    if (declared === 'safe-import') return true;
    if (visiting.has(declared.id)) return false;
    visiting.add(declared.id);
    const values = [...(declared.value ? [declared.value] : []), ...assignedValues(scope, name)];
    const result = values.every((value) => value !== null && inert(value, context, facts, depth + 1, visiting));
    visiting.delete(declared.id);
    return result;
  }
  return false;
}

type Declaration = 'none' | 'unknown' | 'safe-import' | { id: number; value: Node | null };

/** How `name` is declared directly in `scope` (a block or the program). */
function declarationIn(scope: Node, name: string, context: SinkContext): Declaration {
  for (const child of scope.namedChildren) {
    const statement = child?.type === 'export_statement' ? child.childForFieldName('declaration') ?? child.namedChildren[0] ?? null : child;
    if (statement === null || statement === undefined) continue;
    if (statement.type === 'lexical_declaration' || statement.type === 'variable_declaration') {
      for (const declarator of statement.namedChildren) {
        if (declarator?.type !== 'variable_declarator') continue;
        const bound = declarator.childForFieldName('name');
        if (bound === null) continue;
        if (bound.type === 'identifier' && bound.text === name) return { id: declarator.id, value: declarator.childForFieldName('value') };
        // Destructured: the value is a part of something else.
        if (bound.type !== 'identifier' && bound.descendantsOfType('identifier').some((part) => part?.text === name)) return 'unknown';
      }
    }
    if (statement.type === 'import_statement') {
      const clause = statement.namedChildren.find((part) => part?.type === 'import_clause');
      if (clause === undefined || clause === null) continue;
      if (!clause.descendantsOfType('identifier').some((part) => part?.text === name)) continue;
      const source = statement.childForFieldName('source')?.text.slice(1, -1) ?? '';
      return context.safe.imports.some((allowed) => allowed.test(source)) ? 'safe-import' : 'unknown';
    }
    if ((statement.type === 'function_declaration' || statement.type === 'class_declaration') && statement.childForFieldName('name')?.text === name) return 'unknown';
  }
  return 'none';
}

/** Every value assigned to `name` anywhere in `scope`; a loop variable or an update makes it unknown. */
function assignedValues(scope: Node, name: string): (Node | null)[] {
  const values: (Node | null)[] = [];
  for (const assignment of scope.descendantsOfType(['assignment_expression', 'augmented_assignment_expression', 'update_expression', 'for_in_statement'])) {
    if (assignment === null) continue;
    const left = assignment.childForFieldName('left') ?? assignment.childForFieldName('argument');
    if (left?.type !== 'identifier' || left.text !== name) continue;
    if (assignment.type === 'update_expression') continue; // a number stays a number
    values.push(assignment.type === 'for_in_statement' ? null : assignment.childForFieldName('right'));
  }
  return values;
}

function programOf(node: Node): Node {
  let top = node;
  while (top.parent !== null) top = top.parent;
  return top;
}

/** One place the file binds a name, with the value it binds when that is known from the binding itself. */
interface Binding {
  node: Node;
  /** The declarator's value; null for a parameter, a loop or catch variable, an import or a pattern part. */
  value: Node | null;
  varAtTop: boolean;
}

/** Node types a destructuring pattern passes a bound name through. */
const PATTERN_PARTS = new Set(['object_pattern', 'array_pattern', 'pair_pattern', 'assignment_pattern', 'object_assignment_pattern', 'rest_pattern', 'required_parameter', 'optional_parameter']);
/** Where a name (or a pattern holding it) is a binding, by the parent's type and the field it sits in. */
const BINDING_PLACES: Record<string, string | null> = {
  variable_declarator: 'name',
  formal_parameters: null,
  catch_clause: 'parameter',
  for_in_statement: 'left',
  arrow_function: 'parameter',
  function_declaration: 'name',
  generator_function_declaration: 'name',
  class_declaration: 'name',
  import_clause: null,
  import_specifier: null,
  namespace_import: null,
};

/** Every binding of `name` anywhere in the file: declarations, parameters, loop and catch variables, imports. */
function bindingsOf(program: Node, name: string): Binding[] {
  const found: Binding[] = [];
  for (const id of program.descendantsOfType(['identifier', 'shorthand_property_identifier_pattern'])) {
    if (id === null || id.text !== name) continue;
    let part: Node = id;
    while (part.parent !== null && PATTERN_PARTS.has(part.parent.type)) {
      // `{ a: b }` binds b, `a = 1` binds a: a key or a default value is not a binding.
      const parent: Node = part.parent;
      if (parent.type === 'pair_pattern' && parent.childForFieldName('value')?.id !== part.id) break;
      if ((parent.type === 'assignment_pattern' || parent.type === 'object_assignment_pattern') && parent.childForFieldName('left')?.id !== part.id) break;
      part = parent;
    }
    const place = part.parent;
    if (place === null || !Object.hasOwn(BINDING_PLACES, place.type)) continue;
    const field = BINDING_PLACES[place.type];
    if (field !== null && field !== undefined && place.childForFieldName(field)?.id !== part.id) continue;
    if (place.type === 'for_in_statement' && place.childForFieldName('kind') === null) continue; // an assignment, not a binding
    const direct = place.type === 'variable_declarator' && part.id === id.id;
    const declaration = place.type === 'variable_declarator' ? place.parent : null;
    found.push({
      node: id,
      value: direct ? place.childForFieldName('value') : null,
      varAtTop: declaration?.type === 'variable_declaration' && declaration.parent?.type === 'program',
    });
  }
  return found;
}

/** A top-level `var` is a property of the global object: `window.name = ...` rewrites it. */
function rewrittenAsGlobal(program: Node, name: string, binding: Binding | undefined): boolean {
  if (binding === undefined || !binding.varAtTop) return false;
  return program.descendantsOfType(['assignment_expression', 'augmented_assignment_expression']).some((assignment) => {
    const left = assignment?.childForFieldName('left');
    if (left === null || left === undefined) return false;
    if (left.type === 'member_expression') return left.childForFieldName('property')?.text === name;
    return left.type === 'subscript_expression' && left.childForFieldName('index')?.text.slice(1, -1) === name;
  });
}

/** Definitions that make a name the file's own code, per grammar (a function, a class, an object or function value). */
const OWN_DEFINITIONS: Partial<Record<Language, { definitions: string[]; ownValues: ReadonlySet<string> }>> = {
  javascript: { definitions: ['function_declaration', 'class_declaration', 'variable_declarator'], ownValues: new Set(['arrow_function', 'function_expression', 'function', 'object', 'class']) },
  python: { definitions: ['function_definition', 'class_definition', 'assignment'], ownValues: new Set(['lambda', 'dictionary']) },
};
OWN_DEFINITIONS.typescript = OWN_DEFINITIONS.javascript;
OWN_DEFINITIONS.tsx = OWN_DEFINITIONS.javascript;

/**
 * Whether the first name of `callee` (`escapeHtml`, `DOMPurify` of DOMPurify.sanitize) is defined by
 * the file itself, so a safe-sounding name says nothing about what it returns. A definition that
 * escapes by its own text (it puts in `&lt;` or `&amp;`) is taken at its word, as the hand-written
 * escapers of real projects are.
 */
function definedInFile(callee: Node, language: Language): boolean {
  const own = OWN_DEFINITIONS[language];
  if (own === undefined) return false;
  const root = /^[\w$]+/.exec(callee.text)?.[0];
  if (root === undefined) return false;
  for (const definition of programOf(callee).descendantsOfType(own.definitions)) {
    if (definition === null) continue;
    const named = definition.childForFieldName(definition.type === 'assignment' ? 'left' : 'name');
    if (named?.text !== root) continue;
    const value = definition.childForFieldName(definition.type === 'assignment' ? 'right' : 'value');
    const isCode = definition.type !== 'variable_declarator' && definition.type !== 'assignment' ? true : value !== null && own.ownValues.has(value.type);
    if (isCode && !/&(lt|amp|gt|quot|#3[49]|#x2[27]);/.test(definition.text)) return true;
  }
  return false;
}
