import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewReport } from '../../src/report/finding.js';
import { FINGERPRINT_KEY, FINGERPRINT_V1_KEY, cweTag, pathToUri, reportToSarif } from '../../src/report/sarif.js';
import { render } from '../../src/report/render.js';
import { validateJsonSchema } from './json-schema.js';
import { RULES, cleanReport, finding, incompleteCleanReport, reportWithFindings } from './sample-reports.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const MULTITOOL = join(ROOT, 'node_modules', '@microsoft', 'sarif-multitool-linux', 'Sarif.Multitool');
const SCHEMA = JSON.parse(readFileSync(join(ROOT, 'tests', 'data', 'sarif-2.1.0.json'), 'utf8')) as Record<string, unknown>;
const opts = { color: false, rules: RULES };

/** A report whose text tries everything: control characters, bidi, odd paths, a model-only rule, line 0. */
function hostileReport(): ReviewReport {
  return {
    ...cleanReport(),
    findings: [
      finding({
        rule: 'model/command-injection',
        source: 'model',
        severity: 'critical',
        path: 'src/naïve dir/a,b:c#d?.py',
        line: 0,
        end_line: 0,
        title: 'Title with \u001b[31mESC\u001b[0m and \u202eRLO',
        message: '',
        evidence: 'os.system("rm -rf " + x)\u202e # }',
        cwe: 'CWE-78',
      }),
      finding({ rule: 'jscr/sql-string-concat', path: 'db.py', line: 3, end_line: 1, severity: 'high', cwe: 'CWE-89' }),
      finding({ rule: 'model/info-thing', source: 'model', path: 'x.py', line: 5, severity: 'info' }),
    ],
  };
}

/** A data-flow finding: its path becomes one code flow, source first, with the hostile text of its steps escaped as data. */
function flowReport(): ReviewReport {
  const steps = [
    { role: 'source' as const, line: 7, text: 'request.getParameter("q\u202e")' },
    { role: 'step' as const, line: 8, text: 'sql' },
    { role: 'sink' as const, line: 9, text: 'st.executeQuery(sql)' },
  ];
  return {
    ...cleanReport(),
    findings: [
      finding({
        rule: 'jscr/java-sql-query',
        source: 'flow',
        path: 'src/Search.java',
        line: 9,
        cwe: 'CWE-89',
        flow: steps.map((step) => ({ path: 'src/Search.java', line: step.line, message: `${step.role}: ${step.text}`, role: step.role, text: step.text })),
      }),
    ],
  };
}

const CASES: Record<string, () => ReviewReport> = {
  findings: reportWithFindings,
  flow: flowReport,
  clean: cleanReport,
  incomplete: incompleteCleanReport,
  hostile: hostileReport,
};

describe('SARIF 2.1.0 accepted by the SARIF multitool (schema and GitHub ingestion rules)', () => {
  let dir = '';
  let multitoolResults: { ruleId: string; level: string; uri: string }[] = [];
  let multitoolOutput = '';

  beforeAll(async () => {
    if ((statSync(MULTITOOL).mode & 0o111) === 0) chmodSync(MULTITOOL, 0o755);
    dir = mkdtempSync(join(tmpdir(), 'jscr-sarif-'));
    const files = Object.entries(CASES).map(([name, make]) => {
      const file = join(dir, `${name}.sarif`);
      writeFileSync(file, render(make(), 'sarif', opts));
      return file;
    });
    // a log known to be invalid, so this test proves the validator can say no
    const broken = join(dir, 'broken.sarif');
    writeFileSync(broken, JSON.stringify({ runs: 5 }));
    const resultFile = join(dir, 'validation.sarif');
    const { stdout } = await promisify(execFile)(
      MULTITOOL,
      ['validate', ...files, broken, '--output', resultFile, '--log', 'ForceOverwrite', '--rule-kind', 'Sarif;Gh'],
      { env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: '1' } },
    );
    multitoolOutput = stdout;
    const log = JSON.parse(readFileSync(resultFile, 'utf8')) as {
      runs: { results?: { ruleId: string; level?: string; locations?: { physicalLocation?: { artifactLocation?: { uri?: string } } }[] }[] }[];
    };
    multitoolResults = (log.runs[0]?.results ?? []).map((r) => ({
      ruleId: r.ruleId,
      level: r.level ?? 'warning',
      uri: r.locations?.[0]?.physicalLocation?.artifactLocation?.uri ?? '',
    }));
  }, 120_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('flags the known-broken log (the check can fail)', () => {
    const brokenUri = pathToFileURL(join(dir, 'broken.sarif')).href;
    expect(multitoolResults.filter((r) => r.uri === brokenUri && r.level === 'error').length).toBeGreaterThan(0);
  });

  for (const name of Object.keys(CASES)) {
    it(`${name}: no errors or warnings`, () => {
      const uri = pathToFileURL(join(dir, `${name}.sarif`)).href;
      const problems = multitoolResults.filter((r) => r.uri === uri && (r.level === 'error' || r.level === 'warning'));
      expect(problems, multitoolOutput).toEqual([]);
    });
  }
});

describe('SARIF against the vendored 2.1.0 JSON schema', () => {
  for (const [name, make] of Object.entries(CASES)) {
    it(`${name}: valid`, () => {
      expect(validateJsonSchema(SCHEMA, JSON.parse(render(make(), 'sarif', opts)))).toEqual([]);
    });
  }
  it('the schema check rejects a line 0 region and an unknown level', () => {
    const log = JSON.parse(render(reportWithFindings(), 'sarif', opts)) as { runs: { results: { level: string; locations: { physicalLocation: { region: { startLine: number } } }[] }[] }[] };
    const result = log.runs[0]?.results[0];
    if (!result) throw new Error('expected a result');
    result.level = 'fatal';
    const region = result.locations[0]?.physicalLocation.region;
    if (region) region.startLine = 0;
    expect(validateJsonSchema(SCHEMA, log).length).toBe(2);
  });
});

describe('SARIF content', () => {
  type Rule = { id: string; defaultConfiguration: { level: string }; properties: { tags: string[]; 'security-severity'?: string } };
  type Result = {
    ruleId: string;
    ruleIndex: number;
    level: string;
    message: { text: string };
    locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId: string }; region: { startLine: number; endLine: number } } }[];
    partialFingerprints: Record<string, string>;
    properties: { source: string };
  };
  const log = reportToSarif(reportWithFindings(), opts) as { runs: { tool: { driver: { name: string; version: string; rules: Rule[] } }; results: Result[] }[] };
  const run = log.runs[0];
  if (!run) throw new Error('expected one run');

  it('has one run by jscr with the report version', () => {
    expect(log.runs).toHaveLength(1);
    expect(run.tool.driver.name).toBe('jscr');
    expect(run.tool.driver.version).toBe('9.9.9-test');
  });

  it('maps each severity to a level and a GitHub security-severity', () => {
    const expected: Record<string, [string, string | undefined]> = {
      critical: ['error', '9.5'],
      high: ['error', '8.0'],
      medium: ['warning', '5.5'],
      low: ['note', '3.0'],
      info: ['note', undefined],
    };
    for (const f of reportWithFindings().findings) {
      const result = run.results.find((r) => r.partialFingerprints[FINGERPRINT_KEY] === f.fingerprint);
      const rule = run.tool.driver.rules[result?.ruleIndex ?? -1];
      expect(result?.level).toBe(expected[f.severity]?.[0]);
      expect(rule?.id).toBe(f.rule);
      expect(rule?.properties['security-severity']).toBe(expected[f.severity]?.[1]);
      expect(rule?.properties.tags).toContain('security');
      if (f.cwe) expect(rule?.properties.tags).toContain(`external/cwe/${f.cwe.toLowerCase()}`);
    }
  });

  it('every result is a finding of the report: rule, relative location, lines, fingerprint, source', () => {
    const findings = reportWithFindings().findings;
    expect(run.results).toHaveLength(findings.length);
    run.results.forEach((result, i) => {
      const f = findings[i];
      if (!f) throw new Error('more results than findings');
      const location = result.locations[0]?.physicalLocation;
      expect(result.ruleId).toBe(f.rule);
      expect(location?.artifactLocation).toEqual({ uri: pathToUri(f.path), uriBaseId: '%SRCROOT%' });
      expect(decodeURIComponent(location?.artifactLocation.uri ?? '')).toBe(f.path);
      expect(location?.region.startLine).toBe(f.line);
      expect(location?.region.endLine).toBe(f.end_line);
      // both recipes: v2 per occurrence, v1 kept for alerts opened before it
      expect(result.partialFingerprints).toEqual({ 'jscrFingerprint/v2': f.fingerprint, 'jscrFingerprint/v1': f.fingerprint_v1 });
      expect([FINGERPRINT_KEY, FINGERPRINT_V1_KEY]).toEqual(['jscrFingerprint/v2', 'jscrFingerprint/v1']);
      expect(result.message.text).toBe(f.message);
      expect(result.properties.source).toBe(f.source);
    });
  });

  it('uses the given rule metadata when a rule is known', () => {
    const rule = run.tool.driver.rules.find((r) => r.id === 'jscr/python-subprocess-shell-true') as unknown as Record<string, unknown>;
    expect(rule.shortDescription).toEqual({ text: 'Shell command with shell=True' });
    expect(rule.helpUri).toBe('https://cwe.mitre.org/data/definitions/78.html');
  });

  it('lists each used rule once, sorted by id', () => {
    const ids = run.tool.driver.rules.map((r) => r.id);
    expect(ids).toEqual([...new Set(reportWithFindings().findings.map((f) => f.rule))].sort());
  });

  it('writes paths as relative URI references and CWE ids as GitHub tags', () => {
    expect(pathToUri('tests/test user login.py')).toBe('tests/test%20user%20login.py');
    expect(pathToUri('a/b#c?.py')).toBe('a/b%23c%3F.py');
    expect(cweTag('CWE-78')).toBe('external/cwe/cwe-78');
    expect(cweTag('not a cwe')).toBeNull();
  });

  it('keeps invisible characters as JSON escapes, so the file is safe to print', () => {
    const text = render(hostileReport(), 'sarif', opts);
    expect(text).not.toMatch(/[\u001b\u202e]/);
    expect(text).toContain('\\u202e');
    const parsed = JSON.parse(text) as { runs: { results: { message: { text: string } }[] }[] };
    expect(parsed.runs[0]?.results[0]?.message.text).toBe('Title with \u001b[31mESC\u001b[0m and \u202eRLO');
  });
});

describe('data-flow findings in SARIF', () => {
  it('carry their path as one code flow, source first', () => {
    const log = reportToSarif(flowReport(), opts) as { runs: { results: { codeFlows?: { threadFlows: { locations: { location: { physicalLocation: { region: { startLine: number } }; message: { text: string } } }[] }[] }[] }[] }[] };
    const flows = log.runs[0]?.results[0]?.codeFlows ?? [];
    expect(flows).toHaveLength(1);
    const locations = flows[0]?.threadFlows[0]?.locations ?? [];
    expect(locations.map((l) => l.location.physicalLocation.region.startLine)).toEqual([7, 8, 9]);
    expect(locations[2]?.location.message.text).toBe('sink: st.executeQuery(sql)');
  });
});
