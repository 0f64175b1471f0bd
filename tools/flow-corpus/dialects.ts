/**
 * How each corpus language spells the few statements the shape templates need: literals, concatenation,
 * declarations, branches, collections, helpers and string building. Shapes are written once over this.
 */
import type { Language } from './catalogue.js';

/** Lines of a string-building idiom and the expression holding the result. */
export interface Built {
  lines: string[];
  result: string;
}

export interface Dialect {
  language: Language;
  ext: string;
  marker: string;
  indent: string;
  lit(text: string): string;
  cat(parts: string[]): string;
  v(name: string): string;
  /** A declaration; `type` is Java's and TypeScript's type of the variable, String when absent. */
  decl(name: string, expr: string, opts?: { mutable?: boolean; type?: string }): string;
  /** A declaration without a value, for variables assigned in every branch (nothing in Python and PHP). */
  declEmpty(name: string, type?: string): string | undefined;
  set(name: string, expr: string): string;
  ifThen(cond: string, then: string[], otherwise?: string[]): string[];
  /** A switch over `subject` (Python: an if/elif chain) whose cases assign; the last entry is the default. */
  switchOn(subject: string, cases: [string | undefined, string[]][]): string[];
  charAt(text: string, index: number): string;
  charLit(ch: string): string;
  ternary(cond: string, a: string, b: string): string;
  not(cond: string): string;
  inAllowed(value: string): string;
  allowedDecl(values: string[]): string;
  log(message: string, value: string): string;
  trim(expr: string): string;
  lower(expr: string): string;
  listNew(name: string, first: string): string[];
  listAdd(name: string, expr: string): string;
  listGet(name: string, index: number): string;
  mapNew(name: string): string;
  mapPut(name: string, key: string, expr: string): string;
  mapGet(name: string, key: string): string;
  /** A one-parameter helper (a member when `member`), its body lines then its returned expression. */
  fn(name: string, param: string, body: string[], ret: string, member: boolean, returnType?: string): string[];
  call(name: string, args: string[], member: boolean): string;
  /** A small data class holding one value, with a getter; `field` is what the getter returns. */
  dataClass(name: string, getter: string, returnsConstant: string | undefined, member: boolean): string[];
  newData(name: string, arg: string, getter: string, member: boolean): string;
  builds: ((value: string, pre: string, suf: string) => Built)[];
  /** Imports the collections need (Java). */
  collectionImports: string[];
}

const dq = (text: string): string => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
const nonEmpty = (parts: string[]): string[] => parts.filter((p) => p !== '""' && p !== "''");
const block = (indent: string, lines: string[]): string[] => lines.map((l) => indent + l);

const PY = '    ';
export const python: Dialect = {
  language: 'python',
  ext: 'py',
  marker: '  # SINK',
  indent: PY,
  lit: dq,
  cat: (parts) => nonEmpty(parts).join(' + '),
  v: (n) => n,
  decl: (n, e) => `${n} = ${e}`,
  declEmpty: () => undefined,
  set: (n, e) => `${n} = ${e}`,
  ifThen: (c, t, o) => [`if ${c}:`, ...block(PY, t), ...(o ? ['else:', ...block(PY, o)] : [])],
  switchOn: (subject, cases) =>
    cases.flatMap(([label, lines], i) => {
      const head = label === undefined ? 'else:' : `${i === 0 ? 'if' : 'elif'} ${subject} == ${label}:`;
      return [head, ...block(PY, lines)];
    }),
  charAt: (t, i) => `${dq(t)}[${String(i)}]`,
  charLit: dq,
  ternary: (c, a, b) => `${a} if ${c} else ${b}`,
  // `x not in y`, as Python code spells it, rather than `not x in y`.
  not: (c) => c.replace(/^(\w+) in (\w+)$/, '$1 not in $2').replace(/^(?!\w+ not in )/, 'not '),
  inAllowed: (v) => `${v} in ALLOWED`,
  allowedDecl: (vals) => `ALLOWED = {${vals.map(dq).join(', ')}}`,
  log: (m, v) => `logger.info(${dq(m + ' %s')}, ${v})`,
  trim: (e) => `${e}.strip()`,
  lower: (e) => `${e}.lower()`,
  listNew: (n, f) => [`${n} = [${f}]`],
  listAdd: (n, e) => `${n}.append(${e})`,
  listGet: (n, i) => `${n}[${String(i)}]`,
  mapNew: (n) => `${n} = {}`,
  mapPut: (n, k, e) => `${n}[${dq(k)}] = ${e}`,
  mapGet: (n, k) => `${n}[${dq(k)}]`,
  fn: (name, param, body, ret) => [`def ${name}(${param}):`, ...block(PY, [...body, `return ${ret}`])],
  call: (name, args) => `${name}(${args.join(', ')})`,
  dataClass: (name, getter, constant) => [
    `class ${name}:`,
    `${PY}def __init__(self, value):`,
    `${PY}${PY}self.value = value`,
    ...(constant === undefined ? [] : [`${PY}${PY}self.fallback = ${constant}`]),
    '',
    `${PY}def ${getter}(self):`,
    `${PY}${PY}return self.${constant === undefined ? 'value' : 'fallback'}`,
  ],
  newData: (name, arg, getter) => `${name}(${arg}).${getter}()`,
  builds: [
    (v, pre, suf) => ({ lines: [`query = f${dq(pre + '{' + v + '}' + suf)}`], result: 'query' }),
    (v, pre, suf) => ({ lines: [`query = ${dq(pre + '%s' + suf)} % ${v}`], result: 'query' }),
    (v, pre, suf) => ({ lines: [`query = ${dq(pre + '{}' + suf)}.format(${v})`], result: 'query' }),
    (v, pre, suf) => ({ lines: [`query = ${dq(pre)}`, `query += ${v}`, ...(suf ? [`query += ${dq(suf)}`] : [])], result: 'query' }),
    (v, pre, suf) => ({ lines: [`query = "".join([${nonEmpty([dq(pre), v, dq(suf)]).join(', ')}])`], result: 'query' }),
  ],
  collectionImports: [],
};

const J = '    ';
const cBlock = (indent: string) => (c: string, t: string[], o?: string[]): string[] => [
  `if (${c}) {`,
  ...block(indent, t),
  ...(o ? ['} else {', ...block(indent, o)] : []),
  '}',
];
const cSwitch = (indent: string) => (subject: string, cases: [string | undefined, string[]][]): string[] => [
  `switch (${subject}) {`,
  ...cases.flatMap(([label, lines]) => [`${indent}${label === undefined ? 'default:' : `case ${label}:`}`, ...block(indent + indent, [...lines, 'break;'])]),
  '}',
];

export const java: Dialect = {
  language: 'java',
  ext: 'java',
  marker: ' // SINK',
  indent: J,
  lit: dq,
  cat: (parts) => nonEmpty(parts).join(' + '),
  v: (n) => n,
  decl: (n, e, o) => `${o?.type ?? 'String'} ${n} = ${e};`,
  declEmpty: (n, type) => `${type ?? 'String'} ${n};`,
  set: (n, e) => `${n} = ${e};`,
  ifThen: cBlock(J),
  switchOn: cSwitch(J),
  charAt: (t, i) => `${dq(t)}.charAt(${String(i)})`,
  charLit: (c) => `'${c}'`,
  ternary: (c, a, b) => `(${c}) ? ${a} : ${b}`,
  not: (c) => `!${c}`,
  inAllowed: (v) => `ALLOWED.contains(${v})`,
  allowedDecl: (vals) => `private static final Set<String> ALLOWED = Set.of(${vals.map(dq).join(', ')});`,
  log: (m, v) => `LOG.info(${dq(m + ' ')} + ${v});`,
  trim: (e) => `${e}.trim()`,
  lower: (e) => `${e}.toLowerCase()`,
  listNew: (n, f) => [`List<String> ${n} = new ArrayList<>();`, `${n}.add(${f});`],
  listAdd: (n, e) => `${n}.add(${e});`,
  listGet: (n, i) => `${n}.get(${String(i)})`,
  mapNew: (n) => `Map<String, String> ${n} = new HashMap<>();`,
  mapPut: (n, k, e) => `${n}.put(${dq(k)}, ${e});`,
  mapGet: (n, k) => `${n}.get(${dq(k)})`,
  fn: (name, param, body, ret, _member, returnType) => [
    `private static ${returnType ?? 'String'} ${name}(String ${param}) {`,
    ...block(J, [...body, `return ${ret};`]),
    '}',
  ],
  call: (name, args) => `${name}(${args.join(', ')})`,
  dataClass: (name, getter, constant) => [
    `static final class ${name} {`,
    `${J}private final String value;`,
    '',
    `${J}${name}(String value) {`,
    `${J}${J}this.value = value;`,
    `${J}}`,
    '',
    `${J}String ${getter}() {`,
    `${J}${J}return ${constant ?? 'value'};`,
    `${J}}`,
    '}',
  ],
  newData: (name, arg, getter) => `new ${name}(${arg}).${getter}()`,
  builds: [
    (v, pre, suf) => ({
      lines: ['StringBuilder sb = new StringBuilder();', `sb.append(${dq(pre)});`, `sb.append(${v});`, ...(suf ? [`sb.append(${dq(suf)});`] : []), 'String query = sb.toString();'].filter((l) => l !== 'sb.append("");'),
      result: 'query',
    }),
    (v, pre, suf) => ({ lines: [`String query = String.format(${dq(pre + '%s' + suf)}, ${v});`], result: 'query' }),
    (v, pre, suf) => ({ lines: [`String query = ${dq(pre)};`, `query += ${v};`, ...(suf ? [`query += ${dq(suf)};`] : [])], result: 'query' }),
    (v, pre, suf) => ({ lines: [`String query = new StringBuffer(${dq(pre)}).append(${v})${suf ? `.append(${dq(suf)})` : ''}.toString();`], result: 'query' }),
    (v, pre, suf) => ({ lines: [`String query = String.join("", ${nonEmpty([dq(pre), v, dq(suf)]).join(', ')});`], result: 'query' }),
  ],
  collectionImports: ['import java.util.ArrayList;', 'import java.util.HashMap;', 'import java.util.List;', 'import java.util.Map;', 'import java.util.Set;'],
};

const JS = '  ';
function jsDialect(typed: boolean): Dialect {
  const t = (type: string): string => (typed ? `: ${type}` : '');
  return {
    language: typed ? 'typescript' : 'javascript',
    ext: typed ? 'ts' : 'js',
    marker: ' // SINK',
    indent: JS,
    lit: dq,
    cat: (parts) => nonEmpty(parts).join(' + '),
    v: (n) => n,
    decl: (n, e, o) => `${o?.mutable === true ? 'let' : 'const'} ${n} = ${e};`,
    declEmpty: (n) => `let ${n}${t('string')};`,
    set: (n, e) => `${n} = ${e};`,
    ifThen: cBlock(JS),
    switchOn: cSwitch(JS),
    charAt: (text, i) => `${dq(text)}.charAt(${String(i)})`,
    charLit: dq,
    ternary: (c, a, b) => `${c} ? ${a} : ${b}`,
    not: (c) => `!${c}`,
    inAllowed: (v) => `ALLOWED.has(${v})`,
    allowedDecl: (vals) => `const ALLOWED = new Set([${vals.map(dq).join(', ')}]);`,
    log: (m, v) => `console.info(${dq(m)}, ${v});`,
    trim: (e) => `${e}.trim()`,
    lower: (e) => `${e}.toLowerCase()`,
    listNew: (n, f) => [`const ${n}${t('string[]')} = [${f}];`],
    listAdd: (n, e) => `${n}.push(${e});`,
    listGet: (n, i) => `${n}[${String(i)}]`,
    mapNew: (n) => `const ${n} = new Map${typed ? '<string, string>' : ''}();`,
    mapPut: (n, k, e) => `${n}.set(${dq(k)}, ${e});`,
    mapGet: (n, k) => `${n}.get(${dq(k)})`,
    fn: (name, param, body, ret, _member, returnType) => [
      `function ${name}(${param}${t('string')})${t(returnType ?? 'string')} {`,
      ...block(JS, [...body, `return ${ret};`]),
      '}',
    ],
    call: (name, args) => `${name}(${args.join(', ')})`,
    dataClass: (name, getter, constant) => [
      `class ${name} {`,
      ...(typed ? [`${JS}private readonly value: string;`, ''] : []),
      `${JS}constructor(value${t('string')}) {`,
      `${JS}${JS}this.value = value;`,
      `${JS}}`,
      '',
      `${JS}${getter}()${t('string')} {`,
      `${JS}${JS}return ${constant ?? 'this.value'};`,
      `${JS}}`,
      '}',
    ],
    newData: (name, arg, getter) => `new ${name}(${arg}).${getter}()`,
    builds: [
      (v, pre, suf) => ({ lines: [`const query = \`${pre}\${${v}}${suf}\`;`], result: 'query' }),
      (v, pre, suf) => ({ lines: [`const query = [${nonEmpty([dq(pre), v, dq(suf)]).join(', ')}].join("");`], result: 'query' }),
      (v, pre, suf) => ({ lines: [`let query = ${dq(pre)};`, `query += ${v};`, ...(suf ? [`query += ${dq(suf)};`] : [])], result: 'query' }),
      (v, pre, suf) => ({ lines: [`const query = ${dq(pre)}.concat(${nonEmpty([v, dq(suf)]).join(', ')});`], result: 'query' }),
    ],
    collectionImports: [],
  };
}
export const javascript = jsDialect(false);
export const typescript = jsDialect(true);

const P = '    ';
/** PHP literal: single quotes unless the text holds one. */
const pq = (text: string): string => (text.includes("'") ? `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\$/g, '\\$')}"` : `'${text.replace(/\\/g, '\\\\')}'`);
export const php: Dialect = {
  language: 'php',
  ext: 'php',
  marker: ' // SINK',
  indent: P,
  lit: pq,
  cat: (parts) => nonEmpty(parts).join(' . '),
  v: (n) => `$${n}`,
  decl: (n, e) => `$${n} = ${e};`,
  declEmpty: () => undefined,
  set: (n, e) => `$${n} = ${e};`,
  ifThen: cBlock(P),
  switchOn: cSwitch(P),
  charAt: (t, i) => `${pq(t)}[${String(i)}]`,
  charLit: pq,
  ternary: (c, a, b) => `(${c}) ? ${a} : ${b}`,
  not: (c) => `!${c}`,
  inAllowed: (v) => `in_array(${v}, ALLOWED, true)`,
  allowedDecl: (vals) => `const ALLOWED = [${vals.map(pq).join(', ')}];`,
  log: (m, v) => `error_log(${pq(m + ' ')} . ${v});`,
  trim: (e) => `trim(${e})`,
  lower: (e) => `strtolower(${e})`,
  listNew: (n, f) => [`$${n} = [${f}];`],
  listAdd: (n, e) => `$${n}[] = ${e};`,
  listGet: (n, i) => `$${n}[${String(i)}]`,
  mapNew: (n) => `$${n} = [];`,
  mapPut: (n, k, e) => `$${n}[${pq(k)}] = ${e};`,
  mapGet: (n, k) => `$${n}[${pq(k)}]`,
  fn: (name, param, body, ret, member, returnType) => [
    `${member ? 'private ' : ''}function ${name}(string $${param}): ${returnType === 'boolean' ? 'bool' : (returnType ?? 'string')}`,
    '{',
    ...block(P, [...body, `return ${ret};`]),
    '}',
  ],
  call: (name, args, member) => `${member ? '$this->' : ''}${name}(${args.join(', ')})`,
  dataClass: (name, getter, constant) => [
    `final class ${name}`,
    '{',
    `${P}public function __construct(private string $value)`,
    `${P}{`,
    `${P}}`,
    '',
    `${P}public function ${getter}(): string`,
    `${P}{`,
    `${P}${P}return ${constant ?? '$this->value'};`,
    `${P}}`,
    '}',
  ],
  newData: (name, arg, getter) => `(new ${name}(${arg}))->${getter}()`,
  builds: [
    (v, pre, suf) => ({ lines: [`$query = "${pre.replace(/"/g, '\\"')}{${v}}${suf.replace(/"/g, '\\"')}";`], result: '$query' }),
    (v, pre, suf) => ({ lines: [`$query = sprintf(${pq(pre + '%s' + suf)}, ${v});`], result: '$query' }),
    (v, pre, suf) => ({ lines: [`$query = ${pq(pre)};`, `$query .= ${v};`, ...(suf ? [`$query .= ${pq(suf)};`] : [])], result: '$query' }),
    (v, pre, suf) => ({ lines: [`$query = implode('', [${nonEmpty([pq(pre), v, pq(suf)]).join(', ')}]);`], result: '$query' }),
  ],
  collectionImports: [],
};

export const DIALECTS: Record<Language, Dialect> = { python, java, javascript, typescript, php };
