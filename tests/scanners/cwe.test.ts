/** rules/scanners/cwe.toml: the CWE of a scanner rule when the scanner gives none, so it can merge with jscr's finding. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScannerCwes, scannerCwe } from '../../src/review/scanners/common.js';

const TABLE = join(import.meta.dirname, '..', '..', 'rules', 'scanners', 'cwe.toml');

describe('scanner CWEs', () => {
  it('fill in a CWE the scanner did not give, and never replace one it gave', () => {
    expect(scannerCwe('bandit', 'B602', null)).toBe('CWE-78');
    expect(scannerCwe('bandit', 'B602', 'CWE-77')).toBe('CWE-77');
    expect(scannerCwe('eslint', 'security/detect-eval-with-expression', null)).toBe('CWE-95');
    expect(scannerCwe('bandit', 'B9999', null)).toBeNull();
    // a key inherited by every object is not a rule
    expect(scannerCwe('shellcheck', 'constructor', null)).toBeNull();
  });

  it('refuse a table entry that is not a CWE id, naming the file and key', () => {
    const text = readFileSync(TABLE, 'utf8').replace('B602 = "CWE-78"', 'B602 = "78"');
    expect(() => parseScannerCwes(text)).toThrow(/rules\/scanners\/cwe\.toml.*bandit\.B602: expected CWE-<number>/);
  });
});
