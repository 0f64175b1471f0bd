import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CommandIO } from '../../src/io.js';
import { rulesListCommand } from '../../src/commands/rules.js';
import { builtinChecks } from '../../src/rules/checks.js';
import { loadBuiltinRules } from '../../src/rules/engine.js';
import { rulesJsonSchemaText } from '../../src/rules/schema.js';

function capturingIO(): { io: CommandIO; stdout: () => string; stderr: () => string } {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdout.on('data', (chunk: Buffer) => out.push(chunk));
  stderr.on('data', (chunk: Buffer) => err.push(chunk));
  return {
    io: { stdout, stderr, stdin: new PassThrough(), env: {}, cwd: process.cwd(), stdoutIsTTY: false, stderrIsTTY: false },
    stdout: () => Buffer.concat(out).toString('utf8'),
    stderr: () => Buffer.concat(err).toString('utf8'),
  };
}

describe('jscr rules list', () => {
  it('prints every rule, one a line, sorted by id, with severity and CWE, and exits 0', async () => {
    const capture = capturingIO();
    expect(await rulesListCommand(capture.io)).toBe(0);
    const lines = capture.stdout().trimEnd().split('\n');
    const rules = await loadBuiltinRules();
    // the rules of rules/*.toml and the checks jscr makes in code
    expect(lines).toHaveLength(rules.length + builtinChecks().length);
    const ids = lines.map((line) => line.split(/\s+/)[0]);
    expect(ids).toEqual([...rules.map((rule) => rule.id), ...builtinChecks().map((c) => c.id)].sort());
    for (const rule of rules) {
      const line = lines.find((l) => l.startsWith(`${rule.id} `));
      expect(line, rule.id).toMatch(new RegExp(`^${rule.id}\\s+${rule.severity}\\s+${rule.cwe}\\s+\\S`));
    }
    expect(capture.stderr()).toBe('');
  });
});

describe('jscr rules list --format json', () => {
  it('lists every rule and check with its metadata, sorted by id', async () => {
    const capture = capturingIO();
    expect(await rulesListCommand(capture.io, 'json')).toBe(0);
    const listed = (JSON.parse(capture.stdout()) as { schema_version: number; rules: Record<string, unknown>[] });
    expect(listed.schema_version).toBe(1);
    const rules = await loadBuiltinRules();
    const sql = rules.find((r) => r.id === 'jscr/python-subprocess-shell-true')!;
    expect(listed.rules.find((r) => r.id === sql.id)).toEqual({
      id: sql.id,
      kind: 'rule',
      title: sql.title,
      severity: sql.severity,
      confidence: sql.confidence,
      cwe: sql.cwe,
      languages: ['python'],
      message: sql.message,
    });
    expect(listed.rules.find((r) => r.id === 'jscr/prover-unguarded-operation')).toMatchObject({ kind: 'check', severity: 'high', cwe: 'CWE-862', confidence: null });
    const ids = listed.rules.map((r) => r.id as string);
    expect(ids).toEqual([...ids].sort());
    expect(new Set(ids).size).toBe(rules.length + builtinChecks().length);
    expect(capture.stderr()).toBe('');
  });
});

describe('schema/rules.schema.json', () => {
  it('matches the zod schema (regenerate with: npx tsx tools/gen-rules-schema.ts)', () => {
    const committed = readFileSync(new URL('../../schema/rules.schema.json', import.meta.url), 'utf8');
    expect(committed).toBe(rulesJsonSchemaText());
  });
});
