/**
 * Anchoring (seed step 9): a model finding stands only if its evidence is in the material the model was
 * given for that path. Lines are compared with whitespace runs folded; a multi-line quote must match
 * consecutive new-file lines. A quote found at another line moves the finding there (the model's line
 * is kept in `extra.model_line`); a quote found nowhere rejects the finding.
 */
import { makeFinding } from '../report/fingerprint.js';
import type { Finding, RejectedFinding } from '../report/finding.js';
import type { MaterialLine, NumberedSegment } from './numbered-material.js';
import type { ModelFinding } from './schemas.js';

/** The rule id of every model finding: stable across runs, whatever title the model chose. */
const MODEL_FINDING_RULE = 'jscr/model-finding';

const MAX_TITLE = 200;

/** A line with whitespace runs folded and the ends trimmed. */
function foldWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * A quoted line with the prompt's gutter (`  12 |+`) removed, for models that copy it. The digits are
 * one optional group: `\s*\d*\s*` backtracks quadratically on a line of blanks a provider can send.
 */
function withoutGutter(text: string): string {
  return text.replace(/^\s*(?:\d+\s*)?\|[+\- ]?/, '');
}

/** Where a quote was found. */
interface Match {
  lines: MaterialLine[];
}

type NumberedLine = MaterialLine & { line: number };

/** Runs of consecutive new-file lines of one path, blank lines left out so a quote may skip them. */
function runsFor(path: string, material: readonly NumberedSegment[]): NumberedLine[][] {
  return material
    .filter((s) => s.path === path)
    .map((s) => s.lines.filter((l): l is NumberedLine => l.line !== null && foldWhitespace(l.text) !== ''));
}

function findQuote(quote: string[], runs: NumberedLine[][]): Match[] {
  const matches: Match[] = [];
  for (const run of runs) {
    for (let start = 0; start + quote.length <= run.length; start++) {
      let ok = true;
      for (let i = 0; i < quote.length && ok; i++) ok = foldWhitespace(run[start + i]?.text ?? '') === quote[i];
      if (ok) matches.push({ lines: run.slice(start, start + quote.length) });
    }
  }
  return matches;
}

/** The outcome of anchoring one model finding. */
export type AnchorResult = { anchored: true; finding: Finding; corrected: boolean } | { anchored: false; rejected: RejectedFinding };

/** Normalise a model's CWE (`89`, `cwe-89`, `CWE-89: SQL injection`) to `CWE-89`, or null. */
export function normaliseCwe(cwe: string | null): string | null {
  if (cwe === null) return null;
  const match = /^\s*(?:cwe[-\s_:]*)?(\d{1,5})\b/i.exec(cwe);
  return match ? `CWE-${match[1]}` : null;
}

function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}

/** The finding as the model stated it, for the `rejected` list (its evidence is the model's quote). */
function unanchoredFinding(model: ModelFinding): Finding {
  const line = Math.max(1, Math.trunc(model.line));
  return makeFinding({
    rule: MODEL_FINDING_RULE,
    source: 'model',
    severity: model.severity,
    confidence: clamp01(model.confidence),
    path: model.path,
    line,
    end_line: line,
    title: model.title.slice(0, MAX_TITLE),
    message: model.explanation,
    evidence: model.evidence,
    cwe: normaliseCwe(model.cwe),
    extra: { model_line: model.line },
  });
}

/** Anchor one model finding in the material of the call that produced it. */
export function anchorFinding(model: ModelFinding, material: readonly NumberedSegment[]): AnchorResult {
  const path = model.path.replace(/^\.\//, '');
  const reject = (reason: string): AnchorResult => ({ anchored: false, rejected: { finding: unanchoredFinding(model), reason } });
  const runs = runsFor(path, material);
  if (runs.length === 0) return reject(`not anchored: ${JSON.stringify(model.path)} was not in the material sent to the model`);
  const quoted = model.evidence.split(/\r?\n/).map(foldWhitespace).filter((l) => l !== '');
  if (quoted.length === 0) return reject('not anchored: the finding quotes no evidence');
  let matches = findQuote(quoted, runs);
  if (matches.length === 0) {
    const stripped = model.evidence.split(/\r?\n/).map((l) => foldWhitespace(withoutGutter(l))).filter((l) => l !== '');
    if (stripped.length > 0) matches = findQuote(stripped, runs);
  }
  if (matches.length === 0) return reject(`not anchored: the quoted evidence is not in the material sent for ${path}`);
  // Several places quote the same text: take the one nearest the line the model named.
  const distance = (m: Match): number => Math.abs((m.lines[0]?.line ?? 0) - model.line);
  const best = matches.reduce((a, b) => (distance(b) < distance(a) ? b : a));
  const first = best.lines[0]?.line ?? 1;
  const last = best.lines[best.lines.length - 1]?.line ?? first;
  const corrected = first !== model.line;
  const finding = makeFinding({
    rule: MODEL_FINDING_RULE,
    source: 'model',
    severity: model.severity,
    confidence: clamp01(model.confidence),
    path,
    line: first,
    end_line: last,
    title: model.title.slice(0, MAX_TITLE),
    message: model.explanation,
    // The material's own (redacted) lines, not the model's copy of them.
    evidence: best.lines.map((l) => l.text).join('\n'),
    cwe: normaliseCwe(model.cwe),
    extra: corrected ? { model_line: model.line } : {},
  });
  return { anchored: true, finding, corrected };
}

/** New-file lines of `path` around `line` (within `radius`), from the given material, as segments. */
export function contextAround(path: string, line: number, endLine: number, material: readonly NumberedSegment[], radius = 15): NumberedSegment[] {
  const out: NumberedSegment[] = [];
  for (const segment of material) {
    if (segment.path !== path) continue;
    const isNear = (l: MaterialLine): boolean => l.line !== null && l.line >= line - radius && l.line <= endLine + radius;
    const from = segment.lines.findIndex(isNear);
    if (from === -1) continue;
    const to = segment.lines.length - 1 - [...segment.lines].reverse().findIndex(isNear);
    // Removed lines between the numbered ones stay: they show what the change took out.
    out.push({ ...segment, lines: segment.lines.slice(from, to + 1) });
  }
  return out;
}
