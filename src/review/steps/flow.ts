/**
 * Data flow (docs/flow.md): every function the change touches is analysed with the whole file, and
 * same-file functions through their summaries. A flow is reported when its sink is on a scanned line,
 * or a call into the helper that holds the sink is; a flow whose sink line did not change is reported
 * when the base revision's analysis of the same function had no such flow (the change removed the
 * sanitiser or the check), at the lines the change touched in that function.
 */
import { posix } from 'node:path';
import { analyseFile, lowerText, type FlowFinding, type SinkEvidence } from '../../flow/index.js';
import type { FlowFile, FlowFunction } from '../../flow/ir.js';
import { analyseWithHelpers, RepositoryFunctions } from '../../flow/repository.js';
import { touchedLines } from '../../git/diff.js';
import type { SourceReader } from '../../git/sources.js';
import type { Finding } from '../../report/finding.js';
import { loadBuiltinFlowRows } from '../../rules/flow-load.js';
import { classifyTarget } from '../../gate/classify.js';
import { unfinishedDetail } from '../deadline.js';
import { flowSwitchedOff } from '../flow-switch.js';
import { toFlowFinding } from '../flow-finding.js';
import { scanLinesFor, type ReadableFile, type ReadFiles } from './read-files.js';
import { ranUnless, result, skipped, type ReviewStep } from './step.js';
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
  /** By path: what reached each sink flow analysed (flow-calibration.ts weighs pattern findings by it). */
  evidence: ReadonlyMap<string, readonly SinkEvidence[]>;
}

export interface SupersededRange {
  start: number;
  end: number;
  /** The pattern rules that give way to flow here. */
  rules: ReadonlySet<string>;
  /**
   * The pattern rules this function has a say on: those of the CWEs whose sinks it calls, or all of
   * them for a function flow did not finish. For the others, the function around it decides.
   */
  decides: ReadonlySet<string> | 'all';
}

/** Whether a pattern-rule finding is one data flow has the last word on (the innermost analysed function with a say decides). */
export function supersededByFlow(flow: FlowRun, finding: { source: string; rule: string; path: string; line: number }): boolean {
  if (finding.source !== 'rule') return false;
  const around = (flow.supersedes.get(finding.path) ?? []).filter((r) => finding.line >= r.start && finding.line <= r.end && (r.decides === 'all' || r.decides.has(finding.rule)));
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

/**
 * The order a source file's `getProperty("key")` reads the properties files in: the file the code names
 * (`getResourceAsStream("app.properties")`) first, then the one beside it named like the source file
 * (`Hasher.java` and `Hasher.properties`, as resource bundles are), then the others beside it, then the rest.
 */
export function orderPropertiesFiles<F extends { dir: string; name: string }>(files: readonly F[], fromPath: string, text: string): F[] {
  const dir = posix.dirname(fromPath);
  const named = (f: { name: string }) => ['"', "'"].some((q) => text.includes(`${q}${f.name}${q}`) || text.includes(`/${f.name}${q}`));
  const stem = posix.basename(fromPath).replace(/\.[^.]*$/, '');
  const rank = (f: F) => (named(f) ? 4 : 0) + (f.dir === dir && f.name === `${stem}.properties` ? 2 : 0) + (f.dir === dir ? 1 : 0);
  return [...files].sort((a, b) => rank(b) - rank(a));
}

/** A lookup over the repository's .properties files, nearest folder first. */
async function propertiesLookup(reader: SourceReader): Promise<PropertyLookup> {
  const paths = (await reader.listFiles()).filter((p) => p.endsWith('.properties')).slice(0, MAX_PROPERTIES_FILES * 4);
  const reads = await reader.readMany(paths.slice(0, MAX_PROPERTIES_FILES));
  const files: Array<{ dir: string; name: string; values: Map<string, string> }> = [];
  for (const read of reads.values()) if (read.ok && read.text.length <= MAX_PROPERTIES_BYTES) files.push({ dir: posix.dirname(read.path), name: posix.basename(read.path), values: parseProperties(read.text) });
  return (fromPath, text) => {
    const ordered = orderPropertiesFiles(files, fromPath, text);
    return (key) => {
      for (const file of ordered) {
        const value = file.values.get(key);
        if (value !== undefined) return value;
      }
      return null;
    };
  };
}

const JS_LANGUAGES: ReadonlySet<string> = new Set(['javascript', 'typescript', 'tsx']);
const MAX_MANIFESTS = 16;
const MAX_MANIFEST_BYTES = 1024 * 1024;
/** Manifests whose packages a row may require: the root's and one folder down (NodeBB keeps its in install/). */
const MANIFEST = /^(?:[^/]+\/)?package\.json$/;

/** The packages the repository's package.json files declare (dependencies of every kind), for `requires_dependency` rows. */
async function projectDependencies(reader: SourceReader): Promise<Set<string>> {
  const paths = (await reader.listFiles()).filter((p) => MANIFEST.test(p) && !p.startsWith('node_modules/')).slice(0, MAX_MANIFESTS);
  const out = new Set<string>();
  for (const read of (await reader.readMany(paths)).values()) {
    if (!read.ok || read.text.length > MAX_MANIFEST_BYTES) continue;
    let manifest: unknown;
    try {
      manifest = JSON.parse(read.text);
    } catch {
      continue; // a manifest that is not JSON declares nothing
    }
    if (typeof manifest !== 'object' || manifest === null) continue;
    for (const key of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
      const table: unknown = (manifest as Record<string, unknown>)[key];
      if (typeof table === 'object' && table !== null) for (const name of Object.keys(table)) out.add(name);
    }
  }
  return out;
}

/** Functions with a touched line inside them (`<module>` only for lines outside every function). */
function touchedFunctions(file: FlowFile, lines: ReadonlySet<number> | 'all'): Set<string> {
  const functions = file.functions.filter((f) => f.qualifiedName !== '<module>');
  if (lines === 'all') return new Set(file.functions.map((f) => f.qualifiedName));
  const out = new Set<string>();
  // Lines in order against functions in order of their first line: each function is looked at while
  // the lines pass through it, not once per touched line.
  const sorted = [...lines].sort((a, b) => a - b);
  const byStart = [...functions].sort((a, b) => a.line - b.line);
  const open: FlowFunction[] = [];
  let next = 0;
  for (const line of sorted) {
    for (let f = byStart[next]; f !== undefined && f.line <= line; f = byStart[++next]) open.push(f);
    const inside = open.filter((f) => f.endLine >= line);
    open.splice(0, open.length, ...inside);
    if (inside.length === 0) out.add('<module>');
    for (const f of inside) out.add(f.qualifiedName);
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
  evidence: readonly SinkEvidence[];
  /** The file, with why, when the front end left code of it out of the analysis. */
  notAnalysed?: string[];
}

/** Degradations of the front ends (src/flow/lower/) that mean code was left out, not merely approximated. */
const CODE_LEFT_OUT = /^(depth_limit|nesting deeper than|lower_failed)/;

/** What the repository tells the engine beyond the file: properties values and declared packages. */
interface ProjectFacts {
  property: (key: string) => string | null;
  dependencies: ReadonlySet<string>;
  projectTexts: ReadonlySet<string>;
}

const MAX_PROJECT_TEXTS = 8;

/** Which of the texts the sink rows of these languages require (`requires_text`) some file of the repository holds. */
async function projectTexts(reader: SourceReader, languages: ReadonlySet<string>): Promise<Set<string>> {
  const { byLanguage } = loadBuiltinFlowRows();
  const wanted = new Set<string>();
  for (const [language, rows] of byLanguage) if (languages.has(language)) for (const row of rows.sinks) for (const text of row.requiresText ?? []) wanted.add(text);
  const found = new Set<string>();
  for (const text of [...wanted].slice(0, MAX_PROJECT_TEXTS)) if ((await reader.grepFiles(text, [])).length > 0) found.add(text);
  return found;
}

async function analyseChangedFile(file: ReadableFile, flowFile: FlowFile, scan: ReadonlySet<number> | 'all', baseReader: SourceReader | null, project: ProjectFacts, stopAt: number, repository: RepositoryFunctions): Promise<FileFlow> {
  const { byLanguage, meta } = loadBuiltinFlowRows();
  const rows = byLanguage.get(flowFile.language);
  const aliasesByCwe = new Map<string, string[]>();
  for (const row of [...(rows?.sinks ?? []), ...(rows?.checks ?? [])]) aliasesByCwe.set(row.cwe, [...(aliasesByCwe.get(row.cwe) ?? []), ...(meta.get(row.id)?.aliases ?? [])]);
  if (rows === undefined) return { findings: [], limits: [], ranges: [], evidence: [] };
  const touched = scan === 'all' ? 'all' : touchedLines(file.diff);
  const only = touchedFunctions(flowFile, touched);
  if (only.size === 0) return { findings: [], limits: [], ranges: [], evidence: [] };
  const analysis = await analyseWithHelpers(flowFile, { rows, ...project }, only, repository);
  const done = new Set(analysis.analysed);
  const lastLine = file.text.split('\n').length;
  const ranges = flowFile.functions.flatMap((fn): SupersededRange[] => {
    const whole = fn.qualifiedName === '<module>' ? { start: 1, end: lastLine } : { start: fn.line, end: fn.endLine };
    // A function flow did not finish keeps every pattern finding in it, whatever the code around it says.
    if (!done.has(fn.qualifiedName)) return fn.qualifiedName === '<module>' ? [] : [{ ...whole, rules: new Set(), decides: 'all' }];
    const open = analysis.open.get(fn.qualifiedName) ?? new Set<string>();
    // Flow has the last word only on the CWEs whose sinks it sees in the function: a pattern rule that
    // found SQL built from request data before a call flow does not know as a sink keeps its finding.
    const seen = analysis.sinks.get(fn.qualifiedName) ?? new Set<string>();
    const aliasesOf = (keep: (cwe: string) => boolean) => new Set([...aliasesByCwe].filter(([cwe]) => keep(cwe)).flatMap(([, aliases]) => aliases));
    const rules = aliasesOf((cwe) => !keptBesideFlow(cwe, flowFile.language) && seen.has(cwe) && !open.has(cwe));
    // A callback written on a sink's line (`exec(cmd, () => res.end())`) has no say on that sink's CWE,
    // and a function of a file's top level without a sink of a CWE leaves its findings to the pattern rules.
    const nested = fn.enclosingFunction !== null && fn.enclosingFunction !== '<module>';
    return [{ ...whole, rules, decides: nested ? aliasesOf((cwe) => seen.has(cwe)) : 'all' }];
  });
  const lines = file.text.split('\n');
  const evidenceAt = (line: number) => (lines[line - 1] ?? '').trim();
  const findings: Finding[] = [];
  const unchanged: FlowFinding[] = [];
  const emit = (f: FlowFinding, line: number, removal: string | null) => {
    const rowMeta = meta.get(f.rowId);
    // A row about secrets stays quiet in test code: a test's made-up names and seeds protect nothing.
    if (rowMeta !== undefined && !rowMeta.inTests && classifyTarget(file.diff.path.toLowerCase()) === 'test') return;
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
  // What the front end could not lower is named too: a flow through it may have been missed. Code it
  // left out altogether (nesting past its depth bound, a lowering that failed) makes the review
  // incomplete: a change could otherwise nest its flow 200 levels deep and be reported clean.
  const leftOut = flowFile.degradations.filter((d) => CODE_LEFT_OUT.test(d));
  const limits = [...analysis.limits.map((l) => `flow: ${file.diff.path}: ${l} not fully analysed`), ...flowFile.degradations.filter((d) => !CODE_LEFT_OUT.test(d)).slice(0, 3).map((d) => `flow: ${file.diff.path}: ${d}`)];
  const notAnalysed = leftOut.length === 0 ? [] : [`${file.diff.path} (${leftOut.slice(0, 2).join('; ')}${leftOut.length > 2 ? '; ...' : ''}: code there was not analysed)`];
  const fileFlow: FileFlow = { findings, limits, ranges, evidence: analysis.evidence, notAnalysed };
  if (unchanged.length === 0 || baseReader === null || file.diff.status === 'added' || touched === 'all') return fileFlow;

  const basePath = file.diff.oldPath ?? file.diff.path;
  const read = (await baseReader.readMany([basePath])).get(basePath);
  if (read?.ok !== true) return fileFlow;
  const lowered = await lowerText(basePath, flowFile.language, read.text, stopAt);
  if (lowered?.ok !== true) return fileFlow;
  const before = new Set(analyseFile(lowered.file, { rows, ...project, external: repository }, only).findings.map(flowKey));
  for (const f of unchanged) {
    if (before.has(flowKey(f))) continue;
    const fn = flowFile.functions.find((candidate) => candidate.qualifiedName === f.function);
    const inFunction = [...touched].filter((line) => fn !== undefined && line >= fn.line && line <= fn.endLine).sort((a, b) => a - b);
    const at = inFunction.filter((line) => line <= f.line).pop() ?? inFunction[0] ?? f.line;
    emit(f, at, `The change removed what kept this flow clean (a sanitiser or a check), here; the use at line ${f.line} is unchanged.`);
  }
  return fileFlow;
}

export const flowStep: ReviewStep<'flow', { read_files: ReadFiles; syntax: Syntax }, FlowRun> = {
  name: 'flow',
  settle: (_input, { env }) => (flowSwitchedOff(env) ? result(skipped('data flow switched off (JSCR_FLOW=off)'), { limits: [], supersedes: new Map(), evidence: new Map() }) : null),
  run: async ({ read_files, syntax }, run) => {
    const { deadline, change } = run;
    const targets = read_files.readable.flatMap((file) => {
      const flowFile = syntax.flowFiles.get(file.diff.path);
      return flowFile === undefined ? [] : [{ file, flowFile }];
    });
    const lookup = targets.some((t) => MENTIONS_PROPERTIES.test(t.file.text)) ? await propertiesLookup(change.reader) : () => () => null;
    const languages = new Set(targets.map((t) => t.flowFile.language));
    const dependencies = [...languages].some((l) => JS_LANGUAGES.has(l)) ? await projectDependencies(change.reader) : new Set<string>();
    const texts = await projectTexts(change.reader, languages);
    const findings: Finding[] = [];
    const limits: string[] = [];
    const unfinished: string[] = [];
    const failed: string[] = [];
    const notAnalysed: string[] = [];
    const supersedes = new Map<string, SupersededRange[]>();
    const evidence = new Map<string, readonly SinkEvidence[]>();
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
        out = await analyseChangedFile(file, flowFile, scan, change.baseReader, { property: lookup(file.diff.path, file.text), dependencies, projectTexts: texts }, stopAt(), repository);
      } catch (error) {
        // A file the engine cannot finish is named, and the review is incomplete; it never stops the review.
        failed.push(`${file.diff.path} (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
        continue;
      }
      findings.push(...out.findings);
      limits.push(...out.limits);
      notAnalysed.push(...(out.notAnalysed ?? []));
      if (out.ranges.length > 0) supersedes.set(file.diff.path, out.ranges);
      if (out.evidence.length > 0) evidence.set(file.diff.path, out.evidence);
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
    const problems = [...(unfinished.length > 0 ? [unfinishedDetail('data flow', unfinished)] : []), ...(failed.length > 0 ? [`data flow failed on ${failed.slice(0, 3).join('; ')}`] : []), ...(notAnalysed.length > 0 ? [`data flow left code out of ${notAnalysed.slice(0, 3).join('; ')}${notAnalysed.length > 3 ? '; ...' : ''}`] : []), ...failures.slice(0, 3)];
    return result(ranUnless(problems.length > 0 ? problems.join('; ') : null, detail), { limits, supersedes, evidence }, unique);
  },
  notRun: () => ({ limits: [], supersedes: new Map(), evidence: new Map() }),
};
