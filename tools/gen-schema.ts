/**
 * Regenerates schema/jscr-config.schema.json from the zod schema of `.jscr.toml`.
 * Run: npx tsx tools/gen-schema.ts   (tests/foundation/config-schema.test.ts fails when it drifts)
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configJsonSchema } from '../src/config/schema.js';

/** The committed file's exact text: pretty JSON with a trailing newline. */
export function renderConfigSchema(): string {
  return `${JSON.stringify({ title: 'jscr configuration (.jscr.toml)', ...configJsonSchema() }, null, 2)}\n`;
}

export const CONFIG_SCHEMA_PATH = join(dirname(fileURLToPath(import.meta.url)), '..', 'schema', 'jscr-config.schema.json');

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(CONFIG_SCHEMA_PATH, renderConfigSchema());
  process.stdout.write(`wrote ${CONFIG_SCHEMA_PATH}\n`);
}
