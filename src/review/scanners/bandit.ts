/** bandit (Python): `bandit -f json -q --ignore-nosec` on the changed .py files. */
import type { Severity } from '../../report/finding.js';
import { makeFinding } from '../../report/fingerprint.js';
import { z } from 'zod';
import { pathsForScanner } from '../../languages/registry.js';
import { asArgument, quoteLines, readReport, reportedLine, rootRelative, runScanner, scanned, scannerCwe } from './common.js';
import type { ScannerAdapter, ScannerInput, ScannerOutcome } from './types.js';

/** The fields of `bandit -f json` that jscr reads; others (code, metrics, col_offset) are ignored. */
const banditReportSchema = z.object({
  results: z.array(
    z.object({
      filename: z.string(),
      line_number: reportedLine,
      line_range: z.array(reportedLine).optional(),
      test_id: z.string(),
      test_name: z.string(),
      issue_severity: z.string(),
      issue_confidence: z.string(),
      issue_text: z.string(),
      issue_cwe: z.object({ id: z.number().int().optional() }).optional(),
      more_info: z.string().optional(),
    }),
  ),
  errors: z.array(z.object({ filename: z.string(), reason: z.string() })).optional(),
});

const SEVERITY: Record<string, Severity> = { HIGH: 'high', MEDIUM: 'medium', LOW: 'low', UNDEFINED: 'info' };
const CONFIDENCE: Record<string, number> = { HIGH: 0.9, MEDIUM: 0.6, LOW: 0.3, UNDEFINED: 0.3 };

async function run(input: ScannerInput): Promise<ScannerOutcome> {
  const scan = await runScanner({
    name: 'bandit',
    program: 'bandit',
    // --ignore-nosec: a `# nosec` added by the change under review must not hide its own findings;
    // jscr's suppressions are the reviewed way to silence one.
    args: ['-f', 'json', '-q', '--ignore-nosec', ...input.files.map(asArgument)],
    root: input.root,
    timeoutMs: input.timeoutMs,
    env: input.env,
    completedCodes: [0, 1], // 1: issues found
  });
  if (!scan.completed) return scan.outcome;
  const read = readReport(scan, 'bandit', 'JSON report', banditReportSchema);
  if (!read.ok) return read.outcome;
  const { report } = read;

  const findings = report.results.flatMap((result) => {
    const path = rootRelative(input.root, result.filename);
    if (path === null) return [];
    const endLine = Math.max(result.line_number, ...(result.line_range ?? []));
    const cweId = result.issue_cwe?.id;
    return [
      makeFinding({
        rule: `bandit/${result.test_id}`,
        source: 'scanner:bandit',
        severity: SEVERITY[result.issue_severity] ?? 'medium',
        confidence: CONFIDENCE[result.issue_confidence] ?? 0.5,
        path,
        line: result.line_number,
        end_line: endLine,
        title: `bandit ${result.test_id} ${result.test_name}`,
        message: result.issue_text,
        evidence: quoteLines(input.contents, path, result.line_number, endLine),
        cwe: scannerCwe('bandit', result.test_id, typeof cweId === 'number' && cweId > 0 ? `CWE-${cweId}` : null),
        extra: result.more_info ? { more_info: result.more_info } : undefined,
      }),
    ];
  });
  // bandit lists the files it could not parse (newer syntax than its Python, say) in `errors`
  // (a name outside the scan root is never printed: it would be a temporary path, or the scanner's invention)
  const unanalysed = (report.errors ?? []).map((e) => ({ path: rootRelative(input.root, e.filename) ?? '(a file outside the scanned copy)', reason: e.reason }));
  return scanned(findings, input.files.length, unanalysed);
}

export const bandit: ScannerAdapter = {
  name: 'bandit',
  filesFor: (paths) => pathsForScanner(paths, 'bandit'),
  run,
};
