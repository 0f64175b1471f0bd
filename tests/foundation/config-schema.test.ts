import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_SCHEMA_PATH, renderConfigSchema } from '../../tools/gen-schema.js';

describe('schema/jscr-config.schema.json', () => {
  it('matches the zod schema (regenerate with: npx tsx tools/gen-schema.ts)', () => {
    expect(readFileSync(CONFIG_SCHEMA_PATH, 'utf8')).toBe(renderConfigSchema());
  });

  it('is strict at every table and documents the defaults', () => {
    const schema = JSON.parse(readFileSync(CONFIG_SCHEMA_PATH, 'utf8')) as {
      additionalProperties: boolean;
      properties: Record<string, { additionalProperties?: boolean; properties?: Record<string, { default?: unknown }> }>;
    };
    expect(schema.additionalProperties).toBe(false);
    for (const [name, table] of Object.entries(schema.properties)) {
      if (name === 'suppress') continue;
      expect(table.additionalProperties, name).toBe(false);
    }
    expect(schema.properties.model?.properties?.max_input_bytes?.default).toBe(204800);
  });
});
