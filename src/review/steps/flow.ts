/**
 * Data flow (docs/flow.md): every function the change touches is analysed with the whole file, and
 * same-file functions through their summaries. A flow is reported when its sink is on a scanned line,
 * or a call into the helper that holds the sink is; a flow whose sink line did not change is reported
 * when the base revision's analysis of the same function had no such flow (the change removed the
 * sanitiser or the check), at the lines the change touched in that function.
 */
import { posix } from 'node:path';
import { analyseFile, lowerText, type FlowFinding } from '../../flow/index.js';
import type { FlowFile, FlowFunction } from '../../flow/ir.js';
import { analyseWithHelpers, RepositoryFunctions } from '../../flow/repository.js';
import { touchedLines } from '../../git/diff.js';
import type { SourceReader } from '../../git/sources.js';
import type { Finding } from '../../report/finding.js';
import { loadBuiltinFlowRows } from '../../rules/flow-load.js';
import { unfinishedDetail } from '../deadline.js';
import { toFlowFinding } from '../flow-finding.js';
import { scanLinesFor, type ReadableFile, type ReadFiles } from './read-files.js';
import { ranUnless, result, type ReviewStep } from './step.js';
import type { Syntax } from './syntax.js';

export interface FlowRun {
  /** Entries for the report's `limits_reached`: functions not fully analysed. */
  limits: string[];
  /**
   * By path: functions data flow analysed to the end, innermost last, each with the pattern rules its
   * rows supersede there: the `aliases` of its rows for every CWE whose sinks in that function get only
   * values whose origin flow sees (no parameter, field or free name). There the pattern findings give
   * way to flow, which reports the vulnerable flows and knows the safe ones.
   */
  supersedes: ReadonlyMap<string, ReadonlyArray<SupersededRange>>;
}

export interface SupersededRange {
  start: number;
  end: number;
  rules: ReadonlySet<string>;
}

/** Whether a pattern-rule finding is one data flow has the last word on (the innermost analysed function decides). */
export function supersededByFlow(flow: FlowRun, finding: { source: string; rule: string; path: string; line: number }): boolean {
  if (finding.source !== 'rule') return false;
  const around = (flow.supersedes.get(finding.path) ?? []).filter((r) => finding.line >= r.start && finding.line <= r.end);
  const innermost = around.reduce<SupersededRange | null>((best, r) => (best === null || r.end - r.start < best.end - best.start ? r : best), null);
  return innermost !== null && innermost.rules.has(finding.rule);
}

/**
 * CWEs whose pattern findings stay even where flow saw every value: the DOM and template rules judge
 * what markup can carry (a caught error, a fetched document, a module imported as text) more widely
 * than flow's sources, which are request data. Where both report one line, the report keeps one.
 * PHP's output rule looks only for the request superglobals, which flow follows itself, so there flow
 * has the last word (an escaping helper of another file clears what the pattern cannot see).
 */
const KEPT_BESIDE_FLOW = new Set(['CWE-79']);
const keptBesideFlow = (cwe: string, language: FlowFile['language']): boolean => KEPT_BESIDE_FLOW.has(cwe) && language !== 'php';

/** Properties files read for `getProperty("key")` lookups: at most this many, each at most this big. */
const MAX_PROPERTIES_FILES = 64;
const MAX_PROPERTIES_BYTES = 256 * 1024;
const MENTIONS_PROPERTIES = /getProperty|\.properties\b|ResourceBundle|configparser|parse_ini/;

/** `key=value` / `key: value` lines of a .properties file (no continuations, no escapes beyond the plain text). */
export function parseProperties(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*([^#!=:\s][^=:\s]*)\s*[=:]\s*(.*?)\s*$/.exec(line);
    if (match?.[1] !== undefined && !out.has(match[1])) out.set(match[1], match[2] ?? '');
  }
  return out;
}

type PropertyLookup = (fromPath: string, text: string) => (key: string) => string | null;

/** A lookup over the repository's .properties files, nearest folder first. */
async function propertiesLookup(reader: SourceReader): Promise<PropertyLookup> {
  const paths = (await reader.listFiles()).filter((p) => p.endsWith('.properties')).slice(0, MAX_PROPERTIES_FILES * 4);
  const reads = await reader.readMany(paths.slice(0, MAX_PROPERTIES_FILES));
  const files: Array<{ dir: string; name: string; values: Map<string, string> }> = [];
  for (const read of reads.values()) if (read.ok && read.text.length <= MAX_PROPERTIES_BYTES) files.push({ dir: posix.dirname(read.path), name: posix.basename(read.path), values: parseProperties(read.text) });
  return (fromPath, text) => {
    const dir = posix.dirname(fromPath);
    // The file the code names (`getResourceAsStream("app.properties")`) first, then those beside it.
    const rank = (f: { dir: string; name: string }) => (text.includes(`"${f.name}"`) || text.includes(`/${f.name}"`) ? 2 : 0) + (f.dir === dir ? 1 : 0);
    const ordered = [...files].sort((a, b) => rank(b) - rank(a));
    return (key) => {
      for (const file of ordered) {
        const value = file.values.get(key);
        if (value !== undefined) return value;
      }
      return null;
    };
  };
}

/** Functions with a touched line inside them (`<module>` only for lines outside every function). */
function touchedFunctions(file: FlowFile, lines: ReadonlySet<number> | 'all'): Set<string> {
  const functions = file.functions.filter((f) => f.qualifiedName !== '<module>');
  if (lines === 'all') return new Set(file.functions.map((f) => f.qualifiedName));
  const out = new Set<string>();
  const inside = (f: FlowFunction, line: number) => line >= f.line && line <= f.endLine;
  for (const line of lines) {
    const hits = functions.filter((f) => inside(f, line));
    if (hits.length === 0) out.add('<module>');
    for (const f of hits) out.add(f.qualifiedName);
  }
  return out;
}

/** What identifies a flow across revisions, where lines move: the row, the function, the sink and source text. */
function flowKey(f: FlowFinding): string {
  return `${f.rowId}|${f.function}|${f.path[f.path.length - 1]?.text ?? ''}|${f.path[0]?.text ?? ''}`;
}

interface FileFlow {
  findings: Finding[];
  limits: string[];
  ranges: SupersededRange[];
}

/**
 * The lines of top-level code: the file minus every function's lines. There the module's analysis
 * decides, and a line inside a function is the function's own (analysed or not).
 */
function topLevelSpans(file: FlowFile): Array<{ start: number; end: number }> {
  const last = file.functions.find((f) => f.qualifiedName === '<module>')?.endLine ?? 0;
  const covered = file.functions.filter((f) => f.qualifiedName !== '<module>').map((f) => ({ start: f.line, end: f.endLine })).sort((a, b) => a.start - b.start);
  const spans: Array<{ start: number; end: number }> = [];
  let next = 1;
  for (const c of covered) {
    if (c.start > next) spans.push({ start: next, end: c.start - 1 });
    next = Math.max(next, c.end + 1);
  }
  if (next <= last) spans.push({ start: next, end: last });
  return spans;
}

async function analyseChangedFile(file: ReadableFile, flowFile: FlowFile, scan: ReadonlySet<number> | 'all', baseReader: SourceReader | null, property: (key: string) => string | null, stopAt: number, repository: RepositoryFunctions): Promise<FileFlow> {
  const { byLanguage, meta } = loadBuiltinFlowRows();
  const rows = byLanguage.get(flowFile.language);
  const aliasesByCwe = new Map<string, string[]>();
  for (const row of [...(rows?.sinks ?? []), ...(rows?.checks ?? [])]) aliasesByCwe.set(row.cwe, [...(aliasesByCwe.get(row.cwe) ?? []), ...(meta.get(row.id)?.aliases ?? [])]);
  if (rows === undefined) return { findings: [], limits: [], ranges: [] };
  const touched = scan === 'all' ? 'all' : touchedLines(file.diff);
  const only = touchedFunctions(flowFile, touched);
  if (only.size === 0) return { findings: [], limits: [], ranges: [] };
  const analysis = await analyseWithHelpers(flowFile, { rows, property }, only, repository);
  const done = new Set(analysis.analysed);
  // A PHP script's top level is its main function; elsewhere top-level code reads names bound in other
  // modules, whose origin flow does not see, so there the pattern rules keep their say.
  const ranges = flowFile.functions
    .filter((fn) => done.has(fn.qualifiedName) && (fn.qualifiedName !== '<module>' || flowFile.language === 'php'))
    .flatMap((fn) => {
      const open = analysis.open.get(fn.qualifiedName) ?? new Set<string>();
      // Flow has the last word only on the CWEs whose sinks it sees in the function: a pattern rule that
      // found SQL built from request data before a call flow does not know as a sink keeps its finding.
      const seen = analysis.sinks.get(fn.qualifiedName) ?? new Set<string>();
      const rules = new Set([...aliasesByCwe].filter(([cwe]) => !keptBesideFlow(cwe, flowFile.language) && seen.has(cwe) && !open.has(cwe)).flatMap(([, aliases]) => aliases));
      return (fn.qualifiedName === '<module>' ? topLevelSpans(flowFile) : [{ start: fn.line, end: fn.endLine }]).map((span) => ({ ...span, rules }));
    });
  const lines = file.text.split('\n');
  const evidenceAt = (line: number) => (lines[line - 1] ?? '').trim();
  const findings: Finding[] = [];
  const unchanged: FlowFinding[] = [];
  const emit = (f: FlowFinding, line: number, removal: string | null) => {
    const rowMeta = meta.get(f.rowId);
    if (rowMeta !== undefined) findings.push(toFlowFinding({ finding: f, meta: rowMeta, path: file.diff.path, line, evidence: evidenceAt(line), removal }));
  };
  for (const f of analysis.findings) {
    if (scan === 'all' || scan.has(f.line)) emit(f, f.line, null);
    else {
      // A helper's sink is reported at the changed call that hands it outside data.
      const site = f.callSites.find((line) => scan.has(line));
      if (site !== undefined) emit(f, site, null);
      else unchanged.push(f);
    }
  }
  // What the front end could not lower is named too: a flow through it may have been missed.
  const limits = [...analysis.limits.map((l) => `flow: ${file.diff.path}: ${l} not fully analysed`), ...flowFile.degradations.slice(0, 3).map((d) => `flow: ${file.diff.path}: ${d}`)];
  if (unchanged.length === 0 || baseReader === null || file.diff.status === 'added' || touched === 'all') return { findings, limits, ranges };

  const basePath = file.diff.oldPath ?? file.diff.path;
  const read = (await baseReader.readMany([basePath])).get(basePath);
  if (read?.ok !== true) return { findings, limits, ranges };
  const lowered = await lowerText(basePath, flowFile.language, read.text, stopAt);
  if (lowered?.ok !== true) return { findings, limits, ranges };
  const before = new Set(analyseFile(lowered.file, { rows, property, external: repository }, only).findings.map(flowKey));
  for (const f of unchanged) {
    if (before.has(flowKey(f))) continue;
    const fn = flowFile.functions.find((candidate) => candidate.qualifiedName === f.function);
    const inFunction = [...touched].filter((line) => fn !== undefined && line >= fn.line && line <= fn.endLine).sort((a, b) => a - b);
    const at = inFunction.filter((line) => line <= f.line).pop() ?? inFunction[0] ?? f.line;
    emit(f, at, `The change removed what kept this flow clean (a sanitiser or a check), here; the use at line ${f.line} is unchanged.`);
  }
  return { findings, limits, ranges };
}

export const flowStep: ReviewStep<'flow', { read_files: ReadFiles; syntax: Syntax }, FlowRun> = {
  name: 'flow',
  run: async ({ read_files, syntax }, run) => {
    const { deadline, change } = run;
    const targets = read_files.readable.flatMap((file) => {
      const flowFile = syntax.flowFiles.get(file.diff.path);
      return flowFile === undefined ? [] : [{ file, flowFile }];
    });
    const lookup = targets.some((t) => MENTIONS_PROPERTIES.test(t.file.text)) ? await propertiesLookup(change.reader) : () => () => null;
    const findings: Finding[] = [];
    const limits: string[] = [];
    const unfinished: string[] = [];
    const failed: string[] = [];
    const supersedes = new Map<string, SupersededRange[]>();
    const stopAt = () => Date.now() + deadline.remainingMs();
    // Helpers of other files, looked up once per run for every file (src/flow/repository.ts).
    const repository = new RepositoryFunctions(change.reader, (language) => loadBuiltinFlowRows().byLanguage.get(language), async (path, language, text) => {
      const lowered = await lowerText(path, language, text, stopAt());
      return lowered?.ok === true ? lowered.file : null;
    });
    for (const { file, flowFile } of targets) {
      if (deadline.expired()) {
        unfinished.push(file.diff.path);
        continue;
      }
      const scan = scanLinesFor(file, run);
      let out: FileFlow;
      try {
        out = await analyseChangedFile(file, flowFile, scan, change.baseReader, lookup(file.diff.path, file.text), stopAt(), repository);
      } catch (error) {
        // A file the engine cannot finish is named, and the review is incomplete; it never stops the review.
        failed.push(`${file.diff.path} (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
        continue;
      }
      findings.push(...out.findings);
      limits.push(...out.limits);
      if (out.ranges.length > 0) supersedes.set(file.diff.path, out.ranges);
    }
    const pastBudget = limits.length;
    limits.push(...repository.notes);
    const seen = new Set<string>();
    const unique = findings.filter((f) => {
      const key = `${f.rule}|${f.path}|${f.line}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    const failures = syntax.flowFailures;
    const detail = `${targets.length} file(s) analysed${pastBudget > 0 ? `, ${pastBudget} function(s) past their budget` : ''}${failures.length > 0 ? `, ${failures.length} not lowered` : ''}`;
    const problems = [...(unfinished.length > 0 ? [unfinishedDetail('data flow', unfinished)] : []), ...(failed.length > 0 ? [`data flow failed on ${failed.slice(0, 3).join('; ')}`] : []), ...failures.slice(0, 3)];
    return result(ranUnless(problems.length > 0 ? problems.join('; ') : null, detail), { limits, supersedes }, unique);
  },
  notRun: () => ({ limits: [], supersedes: new Map() }),
};
