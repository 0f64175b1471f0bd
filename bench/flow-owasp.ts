/**
 * Benchmark of jscr on the OWASP Benchmark's labelled cases (BenchmarkJava or BenchmarkPython), which
 * we did not write: reviews the test cases with the BUILT CLI and scores them the way OWASP's own
 * scorecard does. A case is flagged when a finding carrying its category's CWE is anywhere in its file
 * (from any source: flow, pattern rule, scanner); per category TPR - FPR, then the average over the
 * categories.
 *
 * The reviewed repository is a temporary git repository: a first commit with everything of the
 * benchmark except its test cases (the helper classes the cases call, resources such as
 * benchmark.properties), then per batch one commit that adds the batch's cases, reviewed on its own.
 * The benchmark is only read; nothing of it is copied into this repository.
 *
 * Run: node tools/build.mjs && npx tsx bench/flow-owasp.ts --benchmark /work/trial/BenchmarkJava
 *   [--limit N] [--sample N] [--seed S] [--category X[,Y]] [--batch N] [--verbose] [--json]
 * (--limit: the first N cases in order; --sample: N cases drawn per category in proportion, with a
 * fixed seed; --verbose lists the missed and falsely flagged cases).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'jscr');

/**
 * The CWEs a finding may carry to count for a category. The benchmark's own CWE first; CWE-95 (eval
 * injection) is a child of CWE-94 and is what our eval sinks carry.
 */
const CATEGORY_CWES: Record<string, string[]> = {
  sqli: ['CWE-89'],
  cmdi: ['CWE-78'],
  pathtraver: ['CWE-22'],
  ldapi: ['CWE-90'],
  xpathi: ['CWE-643'],
  xss: ['CWE-79'],
  trustbound: ['CWE-501'],
  securecookie: ['CWE-614'],
  hash: ['CWE-328'],
  crypto: ['CWE-327'],
  weakrand: ['CWE-330'],
  codeinj: ['CWE-94', 'CWE-95'],
  deserialization: ['CWE-502'],
  redirect: ['CWE-601'],
  xxe: ['CWE-611'],
};

interface Options {
  benchmark: string;
  limit?: number;
  sample?: number;
  seed: number;
  categories?: Set<string>;
  batch: number;
  verbose: boolean;
  json: boolean;
}

function fail(message: string): never {
  process.stderr.write(`bench/flow-owasp.ts: ${message}\n`);
  process.exit(2);
}

function parseOptions(argv: string[]): Options {
  const options: Options = { benchmark: '', seed: 14, batch: 500, verbose: false, json: false };
  const number = (flag: string, value: string | undefined): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0) fail(`${flag} wants a positive whole number`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === '--verbose') options.verbose = true;
    else if (flag === '--json') options.json = true;
    else {
      const value = argv[++i];
      if (value === undefined) fail(`${flag} wants a value`);
      if (flag === '--benchmark') options.benchmark = value;
      else if (flag === '--limit') options.limit = number(flag, value);
      else if (flag === '--sample') options.sample = number(flag, value);
      else if (flag === '--seed') options.seed = number(flag, value);
      else if (flag === '--batch') options.batch = number(flag, value);
      else if (flag === '--category') options.categories = new Set(value.split(','));
      else fail(`unknown option ${flag} (options: --benchmark DIR, --limit N, --sample N, --seed S, --category X, --batch N, --verbose, --json)`);
    }
  }
  if (options.benchmark === '') fail('--benchmark DIR is required (a BenchmarkJava or BenchmarkPython clone)');
  return options;
}

interface TestCase {
  name: string;
  category: string;
  vulnerable: boolean;
  cwe: string;
  /** Path of its file under the benchmark root. */
  file: string;
}

/** The benchmark's layout: where its cases are and what they are called. */
interface Layout {
  /** Folder of the test cases, under the benchmark root. */
  casesDir: string;
  extension: string;
  /**
   * Top-level entries of the benchmark not copied into the base commit (build output, results, VCS, and
   * .gitignore: BenchmarkJava's ignores benchmark.properties, which its clone holds and its cases read).
   */
  skip: Set<string>;
}

function detectLayout(root: string): Layout {
  const java = 'src/main/java/org/owasp/benchmark/testcode';
  if (existsSync(join(root, java))) return { casesDir: java, extension: '.java', skip: new Set(['.git', '.gitignore', 'results', 'scorecard', 'tools', 'VMs', 'target', 'data']) };
  if (existsSync(join(root, 'testcode'))) return { casesDir: 'testcode', extension: '.py', skip: new Set(['.git', '.gitignore', 'results', 'scorecard', 'tools', 'VMs']) };
  fail(`${root} has neither src/main/java/org/owasp/benchmark/testcode nor testcode/`);
}

function readCases(root: string, layout: Layout): TestCase[] {
  const csv = readdirSync(root).find((n) => /^expectedresults-.*\.csv$/.test(n));
  if (csv === undefined) fail(`no expectedresults-*.csv in ${root}`);
  const cases: TestCase[] = [];
  for (const line of readFileSync(join(root, csv), 'utf8').split('\n')) {
    if (line.startsWith('#') || line.trim() === '') continue;
    const [name = '', category = '', real = '', cwe = ''] = line.split(',').map((s) => s.trim());
    const file = `${layout.casesDir}/${name}${layout.extension}`;
    if (!existsSync(join(root, file))) continue;
    cases.push({ name, category, vulnerable: real === 'true', cwe: `CWE-${cwe}`, file });
  }
  return cases;
}

/** A small seeded generator (mulberry32), so a sample is the same on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** N cases, drawn per category and label in proportion to their share (stratified), in file order. */
function stratifiedSample(cases: TestCase[], n: number, seed: number): TestCase[] {
  if (n >= cases.length) return cases;
  const random = seeded(seed);
  const strata = new Map<string, TestCase[]>();
  for (const c of cases) {
    const key = `${c.category}:${String(c.vulnerable)}`;
    strata.set(key, [...(strata.get(key) ?? []), c]);
  }
  const picked = new Set<TestCase>();
  for (const members of strata.values()) {
    const share = Math.max(1, Math.round((members.length * n) / cases.length));
    const shuffled = members.map((c) => ({ c, r: random() })).sort((a, b) => a.r - b.r);
    for (const { c } of shuffled.slice(0, share)) picked.add(c);
  }
  return cases.filter((c) => picked.has(c));
}

function selectCases(all: TestCase[], options: Options): TestCase[] {
  let cases = options.categories ? all.filter((c) => options.categories!.has(c.category)) : all;
  if (options.sample !== undefined) cases = stratifiedSample(cases, options.sample, options.seed);
  if (options.limit !== undefined) cases = cases.slice(0, options.limit);
  return cases;
}

interface Finding {
  path: string;
  line: number;
  cwe?: string[] | string | null;
  rule?: string;
}

interface Report {
  findings: Finding[];
  complete: boolean;
  incomplete_reasons?: string[];
}

function cweIds(cwe: Finding['cwe']): string[] {
  const list = Array.isArray(cwe) ? cwe : typeof cwe === 'string' ? [cwe] : [];
  return list.map((c) => c.toUpperCase().replace(/^(?:CWE-)?/, 'CWE-'));
}

const REVIEW_CONFIG = ['[review]', 'max_findings = 1000000', 'scope = "changed-lines"', 'deadline_s = 3600', ''].join('\n');

/**
 * Review the cases in batches: one temporary repository whose first commit holds the benchmark without
 * its cases, then one commit per batch adding that batch's cases, each reviewed alone. Returns the
 * findings (paths relative to the benchmark root) and the reasons any review was incomplete.
 */
function reviewCases(root: string, layout: Layout, cases: TestCase[], batchSize: number): { findings: Finding[]; incomplete: string[]; seconds: number } {
  const dir = mkdtempSync(join(tmpdir(), 'jscr-bench-owasp-'));
  const repo = join(dir, 'repo');
  mkdirSync(repo);
  const env = { ...process.env, GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'bench@example.invalid', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'bench@example.invalid', GIT_CONFIG_NOSYSTEM: '1' };
  const git = (...args: string[]): string => execFileSync('git', ['-c', 'commit.gpgsign=false', ...args], { cwd: repo, env, encoding: 'utf8' });
  const config = join(dir, 'review.toml');
  writeFileSync(config, REVIEW_CONFIG);
  const findings: Finding[] = [];
  const incomplete: string[] = [];
  let seconds = 0;
  try {
    git('init', '-q', '-b', 'main');
    const casesDir = join(root, layout.casesDir);
    for (const entry of readdirSync(root)) {
      if (layout.skip.has(entry)) continue;
      cpSync(join(root, entry), join(repo, entry), {
        recursive: true,
        // The base holds everything but the cases themselves (their helpers and resources stay).
        filter: (src) => !(dirname(src) === casesDir && /^BenchmarkTest\d+\./.test(relative(casesDir, src))),
      });
    }
    mkdirSync(join(repo, layout.casesDir), { recursive: true });
    git('add', '-A');
    git('commit', '-qm', 'the benchmark without its cases', '--allow-empty');
    // The case folder is listed once (thousands of files), not once per case.
    const caseFolder = readdirSync(join(root, layout.casesDir));
    for (let start = 0; start < cases.length; start += batchSize) {
      const batch = cases.slice(start, start + batchSize);
      for (const c of batch) {
        cpSync(join(root, c.file), join(repo, c.file));
        // A Python case's companion files (BenchmarkTest00001.xml) come with it.
        const stem = c.file.slice(0, -layout.extension.length);
        for (const extra of caseFolder.filter((n) => `${layout.casesDir}/${n}`.startsWith(`${stem}.`) && `${layout.casesDir}/${n}` !== c.file)) {
          cpSync(join(root, layout.casesDir, extra), join(repo, layout.casesDir, extra));
        }
      }
      git('add', '-A');
      git('commit', '-qm', `cases ${String(start + 1)}-${String(start + batch.length)}`);
      const began = process.hrtime.bigint();
      const run = spawnSync(process.execPath, [bin, 'review', '--repo', repo, '--commit', 'HEAD', '--no-model', '--quiet', '--format', 'json', '--config', config], { encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 });
      seconds += Number(process.hrtime.bigint() - began) / 1e9;
      let report: Report;
      try {
        report = JSON.parse(run.stdout) as Report;
      } catch {
        fail(`jscr review gave no JSON report (exit ${String(run.status)}): ${run.stderr.trim().split('\n').slice(-3).join(' | ')}`);
      }
      findings.push(...report.findings);
      if (!report.complete) incomplete.push(...(report.incomplete_reasons ?? ['incomplete']));
      process.stderr.write(`  reviewed ${String(start + batch.length)}/${String(cases.length)} (${seconds.toFixed(0)} s)\n`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { findings, incomplete, seconds };
}

interface CategoryScore {
  tp: number;
  fn: number;
  fp: number;
  tn: number;
  tpr: number;
  fpr: number;
  score: number;
}

function score(cases: TestCase[], findings: Finding[]): { categories: Record<string, CategoryScore>; average: number; missed: TestCase[]; falseAlarms: { name: string; rules: string[] }[] } {
  const byFile = new Map<string, Finding[]>();
  for (const f of findings) byFile.set(f.path, [...(byFile.get(f.path) ?? []), f]);
  const tally = new Map<string, { tp: number; fn: number; fp: number; tn: number }>();
  const missed: TestCase[] = [];
  const falseAlarms: { name: string; rules: string[] }[] = [];
  for (const c of cases) {
    const wanted = new Set(CATEGORY_CWES[c.category] ?? [c.cwe]);
    const hits = (byFile.get(c.file) ?? []).filter((f) => cweIds(f.cwe).some((id) => wanted.has(id)));
    const t = tally.get(c.category) ?? { tp: 0, fn: 0, fp: 0, tn: 0 };
    if (c.vulnerable && hits.length > 0) t.tp++;
    else if (c.vulnerable) {
      t.fn++;
      missed.push(c);
    } else if (hits.length > 0) {
      t.fp++;
      falseAlarms.push({ name: c.name, rules: [...new Set(hits.map((f) => `${f.rule ?? '?'}:${String(f.line)}`))] });
    } else t.tn++;
    tally.set(c.category, t);
  }
  const categories: Record<string, CategoryScore> = {};
  for (const [category, t] of [...tally.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const tpr = t.tp + t.fn === 0 ? 0 : t.tp / (t.tp + t.fn);
    const fpr = t.fp + t.tn === 0 ? 0 : t.fp / (t.fp + t.tn);
    categories[category] = { ...t, tpr, fpr, score: tpr - fpr };
  }
  const scored = Object.values(categories);
  const average = scored.length === 0 ? 0 : scored.reduce((sum, s) => sum + s.score, 0) / scored.length;
  return { categories, average, missed, falseAlarms };
}

function formatTable(categories: Record<string, CategoryScore>, average: number): string {
  const f2 = (x: number): string => x.toFixed(2).padStart(6);
  const n = (x: number): string => String(x).padStart(5);
  const lines = [`${'category'.padEnd(14)}${['TP', 'FN', 'FP', 'TN'].map((h) => h.padStart(5)).join('')}${['TPR', 'FPR'].map((h) => h.padStart(6)).join('')} ${'score'.padStart(6)}`];
  for (const [category, s] of Object.entries(categories)) lines.push(`${category.padEnd(14)}${n(s.tp)}${n(s.fn)}${n(s.fp)}${n(s.tn)}${f2(s.tpr)}${f2(s.fpr)} ${f2(s.score)}`);
  lines.push('', `average score over categories: ${average.toFixed(3)}`);
  return lines.join('\n') + '\n';
}

const options = parseOptions(process.argv.slice(2));
const layout = detectLayout(options.benchmark);
const cases = selectCases(readCases(options.benchmark, layout), options);
if (cases.length === 0) fail('no test case selected');
const { findings, incomplete, seconds } = reviewCases(options.benchmark, layout, cases, options.batch);
const result = score(cases, findings);
if (options.json) {
  process.stdout.write(`${JSON.stringify({ cases: cases.length, seconds, incomplete, categories: result.categories, average: result.average }, null, 2)}\n`);
} else {
  process.stdout.write(`${String(cases.length)} cases, review ${seconds.toFixed(1)} s${incomplete.length > 0 ? `, incomplete: ${[...new Set(incomplete)].slice(0, 5).join('; ')}` : ''}\n\n`);
  process.stdout.write(formatTable(result.categories, result.average));
  if (options.verbose) {
    process.stdout.write(`\nmissed (${String(result.missed.length)}):\n${result.missed.map((c) => `  ${c.name} ${c.category}`).join('\n')}\n`);
    process.stdout.write(`\nfalse alarms (${String(result.falseAlarms.length)}):\n${result.falseAlarms.map((c) => `  ${c.name} (${c.rules.join(', ')})`).join('\n')}\n`);
  }
}
