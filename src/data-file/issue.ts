/**
 * A zod issue in words: the key path it belongs to and what was expected there (and what was found,
 * said without echoing long values), so every data file's schema errors read the same.
 */
import type { z } from 'zod';
import type { KeyPath } from './key-path.js';

export interface DescribedIssue {
  path: KeyPath;
  expected: string;
}

export function describeIssue(issue: z.core.$ZodIssue, raw: unknown, schema: z.core.$ZodType): DescribedIssue {
  const path = issue.path;
  switch (issue.code) {
    case 'unrecognized_keys': {
      const key = issue.keys[0] ?? '';
      const allowed = allowedKeysAt(schema, path);
      const hint = allowed.length > 0 ? `; expected one of: ${allowed.join(', ')}` : '';
      return { path: [...path, key], expected: `unknown key${hint}` };
    }
    case 'invalid_type': {
      const found = valueAt(raw, path);
      if (!found.present) return { path, expected: `required: expected ${issue.expected}` };
      return { path, expected: `expected ${issue.expected}, found ${describeValue(found.value)}` };
    }
    case 'invalid_value': {
      const options = issue.values.map((v) => JSON.stringify(v));
      const expected = options.length === 1 ? `expected ${options[0] ?? ''}` : `expected one of ${options.join(', ')}`;
      const found = valueAt(raw, path);
      return { path, expected: found.present ? `${expected}, found ${describeValue(found.value)}` : expected };
    }
    case 'invalid_union': {
      // A union's branches carry the readable message (`expires`: a date string or a TOML date).
      const branches = issue.errors.flat();
      const inner = branches.find((e) => e.code !== 'invalid_type');
      if (inner !== undefined) return { path, expected: inner.message };
      // Every branch wanted another type: name them all, and what the file holds instead.
      const types = [...new Set(branches.map((e) => (e.code === 'invalid_type' ? e.expected : '')).filter((t) => t !== ''))];
      const found = valueAt(raw, path);
      const wanted = `expected ${types.join(' or ')}`;
      return { path, expected: found.present ? `${wanted}, found ${describeValue(found.value)}` : `required: ${wanted}` };
    }
    default:
      return { path, expected: issue.message.replace(/^(Too small|Too big|Invalid input): /, '') };
  }
}

function valueAt(raw: unknown, path: KeyPath): { present: true; value: unknown } | { present: false } {
  let current: unknown = raw;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return { present: false };
    if (!Object.prototype.hasOwnProperty.call(current, segment)) return { present: false };
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return { present: true, value: current };
}

function describeValue(value: unknown): string {
  if (typeof value === 'bigint') return 'an integer too large to represent';
  if (value instanceof Date) return 'a date';
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'a table';
  if (typeof value === 'string') return `string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${String(value)}`;
  return typeof value;
}

/** The keys the schema allows at a path, for "unknown key" messages. */
function allowedKeysAt(root: z.core.$ZodType, path: KeyPath): string[] {
  let schema: z.core.$ZodType | undefined = unwrap(root);
  for (const segment of path) {
    if (schema === undefined) return [];
    const def: z.core.$ZodTypeDef = schema._zod.def;
    if (typeof segment === 'number' && def.type === 'array') schema = unwrap((def as z.core.$ZodArrayDef).element);
    else if (typeof segment === 'string' && def.type === 'object') {
      const inner: z.core.$ZodType | undefined = (def as z.core.$ZodObjectDef).shape[segment];
      schema = inner === undefined ? undefined : unwrap(inner);
    } else return [];
  }
  if (schema === undefined || schema._zod.def.type !== 'object') return [];
  return Object.keys((schema._zod.def as z.core.$ZodObjectDef).shape);
}

function unwrap(schema: z.core.$ZodType): z.core.$ZodType {
  let current = schema;
  for (;;) {
    const def: z.core.$ZodTypeDef = current._zod.def;
    if (def.type === 'default' || def.type === 'prefault' || def.type === 'optional' || def.type === 'nullable') {
      current = (def as z.core.$ZodDefaultDef).innerType;
    } else if (def.type === 'pipe') {
      current = (def as z.core.$ZodPipeDef).in;
    } else return current;
  }
}
