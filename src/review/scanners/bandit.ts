/** bandit (Python): `bandit -f json -q --ignore-nosec` on the changed .py files. */
import type { Severity } from '../../report/finding.js';
import { makeFinding } from '../../report/fingerprint.js';
import { pathsForScanner } from '../../languages/registry.js';
import { asArgument, failed, parseJson, quoteLines, rootRelative, runScanner } from './common.js';
import type { ScannerAdapter, ScannerInput, ScannerOutcome } from './types.js';

interface BanditResult {
  filename: string;
  line_number: number;
  line_range?: number[];
  test_id: string;
  test_name: string;
  issue_severity: string;
  issue_confidence: string;
  issue_text: string;
  issue_cwe?: { id?: number };
  more_info?: string;
}

interface BanditReport {
  results: BanditResult[];
  errors?: { filename: string; reason: string }[];
}

const SEVERITY: Record<string, Severity> = { HIGH: 'high', MEDIUM: 'medium', LOW: 'low', UNDEFINED: 'info' };
const CONFIDENCE: Record<string, number> = { HIGH: 0.9, MEDIUM: 0.6, LOW: 0.3, UNDEFINED: 0.3 };

function isReport(value: unknown): value is BanditReport {
  return typeof value === 'object' && value !== null && Array.isArray((value as { results?: unknown }).results);
}

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
  const report = parseJson(scan.stdout);
  if (!isReport(report)) return failed(`bandit printed output that is not its JSON report (exit code ${scan.code})`);

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
        cwe: typeof cweId === 'number' && cweId > 0 ? `CWE-${cweId}` : null,
        extra: result.more_info ? { more_info: result.more_info } : undefined,
      }),
    ];
  });
  const errors = report.errors ?? [];
  const skipped = errors.length > 0 ? `; could not analyse ${errors.map((e) => `${rootRelative(input.root, e.filename) ?? e.filename} (${e.reason})`).join(', ')}` : '';
  return { status: 'ran', findings, detail: `${findings.length} finding(s) in ${input.files.length} file(s)${skipped}` };
}

export const bandit: ScannerAdapter = {
  name: 'bandit',
  filesFor: (paths) => pathsForScanner(paths, 'bandit'),
  run,
};
