/** Test helpers for the guard: a temporary repository from named fixtures, and consultations built from it. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { afterAll } from 'vitest';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { sha256 } from '../../src/guard/fsutil.js';
import { splitLines } from '../../src/guard/lines.js';
import type { Consultation, Proposal } from '../../src/guard/shapes.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'guard');

const made: string[] = [];
// Registered in every test file that imports these helpers: its folders go when the file is done.
afterAll(() => {
  for (const root of made.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A temporary directory holding the given files (name → text or bytes), removed after the test file. */
export function tempRepo(files: Record<string, string | Buffer>): string {
  const root = mkdtempSync(join(tmpdir(), 'jscr-guard-'));
  made.push(root);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), content);
  }
  return root;
}

export function fixture(name: string): Buffer {
  return readFileSync(join(FIXTURES, name));
}

/** A consultation about lines start..end of the file as it is now (context text unredacted unless given). */
export function consult(
  root: string,
  path: string,
  range: { start: number; end: number; line: number; symbol: string | null; toModules?: string[]; text?: string },
): Consultation {
  const bytes = readFileSync(join(root, path));
  const lines = splitLines(bytes.toString('latin1'));
  return {
    context: {
      path,
      start_line: range.start,
      end_line: range.end,
      text: range.text ?? lines.slice(range.start - 1, range.end).join(''),
      file_sha256: sha256(bytes),
      encoding: 'utf-8',
    },
    line: range.line,
    symbol: range.symbol,
    to_modules: range.toModules ?? [],
  };
}

/** A proposal replacing start..end, quoting those lines from the consultation's context. */
export function propose(consultation: Consultation, start: number, end: number, replacement: string, extra: Partial<Proposal> = {}): Proposal {
  const context = consultation.context;
  const quoted = splitLines(context.text).slice(start - context.start_line, end - context.start_line + 1).join('');
  return { path: context.path, start_line: start, end_line: end, symbol: consultation.symbol, replaces: quoted, replacement, ...extra };
}
