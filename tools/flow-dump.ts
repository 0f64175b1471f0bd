/**
 * The flow IR and the analysis of every file of a list, one JSON line per file, so a change meant to
 * keep results the same (a speed change) can be checked with `cmp` against the dump of the build
 * before it. Lowers either as a review does, the function scan riding the syntax IR's walk
 * (`--shared`), or through `lowerText` (the base revision's path); both must give the same lines.
 * Run: npx tsx tools/flow-dump.ts --files LIST --out FILE [--shared]
 * (LIST: one path a line; files over 200 kB and files no front end lowers are skipped).
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { analyseFile, lowerText, prepareLowering, type Lowered } from '../src/flow/index.js';
import { loadBuiltinFlowRows } from '../src/rules/flow-load.js';
import { buildIR } from '../src/syntax/ir.js';
import { languageForPath, type Language } from '../src/syntax/languages.js';
import { loadGrammars } from '../src/syntax/parser.js';

const MAX_BYTES = 200_000;
const argv = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = argv.indexOf(name);
  return at === -1 ? undefined : argv[at + 1];
};
const list = option('--files');
const out = option('--out');
if (list === undefined || out === undefined) {
  process.stderr.write('tools/flow-dump.ts: needs --files LIST and --out FILE\n');
  process.exit(2);
}
const shared = argv.includes('--shared');

/** The file lowered as the review's syntax step does it: one walk, the scan riding along. */
async function lowerShared(path: string, language: Language, text: string): Promise<Lowered | null> {
  const flow = prepareLowering(path, language, text);
  if (flow === null) return null;
  let lowered: Lowered = { ok: false, reason: 'the parse was stopped' };
  await buildIR(path, language, text, { stopAt: Date.now() + 60_000, withTree: (root) => (lowered = flow.finish(root)), ...(flow.visitor ? { visitor: flow.visitor } : {}) });
  return lowered;
}

await loadGrammars(['python', 'javascript', 'typescript', 'tsx', 'java', 'php', 'go']);
const { byLanguage } = loadBuiltinFlowRows();
const lines: string[] = [];
for (const path of readFileSync(list, 'utf8').trim().split('\n')) {
  let text: string;
  try {
    if (statSync(path).size > MAX_BYTES) continue;
    text = readFileSync(path, 'utf8');
  } catch {
    continue;
  }
  const language = languageForPath(path);
  if (language === null) continue;
  const lowered = shared ? await lowerShared(path, language, text) : await lowerText(path, language, text, Date.now() + 60_000);
  if (lowered === null) continue;
  if (!lowered.ok) {
    lines.push(JSON.stringify({ path, failed: lowered.reason }));
    continue;
  }
  const rows = byLanguage.get(lowered.file.language);
  const analysis = rows === undefined ? null : analyseFile(lowered.file, { rows, dependencies: new Set(), projectTexts: new Set() });
  // Sets as sorted arrays, so the line is the same whatever the insertion order.
  const sorted = (map: ReadonlyMap<string, ReadonlySet<string>>) => [...map].map(([key, values]) => [key, [...values].sort()]);
  lines.push(JSON.stringify({ path, lowered: lowered.file, analysis: analysis && { ...analysis, open: sorted(analysis.open), sinks: sorted(analysis.sinks) } }));
}
writeFileSync(out, `${lines.join('\n')}\n`);
console.log(`${lines.length} files dumped to ${out}`);
