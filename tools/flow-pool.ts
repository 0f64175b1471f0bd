/**
 * The real-fix pool of issue 14 (acceptance 2): for each public fix in docs/flow-pool.json, review the
 * change that puts the bug back (FIX..FIX^) and the fix itself (FIX^..FIX) with the BUILT CLI, scope
 * changed-files, and check that the first has a finding of the entry's CWE in the entry's function
 * ("flagged at the vulnerable revision") and the second has none ("quiet at the fix").
 * Run: node tools/build.mjs && npx tsx tools/flow-pool.ts [--clones DIR] [--only ID] [--write] [--json] [--from FILE]
 * Clones are read from DIR/<clone> (default /work/trial); --write puts the table into docs/flow.md;
 * --from FILE takes the results of an earlier `--json` run instead of reviewing again.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIR } from '../src/syntax/ir.js';
import { languageForPath } from '../src/syntax/languages.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'jscr');
const POOL = join(root, 'docs', 'flow-pool.json');
const DOC = join(root, 'docs', 'flow.md');
const BEGIN = '<!-- flow-pool:begin (tools/flow-pool.ts --write) -->';
const END = '<!-- flow-pool:end -->';

interface PoolEntry {
  id: string;
  repo: string;
  clone: string;
  language: string;
  advisory: string;
  fix_commit: string;
  vulnerable_commit: string;
  file: string;
  /** The function holding the flow; null for a file's top-level script. */
  function: string | null;
  cwe: string[];
  flow: string;
}

interface Finding {
  path: string;
  line: number;
  cwe?: string[] | string | null;
  rule?: string;
}

type Outcome = 'yes' | 'no' | 'error';
interface Result {
  entry: PoolEntry;
  flagged: Outcome;
  quiet: Outcome;
  /** Rules of the matching findings at the vulnerable revision, then at the fix. */
  atVulnerable: string[];
  atFix: string[];
  detail: string;
}

function options(argv: string[]): { clones: string; only: string | undefined; write: boolean; json: boolean; from: string | undefined } {
  const out = { clones: '/work/trial', only: undefined as string | undefined, write: false, json: false, from: undefined as string | undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--write') out.write = true;
    else if (a === '--json') out.json = true;
    else if (a === '--clones' && argv[i + 1] !== undefined) out.clones = argv[++i]!;
    else if (a === '--only' && argv[i + 1] !== undefined) out.only = argv[++i];
    else if (a === '--from' && argv[i + 1] !== undefined) out.from = argv[++i];
    else throw new Error(`unknown option ${String(a)} (options: --clones DIR, --only ID, --write, --json, --from FILE)`);
  }
  return out;
}

const cweIds = (cwe: Finding['cwe']): string[] => (Array.isArray(cwe) ? cwe : typeof cwe === 'string' ? [cwe] : []).map((c) => c.toUpperCase().replace(/^(?:CWE-)?/, 'CWE-'));

/** One review with the built CLI, at the lowest priority (the machine is shared). */
function review(repo: string, range: string, config: string): Promise<{ findings: Finding[]; error?: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, 'review', '--repo', repo, '--range', range, '--no-model', '--format', 'json', '--config', config], { stdio: ['ignore', 'pipe', 'pipe'] });
    if (child.pid !== undefined) setPriority(child.pid, 19);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('close', (code) => {
      try {
        const report = JSON.parse(stdout) as { findings: Finding[]; complete: boolean; incomplete_reasons?: string[] };
        resolve(report.complete ? { findings: report.findings } : { findings: report.findings, error: `incomplete: ${(report.incomplete_reasons ?? []).join('; ')}` });
      } catch {
        resolve({ findings: [], error: `exit ${String(code)}: ${stderr.trim().split('\n').slice(-1).join('')}` });
      }
    });
  });
}

/** Findings of the entry's CWEs in its function, at revision `rev` (the new side of the reviewed range). */
async function inFunction(entry: PoolEntry, repo: string, rev: string, findings: Finding[]): Promise<Finding[]> {
  const wanted = new Set(entry.cwe.map((c) => cweIds(c)[0]!));
  const ofFile = findings.filter((f) => f.path === entry.file && cweIds(f.cwe).some((id) => wanted.has(id)));
  if (entry.function === null || ofFile.length === 0) return ofFile;
  const language = languageForPath(entry.file);
  if (!language) return [];
  const text = execFileSync('git', ['-C', repo, 'show', `${rev}:${entry.file}`], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ir = await buildIR(entry.file, language, text);
  const name = entry.function;
  return ofFile.filter((f) =>
    ir.functions.some((fn) => fn.startLine <= f.line && f.line <= fn.endLine && (fn.name === name || fn.qualifiedName === name || fn.qualifiedName.endsWith(`.${name}`))),
  );
}

async function check(entry: PoolEntry, clones: string, config: string): Promise<Result> {
  const repo = join(clones, entry.clone);
  const base = { entry, atVulnerable: [] as string[], atFix: [] as string[] };
  if (!existsSync(repo)) return { ...base, flagged: 'error', quiet: 'error', detail: `no clone at ${repo}` };
  const fix = entry.fix_commit;
  const back = await review(repo, `${fix}..${fix}^`, config);
  const forth = await review(repo, `${fix}^..${fix}`, config);
  const atVulnerable = back.error === undefined ? await inFunction(entry, repo, `${fix}^`, back.findings) : [];
  const atFix = forth.error === undefined ? await inFunction(entry, repo, fix, forth.findings) : [];
  return {
    entry,
    flagged: back.error !== undefined ? 'error' : atVulnerable.length > 0 ? 'yes' : 'no',
    quiet: forth.error !== undefined ? 'error' : atFix.length === 0 ? 'yes' : 'no',
    atVulnerable: [...new Set(atVulnerable.map((f) => `${String(f.rule)}:${String(f.line)}`))],
    atFix: [...new Set(atFix.map((f) => `${String(f.rule)}:${String(f.line)}`))],
    detail: [back.error, forth.error].filter((e) => e !== undefined).join('; '),
  };
}

function table(results: Result[]): string {
  const short = (sha: string): string => sha.slice(0, 10);
  const rows = results.map((r) => {
    const e = r.entry;
    // a file of the fixed repository is named `<repository>/<path>`, never as a path of this one
    const where = `\`${e.repo.split('/').pop() ?? ''}/${e.file}\`${e.function === null ? ' (top level)' : ` \`${e.function}\``}`;
    const rules = [r.atVulnerable.length > 0 ? `at the bug: ${r.atVulnerable.join(', ')}` : '', r.atFix.length > 0 ? `at the fix: ${r.atFix.join(', ')}` : '', r.detail].filter((x) => x !== '').join('; ');
    return `| ${e.id} | ${e.language} | ${e.cwe.join(', ')} | [${short(e.fix_commit)}](${e.repo}/commit/${e.fix_commit}) | ${where} | ${r.flagged} | ${r.quiet} | ${rules} |`;
  });
  const both = results.filter((r) => r.flagged === 'yes' && r.quiet === 'yes').length;
  return [
    '| entry | language | CWE | fix | where | flagged at the bug | quiet at the fix | findings |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    `${String(both)} of ${String(results.length)} flagged at the vulnerable revision and quiet at the fix.`,
  ].join('\n');
}

async function reviewAll(entries: readonly PoolEntry[], clones: string): Promise<Result[]> {
  const dir = mkdtempSync(join(tmpdir(), 'jscr-flow-pool-'));
  const config = join(dir, 'review.toml');
  writeFileSync(config, '[review]\nscope = "changed-files"\nmax_findings = 100000\ndeadline_s = 1800\n');
  const results: Result[] = [];
  try {
    for (const entry of entries) {
      const r = await check(entry, clones, config);
      results.push(r);
      process.stderr.write(`${entry.id}: flagged ${r.flagged}, quiet ${r.quiet}${r.detail ? ` (${r.detail})` : ''}\n`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

async function main(): Promise<void> {
  const opts = options(process.argv.slice(2));
  const pool = JSON.parse(readFileSync(POOL, 'utf8')) as { entries: PoolEntry[] };
  const entries = pool.entries.filter((e) => opts.only === undefined || e.id === opts.only);
  const results: Result[] = opts.from !== undefined ? (JSON.parse(readFileSync(opts.from, 'utf8')) as Result[]) : await reviewAll(entries, opts.clones);
  const text = table(results);
  if (opts.json) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  else process.stdout.write(`${text}\n`);
  if (opts.write) {
    const doc = readFileSync(DOC, 'utf8');
    const start = doc.indexOf(BEGIN);
    const end = doc.indexOf(END);
    if (start < 0 || end < start) throw new Error(`docs/flow.md has no ${BEGIN} ... ${END} section`);
    writeFileSync(DOC, `${doc.slice(0, start + BEGIN.length)}\n${text}\n${doc.slice(end)}`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`tools/flow-pool.ts: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
});
