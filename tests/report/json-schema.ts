/**
 * A small JSON-schema checker for the keywords the SARIF 2.1.0 schema uses (type, $ref, properties,
 * required, additionalProperties, items, minItems, uniqueItems, minimum, maximum, enum, pattern, anyOf,
 * oneOf, format uri/uri-reference). A second, independent opinion next to the SARIF multitool.
 */
type Schema = { [key: string]: unknown };

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function typeMatches(expected: string, actual: string): boolean {
  return expected === actual || (expected === 'number' && actual === 'integer');
}

/** Every violation of `schema` by `value`, as `path: problem` lines; empty when valid. */
export function validateJsonSchema(root: Schema, value: unknown): string[] {
  const errors: string[] = [];
  const resolve = (ref: string): Schema => {
    if (!ref.startsWith('#/')) throw new Error(`unsupported $ref ${ref}`);
    let node: unknown = root;
    for (const part of ref.slice(2).split('/')) node = (node as Schema)[part];
    if (node === undefined) throw new Error(`unresolved $ref ${ref}`);
    return node as Schema;
  };
  const check = (schema: Schema, v: unknown, path: string, out: string[]): void => {
    if (typeof schema.$ref === 'string') check(resolve(schema.$ref), v, path, out);
    const actual = typeOf(v);
    if (schema.type !== undefined) {
      const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
      if (!types.some((t) => typeMatches(t, actual))) out.push(`${path}: expected ${types.join('|')}, got ${actual}`);
    }
    if (Array.isArray(schema.enum) && !schema.enum.includes(v)) out.push(`${path}: ${JSON.stringify(v)} not in enum`);
    if (typeof v === 'number') {
      if (typeof schema.minimum === 'number' && v < schema.minimum) out.push(`${path}: ${v} < minimum ${schema.minimum}`);
      if (typeof schema.maximum === 'number' && v > schema.maximum) out.push(`${path}: ${v} > maximum ${schema.maximum}`);
    }
    if (typeof v === 'string') {
      if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(v)) out.push(`${path}: does not match ${schema.pattern}`);
      if (schema.format === 'uri' && !URL.canParse(v)) out.push(`${path}: not a URI`);
      if (schema.format === 'uri-reference' && (/\s/.test(v) || !URL.canParse(v, 'file:///base/'))) out.push(`${path}: not a URI reference`);
    }
    if (Array.isArray(v)) {
      if (typeof schema.minItems === 'number' && v.length < schema.minItems) out.push(`${path}: fewer than ${schema.minItems} items`);
      if (schema.uniqueItems === true && new Set(v.map((x) => JSON.stringify(x))).size !== v.length) out.push(`${path}: items not unique`);
      if (schema.items !== undefined && typeof schema.items === 'object') v.forEach((item, i) => check(schema.items as Schema, item, `${path}[${i}]`, out));
    }
    if (actual === 'object') {
      const obj = v as Record<string, unknown>;
      const props = (schema.properties ?? {}) as Record<string, Schema>;
      if (Array.isArray(schema.required)) for (const key of schema.required as string[]) if (!(key in obj)) out.push(`${path}: missing required ${key}`);
      for (const [key, child] of Object.entries(obj)) {
        if (key in props) check(props[key] as Schema, child, `${path}.${key}`, out);
        else if (schema.additionalProperties === false) out.push(`${path}: unexpected property ${key}`);
        else if (typeof schema.additionalProperties === 'object') check(schema.additionalProperties as Schema, child, `${path}.${key}`, out);
      }
    }
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      const options = schema[keyword];
      if (!Array.isArray(options)) continue;
      const passing = options.filter((option) => {
        const sub: string[] = [];
        check(option as Schema, v, path, sub);
        return sub.length === 0;
      }).length;
      if (keyword === 'anyOf' ? passing === 0 : passing !== 1) out.push(`${path}: ${keyword} matched ${passing} alternatives`);
    }
  };
  check(root, value, '$', errors);
  return errors;
}
