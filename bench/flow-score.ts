/**
 * The data-flow corpus (fixtures/flow/) and its scoring: reading the labelled cases, and scoring a
 * review's findings against them. A vulnerable case counts as found when a finding carrying one of its
 * family's CWEs sits on its SINK line (from any source: rule, flow, scanner); a safe case counts as a
 * false alarm when any finding carrying one of its family's CWEs is anywhere in its file. Per family
 * (all languages together) the score is TPR - FPR; the corpus score is the average over families.
 * Shared by bench/flow.ts (the built CLI) and tests/flow/ (in-process).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import TOML from '@iarna/toml';

export const CORPUS_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'flow');
/** Hand-written cases scored the same way, written without reading the rows (fixtures/flow-heldout/README.md). */
export const HELDOUT_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'flow-heldout');
const CORPUS_LANGUAGES = ['python', 'java', 'javascript', 'typescript', 'php', 'go'] as const;
const CORPUS_SHAPES = [
  'direct',
  'locals',
  'string-building',
  'collection',
  'helper',
  'sanitised',
  'allow-list',
  'constant-branch',
  'constant-overwrite',
  'properties',
  'left-out',
  'options-object',
  'purpose',
] as const;
const EXTENSIONS: Record<string, string> = { python: 'py', java: 'java', javascript: 'js', typescript: 'ts', php: 'php', go: 'go' };
/** `<shape>-<vulnerable|safe>[-<n>].<ext>` */
const CASE_NAME = new RegExp(`^(${CORPUS_SHAPES.join('|')})-(vulnerable|safe)(?:-([1-9][0-9]*))?\\.([a-z]+)$`);
const SINK_MARK = /(?:\/\/|#)[^\n]*\bSINK\b[^\n]*$/;

export type CaseLabel = 'vulnerable' | 'safe';

export interface Family {
  id: string;
  cwe: string[];
  title: string;
}

export interface CorpusCase {
  /** Path under the corpus root, with forward slashes: `<family>/<language>/<file>`. */
  path: string;
  family: string;
  language: string;
  shape: string;
  label: CaseLabel;
  /** 1-based line of the sink (the line that would be the sink, in a safe case). */
  sinkLine: number;
}

/** What is wrong with one file of the corpus, for the layout test and for a clear error in the bench. */
export interface LayoutProblem {
  path: string;
  problem: string;
}

export interface Corpus {
  families: Family[];
  cases: CorpusCase[];
  /** Files that do not follow the layout; empty for a well-formed corpus. */
  problems: LayoutProblem[];
  /** `.properties` files beside the cases (path under the root). */
  properties: string[];
}

function readFamilies(root: string = CORPUS_ROOT): Family[] {
  const parsed = TOML.parse(readFileSync(join(root, 'families.toml'), 'utf8')) as { families?: Record<string, { cwe?: unknown; title?: unknown }> };
  return Object.entries(parsed.families ?? {}).map(([id, f]) => ({
    id,
    cwe: Array.isArray(f.cwe) ? f.cwe.map(String) : [],
    title: typeof f.title === 'string' ? f.title : '',
  }));
}

/** Read and check every case under `root`. */
export function readCorpus(root: string = CORPUS_ROOT): Corpus {
  const families = readFamilies(root);
  const known = new Set(families.map((f) => f.id));
  const cases: CorpusCase[] = [];
  const problems: LayoutProblem[] = [];
  const properties: string[] = [];
  for (const family of readdirSync(root, { withFileTypes: true })) {
    if (!family.isDirectory()) {
      if (family.name !== 'families.toml' && family.name !== 'README.md') problems.push({ path: family.name, problem: 'a file at the corpus root other than families.toml and README.md' });
      continue;
    }
    if (!known.has(family.name)) problems.push({ path: family.name, problem: 'a family folder not declared in families.toml' });
    for (const language of readdirSync(join(root, family.name), { withFileTypes: true })) {
      const langPath = `${family.name}/${language.name}`;
      if (!language.isDirectory() || !(CORPUS_LANGUAGES as readonly string[]).includes(language.name)) {
        problems.push({ path: langPath, problem: `not a language folder (${CORPUS_LANGUAGES.join(', ')})` });
        continue;
      }
      const names = readdirSync(join(root, langPath));
      for (const name of names) {
        const path = `${langPath}/${name}`;
        if (name.endsWith('.properties')) {
          properties.push(path);
          const base = name.slice(0, -'.properties'.length);
          if (!names.some((other) => other !== name && other.startsWith(`${base}.`))) problems.push({ path, problem: 'a .properties file without its case' });
          continue;
        }
        const m = CASE_NAME.exec(name);
        if (!m) {
          problems.push({ path, problem: 'not named <shape>-<vulnerable|safe>[-<n>].<ext>' });
          continue;
        }
        const [, shape = '', label = '', , ext = ''] = m;
        if (ext !== EXTENSIONS[language.name]) problems.push({ path, problem: `extension .${ext} in the ${language.name} folder` });
        const lines = readFileSync(join(root, path), 'utf8').split('\n');
        const marked = lines.flatMap((line, i) => (SINK_MARK.test(line) ? [i + 1] : []));
        if (marked.length !== 1) {
          problems.push({ path, problem: `${String(marked.length)} lines marked SINK, not exactly one` });
          continue;
        }
        cases.push({ path, family: family.name, language: language.name, shape, label: label as CaseLabel, sinkLine: marked[0]! });
      }
    }
  }
  cases.sort((a, b) => a.path.localeCompare(b.path));
  return { families, cases, problems, properties };
}

/** The part of a finding the scoring reads. */
export interface ScoredFinding {
  path: string;
  line: number;
  end_line?: number;
  cwe?: string[] | string | null;
  rule?: string;
}

export interface Rates {
  vulnerable: number;
  safe: number;
  truePositives: number;
  falsePositives: number;
  tpr: number;
  fpr: number;
  score: number;
}

export interface Scores {
  families: Record<string, Rates>;
  languages: Record<string, Rates>;
  /** Average of the per-family scores (families with both labels). */
  average: number;
  missed: CorpusCase[];
  falseAlarms: CorpusCase[];
  /** The rules whose findings made each false alarm, by case path. */
  falseAlarmRules: Record<string, string[]>;
}

/** `CWE-89`, `cwe-89`, `89` all name the same weakness. */
function cweIds(cwe: ScoredFinding['cwe']): string[] {
  const list = Array.isArray(cwe) ? cwe : typeof cwe === 'string' ? [cwe] : [];
  return list.map((c) => c.toUpperCase().replace(/^(?:CWE-)?/, 'CWE-'));
}

function rates(vulnerable: number, safe: number, tp: number, fp: number): Rates {
  const tpr = vulnerable === 0 ? 0 : tp / vulnerable;
  const fpr = safe === 0 ? 0 : fp / safe;
  return { vulnerable, safe, truePositives: tp, falsePositives: fp, tpr, fpr, score: tpr - fpr };
}

/**
 * Score findings against the corpus. `prefix` is where the corpus sits in the reviewed repository
 * ('' when its families are at the repository root).
 */
export function scoreFindings(corpus: Pick<Corpus, 'families' | 'cases'>, findings: ScoredFinding[], prefix = ''): Scores {
  const cwesOf = new Map(corpus.families.map((f) => [f.id, new Set(f.cwe.map((c) => cweIds(c)[0]!))]));
  const byPath = new Map<string, ScoredFinding[]>();
  for (const f of findings) {
    const list = byPath.get(f.path) ?? [];
    list.push(f);
    byPath.set(f.path, list);
  }
  const tally = new Map<string, { v: number; s: number; tp: number; fp: number }>();
  const count = (key: string, c: CorpusCase, hit: boolean): void => {
    const t = tally.get(key) ?? { v: 0, s: 0, tp: 0, fp: 0 };
    if (c.label === 'vulnerable') {
      t.v++;
      if (hit) t.tp++;
    } else {
      t.s++;
      if (hit) t.fp++;
    }
    tally.set(key, t);
  };
  const missed: CorpusCase[] = [];
  const falseAlarms: CorpusCase[] = [];
  const falseAlarmRules: Record<string, string[]> = {};
  for (const c of corpus.cases) {
    const wanted = cwesOf.get(c.family) ?? new Set<string>();
    const ofFamily = (byPath.get(prefix + c.path) ?? []).filter((f) => cweIds(f.cwe).some((id) => wanted.has(id)));
    const hit =
      c.label === 'vulnerable' ? ofFamily.some((f) => f.line <= c.sinkLine && c.sinkLine <= Math.max(f.line, f.end_line ?? f.line)) : ofFamily.length > 0;
    if (c.label === 'vulnerable' && !hit) missed.push(c);
    if (c.label === 'safe' && hit) {
      falseAlarms.push(c);
      falseAlarmRules[c.path] = [...new Set(ofFamily.map((f) => f.rule ?? '?'))];
    }
    count(`family:${c.family}`, c, hit);
    count(`language:${c.language}`, c, hit);
  }
  const pick = (kind: string): Record<string, Rates> =>
    Object.fromEntries(
      [...tally.entries()]
        .filter(([key]) => key.startsWith(`${kind}:`))
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, t]) => [key.slice(kind.length + 1), rates(t.v, t.s, t.tp, t.fp)]),
    );
  const families = pick('family');
  const scored = Object.values(families).filter((r) => r.vulnerable > 0 && r.safe > 0);
  const average = scored.length === 0 ? 0 : scored.reduce((sum, r) => sum + r.score, 0) / scored.length;
  return { families, languages: pick('language'), average, missed, falseAlarms, falseAlarmRules };
}

const pct = (x: number): string => x.toFixed(2).padStart(5);

/** The figures as a text table; with `verbose`, every missed and falsely flagged case. */
export function formatScores(scores: Scores, verbose: boolean): string {
  const row = (name: string, r: Rates): string =>
    `${name.padEnd(18)} ${String(r.vulnerable).padStart(5)} ${String(r.safe).padStart(5)}  ${pct(r.tpr)}  ${pct(r.fpr)}  ${r.score >= 0 ? ' ' : ''}${r.score.toFixed(2)}`;
  const head = `${''.padEnd(18)} ${'vuln'.padStart(5)} ${'safe'.padStart(5)}  ${'TPR'.padStart(5)}  ${'FPR'.padStart(5)}  score`;
  const out = ['per family (all languages)', head, ...Object.entries(scores.families).map(([k, r]) => row(k, r)), '', 'per language', head, ...Object.entries(scores.languages).map(([k, r]) => row(k, r)), '', `average score over families: ${scores.average.toFixed(3)}`];
  if (verbose) {
    out.push('', `missed (${String(scores.missed.length)}):`, ...scores.missed.map((c) => `  ${c.path}:${String(c.sinkLine)}`));
    out.push('', `false alarms (${String(scores.falseAlarms.length)}):`, ...scores.falseAlarms.map((c) => `  ${c.path}  (${(scores.falseAlarmRules[c.path] ?? []).join(', ')})`));
  }
  return out.join('\n') + '\n';
}

/** Lines of the review configuration the corpus is scored with: every finding reported, on changed lines. */
const CORPUS_REVIEW_CONFIG = ['[review]', 'max_findings = 1000000', 'scope = "changed-lines"', 'deadline_s = 3600', ''].join('\n');

/**
 * A temporary git repository whose first commit holds no case and whose second adds the whole corpus
 * (cases, their .properties files and families.toml) at the repository root; and a configuration file
 * beside it (outside the repository). The caller removes `dir`.
 */
export function makeCorpusRepository(root: string = CORPUS_ROOT): { dir: string; repo: string; config: string } {
  const dir = mkdtempSync(join(tmpdir(), 'jscr-bench-flow-'));
  const repo = join(dir, 'repo');
  mkdirSync(repo);
  const env = { ...process.env, GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'bench@example.invalid', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'bench@example.invalid', GIT_CONFIG_NOSYSTEM: '1' };
  const git = (...args: string[]): void => {
    execFileSync('git', ['-c', 'commit.gpgsign=false', ...args], { cwd: repo, env, stdio: 'ignore' });
  };
  git('init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'README.md'), 'Labelled data-flow cases, added in the next commit.\n');
  git('add', '-A');
  git('commit', '-qm', 'empty');
  cpSync(root, repo, { recursive: true });
  git('add', '-A');
  git('commit', '-qm', 'add the corpus');
  const config = join(dir, 'review.toml');
  writeFileSync(config, CORPUS_REVIEW_CONFIG);
  return { dir, repo, config };
}

/** The review's JSON report, as far as scoring reads it. */
export interface CorpusReport {
  findings: ScoredFinding[];
  complete: boolean;
  incomplete_reasons?: string[];
  exit_code?: number;
}
