/** Scanner test harness: a temporary scan root built from fixtures/scanners/ files or inline text. */
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { it } from 'vitest';
import type { AllowedProgram } from '../../src/policy/process.js';
import { testsNeeding } from '../helpers/programs.js';
import type { ScannerAdapter, ScannerOutcome } from '../../src/review/scanners/types.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'scanners');

export async function fixture(scanner: string, name: string): Promise<string> {
  return readFile(join(FIXTURES, scanner, name), 'utf8');
}

interface ScanRoot {
  root: string;
  contents: Map<string, string>;
  remove(): Promise<void>;
}

async function scanRoot(files: Record<string, string>): Promise<ScanRoot> {
  const root = await mkdtemp(join(tmpdir(), 'jscr-scan-test-'));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return { root, contents: new Map(Object.entries(files)), remove: () => rm(root, { recursive: true, force: true }) };
}

/** Run an adapter on every file of the root it takes. */
export async function scan(adapter: ScannerAdapter, files: Record<string, string>, env: NodeJS.ProcessEnv = process.env, timeoutMs = 60_000): Promise<ScannerOutcome> {
  const dir = await scanRoot(files);
  try {
    return await adapter.run({ root: dir.root, files: adapter.filesFor(Object.keys(files)), timeoutMs, env, contents: dir.contents });
  } finally {
    await dir.remove();
  }
}

/**
 * A directory holding a stand-in executable named `program` (a shell script), to put first on PATH.
 * Test fixture only: it lets a test make a scanner crash, print garbage or hang.
 */
export async function fakeProgram(program: string, script: string): Promise<{ dir: string; env: NodeJS.ProcessEnv; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'jscr-fake-bin-'));
  const file = join(dir, program);
  await writeFile(file, `#!/bin/sh\n${script}\n`);
  await chmod(file, 0o755);
  return { dir, env: { ...process.env, PATH: `${dir}:${process.env.PATH ?? ''}` }, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** An environment whose PATH finds no scanner (but keeps /bin for the fake scripts' /bin/sh). */
export const EMPTY_PATH_ENV: NodeJS.ProcessEnv = { ...process.env, PATH: '/nonexistent-jscr-bin' };

/** Test functions for tests that run a real external scanner, one per program (see testsNeeding). */
export function realScannerTests<P extends AllowedProgram>(programs: readonly P[]): Record<P, typeof it> {
  return testsNeeding(programs);
}
