/**
 * The model library's pure parts: anchoring, chunking, Retry-After, CWE normalisation, and the
 * agreement of the JSON Schemas sent to providers with the zod schemas that check replies.
 */
import { describe, expect, it } from 'vitest';
import {
  FINDINGS_JSON_SCHEMA,
  MAX_RETRY_WAIT_MS,
  VERDICT_JSON_SCHEMA,
  anchorFinding,
  chunkMaterial,
  findingsReplySchema,
  modelFindingSchema,
  normaliseCwe,
  numberSegment,
  retryAfterMs,
  verdictReplySchema,
  type ModelFinding,
} from '../../src/model/index.js';
import { ROUTE_LINES, ROUTE_PATH, SQL_LINE, routeSegments } from './material.js';

const material = routeSegments().map(numberSegment);

function claim(overrides: Partial<ModelFinding>): ModelFinding {
  return {
    title: 'SQL injection',
    severity: 'high',
    confidence: 0.7,
    path: ROUTE_PATH,
    line: SQL_LINE,
    evidence: ROUTE_LINES[SQL_LINE - 1] ?? '',
    explanation: 'concatenated',
    cwe: 'CWE-89',
    ...overrides,
  };
}

describe('anchoring', () => {
  it('numbers hunk lines by the new file: removed lines and headers get no number', () => {
    const hunk = numberSegment({ path: 'a.js', startLine: 10, kind: 'hunk', text: '@@ -10,2 +10,2 @@\n keep\n-old\n+new' });
    expect(hunk.lines.map((l) => [l.line, l.mark, l.text])).toEqual([
      [null, '@', '@@ -10,2 +10,2 @@'],
      [10, ' ', 'keep'],
      [null, '-', 'old'],
      [11, '+', 'new'],
    ]);
  });

  it('a quote with different whitespace is found (runs folded, ends trimmed)', () => {
    const result = anchorFinding(claim({ evidence: '   const   sql = "SELECT * FROM users WHERE id = "  +   req.query.id;  ' }), material);
    expect(result.anchored && result.finding.line).toBe(SQL_LINE);
    expect(result.anchored && result.finding.evidence).toBe(ROUTE_LINES[SQL_LINE - 1]);
  });

  it('a multi-line quote must match consecutive lines', () => {
    const consecutive = anchorFinding(claim({ line: 1, evidence: `${ROUTE_LINES[6] ?? ''}\n${ROUTE_LINES[7] ?? ''}` }), material);
    expect(consecutive.anchored && [consecutive.finding.line, consecutive.finding.end_line]).toEqual([7, 8]);
    expect(consecutive.anchored && consecutive.finding.extra).toEqual({ model_line: 1 });
    const gapped = anchorFinding(claim({ evidence: `${ROUTE_LINES[5] ?? ''}\n${ROUTE_LINES[7] ?? ''}` }), material);
    expect(gapped.anchored).toBe(false);
  });

  it('a quote that copied the prompt\'s gutter and diff marker is still found', () => {
    const result = anchorFinding(claim({ evidence: `     7 |+${ROUTE_LINES[6] ?? ''}` }), material);
    expect(result.anchored).toBe(true);
  });

  it('a partial line, a removed line and an empty quote are not evidence', () => {
    expect(anchorFinding(claim({ evidence: 'req.query.id' }), material).anchored).toBe(false);
    const withRemoved = [numberSegment({ path: ROUTE_PATH, startLine: 1, kind: 'hunk', text: '@@ -1 +1 @@\n-eval(input)\n+safe(input)' })];
    expect(anchorFinding(claim({ evidence: 'eval(input)', line: 1 }), withRemoved).anchored).toBe(false);
    const empty = anchorFinding(claim({ evidence: '  \n ' }), material);
    expect(!empty.anchored && empty.rejected.reason).toBe('not anchored: the finding quotes no evidence');
  });

  it('when the quote occurs several times, the occurrence nearest the model\'s line wins', () => {
    const repeated = [numberSegment({ path: 'r.js', startLine: 1, kind: 'context', text: 'run(x);\na\nb\nc\nrun(x);' })];
    const near5 = anchorFinding(claim({ path: 'r.js', evidence: 'run(x);', line: 4 }), repeated);
    expect(near5.anchored && near5.finding.line).toBe(5);
    const near1 = anchorFinding(claim({ path: 'r.js', evidence: 'run(x);', line: 2 }), repeated);
    expect(near1.anchored && near1.finding.line).toBe(1);
    expect(near1.anchored && near1.corrected).toBe(true);
  });

  it('confidence is clamped to 0..1 and CWE ids are normalised', () => {
    const high = anchorFinding(claim({ confidence: 1.7 }), material);
    expect(high.anchored && high.finding.confidence).toBe(1);
    const low = anchorFinding(claim({ confidence: -2 }), material);
    expect(low.anchored && low.finding.confidence).toBe(0);
    expect(normaliseCwe('cwe-89')).toBe('CWE-89');
    expect(normaliseCwe('89')).toBe('CWE-89');
    expect(normaliseCwe('CWE-79: Cross-site scripting')).toBe('CWE-79');
    expect(normaliseCwe('SQL injection')).toBeNull();
    expect(normaliseCwe(null)).toBeNull();
  });
});

describe('chunking by model.max_input_bytes', () => {
  const file = (path: string, lines: number): ReturnType<typeof numberSegment> =>
    numberSegment({ path, startLine: 1, kind: 'context', text: Array.from({ length: lines }, (_, i) => `line ${i + 1} of ${path}`).join('\n') });

  it('keeps everything in one chunk when it fits', () => {
    const chunks = chunkMaterial([file('a.js', 5), file('b.js', 5)], 100_000);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.paths).toEqual(['a.js', 'b.js']);
  });

  it('splits by file, and a file larger than the limit by lines, every line kept with its number', () => {
    const big = file('big.js', 200);
    const chunks = chunkMaterial([file('a.js', 5), big, file('c.js', 5)], 1000);
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) expect(chunk.bytes).toBeLessThanOrEqual(1000);
    const bigLines = chunks.flatMap((c) => c.segments.filter((s) => s.path === 'big.js').flatMap((s) => s.lines.map((l) => l.line)));
    expect(bigLines).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    // The small files are each whole in one chunk.
    for (const small of ['a.js', 'c.js']) expect(chunks.filter((c) => c.paths.includes(small))).toHaveLength(1);
    expect(chunks[0]?.paths[0]).toBe('a.js');
  });
});

describe('Retry-After', () => {
  it('reads seconds and HTTP dates, caps the wait and ignores nonsense', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(retryAfterMs('2', now)).toBe(2000);
    expect(retryAfterMs('3600', now)).toBe(MAX_RETRY_WAIT_MS);
    expect(retryAfterMs('Wed, 01 Jan 2025 00:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs(undefined, now)).toBeNull();
    expect(retryAfterMs('soon', now)).toBeNull();
  });
});

describe('reply schemas', () => {
  it('the JSON Schemas sent to providers require exactly the fields zod checks, and forbid others', () => {
    const item = FINDINGS_JSON_SCHEMA.properties.findings.items;
    expect([...item.required].sort()).toEqual(Object.keys(modelFindingSchema.shape).sort());
    expect(Object.keys(item.properties).sort()).toEqual(Object.keys(modelFindingSchema.shape).sort());
    expect(item.additionalProperties).toBe(false);
    expect([...VERDICT_JSON_SCHEMA.required].sort()).toEqual(Object.keys(verdictReplySchema.shape).sort());
  });

  it('accepts a well-formed reply and refuses a wrong one', () => {
    const good = { findings: [{ title: 't', severity: 'HIGH', confidence: 0.5, path: 'a.js', line: 3, evidence: 'x', explanation: 'e', cwe: null }] };
    expect(findingsReplySchema.parse(good).findings[0]?.severity).toBe('high');
    expect(findingsReplySchema.safeParse({ findings: [{ ...good.findings[0], severity: 'catastrophic' }] }).success).toBe(false);
    expect(verdictReplySchema.safeParse({ verdict: 'maybe', reason: '' }).success).toBe(false);
  });
});
