/**
 * Tests that need a program the README does not promise (a scanner installed with apt, python3 for
 * the guard's compile check): they run when the program is installed and are skipped otherwise, after
 * one printed line naming what is missing. With JSCR_REQUIRE_SCANNERS=1 (set by .ci/run after
 * installing them) nothing is skipped: a missing program fails its tests.
 */
import { it } from 'vitest';
import { locateProgram, type AllowedProgram } from '../../src/policy/process.js';
import { jscrBinDirs } from '../../src/review/scanners/common.js';

/** The programs of `programs` that are not installed (on PATH, or in jscr's own node_modules). */
function missingPrograms(programs: readonly AllowedProgram[], what: string): AllowedProgram[] {
  const missing = programs.filter((program) => locateProgram(program, process.env, jscrBinDirs()) === null);
  if (missing.length > 0) {
    const consequence = requireAll() ? `failing, as JSCR_REQUIRE_SCANNERS=1 requires: ${what}` : `skipped: ${what} (JSCR_REQUIRE_SCANNERS=1 requires them)`;
    process.stderr.write(`jscr tests: not installed: ${missing.join(', ')}; ${consequence}\n`);
  }
  return missing;
}

function requireAll(): boolean {
  return process.env.JSCR_REQUIRE_SCANNERS === '1';
}

/** One test function per program: `it` when it is installed (or required), `it.skip` when not. */
export function testsNeeding<P extends AllowedProgram>(programs: readonly P[], what = 'the tests of these scanners'): Record<P, typeof it> {
  const missing = missingPrograms(programs, what);
  return Object.fromEntries(programs.map((program) => [program, missing.includes(program) && !requireAll() ? it.skip : it])) as Record<P, typeof it>;
}

/** `it`, skipped when one of `programs` is missing and not required. */
export function testNeedingAll(programs: readonly AllowedProgram[], what: string): ReturnType<typeof it.skipIf> {
  return it.skipIf(missingPrograms(programs, what).length > 0 && !requireAll());
}
