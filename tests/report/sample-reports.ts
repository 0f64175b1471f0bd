/** Small reports written for these tests: a review with findings, a clean one, an incomplete one. */
import type { Finding, ReviewReport } from '../../src/report/finding.js';
import { makeFinding } from '../../src/report/fingerprint.js';
import type { RuleMeta } from '../../src/report/options.js';

type FindingFields = Parameters<typeof makeFinding>[0];

/** A finding with sensible defaults; tests override what they care about. */
export function finding(fields: Partial<FindingFields> & Pick<FindingFields, 'rule' | 'path' | 'line'>): Finding {
  return makeFinding({
    source: 'rule',
    severity: 'high',
    confidence: 0.9,
    end_line: fields.line,
    title: `Title of ${fields.rule}`,
    message: `Message of ${fields.rule}`,
    evidence: `evidence of ${fields.rule} at ${fields.path}:${fields.line}`,
    cwe: null,
    ...fields,
  });
}

const shellInjection = finding({
  rule: 'jscr/python-subprocess-shell-true',
  severity: 'critical',
  path: 'app/tasks.py',
  line: 41,
  end_line: 42,
  title: 'Shell command built from request data',
  message: 'subprocess runs with shell=True on a string that includes request.args; a caller can run any command.',
  evidence: 'cmd = "convert " + request.args["file"]\nsubprocess.run(cmd, shell=True)',
  cwe: 'CWE-78',
});

const sqlConcat = finding({
  rule: 'jscr/sql-string-concat',
  severity: 'high',
  path: 'app/db.py',
  line: 12,
  title: 'SQL | built by concatenation',
  message: 'The query text includes `user_id` directly; use a parameter.',
  evidence: 'cur.execute("SELECT * FROM users WHERE id = " + user_id)  # ``` not a fence',
  cwe: 'CWE-89',
  extra: { also_reported_by: [{ source: 'model', rule: 'model/sql-injection', fingerprint: 'f'.repeat(64) }] },
});

const banditAssert = finding({
  rule: 'bandit/B101',
  source: 'scanner:bandit',
  severity: 'low',
  confidence: 0.5,
  path: 'tests/test user login.py',
  line: 7,
  title: 'Use of assert detected',
  message: 'assert is removed when Python runs with -O.',
  evidence: 'assert user.is_admin',
  cwe: 'CWE-703',
});

const corsWildcard = finding({
  rule: 'jscr/cors-allow-any-origin',
  severity: 'medium',
  confidence: 0.7,
  path: 'web/server.ts',
  line: 3,
  title: 'CORS allows any origin with credentials',
  message: 'Access-Control-Allow-Origin is * while credentials are allowed.',
  evidence: "app.use(cors({ origin: '*', credentials: true }))",
  cwe: 'CWE-942',
});

const debugNote = finding({
  rule: 'jscr/debug-enabled',
  severity: 'info',
  confidence: 1,
  path: 'settings.py',
  line: 1,
  title: 'Debug mode on',
  message: 'DEBUG is True in a settings file.',
  evidence: 'DEBUG = True',
  cwe: null,
});

export const RULES: RuleMeta[] = [
  {
    id: 'jscr/python-subprocess-shell-true',
    title: 'Shell command with shell=True',
    severity: 'critical',
    cwe: 'CWE-78',
    message: 'subprocess with shell=True runs its argument through /bin/sh; data in it becomes commands.',
    helpUri: 'https://cwe.mitre.org/data/definitions/78.html',
  },
  { id: 'jscr/sql-string-concat', title: 'SQL built by string concatenation', severity: 'high', cwe: 'CWE-89', message: 'Build SQL with parameters.' },
];

function baseReport(): ReviewReport {
  return {
    schema_version: 1,
    tool: { name: 'jscr', version: '9.9.9-test' },
    change: {
      kind: 'range',
      range: 'base111..head222',
      files: [
        { path: 'app/tasks.py', status: 'modified', old_path: null },
        { path: 'app/db.py', status: 'added', old_path: null },
        { path: 'tests/test user login.py', status: 'renamed', old_path: 'tests/test_login.py' },
        { path: 'web/server.ts', status: 'modified', old_path: null },
        { path: 'settings.py', status: 'modified', old_path: null },
      ],
    },
    findings: [],
    rejected: [],
    steps: [
      { name: 'read-change', status: 'ran', detail: '' },
      { name: 'rules', status: 'ran', detail: '42 rules' },
      { name: 'model', status: 'skipped', detail: 'no model configured' },
    ],
    scanners: [],
    limits_reached: [],
    complete: true,
    incomplete_reasons: [],
    exit_code: 0,
  };
}

/** A completed review with five findings (already in report order), one rejected, one scanner not installed. */
export function reportWithFindings(): ReviewReport {
  return {
    ...baseReport(),
    findings: [shellInjection, sqlConcat, corsWildcard, banditAssert, debugNote],
    rejected: [
      {
        finding: finding({ rule: 'model/path-traversal', source: 'model', path: 'app/files.py', line: 99, evidence: 'open(base + name)' }),
        reason: 'evidence not found in the change',
      },
    ],
    scanners: [
      { name: 'bandit', status: 'ran', detail: '1 finding' },
      { name: 'shellcheck', status: 'not_run', detail: 'enabled but not installed' },
    ],
    limits_reached: ['context.max_files (40): 3 files left out'],
    complete: false,
    incomplete_reasons: ['scanner shellcheck: enabled but not installed'],
    exit_code: 3,
    omitted: { duplicates: 1, below_min_confidence: 2, truncated: 0 },
    unused_suppressions: [{ rule: 'jscr/weak-hash', path: 'legacy/**', reason: 'old code' }],
  };
}

/** A completed review that found nothing. */
export function cleanReport(): ReviewReport {
  return baseReport();
}

/** A review with no findings that did not finish: it must never read as clean. */
export function incompleteCleanReport(): ReviewReport {
  return {
    ...baseReport(),
    steps: [
      { name: 'read-change', status: 'ran', detail: '' },
      { name: 'rules', status: 'ran', detail: '42 rules' },
      { name: 'model', status: 'failed', detail: 'model endpoint unreachable: connection refused' },
    ],
    complete: false,
    incomplete_reasons: ['model: endpoint unreachable', 'deadline of 600 s passed before scanners ran'],
    exit_code: 3,
  };
}
