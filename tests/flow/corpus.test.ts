/**
 * The data-flow corpus (fixtures/flow/): its layout, which the engine and the bench rely on; that every
 * case is a file its language's parser reads without error; that it is what the templates produce; the
 * scoring rules; and issue 14's score threshold.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS_ROOT, makeCorpusRepository, readCorpus, scoreFindings, type CorpusCase, type CorpusReport, type Family } from '../../bench/flow-score.js';
import { casesWithSyntaxErrors } from './cases-parse.js';
import { renderCorpus } from '../../tools/flow-corpus/generate.js';
import { runJscr } from '../helpers/cli.js';

const corpus = readCorpus();
const TAINT_FAMILIES = ['sql', 'command', 'path', 'ldap', 'xpath', 'xss', 'redirect', 'trust-boundary', 'code-eval', 'deserialisation', 'xxe', 'header'];
const VALUE_FAMILIES = ['weak-hash', 'weak-cipher', 'weak-random', 'insecure-cookie'];
const TAINT_SHAPES = ['direct', 'locals', 'string-building', 'collection', 'helper', 'sanitised', 'allow-list', 'constant-branch', 'constant-overwrite'];
const VALUE_SHAPES = ['direct', 'locals', 'helper', 'constant-branch', 'properties'];
const MAIN_LANGUAGES = ['python', 'java', 'javascript', 'php'];

const casesOf = (family: string, language?: string): CorpusCase[] => corpus.cases.filter((c) => c.family === family && (language === undefined || c.language === language));
const labelsOf = (cases: CorpusCase[], shape: string): Set<string> => new Set(cases.filter((c) => c.shape === shape).map((c) => c.label));

describe('the corpus layout', () => {
  it('has every file named per the layout, in a declared family, with exactly one SINK line', () => {
    expect(corpus.problems).toEqual([]);
  });

  it('declares the issue\'s families with their CWEs', () => {
    const cwe = Object.fromEntries(corpus.families.map((f) => [f.id, f.cwe]));
    expect(Object.keys(cwe).sort()).toEqual([...TAINT_FAMILIES, ...VALUE_FAMILIES].sort());
    expect(cwe['sql']).toEqual(['CWE-89']);
    expect(cwe['code-eval']).toEqual(['CWE-94', 'CWE-95']);
    expect(cwe['insecure-cookie']).toEqual(['CWE-614', 'CWE-1004']);
    for (const f of corpus.families) expect(f.title, f.id).not.toBe('');
  });

  it('holds at least 400 cases, and every family has both labels', () => {
    expect(corpus.cases.length).toBeGreaterThanOrEqual(400);
    for (const f of corpus.families) {
      const labels = new Set(casesOf(f.id).map((c) => c.label));
      expect([...labels].sort(), f.id).toEqual(['safe', 'vulnerable']);
    }
  });

  it('covers each taint family in Python, Java, JavaScript and PHP with every shape, both labels where both exist', () => {
    for (const family of TAINT_FAMILIES) {
      for (const language of MAIN_LANGUAGES) {
        const cases = casesOf(family, language);
        // LDAP and XPath in JavaScript: a few shapes only (the issue allows skipping them).
        const shapes = (family === 'ldap' || family === 'xpath') && language === 'javascript' ? ['direct', 'locals', 'helper', 'constant-branch', 'constant-overwrite'] : TAINT_SHAPES;
        for (const shape of shapes) {
          // Serialised objects are not built from strings.
          if (shape === 'string-building' && family === 'deserialisation') continue;
          const labels = labelsOf(cases, shape);
          // A sanitised case needs a sanitiser that fits (safe) or one of another kind (vulnerable); not every family has both.
          const expected = shape === 'sanitised' ? labels.size >= 1 : labels.size === 2;
          expect(expected, `${family}/${language}/${shape}: ${[...labels].join(', ')}`).toBe(true);
        }
      }
    }
  });

  it('covers each value-check family in every language with its shapes and safe twins', () => {
    for (const family of VALUE_FAMILIES) {
      for (const language of MAIN_LANGUAGES) {
        const cases = casesOf(family, language);
        for (const shape of VALUE_SHAPES) {
          if (shape === 'properties' && (language !== 'java' && language !== 'php' || family === 'weak-random')) continue;
          expect([...labelsOf(cases, shape)].sort(), `${family}/${language}/${shape}`).toEqual(['safe', 'vulnerable']);
        }
      }
    }
  });

  it('has the shapes of the options-object checks and of the security use of a random value, both labels', () => {
    const own: Array<[string, string, string[]]> = [
      ['insecure-cookie', 'left-out', ['python', 'javascript', 'typescript', 'php']],
      ['insecure-cookie', 'options-object', ['javascript', 'typescript', 'php']],
      ['weak-random', 'purpose', ['python', 'java', 'javascript', 'typescript', 'php']],
    ];
    for (const [family, shape, languages] of own) {
      for (const language of languages) expect([...labelsOf(casesOf(family, language), shape)].sort(), `${family}/${language}/${shape}`).toEqual(['safe', 'vulnerable']);
    }
  });

  it('gives every properties case its .properties file beside it', () => {
    const propertyCases = corpus.cases.filter((c) => c.shape === 'properties');
    expect(propertyCases.length).toBeGreaterThan(0);
    for (const c of propertyCases) expect(corpus.properties, c.path).toContain(c.path.replace(/\.[a-z]+$/, '.properties'));
  });

  it('is exactly what the templates in tools/flow-corpus/ produce (regenerate after changing them)', () => {
    const rendered = renderCorpus();
    const onDisk = corpus.cases.length + corpus.properties.length + 1; // + families.toml
    expect(rendered.length).toBe(onDisk);
    for (const file of rendered) expect(readFileSync(join(CORPUS_ROOT, file.path), 'utf8'), file.path).toBe(file.text);
  });

  it('has every case parse without a syntax error in its language', async () => {
    expect(await casesWithSyntaxErrors(CORPUS_ROOT, corpus.cases)).toEqual([]);
  });
});

describe('the scoring', () => {
  const families: Family[] = [
    { id: 'sql', cwe: ['CWE-89'], title: 'SQL injection' },
    { id: 'code-eval', cwe: ['CWE-94', 'CWE-95'], title: 'Code injection' },
  ];
  const cases: CorpusCase[] = [
    { path: 'sql/java/direct-vulnerable.java', family: 'sql', language: 'java', shape: 'direct', label: 'vulnerable', sinkLine: 20 },
    { path: 'sql/java/direct-safe.java', family: 'sql', language: 'java', shape: 'direct', label: 'safe', sinkLine: 21 },
    { path: 'code-eval/python/locals-vulnerable.py', family: 'code-eval', language: 'python', shape: 'locals', label: 'vulnerable', sinkLine: 9 },
    { path: 'code-eval/python/locals-safe.py', family: 'code-eval', language: 'python', shape: 'locals', label: 'safe', sinkLine: 9 },
  ];

  it('counts a vulnerable case only for a finding of its family on its SINK line', () => {
    const off = scoreFindings({ families, cases }, [
      { path: 'sql/java/direct-vulnerable.java', line: 19, cwe: ['CWE-89'] },
      { path: 'code-eval/python/locals-vulnerable.py', line: 9, cwe: ['CWE-78'] },
    ]);
    expect(off.families['sql']?.tpr).toBe(0);
    expect(off.families['code-eval']?.tpr).toBe(0);
    expect(off.missed.map((c) => c.path)).toEqual(['sql/java/direct-vulnerable.java', 'code-eval/python/locals-vulnerable.py']);
    const on = scoreFindings({ families, cases }, [
      { path: 'sql/java/direct-vulnerable.java', line: 18, end_line: 20, cwe: ['CWE-89'] },
      { path: 'code-eval/python/locals-vulnerable.py', line: 9, cwe: '95' },
    ]);
    expect(on.families['sql']).toMatchObject({ tpr: 1, fpr: 0, score: 1 });
    expect(on.families['code-eval']).toMatchObject({ tpr: 1, fpr: 0, score: 1 });
    expect(on.average).toBe(1);
  });

  it('counts a safe case as a false alarm for a finding of its family anywhere in its file, and only of its family', () => {
    const scores = scoreFindings({ families, cases }, [
      { path: 'sql/java/direct-safe.java', line: 3, cwe: ['CWE-89'], rule: 'jscr/sql-string-concat' },
      { path: 'code-eval/python/locals-safe.py', line: 9, cwe: ['CWE-79'] },
    ]);
    expect(scores.families['sql']).toMatchObject({ fpr: 1, score: -1 });
    expect(scores.families['code-eval']).toMatchObject({ fpr: 0, score: 0 });
    expect(scores.falseAlarms.map((c) => c.path)).toEqual(['sql/java/direct-safe.java']);
    expect(scores.falseAlarmRules).toEqual({ 'sql/java/direct-safe.java': ['jscr/sql-string-concat'] });
    expect(scores.languages['java']).toMatchObject({ vulnerable: 1, safe: 1, truePositives: 0, falsePositives: 1 });
    expect(scores.average).toBe(-0.5);
  });

  it('reads the corpus where the reviewed repository holds it under a prefix', () => {
    const scores = scoreFindings({ families, cases }, [{ path: 'corpus/sql/java/direct-vulnerable.java', line: 20, cwe: ['CWE-89'] }], 'corpus/');
    expect(scores.families['sql']?.truePositives).toBe(1);
  });
});

describe('the corpus score with data flow', () => {
  // Issue 14, acceptance 1: an average score of at least 0.8 on our corpus and no family below 0.5.
  it('averages at least 0.8 over families, none below 0.5', async () => {
    const { dir, repo, config } = makeCorpusRepository();
    try {
      const run = await runJscr(['review', '--repo', repo, '--commit', 'HEAD', '--no-model', '--format', 'json', '--config', config], repo, {}, { timeoutMs: 900_000 });
      const report = JSON.parse(run.stdout) as CorpusReport;
      expect(report.complete).toBe(true);
      const scores = scoreFindings(corpus, report.findings);
      const low = Object.entries(scores.families).filter(([, r]) => r.score < 0.5).map(([id, r]) => `${id} ${r.score.toFixed(2)}`);
      expect(low).toEqual([]);
      expect(scores.average).toBeGreaterThanOrEqual(0.8);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 900_000);
});
