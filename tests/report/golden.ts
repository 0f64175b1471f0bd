/** Golden files under fixtures/report/: compared byte for byte; rewritten only with UPDATE_GOLDENS=1. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

const GOLDEN_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'report');

export function expectGolden(name: string, actual: string): void {
  const file = join(GOLDEN_DIR, name);
  if (process.env.UPDATE_GOLDENS === '1') {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  if (!existsSync(file)) throw new Error(`golden file ${name} is missing; run with UPDATE_GOLDENS=1 to create it`);
  // compare as text for a readable diff, then as bytes so line ends and encoding count too
  const expected = readFileSync(file);
  expect(actual).toBe(expected.toString('utf8'));
  expect(Buffer.from(actual, 'utf8').equals(expected)).toBe(true);
}
