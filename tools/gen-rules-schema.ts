// Writes schema/rules.schema.json from the zod schema of rule files. Run: npx tsx tools/gen-rules-schema.ts
// (tests/rules/command.test.ts fails when the committed file is out of date).
import { writeFileSync } from 'node:fs';
import { rulesJsonSchemaText } from '../src/rules/schema.js';

writeFileSync(new URL('../schema/rules.schema.json', import.meta.url), rulesJsonSchemaText());
