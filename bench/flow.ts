/**
 * Benchmark of data flow on our own labelled corpus (fixtures/flow/): reviews a temporary repository
 * whose last commit adds every case, with the BUILT CLI, and prints per family and per language the
 * true-positive rate, the false-positive rate and the score TPR - FPR, then the average over families.
 * Run: node tools/build.mjs && npx tsx bench/flow.ts [--corpus DIR] [--verbose] [--json]
 * (--corpus scores another set of cases in the same layout, such as the hand-written held-out sets
 * under fixtures/flow-heldout/; --verbose lists missed and falsely flagged cases; --json prints the
 * scores as one JSON object).
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CORPUS_ROOT, formatScores, makeCorpusRepository, readCorpus, scoreFindings, type CorpusReport } from './flow-score.js';

const bin = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'jscr');
const argv = process.argv.slice(2);
const corpusAt = argv.indexOf('--corpus');
const corpusRoot = corpusAt === -1 ? CORPUS_ROOT : resolve(argv[corpusAt + 1] ?? '');
if (corpusAt !== -1) {
  if (argv[corpusAt + 1] === undefined) {
    process.stderr.write('bench/flow.ts: --corpus needs a folder\n');
    process.exit(2);
  }
  argv.splice(corpusAt, 2);
}
const args = new Set(argv);
const unknown = [...args].filter((a) => a !== '--verbose' && a !== '--json');
if (unknown.length > 0) {
  process.stderr.write(`bench/flow.ts: unknown option ${unknown.join(' ')} (options: --corpus DIR, --verbose, --json)\n`);
  process.exit(2);
}

let corpus: ReturnType<typeof readCorpus>;
try {
  corpus = readCorpus(corpusRoot);
} catch (error) {
  process.stderr.write(`bench/flow.ts: cannot read the corpus at ${corpusRoot}: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}
if (corpus.problems.length > 0) {
  process.stderr.write(`bench/flow.ts: the corpus does not follow its layout:\n${corpus.problems.map((p) => `  ${p.path}: ${p.problem}`).join('\n')}\n`);
  process.exit(2);
}
const { dir, repo, config } = makeCorpusRepository(corpusRoot);
try {
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, [bin, 'review', '--repo', repo, '--commit', 'HEAD', '--no-model', '--format', 'json', '--config', config], { encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  let report: CorpusReport;
  try {
    report = JSON.parse(run.stdout) as CorpusReport;
  } catch {
    process.stderr.write(`bench/flow.ts: jscr review gave no JSON report (exit ${String(run.status)}): ${run.stderr.trim().split('\n').slice(-3).join(' | ')}\n`);
    process.exit(2);
  }
  const scores = scoreFindings(corpus, report.findings);
  if (args.has('--json')) {
    process.stdout.write(`${JSON.stringify({ cases: corpus.cases.length, seconds, complete: report.complete, exit_code: run.status, ...scores }, null, 2)}\n`);
  } else {
    process.stdout.write(`${String(corpus.cases.length)} cases, review ${seconds.toFixed(1)} s, exit ${String(run.status)}, complete ${String(report.complete)}${report.complete ? '' : ` (${(report.incomplete_reasons ?? []).join('; ')})`}\n\n`);
    process.stdout.write(formatScores(scores, args.has('--verbose')));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
